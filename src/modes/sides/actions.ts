/**
 * What the `sides` tracker's buttons do. Every button's `data-action` is one of the keys of
 * {@link SIDES_ACTIONS}; each goes through the rules (`submit`) or the sides glue, and refusals come
 * back as localised notifications. Text typed by users is read from form controls, never as HTML.
 */
import { currentPass } from "./rules/sides";
import { submit } from "../../foundry/authority/controller";
import {
  addSide,
  declare,
  deleteSide,
  editSide,
  excuse,
  extendClock,
  moveToSide,
  pauseClock,
  react,
  refreshTraits,
  rollAllSides,
  rollSide,
  sidesState,
  slowDown,
} from "./glue";
import { MAX_ACTION_TEXT_LENGTH } from "./rules/sides";

/** What a handler needs of the tracker: the combat it shows. */
interface TrackerLike {
  readonly viewed: Combat.Implementation | null;
}

/** Seconds the GM's "extend" button adds to the countdown. */
export const EXTEND_SECONDS = 10;

/** The value of a form control near the button (inside the closest `scope`), or "". */
function valueNear(target: HTMLElement, scope: string, selector: string): string {
  const element: unknown = target.closest(scope)?.querySelector(selector) ?? null;
  const value = typeof element === "object" && element !== null ? (element as { value?: unknown }).value : undefined;
  return typeof value === "string" ? value : "";
}

/** Whether a checkbox near the button is checked. */
function checkedNear(target: HTMLElement, scope: string, selector: string): boolean {
  const element: unknown = target.closest(scope)?.querySelector(selector) ?? null;
  return typeof element === "object" && element !== null && (element as { checked?: unknown }).checked === true;
}

/** The action texts typed in a declaration form: one action a line, blank lines ignored. */
export function actionLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim().slice(0, MAX_ACTION_TEXT_LENGTH))
    .filter((line) => line !== "");
}

async function run(combat: Combat.Implementation, action: string, target: HTMLElement): Promise<void> {
  const combatantId = target.dataset.combatantId ?? "";
  const groupId = target.dataset.groupId ?? "";
  switch (action) {
    case "siSidesRoll":
      await rollSide(combat, groupId);
      return;
    case "siSidesRollAll":
      await rollAllSides(combat);
      return;
    case "siSidesDodge":
      await react(combat, combatantId, "dodge");
      return;
    case "siSidesParry":
      await react(combat, combatantId, "parry");
      return;
    case "siSidesRoller":
      await submit(combat, { type: "setRoller", sideId: groupId, combatantId });
      return;
    case "siSidesMove":
      await moveToSide(combat, combatantId, valueNear(target, ".si-sides-choice", "select"));
      return;
    case "siSidesSlow":
      await slowDown(combat, combatantId, valueNear(target, ".si-sides-choice", "select"));
      return;
    case "siSidesDeclare": {
      const text = valueNear(target, ".si-sides-declare", "textarea");
      const force = checkedNear(target, ".si-sides-declare", "input[type=checkbox]");
      await declare(combat, combatantId, actionLines(text), force);
      return;
    }
    case "siSidesPause":
      await pauseClock(combat, true);
      return;
    case "siSidesResume":
      await pauseClock(combat, false);
      return;
    case "siSidesExtend":
      await extendClock(combat, EXTEND_SECONDS);
      return;
    case "siSidesExcuse":
    case "siSidesUnexcuse":
      await excuse(combat, combatantId, action === "siSidesExcuse");
      return;
    case "siSidesOrderSides":
      await submit(combat, { type: "orderTiedSides", sideIds: groupId.split(",") });
      return;
    case "siSidesOrderTied": {
      const state = sidesState(combat);
      const pass = state === null ? null : currentPass(state);
      await submit(combat, { type: "orderTied", pass: pass ?? 0, combatantIds: groupId.split(",") });
      return;
    }
    case "siSidesEdit":
      await editSide(
        combat,
        groupId,
        valueNear(target, ".si-side", "input[type=text]"),
        valueNear(target, ".si-side", "input[type=color]"),
      );
      return;
    case "siSidesDelete":
      await deleteSide(combat, groupId);
      return;
    case "siSidesAdd": {
      const added = await addSide(
        combat,
        valueNear(target, ".si-sides-add", "input[type=text]"),
        valueNear(target, ".si-sides-add", "input[type=color]"),
      );
      // Re-renders keep what was typed (they patch the tracker in place): empty the new side's fields.
      if (added.ok)
        for (const input of target.closest(".si-sides-add")?.querySelectorAll("input") ?? [])
          input.value = input.defaultValue;
      return;
    }
    case "siSidesRefresh":
      await refreshTraits(combat);
      return;
    default:
      return;
  }
}

async function onSidesAction(this: TrackerLike, _event: Event, target: HTMLElement): Promise<void> {
  const combat = this.viewed;
  const action = target.dataset.action ?? "";
  if (combat !== null) await run(combat, action, target);
}

/** The `sides` buttons, by `data-action` (spread into the tracker's `actions`). */
export const SIDES_ACTIONS = Object.fromEntries(
  [
    "siSidesRoll",
    "siSidesRollAll",
    "siSidesDodge",
    "siSidesParry",
    "siSidesRoller",
    "siSidesMove",
    "siSidesSlow",
    "siSidesDeclare",
    "siSidesPause",
    "siSidesResume",
    "siSidesExtend",
    "siSidesExcuse",
    "siSidesUnexcuse",
    "siSidesOrderSides",
    "siSidesOrderTied",
    "siSidesEdit",
    "siSidesDelete",
    "siSidesAdd",
    "siSidesRefresh",
  ].map((action) => [action, onSidesAction]),
);
