/**
 * The `phases` tracker's panel above the rows, two short lines (issue 29): the phase banner (Foes
 * declare → Heroes act → Foes resolve; the GM moves on by the next phase's button in it), and the
 * Advantage pool as pips against its cap with the GM's Collapse points, a disclosure under it with
 * spending an Advantage and the GM's options (hand-off order, the pools); and the setup controls.
 * It also builds what the rows show of the round: a foe's intents with their targets and foiled /
 * out-of-reach marks, the press-your-luck form of the running turn, the last roll and the GM's
 * answer to a failed roll (rows.ts puts each in the row it concerns).
 */

import { I18N } from "../../constants";
import { type PhasesState, type PhasesAllowedAction, type DieSize, DIE_SIZES } from "./rules/types";
import {
  pendingFailure,
  heroesSkipped,
  intentsView,
  type IntentView,
  pressYourLuck,
  advantagePool,
  lastRollView,
  phaseBanner,
} from "./rules/derived";
import { dicePool } from "./rules/dice";
import { skillsOf } from "./skills";
import { collapseShown } from "./settings";
import type { AllowedAction } from "../../core/engine";
import type { ControlContext, Localiser } from "../../core/ui";
import type { KeyedEntry } from "../../foundry/tracker/dom-patch";
import type { ModeInput } from "../contract";

export const P = `${I18N}.Tracker.Phases`;

/** One die of a roll as shown. */
export interface DieContext {
  readonly face: string;
  readonly double: boolean;
}

/** The last roll. */
export interface RollContext {
  /** The hero who rolled. */
  readonly combatantId: string;
  /** Localised line: "Aria, Melee d8, complexity 2". */
  readonly line: string;
  readonly dice: readonly DieContext[];
  readonly success: boolean;
  /** Localised outcome ("Success", "Doubles: failed"). */
  readonly outcome: string;
  /** Localised accessible reading of the dice ("1, 7"). */
  readonly diceAria: string;
  /** Localised GM answer to a failure, or "". */
  readonly answer: string;
}

/** A choice: a skill or die button of the turn form (value "skill:Melee" / "die:8"), an attack to defend against. */
export interface OptionContext {
  readonly value: string;
  readonly label: string;
  /** The button's short visible text ("Melee d8", "d8"); the complexity line says how many dice. */
  readonly short: string;
  /** The button's accessible name ("Roll Melee d8: 2d8 for Aria"); "" for an option of a select. */
  readonly ariaLabel: string;
}

/** The press-your-luck panel of the running turn. */
export interface LuckContext {
  readonly combatantId: string;
  /** Localised "Aria's turn". */
  readonly title: string;
  /** Localised "Next skill action: complexity 3 (3 dice)". */
  readonly next: string;
  /** Localised "Free move used" / "Free move available". */
  readonly freeMove: string;
  /** The viewer may act in this turn (the hero's owner or the GM). */
  readonly canAct: boolean;
  readonly skillLabel: string;
  /** Localised name of the die buttons' group (a skill not in the list). */
  readonly dieLabel: string;
  readonly skills: readonly OptionContext[];
  readonly dice: readonly OptionContext[];
  /** The "gains an advantage" mark is offered (the pool is not full). */
  readonly canGainAdvantage: boolean;
  readonly advantageHint: string;
  readonly defends: readonly OptionContext[];
  readonly noteLabel: string;
  /** A plain skill roll is allowed: the skill and die buttons roll (against the chosen attack, if any). */
  readonly canRoll: boolean;
  /** The free actions allowed now (the free move, an item that needs no roll). */
  readonly freeControls: readonly ControlContext[];
  readonly moveControl: ControlContext | null;
  readonly itemControl: ControlContext | null;
  readonly end: ControlContext | null;
}

/** A failed roll waiting for the GM's answer. */
export interface FailureContext {
  /** The hero whose roll failed. */
  readonly combatantId: string;
  readonly text: string;
  /** The GM's answer controls (effect text and +1 Collapse), or null for players. */
  readonly answer: {
    readonly combatantId: string;
    readonly inputLabel: string;
    readonly effect: ControlContext;
    readonly collapse: ControlContext;
  } | null;
}

