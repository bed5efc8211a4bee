/**
 * The `declare-resolve` mode's part of the tracker (RULES.md §3): a panel with the step, who declares
 * or resolves now, the ties, the declaration form, the queues and the upkeep (panel.ts); per row, IP,
 * the AP bar, the declared actions, DEF, the conditions and the GM's edits (rows.ts). Every decision
 * is made there; the templates only loop, branch and localise.
 */
import { DR_TEMPLATES } from "./constants";
import type { DeclareResolveState } from "./rules/types";
import { drRows } from "./rows";
import { drPanel, drSetupControls } from "./panel";
import type { ModeOutput, ModeTracker } from "../contract";

/** The `declare-resolve` mode's tracker. */
export const declareResolveTracker: ModeTracker<DeclareResolveState> = {
  rowPartial: DR_TEMPLATES.row,
  rowBodyPartial: DR_TEMPLATES.rowBody,
  panelPartial: DR_TEMPLATES.panel,
  hints: true,
  build(input): ModeOutput {
    return {
      rows: drRows(input),
      setupControls: drSetupControls(input),
      panel: drPanel(input),
      list: null,
      emphasiseStep: false,
      // The panel's first line names the step (the mode's name and the step do not fit one line).
      stepShown: true,
    };
  },
};
