/**
 * The `slots` tracker's slot list (RULES.md §4): PC and NPC slots best first, who filled or claimed
 * each, the current slot, the buttons the rules allow the viewer on each (claim, release, assign, or
 * the GM's select of eligible combatants), the status line and who is still to act; and the setup
 * buttons (roll all, start).
 */
import { I18N } from "../../constants";
import type { AllowedAction } from "../../core/engine";
import { canAct, slotsView } from "./rules/derived";
import type { SlotView, SlotsState } from "./rules/types";
import { formatCount, remembered } from "../../foundry/tracker/controls";
import type { ControlContext, Localiser } from "../../core/ui";
import type { KeyedEntry } from "../../foundry/tracker/dom-patch";
import type { ModeInput } from "../contract";

export const S = `${I18N}.Tracker.Slots`;

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

/** The texts one build formats: `format` under `Tracker.Slots`, and the scores (each formatted once per build). */
export interface SlotsTexts {
  readonly format: (key: string, data?: Record<string, string>) => string;
  /** Localised scores ("2 successes, 1 advantage"). */
  readonly scoresText: (primary: number, secondary: number) => string;
  /** Localised accessible reading of the scores. */
  readonly scoresAria: (primary: number, secondary: number) => string;
}

/** The texts of one build. Many slots and rows share their scores: each text is formatted once per build. */
export function slotsTexts(i18n: Localiser): SlotsTexts {
  const format = (key: string, data: Record<string, string> = {}): string => i18n.format(`${S}.${key}`, data);
  return {
    format,
    scoresText: remembered((primary: number, secondary: number): string =>
      format("Scores", { primary: String(primary), secondary: String(secondary) }),
    ),
    scoresAria: remembered((primary: number, secondary: number): string =>
      format("ScoresLong", {
        successes: formatCount(i18n, `${S}.Successes`, primary),
        advantages: formatCount(i18n, `${S}.Advantages`, secondary),
      }),
    ),
  };
}

function slotOf(action: AllowedAction): number | null {
  const slot = (action as { slot?: unknown }).slot;
  return typeof slot === "number" ? slot : null;
}

/** Slot-specific actions the rules allow the viewer, by slot. */
function actionsBySlot(actions: readonly AllowedAction[]): Map<number, { type: string; combatantId: string }[]> {
  const bySlot = new Map<number, { type: string; combatantId: string }[]>();
  for (const action of actions) {
    const slot = slotOf(action);
    if (slot === null) continue;
    const list = bySlot.get(slot) ?? [];
    list.push({ type: action.type, combatantId: action.combatantId ?? "" });
    bySlot.set(slot, list);
  }
  return bySlot;
}

/** The buttons on one slot, and the GM's select when there are many eligible combatants. */
function slotControls(
  s: SlotView,
  slotActions: readonly { type: string; combatantId: string }[],
  input: ModeInput<SlotsState>,
  texts: SlotsTexts,
): { controls: SlotControlContext[]; assign: SlotAssignContext | null } {
  const { who, nameOf, control } = input;
  const { format } = texts;
  const owned = new Set(who.owns);
  const controls: SlotControlContext[] = [];
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
  return { controls, assign };
}

/** One slot of the list. */
function slotRow(
  s: SlotView,
  slotActions: readonly { type: string; combatantId: string }[],
  input: ModeInput<SlotsState>,
  texts: SlotsTexts,
): SlotRowContext {
  const { state, nameOf } = input;
  const number = String(s.index + 1);
  const { controls, assign } = slotControls(s, slotActions, input, texts);
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
    kindAria: texts.format(s.kind === "pc" ? "PCSlot" : "NPCSlot", { number }),
    scores: texts.scoresText(s.primary, s.secondary),
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
    scoresAria: texts.scoresAria(s.primary, s.secondary),
    css,
    controls,
    assign,
    hasControls: controls.length > 0 || assign !== null,
  };
}

/** The line about the current slot ("Slot 3 (PC) is open", "the round is over"), or "". */
function statusOf(state: SlotsState, view: readonly SlotView[], format: SlotsTexts["format"]): string {
  const current = view.find((s) => s.current);
  return !state.started
    ? ""
    : current === undefined
      ? format("RoundOver")
      : current.filledBy === null
        ? format(current.kind === "pc" ? "OpenPC" : "OpenNPC", { number: String(current.index + 1) })
        : "";
}

/** The slot list above the rows. */
export function slotList(input: ModeInput<SlotsState>, texts: SlotsTexts): SlotListContext {
  const { state, actions, nameOf } = input;
  const bySlot = actionsBySlot(actions);
  const view = slotsView(state);
  const slots = view.map((s) => slotRow(s, bySlot.get(s.index) ?? [], input, texts));
  const toAct = state.started
    ? state.combatants
        .filter((c) => canAct(state, c))
        .map((c) => nameOf(c.id))
        .join(", ")
    : "";
  return {
    slots,
    empty: slots.length === 0,
    status: statusOf(state, view, texts.format),
    toAct,
    started: state.started,
  };
}

/** The setup buttons: roll all (more than one check to roll) and start. */
export function setupControls(input: ModeInput<SlotsState>): ControlContext[] {
  const { state, allowed, control } = input;
  const controls: ControlContext[] = [];
  const rollable = state.combatants.filter((c) => c.check === null && allowed.for(c.id, "recordCheck"));
  if (rollable.length > 1) controls.push(control({ action: "siRollAll", label: "RollAll" }));
  if (allowed.has("start")) controls.push(control({ action: "siStart", label: "Start", primary: true }));
  return controls;
}
