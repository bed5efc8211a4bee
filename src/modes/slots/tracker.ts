/**
 * The `slots` mode's part of the tracker (RULES.md §4): the slot list (PC and NPC slots best first,
 * who filled or claimed each, the current slot), per-combatant badges (skill, check, acted or still to
 * act) and the controls the rules allow the viewer: claim, release, assign, roll, skill choice.
 * Every decision is made here; the templates only loop, branch and localise.
 */
import { I18N } from "../../constants";
import { SLOTS_TEMPLATES } from "./constants";
import type { AllowedAction } from "../../core/engine";
import { canAct, slotsView } from "./rules/derived";
import { type SlotsState } from "./rules/types";
import { skillOf as slotSkillOf } from "./glue";
import { formatCount, remembered, type ControlContext } from "../../foundry/tracker/controls";
import type { KeyedEntry } from "../../foundry/tracker/dom-patch";
import type { ModeOutput, ModeRow, ModeTracker } from "../contract";

const S = `${I18N}.Tracker.Slots`;

/** The `slots` part of one combatant row. */
export interface SlotsRowContext {
  readonly isPC: boolean;
  /** i18n key: "PC" or "NPC". */
  readonly kindLabel: string;
  /** i18n key of the check's skill. */
  readonly skillLabel: string;
  readonly showSkill: boolean;
  readonly needsRoll: boolean;
  /** The GM typed the check instead of rolling it. */
  readonly typed: boolean;
  readonly hasCheck: boolean;
  /** Localised scores of its check ("2 successes, 1 advantage"). */
  readonly scores: string;
  /** Filled a slot this round. */
  readonly acted: boolean;
  /** Can still fill a slot this round. */
  readonly toAct: boolean;
  /** Localised "claimed slot N", or "". */
  readonly claim: string;
}

/** A button on a slot (rendered by the slot list template, which adds `data-slot`). */
export interface SlotControlContext extends ControlContext {
  readonly slot: string;
  /** Localised visible text, naming the combatant ("Claim: Aria"). */
  readonly text: string;
}

/** Above this many eligible combatants, the GM assigns a slot with a select instead of a button each. */
export const MAX_ASSIGN_BUTTONS = 3;

/** The GM's select of eligible combatants for the current slot, with one assign button. */
export interface SlotAssignContext {
  readonly slot: string;
  /** Localised accessible name of the select. */
  readonly label: string;
  /** Localised accessible name of the Assign button (what it does, not what the select is). */
  readonly buttonLabel: string;
  readonly options: readonly { readonly id: string; readonly name: string }[];
}

/** One slot of the list (found again across renders by `keepKey`). */
export interface SlotRowContext extends KeyedEntry {
  /** 1-based position. */
  readonly number: string;
  readonly isPC: boolean;
  /** i18n key of the kind's short text (PC / NPC), shown with a text icon. */
  readonly kindLabel: string;
  /** Localised accessible description: "PC slot 2". */
  readonly kindAria: string;
  /** Localised scores. */
  readonly scores: string;
  readonly current: boolean;
  readonly passed: boolean;
  readonly tied: boolean;
  readonly leaving: boolean;
  readonly filler: string;
  readonly hasFiller: boolean;
  readonly claimant: string;
  readonly hasClaimant: boolean;
  /** Open (no filler) and not passed, in a started encounter. */
  readonly open: boolean;
  /** The current slot, still waiting for its filler. */
  readonly upNow: boolean;
  /** Localised accessible reading of the scores ("6 successes, 5 advantages"). */
  readonly scoresAria: string;
  readonly css: string;
  readonly controls: readonly SlotControlContext[];
  /** The GM's select of eligible combatants (many of them), or null. */
  readonly assign: SlotAssignContext | null;
  readonly hasControls: boolean;
}

/** The slot list above the rows. */
export interface SlotListContext {
  readonly slots: readonly SlotRowContext[];
  readonly empty: boolean;
  /** Localised line about the current slot ("Slot 3 (PC) is open"), or "". */
  readonly status: string;
  /** Localised names of who has not acted this round, or "". */
  readonly toAct: string;
  readonly started: boolean;
}

