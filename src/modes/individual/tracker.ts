/**
 * The `individual` mode's part of the tracker (RULES.md §2): per-row badges (group, modifier, aware,
 * flat-footed, delaying, readied, acted, roll-offs) and controls, the initiative groups and the ties
 * waiting for a roll-off in the glance strip, and the set-up controls.
 * The rows are built in `rows.ts`, the panel and the set-up buttons in `panel.ts`; a row's menu of
 * the GM's set-up buttons (a ⋯ menu, a `<details>`: the tracker closes it on Escape) closes once one
 * of its buttons is chosen.
 */
import type { ModeOutput, ModeTracker } from "../contract";
import { INDIVIDUAL_TEMPLATES } from "./constants";
import type { IndividualState } from "./rules/types";
import { individualRows } from "./rows";
import { individualPanel } from "./panel";

const MENU = "details.si-row-menu[open]";

/** Choosing a button of an open row menu closes the menu (the button's action runs as usual). */
function closeMenuOnChoice(event: MouseEvent): void {
  const target = event.target;
  const button = target instanceof Element ? target.closest("button[data-action]") : null;
  const menu = button?.closest<HTMLDetailsElement>(MENU) ?? null;
  if (menu === null) return;
  menu.open = false;
  menu.querySelector<HTMLElement>("summary")?.focus();
}

/** The `individual` mode's tracker (RULES.md §2). */
export const individualTracker: ModeTracker<IndividualState> = {
  rowPartial: INDIVIDUAL_TEMPLATES.row,
  rowBodyPartial: INDIVIDUAL_TEMPLATES.rowBody,
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
  // The same listener after every render: the DOM keeps one registration of it.
  afterRender(root) {
    root.addEventListener("click", closeMenuOnChoice);
  },
};
