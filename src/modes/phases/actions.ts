/**
 * What the `phases` tracker's buttons do, by `data-action`: start (with surprise), the GM's phase,
 * hand-off and pool controls, intents and extra attacks, taking a turn or picking the next hero,
 * skill rolls (one button per skill and die; the marks and the defended attack read from the turn
 * form in the hero's row), free
 * actions, ending a turn, the GM's answer to a failed roll, spending an Advantage and marking an
 * intent out of reach. Each goes through the rules (`submit`) or the phases glue; refusals come back
 * as localised notifications. Typed text is read from form controls, never as HTML.
 */
import { MAX_TEXT_LENGTH } from "../../core/common";
import { submit } from "../../foundry/authority/controller";
import type { CommandResult } from "../../core/protocol";
import type { ActionTable } from "../contract";
import { phasesState } from "./encounter";
import { rollSkill, type SkillRollOptions } from "./skills";

const idOf = (target: HTMLElement): string => target.dataset.combatantId ?? "";

/** The form control matching `selector` inside the closest `scope` of the button, or null. */
function near(target: HTMLElement, scope: string, selector: string): HTMLInputElement | null {
  const element: unknown = target.closest(scope)?.querySelector(selector) ?? null;
  return typeof element === "object" && element !== null ? (element as HTMLInputElement) : null;
}

/** A text field's value near the button (trimmed, at most the rules' text length), or "". */
function textNear(target: HTMLElement, scope: string, selector: string): string {
  const value: unknown = near(target, scope, selector)?.value;
  return typeof value === "string" ? value.trim().slice(0, MAX_TEXT_LENGTH) : "";
}

function checkedNear(target: HTMLElement, scope: string, selector: string): boolean {
  return near(target, scope, selector)?.checked === true;
}

/**
 * Empty the fields near the button once what they held was accepted (re-renders keep typed text and
 * ticks), and close the disclosure they are in.
 */
function clearNear(target: HTMLElement, scope: string): void {
  const form = target.closest(scope);
  for (const field of form?.querySelectorAll<HTMLInputElement>("input[type=text]") ?? []) field.value = "";
  for (const box of form?.querySelectorAll<HTMLInputElement>("input[type=checkbox]") ?? []) box.checked = false;
  if (form?.tagName === "DETAILS") form.removeAttribute("open");
}

/** The targets ticked in a foe's intent form. */
function targetsNear(target: HTMLElement): string[] {
  const boxes = target.closest(".si-phases-form")?.querySelectorAll<HTMLInputElement>("input[type=checkbox]") ?? [];
  return Array.from(boxes)
    .filter((box) => box.checked)
    .map((box) => box.value);
}

/**
 * The skill roll a button of the turn form makes: its skill or die ("skill:Melee" / "die:8"), the
 * marks ticked and the attack chosen to defend against (none: a plain roll).
 */
function rollNear(target: HTMLElement): SkillRollOptions {
  const scope = ".si-phases-turn";
  const choice = target.dataset.roll ?? "";
  const colon = choice.indexOf(":");
  const kind = choice.slice(0, Math.max(colon, 0));
  const value = choice.slice(colon + 1);
  const defendsIntent = textNear(target, scope, "select[name=structured-initiative-phases-defend]");
  return {
    ...(kind === "skill" ? { skill: value } : { dieSize: Number(value) }),
    gainsAdvantage: checkedNear(target, scope, "input[name=structured-initiative-phases-advantage]"),
    move: checkedNear(target, scope, "input[name=structured-initiative-phases-move]"),
    ...(defendsIntent === "" ? {} : { defendsIntent }),
  };
}

/** A number field near the button, or NaN. */
function numberNear(target: HTMLElement, selector: string): number {
  const value = textNear(target, ".si-phases-pools", selector);
  return value === "" ? NaN : Number(value);
}

/** Run `then` once the command was accepted (to empty the fields that held it). */
async function after<T extends { ok: boolean }>(result: Promise<T>, then: () => void): Promise<T> {
  const done = await result;
  if (done.ok) then();
  return done;
}

