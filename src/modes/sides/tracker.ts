/**
 * The `sides` mode's part of the tracker (RULES.md §1): a panel above the rows (panel.ts) and, per
 * row, the side, traits, declared actions, penalty and the controls the rules allow the viewer
 * (rows.ts). Every decision is made there; the templates only loop, branch and localise.
 */
import { SIDES_TEMPLATES } from "./constants";
import type { SidesState } from "./rules/types";
import { clockView, tickCountdowns } from "./countdown";
import { sidesRows } from "./rows";
import { sidesPanel, sidesSetupControls } from "./panel";
import type { ModeOutput, ModeTracker } from "../contract";

/** The `sides` mode's tracker. */
export const sidesTracker: ModeTracker<SidesState> = {
  rowPartial: SIDES_TEMPLATES.row,
  rowBodyPartial: SIDES_TEMPLATES.rowBody,
  panelPartial: SIDES_TEMPLATES.panel,
  hints: true,
  build(input): ModeOutput {
    const clock = clockView(input.combat, input.state);
    const rows = sidesRows(input, clock);
    const panel = sidesPanel(input, clock);
    return {
      rows,
      setupControls: sidesSetupControls(input),
      list: null,
      emphasiseStep: false,
      // The step pill names the step as the mode does ("Pass 2").
      stepText: panel.banner,
      panel,
    };
  },
  // The hesitation countdown ticks in every rendered tracker that shows it.
  afterRender: tickCountdowns,
};
