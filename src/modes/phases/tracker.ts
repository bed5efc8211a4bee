/**
 * The `phases` mode's part of the tracker (RULES.md §5): a panel above the rows with the phase
 * banner (Foes declare → Heroes act → Foes resolve), the Advantage pool as pips against its cap and
 * the GM's Collapse points, this round's intents with their targets and foiled / out-of-reach marks,
 * the hand-off line, the press-your-luck panel of the running turn (next complexity, the dice each
 * skill rolls, the last roll with its doubles, roll / defend / free action / end turn) and the GM's
 * answer to a failed roll; per row, the hero's or foe's standing, "Take turn" (or the hand-off pick)
 * for whoever may start it, and the GM's intent form of each foe. Every decision is made here; the
 * templates only loop, branch and localise. Every control is one the rules allow the viewer now.
 * The rows are built in `rows.ts`, the panel in `panel.ts`.
 */

import { PHASES_TEMPLATES } from "./constants";
import type { PhasesState } from "./rules/types";
import type { ModeOutput, ModeTracker } from "../contract";
import { phasesRows } from "./rows";
import { panelContext, setupControls } from "./panel";

/** The `phases` mode's tracker. */
export const phasesTracker: ModeTracker<PhasesState> = {
  rowPartial: PHASES_TEMPLATES.row,
  rowBodyPartial: PHASES_TEMPLATES.rowBody,
  panelPartial: PHASES_TEMPLATES.panel,
  hints: true,
  build(input): ModeOutput {
    const { state } = input;
    return {
      rows: phasesRows(input),
      setupControls: setupControls(input),
      panel: panelContext(state, input),
      list: null,
      emphasiseStep: state.started && state.surprise && state.round === 1,
    };
  },
};