/** One intent of the list (found again across renders by `keepKey`). */
export interface IntentContext extends KeyedEntry {
  readonly id: string;
  readonly foeId: string;
  readonly foe: string;
  readonly text: string;
  /** i18n key of the kind. */
  readonly kindLabel: string;
  /** Localised "→ Aria, Brom", or "". */
  readonly targets: string;
  readonly collapse: boolean;
  /** Localised marks (foiled by…, out of reach, resolved, resolving now). */
  readonly marks: readonly { readonly text: string; readonly css: string }[];
  readonly foiled: boolean;
  readonly resolved: boolean;
  readonly resolving: boolean;
  /** The GM's out-of-reach toggle (phase 3), or null. */
  readonly reach: { readonly ariaLabel: string; readonly pressed: boolean } | null;
}

/** One phase of the banner; the next one is the GM's button to move on, where the GM may. */
export interface BannerStepContext {
  readonly label: string;
  readonly current: boolean;
  readonly done: boolean;
  readonly skipped: boolean;
  /** The GM's "move on to this phase" button, or null. */
  readonly next: ControlContext | null;
}

/** The panel above the set-up controls. */
export interface PhasesPanelContext {
  readonly banner: readonly BannerStepContext[];
  readonly started: boolean;
  readonly pips: readonly { readonly filled: boolean }[];
  readonly advantages: string;
  readonly showCollapse: boolean;
  readonly collapse: string;
  /** Localised "Hand-off order" while the players cannot agree, or "". */
  readonly handOffBadge: string;
  /** The GM's pool settings (cap and Collapse points), or null. */
  readonly pools: {
    readonly cap: string;
    readonly collapse: string;
    readonly controls: readonly ControlContext[];
  } | null;
  /** The button to spend an Advantage (the template adds its note field), or null. */
  readonly spend: ControlContext | null;
  /** The GM's hand-off toggle ("Players cannot agree"), or null. */
  readonly handOff: ControlContext | null;
  /** The pool line opens on something (spending, the GM's options). */
  readonly hasOptions: boolean;
}

/** `key.one` or `key.other` by count, formatted with `count` and `data`. */
export function plural(i18n: Localiser, key: string, count: number, data: Record<string, string> = {}): string {
  return i18n.format(`${key}.${count === 1 ? "one" : "other"}`, { ...data, count: String(count) });
}

function dieLabel(i18n: Localiser, size: number): string {
  return i18n.format(`${P}.Die`, { size: String(size) });
}

/** The phase that follows the foes' declarations: the heroes', unless this round skips it (surprise). */
function phaseAfterDeclare(state: PhasesState): "heroes" | "foesResolve" {
  return heroesSkipped(state) ? "foesResolve" : "heroes";
}

function intentContext(intent: IntentView, input: ModeInput<PhasesState>, canMark: boolean): IntentContext {
  const { i18n, nameOf } = input;
  const marks: { text: string; css: string }[] = [];
  const mark = (key: string, css: string, data: Record<string, string> = {}): void => {
    marks.push({ text: i18n.format(`${P}.Mark.${key}`, data), css });
  };
  if (intent.collapse) mark("Collapse", "si-badge--warn");
  if (intent.foiled)
    mark(intent.foiledBy === null ? "Foiled" : "FoiledBy", "si-badge--aware", {
      name: intent.foiledBy === null ? "" : nameOf(intent.foiledBy),
    });
  if (intent.outOfReach) mark("OutOfReach", "si-badge--wait");
  if (intent.foeDefeated && !intent.resolved) mark("FoeDefeated", "si-badge--muted");
  if (intent.resolving) mark("Resolving", "si-badge--now");
  if (intent.resolved)
    mark(
      intent.outcome === "foiled" ? "NoEffect" : intent.outcome === "outOfReach" ? "Missed" : "Resolved",
      "si-badge--muted",
    );
  const targets = intent.targets.map(nameOf).join(", ");
  return {
    keepKey: `intent:${intent.id}`,
    id: intent.id,
    foeId: intent.foeId,
    foe: nameOf(intent.foeId),
    text: intent.text,
    kindLabel: `${P}.Kind.${intent.kind}`,
    targets: targets === "" ? "" : i18n.format(`${P}.Targets`, { names: targets }),
    collapse: intent.collapse,
    marks,
    foiled: intent.foiled,
    resolved: intent.resolved,
    resolving: intent.resolving,
    reach: canMark
      ? {
          ariaLabel: i18n.format(`${P}.OutOfReachFor`, { name: nameOf(intent.foeId), text: intent.text }),
          pressed: intent.outOfReach,
        }
      : null,
  };
}

