/**
 * What the `individual` tracker's buttons do, by `data-action`. Each goes through the same path as a
 * macro: the rules (via `submit`) or the mode's roll helpers; refusals come back as localised
 * notifications. Text typed by users is read from form controls, never as HTML.
 */
import { I18N, MODULE_ID } from "../../constants";
import { submit } from "../../foundry/authority/controller";
import type { ActionTable } from "../contract";
import { groupMembers, pendingRollOffs } from "./rules/derived";
import { rollStructuredInitiative } from "./initiative";
import { groupCombatants } from "./api";
import { individualState } from "./encounter";
import { rollOffSet } from "./rolloff";

/** The group NPCs join when the GM has not typed a name. */
export const DEFAULT_GROUP = "A";

const idOf = (target: HTMLElement): string => target.dataset.combatantId ?? "";

/** The `individual` buttons. */
export const INDIVIDUAL_ACTIONS: ActionTable = {
  /** Roll every check the current user may roll now: own combatants and, for the GM, each group once. */
  siRollAll: (combat) => {
    const state = individualState(combat);
    if (state === null) return Promise.resolve([]);
    const ids = state.combatants
      .filter((c) => c.initiative === null)
      .filter((c) => game.user.isGM || combat.combatants.get(c.id)?.isOwner === true)
      .map((c) => c.id);
    return rollStructuredInitiative(combat, ids);
  },
  /** Roll a group's one check (GM). */
  siRollGroup: async (combat, target) => {
    const state = individualState(combat);
    const first = state === null ? undefined : groupMembers(state, target.dataset.groupId ?? "")[0];
    return first === undefined ? [] : rollStructuredInitiative(combat, [first]);
  },
  /**
   * Settle the tie the clicked combatant heads with a roll-off: a check per tied combatant (a group
   * rolls once), each a Foundry roll posted to chat; the results are kept by the rules.
   */
  siRollOff: (combat, target) => {
    const state = individualState(combat);
    const set = state === null ? undefined : pendingRollOffs(state).find((ids) => ids[0] === idOf(target));
    if (state === null || set === undefined) return submit(combat, { type: "recordRollOff", results: [] });
    return rollOffSet(combat, state, set);
  },
  siAware: (combat, target) =>
    submit(combat, {
      type: "setAware",
      combatantId: idOf(target),
      aware: target.getAttribute("aria-pressed") !== "true",
    }),
  /** Put an NPC into the group named in the glance strip's field (GM). */
  siGroup: (combat, target, root) => {
    const input = root.querySelector<HTMLInputElement>(`input[name="${MODULE_ID}-group"]`);
    const name = (input?.value ?? DEFAULT_GROUP).trim();
    return groupCombatants(combat, [idOf(target)], name === "" ? DEFAULT_GROUP : name);
  },
  siUngroup: (combat, target) => submit(combat, { type: "setGroup", combatantId: idOf(target), groupId: null }),
  siStartSurprise: (combat) => submit(combat, { type: "start", surprise: true }),
  siDelay: (combat, target) => submit(combat, { type: "delay", combatantId: idOf(target) }),
  siEndDelay: (combat, target) => submit(combat, { type: "endDelay", combatantId: idOf(target) }),
  /** Ready an action with the trigger typed in the row's field (a missing trigger is asked for). */
  siReady: async (combat, target, root) => {
    const combatantId = idOf(target);
    const input = root.querySelector<HTMLInputElement>(
      `input[name="${MODULE_ID}-trigger"][data-combatant-id="${CSS.escape(combatantId)}"]`,
    );
    const trigger = input?.value.trim() ?? "";
    if (trigger === "") {
      ui.notifications.warn(game.i18n.localize(`${I18N}.Tracker.TriggerMissing`));
      input?.focus();
      return;
    }
    await submit(combat, { type: "ready", combatantId, trigger });
  },
  siTriggerReady: (combat, target) => submit(combat, { type: "triggerReady", combatantId: idOf(target) }),
};
