/**
 * The `individual` mode's part of the tracker (RULES.md §2): per-row badges (group, modifier, aware,
 * flat-footed, delaying, readied, acted, roll-offs) and controls, the initiative groups and the ties
 * waiting for a roll-off in the glance strip, and the set-up controls.
 * The rows are built in `rows.ts`, the panel and the set-up buttons in `panel.ts`.
 */
import type { ModeOutput, ModeTracker } from "../contract";
import { INDIVIDUAL_TEMPLATES } from "./constants";
import type { IndividualState } from "./rules/types";
import { individualRows } from "./rows";
import { individualPanel } from "./panel";

/** The `individual` mode's tracker (RULES.md §2). */
export const individualTracker: ModeTracker<IndividualState> = {
  rowPartial: INDIVIDUAL_TEMPLATES.row,
  panelPartial: INDIVIDUAL_TEMPLATES.panel,
  build(input): ModeOutput {
    const { setupControls, panel } = individualPanel(input);
    const { state } = input;
    return {
      rows: individualRows(input),
      setupControls,
      panel,
      list: null,
      emphasiseStep: state.started && state.surpriseRound,
    };
  },
};
