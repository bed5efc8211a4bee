/**
 * The `slots` mode's part of the tracker (RULES.md §4): the slot strip (each slot once, PC and NPC
 * slots best first, the current one, who claimed it), per-combatant badges (skill, check, acted or
 * still to act) and the controls the rules allow the viewer on each row: claim, release, fill, roll,
 * skill choice.
 * Every decision is made here; the templates only loop, branch and localise.
 * The rows are built in `rows.ts`, the slot strip, slot buttons and setup buttons in `panel.ts`.
 */
import { SLOTS_TEMPLATES } from "./constants";
import type { SlotsState } from "./rules/types";
import type { ModeOutput, ModeTracker } from "../contract";
import { slotsRows } from "./rows";
import { setupControls, slotList, slotsTexts } from "./panel";

/** The `slots` mode's tracker. */
export const slotsTracker: ModeTracker<SlotsState> = {
  rowPartial: SLOTS_TEMPLATES.row,
  rowBodyPartial: SLOTS_TEMPLATES.rowBody,
  listPartial: SLOTS_TEMPLATES.list,
  build(input): ModeOutput {
    const texts = slotsTexts(input.i18n);
    const list = slotList(input, texts);
    return {
      rows: slotsRows(input, texts),
      setupControls: setupControls(input),
      panel: null,
      list,
      emphasiseStep: false,
      // Which slot is open (or that the round is over), rather than the step ("Regular round").
      idleAnnouncement: list.status,
    };
  },
};