function slotOf(action: AllowedAction): number | null {
  const slot = (action as { slot?: unknown }).slot;
  return typeof slot === "number" ? slot : null;
}

function isSkill(value: string | null | undefined): value is "cool" | "vigilance" {
  return value === "cool" || value === "vigilance";
}

/** The `slots` mode's tracker. */
export const slotsTracker: ModeTracker<SlotsState> = {
  rowPartial: SLOTS_TEMPLATES.row,
  listPartial: SLOTS_TEMPLATES.list,
  build({ state, allowed, actions, combat, i18n, who, nameOf, control }): ModeOutput {
    const rows = new Map<string, ModeRow>();
    const format = (key: string, data: Record<string, string> = {}): string => i18n.format(`${S}.${key}`, data);
    const skillOf = (id: string): string => slotSkillOf(combat.combatants.get(id));

    // Slot-specific actions the rules allow the viewer, by slot.
    const bySlot = new Map<number, { type: string; combatantId: string }[]>();
    for (const action of actions) {
      const slot = slotOf(action);
      if (slot === null) continue;
      const list = bySlot.get(slot) ?? [];
      list.push({ type: action.type, combatantId: action.combatantId ?? "" });
      bySlot.set(slot, list);
    }
    const owned = new Set(who.owns);
    // Many slots and rows share their scores: each text is formatted once per build.
    const scoresText = remembered((primary: number, secondary: number): string =>
      format("Scores", { primary: String(primary), secondary: String(secondary) }),
    );
    const scoresAria = remembered((primary: number, secondary: number): string =>
      format("ScoresLong", {
        successes: formatCount(i18n, `${S}.Successes`, primary),
        advantages: formatCount(i18n, `${S}.Advantages`, secondary),
      }),
    );

    const view = slotsView(state);
    const currentFiller = view.find((s) => s.current)?.filledBy ?? null;
    const actedIds = new Set(state.acted);
    const claimOfId = new Map<string, number>();
    for (const s of view) if (s.claimedBy !== null) claimOfId.set(s.claimedBy, s.index);

    for (const c of state.combatants) {
      const name = nameOf(c.id);
      const base = { name, combatantId: c.id };
      const controls: ControlContext[] = [];
      const on = (type: string): boolean => allowed.for(c.id, type);
      if (on("recordCheck") && (c.check === null || !state.started))
        controls.push(
          control({
            ...base,
            action: "siRoll",
            label: c.check === null ? "Roll" : "Slots.Reroll",
            aria: c.check === null ? "RollFor" : "Slots.RerollFor",
            primary: c.check === null,
          }),
        );
      if (who.isGM && !state.started) {
        const skill = skillOf(c.id);
        for (const [value, action] of [
          ["cool", "siSlotCool"],
          ["vigilance", "siSlotVigilance"],
        ] as const) {
          controls.push(
            control({
              ...base,
              action,
              label: `Slots.Skill.${value}`,
              aria: `Slots.SkillFor.${value}`,
              toggle: true,
              pressed: skill === value,
            }),
          );
        }
      }
      // Acted this round; the combatant filling the current slot is acting, not done.
      const acted = state.started && actedIds.has(c.id) && c.id !== currentFiller;
      const claim = claimOfId.get(c.id);
      rows.set(c.id, {
        initiative: null,
        controls,
        ready: null,
        acted,
        data: {
          isPC: c.isPC,
          kindLabel: c.isPC ? `${S}.PC` : `${S}.NPC`,
          // Before the start the GM's choice (the next roll uses it); after it, the skill rolled.
          skillLabel: `${S}.Skill.${state.started && isSkill(c.check?.skill) ? c.check.skill : skillOf(c.id)}`,
          showSkill: c.check !== null || !state.started,
          needsRoll: c.check === null && !c.defeated,
          hasCheck: c.check !== null,
          typed: c.check?.typed === true,
          scores: c.check === null ? "" : scoresText(c.check.primary, c.check.secondary),
          acted,
          toAct: state.started && canAct(state, c),
          claim: claim === undefined ? "" : format("ClaimedSlot", { number: String(claim + 1) }),
        },
      });
    }

    const slots: SlotRowContext[] = view.map((s) => {
      const number = String(s.index + 1);
      const controls: SlotControlContext[] = [];
      const slotActions = bySlot.get(s.index) ?? [];
      /** A button on this slot for one combatant: `key` names its texts (`Slots.<key>`, `…For`, `…Named`). */
      const button = (action: string, key: string, combatantId: string, primary = false): SlotControlContext => {
        const name = nameOf(combatantId);
        const base = control({ action, label: `Slots.${key}`, aria: `Slots.${key}For`, name, combatantId, primary });
        return { ...base, slot: String(s.index), text: format(`${key}Named`, { name }) };
      };
      // The GM assigns the current open slot to any eligible combatant of its kind: a button each, or a
      // select and one button when there are more than a few.
      const fillers = who.isGM ? slotActions.filter((a) => a.type === "fillSlot").map((a) => a.combatantId) : [];
      const assign: SlotAssignContext | null =
        fillers.length > MAX_ASSIGN_BUTTONS
          ? {
              slot: String(s.index),
              label: format("AssignChoose", { number: String(s.index + 1) }),
              buttonLabel: format("AssignChosen", { number: String(s.index + 1) }),
              options: fillers.map((id) => ({ id, name: nameOf(id) })),
            }
          : null;
      for (const a of slotActions) {
        if (a.type === "releaseClaim") controls.push(button("siSlotRelease", "Release", a.combatantId));
        else if (a.type === "fillSlot" && who.isGM && assign === null)
          controls.push(button("siSlotFill", "Assign", a.combatantId, true));
        // A player claims an open PC slot for each eligible PC it owns (the current one fills at once).
        else if (a.type === "claimSlot" && !who.isGM && owned.has(a.combatantId))
          controls.push(button("siSlotClaim", "Claim", a.combatantId, s.current));
      }
      const css = [
        s.kind === "pc" ? "si-slot--pc" : "si-slot--npc",
        s.current ? "si-slot--current" : "",
        s.passed ? "si-slot--passed" : "",
        s.leaving ? "si-slot--leaving" : "",
      ]
        .filter((x) => x !== "")
        .join(" ");
      return {
        keepKey: `slot:${number}`,
        number,
        isPC: s.kind === "pc",
        kindLabel: s.kind === "pc" ? `${S}.PC` : `${S}.NPC`,
        kindAria: format(s.kind === "pc" ? "PCSlot" : "NPCSlot", { number }),
        scores: scoresText(s.primary, s.secondary),
        current: s.current,
        passed: s.passed,
        tied: s.tied,
        leaving: s.leaving,
        filler: s.filledBy === null ? "" : nameOf(s.filledBy),
        hasFiller: s.filledBy !== null,
        claimant: s.claimedBy === null ? "" : nameOf(s.claimedBy),
        hasClaimant: s.claimedBy !== null,
        open: state.started && s.filledBy === null && !s.passed,
        upNow: s.current && s.filledBy === null,
        scoresAria: scoresAria(s.primary, s.secondary),
        css,
        controls,
        assign,
        hasControls: controls.length > 0 || assign !== null,
      };
    });

    const current = view.find((s) => s.current);
    const status = !state.started
      ? ""
      : current === undefined
        ? format("RoundOver")
        : current.filledBy === null
          ? format(current.kind === "pc" ? "OpenPC" : "OpenNPC", { number: String(current.index + 1) })
          : "";
    const toAct = state.started
      ? state.combatants
          .filter((c) => canAct(state, c))
          .map((c) => nameOf(c.id))
          .join(", ")
      : "";

    const setupControls: ControlContext[] = [];
    const rollable = state.combatants.filter((c) => c.check === null && allowed.for(c.id, "recordCheck"));
    if (rollable.length > 1) setupControls.push(control({ action: "siRollAll", label: "RollAll" }));
    if (allowed.has("start")) setupControls.push(control({ action: "siStart", label: "Start", primary: true }));
    return {
      rows,
      setupControls,
      panel: null,
      list: { slots, empty: slots.length === 0, status, toAct, started: state.started },
      emphasiseStep: false,
    };
  },
};