/** Start a hero's turn (the Take turn button and the take-turn key). */
export function takeTurn(combat: Combat.Implementation, combatantId: string): Promise<CommandResult> {
  return submit(combat, { type: "startTurn", combatantId });
}

/** Pick the next hero in hand-off order (the Pick button and the take-turn key). */
export function pickNext(combat: Combat.Implementation, combatantId: string): Promise<CommandResult> {
  return submit(combat, { type: "pickNext", combatantId });
}

/** The `phases` buttons. */
export const PHASES_ACTIONS: ActionTable = {
  siStartSurprise: (combat) => submit(combat, { type: "start", surprise: true }),
  siPhasesNextPhase: (combat) => submit(combat, { type: "nextPhase" }),
  siPhasesHandOff: (combat) => submit(combat, { type: "setHandOff", on: phasesState(combat)?.handOff !== true }),
  siPhasesTakeTurn: (combat, target) => takeTurn(combat, idOf(target)),
  siPhasesPick: (combat, target) => pickNext(combat, idOf(target)),
  siPhasesDeclare: (combat, target) => {
    const scope = ".si-phases-form";
    const kind = textNear(target, scope, "select") === "attack" ? "attack" : "other";
    const text = textNear(target, scope, "input[type=text]");
    const targets = kind === "attack" ? targetsNear(target) : [];
    const command = { type: "declareIntent", foeId: idOf(target), text, kind, targets };
    return after(submit(combat, command), () => {
      clearNear(target, scope);
    });
  },
  siPhasesExtraAttack: (combat, target) => {
    const scope = ".si-phases-form";
    const command = {
      type: "spendCollapse",
      foeId: idOf(target),
      text: textNear(target, scope, "input[type=text]"),
      targets: targetsNear(target),
    };
    return after(submit(combat, command), () => {
      clearNear(target, scope);
    });
  },
  siPhasesRoll: (combat, target) => rollSkill(combat, idOf(target), rollNear(target)),
  siPhasesFreeMove: (combat, target) => submit(combat, { type: "freeAction", combatantId: idOf(target), kind: "move" }),
  siPhasesFreeItem: (combat, target) => {
    const note = textNear(target, ".si-phases-turn", "input[type=text]");
    const command = { type: "freeAction", combatantId: idOf(target), kind: "item", ...(note === "" ? {} : { note }) };
    return after(submit(combat, command), () => {
      clearNear(target, ".si-phases-turn");
    });
  },
  siPhasesEndTurn: (combat, target) => submit(combat, { type: "endTurn", combatantId: idOf(target) }),
  siPhasesEffect: (combat, target) => {
    const text = textNear(target, ".si-phases-failure", "input[type=text]");
    return after(submit(combat, { type: "resolveFailure", choice: "effect", text }), () => {
      clearNear(target, ".si-phases-failure");
    });
  },
  siPhasesCollapse: (combat) => submit(combat, { type: "resolveFailure", choice: "collapse" }),
  siPhasesSpend: (combat, target) => {
    const note = textNear(target, ".si-phases-spend", "input[type=text]");
    return after(submit(combat, { type: "spendAdvantage", note }), () => {
      clearNear(target, ".si-phases-spend");
    });
  },
  siPhasesOutOfReach: (combat, target) =>
    submit(combat, {
      type: "markOutOfReach",
      intentId: target.dataset.intentId ?? "",
      outOfReach: target.getAttribute("aria-pressed") !== "true",
    }),
  siPhasesPoolCap: (combat, target) =>
    submit(combat, { type: "setPoolCap", cap: numberNear(target, "input[name=structured-initiative-phases-cap]") }),
  siPhasesCollapsePoints: (combat, target) =>
    submit(combat, {
      type: "setCollapse",
      points: numberNear(target, "input[name=structured-initiative-phases-collapse]"),
    }),
};
