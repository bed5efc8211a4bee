/**
 * The `slots` mode's part of the tracker (RULES.md §4): the slot list (PC and NPC slots best first,
 * who filled or claimed each, the current slot), per-combatant badges (skill, check, acted or still to
 * act) and the controls the rules allow the viewer: claim, release, assign, roll, skill choice.
 * Every decision is made here; the templates only loop, branch and localise.
 * The rows are built in `rows.ts`, the slot list and the setup buttons in `panel.ts`.
 */
import { SLOTS_TEMPLATES } from "./constants";
import type { SlotsState } from "./rules/types";
import type { ModeOutput, ModeTracker } from "../contract";
import { slotsRows } from "./rows";
import { setupControls, slotList, slotsTexts } from "./panel";

/** The `slots` mode's tracker. */
export const slotsTracker: ModeTracker<SlotsState> = {
  rowPartial: SLOTS_TEMPLATES.row,
  listPartial: SLOTS_TEMPLATES.list,
  build(input): ModeOutput {
    const texts = slotsTexts(input.i18n);
    return {
      rows: slotsRows(input, texts),
      setupControls: setupControls(input),
      panel: null,
      list: slotList(input, texts),
      emphasiseStep: false,
    };
  },
};
