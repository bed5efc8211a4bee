/**
 * What the `sides` tracker's buttons do. Every button's `data-action` is one of the keys of
 * {@link SIDES_ACTIONS}; each goes through the rules (`submit`) or the sides glue, and refusals come
 * back as localised notifications. Text typed by users is read from form controls, never as HTML.
 */
import { currentPass } from "./rules/derived";
import { MAX_ACTION_TEXT_LENGTH } from "./rules/types";
import type { ActionTable } from "../contract";
import { submit } from "../../foundry/authority/controller";
import {
  addSide,
  declare,
  deleteSide,
  editSide,
  letPass,
  moveToSide,
  react,
  refreshTraits,
  slowDown,
} from "./controls";
import { correctSideRoll, rollAllSides, rollSide } from "./initiative";
import { excuse, extendClock, pauseClock } from "./countdown";
import { sidesState } from "./encounter";
import { fieldOf } from "../../core/common";

/** Seconds the GM's "extend" button adds to the countdown. */
export const EXTEND_SECONDS = 10;

/** The value of a form control near the button (inside the closest `scope`), or "". */
function valueNear(target: HTMLElement, scope: string, selector: string): string {
  const element: unknown = target.closest(scope)?.querySelector(selector) ?? null;
  const value = fieldOf(element, "value");
  return typeof value === "string" ? value : "";
}

/** Whether a checkbox near the button is checked. */
function checkedNear(target: HTMLElement, scope: string, selector: string): boolean {
  const element: unknown = target.closest(scope)?.querySelector(selector) ?? null;
  return fieldOf(element, "checked") === true;
}

/** The action texts typed in a declaration form: one action a line, blank lines ignored. */
export function actionLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim().slice(0, MAX_ACTION_TEXT_LENGTH))
    .filter((line) => line !== "");
}

const idOf = (target: HTMLElement): string => target.dataset.combatantId ?? "";
const sideOf = (target: HTMLElement): string => target.dataset.groupId ?? "";

/** The `sides` buttons. */
export const SIDES_ACTIONS: ActionTable = {
  siSidesRoll: (combat, target) => rollSide(combat, sideOf(target)),
  siSidesRollAll: (combat) => rollAllSides(combat),
  siSidesCorrect: (combat, target) => {
    const typed = valueNear(target, ".si-sides-correct", "input[type=number]").trim();
    return correctSideRoll(combat, sideOf(target), typed === "" ? Number.NaN : Number(typed));
  },
  siSidesLetPass: (combat, target) => letPass(combat, idOf(target)),
  siSidesDodge: (combat, target) => react(combat, idOf(target), "dodge"),
  siSidesParry: (combat, target) => react(combat, idOf(target), "parry"),
  siSidesRoller: (combat, target) =>
    submit(combat, { type: "setRoller", sideId: sideOf(target), combatantId: idOf(target) }),
  siSidesMove: (combat, target) => moveToSide(combat, idOf(target), valueNear(target, ".si-sides-choice", "select")),
  siSidesSlow: (combat, target) => slowDown(combat, idOf(target), valueNear(target, ".si-sides-choice", "select")),
  siSidesDeclare: (combat, target) => {
    const text = valueNear(target, ".si-sides-declare", "textarea");
    const force = checkedNear(target, ".si-sides-declare", "input[type=checkbox]");
    return declare(combat, idOf(target), actionLines(text), force);
  },
  siSidesPause: (combat) => pauseClock(combat, true),
  siSidesResume: (combat) => pauseClock(combat, false),
  siSidesExtend: (combat) => extendClock(combat, EXTEND_SECONDS),
  siSidesExcuse: (combat, target) => excuse(combat, idOf(target), true),
  siSidesUnexcuse: (combat, target) => excuse(combat, idOf(target), false),
  siSidesOrderSides: (combat, target) => submit(combat, { type: "orderTiedSides", sideIds: sideOf(target).split(",") }),
  siSidesOrderTied: (combat, target) => {
    const state = sidesState(combat);
    const pass = state === null ? null : currentPass(state);
    return submit(combat, { type: "orderTied", pass: pass ?? 0, combatantIds: sideOf(target).split(",") });
  },
  siSidesEdit: (combat, target) =>
    editSide(
      combat,
      sideOf(target),
      valueNear(target, ".si-side", "input[type=text]"),
      valueNear(target, ".si-side", "input[type=color]"),
    ),
  siSidesDelete: (combat, target) => deleteSide(combat, sideOf(target)),
  siSidesAdd: async (combat, target) => {
    const added = await addSide(
      combat,
      valueNear(target, ".si-sides-add", "input[type=text]"),
      valueNear(target, ".si-sides-add", "input[type=color]"),
    );
    // Re-renders keep what was typed (they patch the tracker in place): empty the new side's fields.
    if (added.ok)
      for (const input of target.closest(".si-sides-add")?.querySelectorAll("input") ?? [])
        input.value = input.defaultValue;
    return added;
  },
  siSidesRefresh: (combat) => refreshTraits(combat),
};