/** The viewer's allowed actions of one type about one combatant, with their details. */
function actionsOf(actions: readonly AllowedAction[], type: string, id: string): PhasesAllowedAction[] {
  return (actions as readonly PhasesAllowedAction[]).filter((a) => a.type === type && a.combatantId === id);
}

/** The press-your-luck form of the running turn (in the acting hero's row), or null. */
export function luckContext(state: PhasesState, input: ModeInput<PhasesState>): LuckContext | null {
  const luck = pressYourLuck(state);
  if (luck === null || luck.failed) return null;
  const { i18n, nameOf, allowed, actions, combat, control } = input;
  const id = luck.combatantId;
  const name = nameOf(id);
  const base = { name, combatantId: id };
  const rolls = actionsOf(actions, "skillRoll", id);
  const canRoll = rolls.some((a) => a.intentId === undefined && a.gainsAdvantage !== true);
  const withDice = (size: DieSize): string => dicePool(luck.complexity, size).formula;
  const button = (value: string, label: string, short: string): OptionContext => ({
    value,
    label,
    short,
    ariaLabel: i18n.format(`${P}.RollOptionFor`, { option: label, name }),
  });
  const skills = skillsOf(combat.combatants.get(id)).map((s) =>
    button(
      `skill:${s.name}`,
      i18n.format(`${P}.SkillOption`, { skill: s.name, die: dieLabel(i18n, s.dieSize), dice: withDice(s.dieSize) }),
      `${s.name} ${dieLabel(i18n, s.dieSize)}`,
    ),
  );
  const dice = DIE_SIZES.map((size) =>
    button(
      `die:${String(size)}`,
      i18n.format(`${P}.DieOption`, { die: dieLabel(i18n, size), dice: withDice(size) }),
      dieLabel(i18n, size),
    ),
  );
  const defends = rolls.flatMap((a) => {
    const intent = a.intentId === undefined ? undefined : state.intents.find((i) => i.id === a.intentId);
    if (intent === undefined) return [];
    const targets = intent.targets.map(nameOf).join(", ");
    return [
      {
        value: intent.id,
        label: i18n.format(`${P}.DefendOption`, { foe: nameOf(intent.foeId), text: intent.text, targets }),
        short: "",
        ariaLabel: "",
      },
    ];
  });
  const freeControls: ControlContext[] = [];
  for (const a of actionsOf(actions, "freeAction", id)) {
    const kind = a.kind === "move" ? "Move" : "Item";
    freeControls.push(
      control({ ...base, action: `siPhasesFree${kind}`, label: `Phases.Free${kind}`, aria: `Phases.Free${kind}For` }),
    );
  }
  return {
    combatantId: id,
    title: i18n.format(`${P}.TurnOf`, { name }),
    next: plural(i18n, `${P}.NextAction`, luck.complexity, { complexity: String(luck.complexity) }),
    freeMove: i18n.localize(`${P}.${luck.freeMoveUsed ? "FreeMoveUsed" : "FreeMoveLeft"}`),
    canAct: canRoll || allowed.for(id, "endTurn"),
    skillLabel: i18n.format(`${P}.SkillFor`, { name }),
    dieLabel: i18n.format(`${P}.DiceFor`, { name }),
    skills,
    dice,
    canGainAdvantage: rolls.some((a) => a.gainsAdvantage === true),
    advantageHint: i18n.localize(`${P}.${advantagePool(state).full ? "PoolFullHint" : "GainsAdvantage"}`),
    defends,
    noteLabel: i18n.format(`${P}.NoteFor`, { name }),
    canRoll,
    freeControls,
    moveControl: freeControls.find((c) => c.action === "siPhasesFreeMove") ?? null,
    itemControl: freeControls.find((c) => c.action === "siPhasesFreeItem") ?? null,
    // One way to end the turn: the footer's (next turn ends a hero's turn) when this user has it.
    end:
      allowed.for(id, "endTurn") && !allowed.has("nextTurn")
        ? control({ ...base, action: "siPhasesEndTurn", label: "EndTurn", aria: "EndTurnFor" })
        : null,
  };
}

