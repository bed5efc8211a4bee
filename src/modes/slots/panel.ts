/**
 * The `slots` tracker's slot strip (RULES.md §4): each slot once, PC and NPC slots best first, as a
 * compact strip (the current slot, who claimed or fills it, passed, tied and leaving slots; scores in
 * each slot's accessible text), and the line about the current slot; the slot buttons the rules
 * allow the viewer, which the rows show (claim, release, fill); and the setup buttons (roll all, start).
 */
import { I18N } from "../../constants";
import type { AllowedAction } from "../../core/engine";
import { currentSlot, slotsView } from "./rules/derived";
import type { SlotView, SlotsState } from "./rules/types";
import { formatCount, remembered } from "../../foundry/tracker/controls";
import type { ControlContext, Localiser } from "../../core/ui";
import type { KeyedEntry } from "../../foundry/tracker/dom-patch";
import type { ModeInput } from "../contract";

export const S = `${I18N}.Tracker.Slots`;

/** One slot of the strip above the rows (found again across renders by `keepKey`). */
export interface SlotRowContext extends KeyedEntry {
  /** 1-based position. */
  readonly number: string;
  readonly isPC: boolean;
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
  /** The name shown on the slot: its claimant, or who fills it now; else "". */
  readonly shownName: string;
}

/** The slot strip above the rows: each slot once, the line about the current slot. */
export interface SlotListContext {
  readonly slots: readonly SlotRowContext[];
  readonly empty: boolean;
  /** Localised line about the current slot ("Slot 3 (PC) is open"), or "". */
  readonly status: string;
  readonly started: boolean;
}

/**
 * A button on a combatant's row that takes a slot for it (claim, fill) or gives one back (release):
 * rendered by the slots row body, which adds `data-slot`; its visible text names the slot.
 */
export interface SlotButtonContext extends KeyedEntry {
  readonly action: string;
  readonly slot: string;
  readonly combatantId: string;
  /** Localised visible text ("Claim slot 3"). */
  readonly text: string;
  /** Localised accessible name: the visible text and the combatant ("Claim slot 3 for Aria"). */
  readonly ariaLabel: string;
  readonly primary: boolean;
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

/**
 * The slot buttons the rules allow the viewer, by the combatant whose row shows them: the GM fills
 * the current slot with any eligible combatant (a Fill button on each one's row, whatever their
 * number); a player claims an open PC slot for each eligible PC they own (the current one fills at
 * once) on that PC's row; the claimant's owner and the GM release a claim on the claimant's row.
 */
export function slotButtons(input: ModeInput<SlotsState>, texts: SlotsTexts): Map<string, SlotButtonContext[]> {
  const { actions, who, nameOf, state } = input;
  const owned = new Set(who.owns);
  const current = currentSlot(state);
  const byRow = new Map<string, SlotButtonContext[]>();
  const add = (action: string, key: string, slot: number, combatantId: string, primary: boolean): void => {
    const number = String(slot + 1);
    const list = byRow.get(combatantId) ?? [];
    list.push({
      keepKey: `slot-button:${key}:${number}`,
      action,
      slot: String(slot),
      combatantId,
      text: texts.format(`${key}Slot`, { number }),
      ariaLabel: texts.format(`${key}SlotFor`, { number, name: nameOf(combatantId) }),
      primary,
    });
    byRow.set(combatantId, list);
  };
  for (const action of actions) {
    const slot = slotOf(action);
    const id = action.combatantId;
    if (slot === null || id === undefined) continue;
    if (action.type === "releaseClaim") add("siSlotRelease", "Release", slot, id, false);
    else if (action.type === "fillSlot" && who.isGM) add("siSlotFill", "Fill", slot, id, true);
    else if (action.type === "claimSlot" && !who.isGM && owned.has(id))
      add("siSlotClaim", "Claim", slot, id, slot === current);
  }
  for (const list of byRow.values()) list.sort((a, b) => Number(a.slot) - Number(b.slot));
  return byRow;
}

/** One slot of the strip. */
function slotRow(s: SlotView, input: ModeInput<SlotsState>, texts: SlotsTexts): SlotRowContext {
  const { state, nameOf } = input;
  const number = String(s.index + 1);
  const filler = s.filledBy === null ? "" : nameOf(s.filledBy);
  const claimant = s.claimedBy === null ? "" : nameOf(s.claimedBy);
  return {
    keepKey: `slot:${number}`,
    number,
    isPC: s.kind === "pc",
    kindAria: texts.format(s.kind === "pc" ? "PCSlot" : "NPCSlot", { number }),
    scores: texts.scoresText(s.primary, s.secondary),
    current: s.current,
    passed: s.passed,
    tied: s.tied,
    leaving: s.leaving,
    filler,
    hasFiller: s.filledBy !== null,
    claimant,
    hasClaimant: s.claimedBy !== null,
    open: state.started && s.filledBy === null && !s.passed,
    upNow: s.current && s.filledBy === null,
    scoresAria: texts.scoresAria(s.primary, s.secondary),
    shownName: claimant !== "" ? claimant : s.current ? filler : "",
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

/** The slot strip above the rows. */
export function slotList(input: ModeInput<SlotsState>, texts: SlotsTexts): SlotListContext {
  const { state } = input;
  const view = slotsView(state);
  const slots = view.map((s) => slotRow(s, input, texts));
  return {
    slots,
    empty: slots.length === 0,
    status: statusOf(state, view, texts.format),
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
