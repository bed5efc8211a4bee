/**
 * What the tracker's buttons do. Each action goes through the same path as a macro: the rules
 * (via `submit`) or the module's roll helpers; refusals come back as localised notifications.
 */
import { FLAGS, I18N, MODULE_ID, SYSTEM_DEFAULT, TEMPLATES } from "../../constants";
import { groupMembers, pendingRollOffs } from "../../modes/individual/rules/individual";
import { createApi } from "../api";
import { modeOf, submit } from "../authority/controller";
import { groupCombatants, individualState, rollStructuredInitiative } from "../../modes/individual/glue";
import { rollOffSet } from "../../modes/individual/rolloff";
import { rollSlotsChecks, slotsToRoll } from "../../modes/slots/glue";
import type { CommandResult } from "../../core/protocol";
import { defaultMode } from "../settings";
import type { Json } from "../../core/patch";

/** The group NPCs join when the GM has not typed a name. */
export const DEFAULT_GROUP = "A";

/** A structured command for the current user. */
export function command(combat: Combat.Implementation, data: Json): Promise<CommandResult> {
  return submit(combat, data);
}

/** Roll for one combatant (or its group, for the GM). */
export function rollFor(combat: Combat.Implementation, ids: readonly string[]): Promise<CommandResult[]> {
  if (modeOf(combat) === "slots") return rollSlotsChecks(combat, ids);
  return rollStructuredInitiative(combat, ids);
}

/** Roll every check the current user may roll now: own combatants and, for the GM, each group once. */
export function rollAll(combat: Combat.Implementation): Promise<CommandResult[]> {
  if (modeOf(combat) === "slots") return rollSlotsChecks(combat, slotsToRoll(combat, false));
  const state = individualState(combat);
  if (state === null) return Promise.resolve([]);
  const ids = state.combatants
    .filter((c) => c.initiative === null)
    .filter((c) => game.user.isGM || combat.combatants.get(c.id)?.isOwner === true)
    .map((c) => c.id);
  return rollStructuredInitiative(combat, ids);
}

/** Roll a group's one check (GM). */
export async function rollGroup(combat: Combat.Implementation, groupId: string): Promise<CommandResult[]> {
  const state = individualState(combat);
  const first = state === null ? undefined : groupMembers(state, groupId)[0];
  return first === undefined ? [] : rollStructuredInitiative(combat, [first]);
}

/** Put an NPC into the named group (GM). */
export function group(combat: Combat.Implementation, id: string, groupName: string): Promise<CommandResult[]> {
  const name = groupName.trim() === "" ? DEFAULT_GROUP : groupName.trim();
  return groupCombatants(combat, [id], name);
}

/**
 * Settle the tie that `firstId` heads with a roll-off: an initiative check per tied combatant (a group
 * rolls once), each a Foundry roll posted to chat; the results are kept by the rules.
 */
export async function rollOff(combat: Combat.Implementation, firstId: string): Promise<CommandResult> {
  const state = individualState(combat);
  const set = state === null ? undefined : pendingRollOffs(state).find((ids) => ids[0] === firstId);
  if (state === null || set === undefined) return command(combat, { type: "recordRollOff", results: [] });
  return rollOffSet(combat, state, set);
}

let api: ReturnType<typeof createApi> | null = null;

/** Change the mode of an encounter that has not started (GM). */
export function setMode(combat: Combat.Implementation, mode: string): Promise<CommandResult> {
  api ??= createApi();
  return api.setMode(combat, mode);
}

/** Rebuild a corrupted encounter's structure (GM). */
export function reset(combat: Combat.Implementation): Promise<CommandResult> {
  api ??= createApi();
  return api.resetEncounter(combat);
}

/** The part of DialogV2 the mode choice uses. */
interface ModeDialog {
  wait(config: {
    window: { title: string };
    content: string;
    rejectClose: boolean;
    buttons: {
      action: string;
      label: string;
      default?: boolean;
      callback: (event: Event, button: HTMLButtonElement) => string;
    }[];
  }): Promise<unknown>;
}

/**
 * Ask the GM which mode a new encounter uses (world default preselected); null when cancelled.
 * Without a dialog class (tests), the world default is used.
 */
export async function chooseMode(): Promise<string | null> {
  const fallback = defaultMode();
  const Dialog = (foundry.applications.api as unknown as { DialogV2?: ModeDialog }).DialogV2;
  if (Dialog === undefined) return fallback;
  const modes = [SYSTEM_DEFAULT, ...createApi().modes.filter((m) => m !== SYSTEM_DEFAULT)].map((value) => ({
    value,
    label: `${I18N}.Mode.${value}`,
    selected: value === fallback,
  }));
  const content = await foundry.applications.handlebars.renderTemplate(TEMPLATES.modeDialog, {
    modes,
    rootClass: MODULE_ID,
  });
  const chosen = await Dialog.wait({
    window: { title: game.i18n.localize(`${I18N}.Tracker.NewEncounter`) },
    content,
    rejectClose: false,
    buttons: [
      {
        action: "create",
        label: game.i18n.localize(`${I18N}.Tracker.Create`),
        default: true,
        callback: (_event, button) => {
          const select = button.form?.elements.namedItem("mode");
          return select instanceof HTMLSelectElement ? select.value : fallback;
        },
      },
    ],
  });
  return typeof chosen === "string" ? chosen : null;
}

/** Create an encounter on the viewed scene in the chosen mode, and view it. */
export async function createEncounter(mode: string): Promise<void> {
  const scene = game.scenes.viewed ?? game.scenes.active ?? null;
  const CombatClass = CONFIG.Combat.documentClass;
  const data = {
    scene: scene?.id ?? null,
    active: true,
    flags: { [MODULE_ID]: { [FLAGS.mode]: mode } },
  };
  const created = await CombatClass.create(data as unknown as Combat.CreateData);
  await created?.activate();
}