/** The last roll (in the roller's row), or null. */
export function rollContext(state: PhasesState, i18n: Localiser, nameOf: (id: string) => string): RollContext | null {
  const roll = lastRollView(state);
  if (roll === null) return null;
  const doubles = new Set(roll.doubles);
  const skill = roll.skill ?? dieLabel(i18n, roll.dieSize);
  const answer =
    roll.answer === null
      ? ""
      : roll.answer.choice === "collapse"
        ? i18n.localize(`${P}.AnswerCollapse`)
        : i18n.format(`${P}.AnswerEffect`, { text: roll.answer.text });
  return {
    combatantId: roll.combatantId,
    line: i18n.format(`${P}.RollLine`, {
      name: nameOf(roll.combatantId),
      skill: roll.skill === null ? skill : `${skill} ${dieLabel(i18n, roll.dieSize)}`,
      complexity: String(roll.complexity),
    }),
    dice: roll.dice.map((face, i) => ({ face: String(face), double: doubles.has(i) })),
    success: roll.success,
    outcome: i18n.localize(`${P}.${roll.success ? "Success" : "Doubles"}`),
    diceAria:
      doubles.size === 0
        ? roll.dice.join(", ")
        : i18n.format(`${P}.DiceDoubles`, {
            dice: roll.dice.join(", "),
            doubles: [...new Set(roll.dice.filter((_, i) => doubles.has(i)))].join(", "),
          }),
    answer,
  };
}

/** A failed roll waiting for the GM's answer (in the failed hero's row), or null. */
export function failureContext(state: PhasesState, input: ModeInput<PhasesState>): FailureContext | null {
  const failure = pendingFailure(state);
  if (failure === null) return null;
  const { i18n, nameOf, allowed, who, control } = input;
  const name = nameOf(failure.combatantId);
  const base = { name, combatantId: failure.combatantId };
  return {
    combatantId: failure.combatantId,
    text: i18n.format(`${P}.${who.isGM ? "ChooseFailure" : "WaitFailure"}`, { name }),
    answer:
      who.isGM && allowed.has("resolveFailure")
        ? {
            combatantId: failure.combatantId,
            inputLabel: i18n.format(`${P}.EffectTextFor`, { name }),
            effect: control({
              ...base,
              action: "siPhasesEffect",
              label: "Phases.Effect",
              aria: "Phases.EffectFor",
              primary: true,
            }),
            collapse: control({
              ...base,
              action: "siPhasesCollapse",
              label: "Phases.TakeCollapse",
              aria: "Phases.TakeCollapseFor",
            }),
          }
        : null,
  };
}

/** Whether the viewer sees this round's intents: the GM always; players once the heroes act. */
export function intentsShown(state: PhasesState, who: ModeInput<PhasesState>["who"]): boolean {
  return who.isGM || (state.started && state.phase !== "foesDeclare");
}

/** This round's intents as the viewer may see them (each shown in its foe's row). */
export function intentsOf(state: PhasesState, input: ModeInput<PhasesState>): IntentContext[] {
  const { who, allowed } = input;
  return intentsShown(state, who)
    ? intentsView(state).map((i) =>
        intentContext(
          i,
          input,
          // A foiled attack has no effect anyway: nothing to mark out of reach.
          who.isGM &&
            state.phase === "foesResolve" &&
            !i.resolved &&
            !i.foiled &&
            allowed.for(i.foeId, "markOutOfReach"),
        ),
      )
    : [];
}

/** The GM's hand-off toggle ("the players cannot agree"), in a round that has a heroes' phase to order; else null. */
function handOffOf(state: PhasesState, input: ModeInput<PhasesState>): ControlContext | null {
  const { who, allowed, control } = input;
  return who.isGM &&
    state.started &&
    allowed.has("setHandOff") &&
    (state.phase === "foesDeclare" || state.phase === "heroes") &&
    !heroesSkipped(state)
    ? control({
        action: "siPhasesHandOff",
        label: "Phases.HandOff",
        aria: "Phases.HandOffHint",
        toggle: true,
        pressed: state.handOff,
      })
    : null;
}

/**
 * The GM's button to move on to the phase that really comes (the foes resolve at once in a surprised
 * round 1): shown on that phase in the banner; null when there is none to move on to.
 */
function nextPhaseOf(
  state: PhasesState,
  input: ModeInput<PhasesState>,
): { phase: string; control: ControlContext } | null {
  const { who, allowed, control } = input;
  if (!who.isGM || !state.started || !allowed.has("nextPhase") || state.phase === "foesResolve") return null;
  const phase = state.phase === "foesDeclare" ? phaseAfterDeclare(state) : "foesResolve";
  return {
    phase,
    control: control({
      action: "siPhasesNextPhase",
      label: `Phases.NextPhase.${phase}`,
      aria: "Phases.NextPhaseFor",
      name: input.i18n.localize(`${P}.NextPhase.${phase}`),
    }),
  };
}

/** The GM's form for the Advantage cap and the Collapse points, or null. */
function poolsOf(state: PhasesState, input: ModeInput<PhasesState>): PhasesPanelContext["pools"] {
  const { who, allowed, control } = input;
  return who.isGM && allowed.has("setPoolCap")
    ? {
        cap: String(state.poolCap),
        collapse: String(state.collapse),
        controls: [
          control({ action: "siPhasesPoolCap", label: "Phases.SetCap", aria: "Phases.SetCapHint" }),
          control({
            action: "siPhasesCollapsePoints",
            label: "Phases.SetCollapse",
            aria: "Phases.SetCollapseHint",
          }),
        ],
      }
    : null;
}

/** The form to spend an Advantage, or null. */
function spendOf(input: ModeInput<PhasesState>): PhasesPanelContext["spend"] {
  const { allowed, control } = input;
  return allowed.has("spendAdvantage")
    ? control({ action: "siPhasesSpend", label: "Phases.Spend", aria: "Phases.SpendHint" })
    : null;
}

export function panelContext(state: PhasesState, input: ModeInput<PhasesState>): PhasesPanelContext {
  const { i18n, who } = input;
  const banner = phaseBanner(state);
  const pool = advantagePool(state);
  const next = nextPhaseOf(state, input);
  const pools = poolsOf(state, input);
  const spend = spendOf(input);
  const handOff = handOffOf(state, input);
  return {
    banner: banner.phases.map((p) => ({
      label: `${I18N}.Step.${p.phase}`,
      current: p.current,
      done: p.done,
      skipped: p.skipped,
      next: next !== null && next.phase === p.phase ? next.control : null,
    })),
    started: state.started,
    pips: Array.from({ length: pool.cap }, (_, i) => ({ filled: i < pool.pool })),
    advantages: plural(i18n, `${P}.Advantages`, pool.cap, { pool: String(pool.pool) }),
    showCollapse: who.isGM || collapseShown(),
    collapse: plural(i18n, `${P}.CollapsePoints`, state.collapse),
    handOffBadge:
      state.started && state.handOff && state.phase !== "foesResolve" ? i18n.localize(`${P}.HandOffOn`) : "",
    pools,
    spend,
    handOff,
    hasOptions: pools !== null || spend !== null || handOff !== null,
  };
}

/** The GM's start buttons before the combat starts: start, or start with the heroes surprised. */
export function setupControls(input: ModeInput<PhasesState>): ControlContext[] {
  const { control, allowed } = input;
  const controls: ControlContext[] = [];
  if (allowed.has("start")) {
    controls.push(control({ action: "siStart", label: "Start", primary: true }));
    controls.push(
      control({ action: "siStartSurprise", label: "Phases.StartSurprise", aria: "Phases.StartSurpriseHint" }),
    );
  }
  return controls;
}
