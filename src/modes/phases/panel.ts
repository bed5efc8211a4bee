/**
 * The `phases` tracker's panel above the rows: the phase banner (Foes declare → Heroes act → Foes
 * resolve), the Advantage pool as pips against its cap and the GM's Collapse points, this round's
 * intents with their targets and foiled / out-of-reach marks, the hand-off line, the press-your-luck
 * panel of the running turn and the GM's answer to a failed roll; and the setup controls.
 */

import { I18N } from "../../constants";
import { type PhasesState, type PhasesAllowedAction, type DieSize, DIE_SIZES } from "./rules/types";
import {
  pendingFailure,
  handOffPicker,
  heroesSkipped,
  heroesToAct,
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

/** A choice of the skill select. */
export interface OptionContext {
  readonly value: string;
  readonly label: string;
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
  readonly skills: readonly OptionContext[];
  readonly dice: readonly OptionContext[];
  /** The "gains an advantage" mark is offered (the pool is not full). */
  readonly canGainAdvantage: boolean;
  readonly advantageHint: string;
  readonly defendLabel: string;
  readonly defends: readonly OptionContext[];
  readonly hasDefends: boolean;
  readonly noteLabel: string;
  readonly roll: ControlContext | null;
  readonly defend: ControlContext | null;
  /** The free actions allowed now (the free move, an item that needs no roll). */
  readonly freeControls: readonly ControlContext[];
  readonly moveControl: ControlContext | null;
  readonly itemControl: ControlContext | null;
  readonly hasFree: boolean;
  readonly end: ControlContext | null;
}

/** A failed roll waiting for the GM's answer. */
export interface FailureContext {
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
  readonly css: string;
  /** The GM's out-of-reach toggle (phase 3), or null. */
  readonly reach: { readonly ariaLabel: string; readonly pressed: boolean } | null;
}

/** The panel above the set-up controls. */
export interface PhasesPanelContext {
  readonly banner: readonly { readonly label: string; readonly css: string; readonly current: boolean }[];
  readonly bannerAria: string;
  readonly status: string;
  readonly started: boolean;
  readonly pips: readonly { readonly filled: boolean }[];
  readonly advantages: string;
  readonly showCollapse: boolean;
  readonly collapse: string;
  /** The GM's pool settings (cap and Collapse points), or null. */
  readonly pools: {
    readonly cap: string;
    readonly collapse: string;
    readonly capLabel: string;
    readonly collapseLabel: string;
    readonly controls: readonly ControlContext[];
  } | null;
  /** Spending an Advantage (note and button), or null. */
  readonly spend: { readonly noteLabel: string; readonly control: ControlContext } | null;
  readonly gmControls: readonly ControlContext[];
  readonly showIntents: boolean;
  readonly intents: readonly IntentContext[];
  readonly noIntents: boolean;
  /** Localised line for players while the foes declare, or "". */
  readonly declaring: string;
  /** Localised "To act: Aria, Brom", or "". */
  readonly toAct: string;
  readonly luck: LuckContext | null;
  readonly lastRoll: RollContext | null;
  readonly failure: FailureContext | null;
}

/** The BEM modifier classes of `block` whose flag is set ("si-phases-step--now si-phases-step--done"). */
function modifiers(block: string, flags: Readonly<Record<string, boolean>>): string {
  return Object.entries(flags)
    .filter(([, on]) => on)
    .map(([name]) => `${block}--${name}`)
    .join(" ");
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

/** The status line: what the round is waiting for. */
function statusOf(state: PhasesState, input: ModeInput<PhasesState>): string {
  const { i18n, nameOf, who } = input;
  const f = (key: string, data: Record<string, string> = {}): string => i18n.format(`${P}.Status.${key}`, data);
  if (!state.started) return who.isGM ? f("Setup") : "";
  // A failed roll waiting for the GM has its own notice.
  if (pendingFailure(state) !== null) return "";
  switch (state.phase) {
    case "foesDeclare":
      return who.isGM
        ? f("DeclareGM", { next: i18n.localize(`${I18N}.Step.${phaseAfterDeclare(state)}`) })
        : f("Declare");
    case "heroes": {
      const acting = state.turn?.combatantId;
      if (acting !== undefined) return f("Acting", { name: nameOf(acting) });
      const picker = handOffPicker(state);
      if (picker !== null)
        return picker.picker === null ? f("HandOffGM") : f("HandOff", { name: nameOf(picker.picker) });
      return f(heroesToAct(state).length === 0 ? "HeroesDone" : "FreeOrder");
    }
    case "foesResolve": {
      const resolving = intentsView(state).find((i) => i.resolving);
      return resolving === undefined ? f("ResolveDone") : f("Resolve", { name: nameOf(resolving.foeId) });
    }
    default:
      return "";
  }
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
    css: modifiers("si-phases-intent", {
      foiled: intent.foiled,
      resolved: intent.resolved,
      resolving: intent.resolving,
    }),
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

function luckContext(state: PhasesState, input: ModeInput<PhasesState>): LuckContext | null {
  const luck = pressYourLuck(state);
  if (luck === null || luck.failed) return null;
  const { i18n, nameOf, allowed, actions, combat, control } = input;
  const id = luck.combatantId;
  const name = nameOf(id);
  const base = { name, combatantId: id };
  const rolls = actionsOf(actions, "skillRoll", id);
  const canRoll = rolls.some((a) => a.intentId === undefined && a.gainsAdvantage !== true);
  const withDice = (size: DieSize): string => dicePool(luck.complexity, size).formula;
  const skills = skillsOf(combat.combatants.get(id)).map((s) => ({
    value: `skill:${s.name}`,
    label: i18n.format(`${P}.SkillOption`, {
      skill: s.name,
      die: dieLabel(i18n, s.dieSize),
      dice: withDice(s.dieSize),
    }),
  }));
  const dice = DIE_SIZES.map((size) => ({
    value: `die:${String(size)}`,
    label: i18n.format(`${P}.DieOption`, { die: dieLabel(i18n, size), dice: withDice(size) }),
  }));
  const defends = rolls.flatMap((a) => {
    const intent = a.intentId === undefined ? undefined : state.intents.find((i) => i.id === a.intentId);
    if (intent === undefined) return [];
    const targets = intent.targets.map(nameOf).join(", ");
    return [
      {
        value: intent.id,
        label: i18n.format(`${P}.DefendOption`, { foe: nameOf(intent.foeId), text: intent.text, targets }),
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
    skills,
    dice,
    canGainAdvantage: rolls.some((a) => a.gainsAdvantage === true),
    advantageHint: i18n.localize(`${P}.${advantagePool(state).full ? "PoolFullHint" : "GainsAdvantage"}`),
    defendLabel: i18n.format(`${P}.DefendFor`, { name }),
    defends,
    hasDefends: defends.length > 0,
    noteLabel: i18n.format(`${P}.NoteFor`, { name }),
    roll: canRoll
      ? control({
          ...base,
          action: "siPhasesRoll",
          label: "Phases.RollSkill",
          aria: "Phases.RollSkillFor",
          primary: true,
        })
      : null,
    defend:
      defends.length > 0
        ? control({ ...base, action: "siPhasesDefend", label: "Phases.Defend", aria: "Phases.DefendRollFor" })
        : null,
    freeControls,
    moveControl: freeControls.find((c) => c.action === "siPhasesFreeMove") ?? null,
    itemControl: freeControls.find((c) => c.action === "siPhasesFreeItem") ?? null,
    hasFree: freeControls.length > 0,
    // One way to end the turn: the footer's (next turn ends a hero's turn) when this user has it.
    end:
      allowed.for(id, "endTurn") && !allowed.has("nextTurn")
        ? control({ ...base, action: "siPhasesEndTurn", label: "EndTurn", aria: "EndTurnFor" })
        : null,
  };
}

function rollContext(state: PhasesState, i18n: Localiser, nameOf: (id: string) => string): RollContext | null {
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

function failureContext(state: PhasesState, input: ModeInput<PhasesState>): FailureContext | null {
  const failure = pendingFailure(state);
  if (failure === null) return null;
  const { i18n, nameOf, allowed, who, control } = input;
  const name = nameOf(failure.combatantId);
  const base = { name, combatantId: failure.combatantId };
  return {
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

/** This round's intents as the viewer may see them (the GM always; players once the heroes act). */
function intentsOf(state: PhasesState, input: ModeInput<PhasesState>, showIntents: boolean): IntentContext[] {
  const { who, allowed } = input;
  return showIntents
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

/** The GM's round controls: the hand-off toggle and "next phase". */
function gmControlsOf(state: PhasesState, input: ModeInput<PhasesState>): ControlContext[] {
  const { who, allowed, control } = input;
  const gmControls: ControlContext[] = [];
  if (who.isGM && state.started) {
    // "The players cannot agree" orders the heroes' phase: not offered in a round that skips it.
    if (
      allowed.has("setHandOff") &&
      (state.phase === "foesDeclare" || state.phase === "heroes") &&
      !heroesSkipped(state)
    )
      gmControls.push(
        control({
          action: "siPhasesHandOff",
          label: "Phases.HandOff",
          aria: "Phases.HandOffHint",
          toggle: true,
          pressed: state.handOff,
        }),
      );
    // The button names the phase that really comes (the foes resolve at once in a surprised round 1).
    if (allowed.has("nextPhase") && state.phase !== "foesResolve")
      gmControls.push(
        control({
          action: "siPhasesNextPhase",
          label: `Phases.NextPhase.${state.phase === "foesDeclare" ? phaseAfterDeclare(state) : "foesResolve"}`,
        }),
      );
  }
  return gmControls;
}

/** The GM's form for the Advantage cap and the Collapse points, or null. */
function poolsOf(state: PhasesState, input: ModeInput<PhasesState>): PhasesPanelContext["pools"] {
  const { i18n, who, allowed, control } = input;
  return who.isGM && allowed.has("setPoolCap")
    ? {
        cap: String(state.poolCap),
        collapse: String(state.collapse),
        capLabel: i18n.localize(`${P}.PoolCap`),
        collapseLabel: i18n.localize(`${P}.CollapseStart`),
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
  const { i18n, allowed, control } = input;
  return allowed.has("spendAdvantage")
    ? {
        noteLabel: i18n.localize(`${P}.SpendNote`),
        control: control({ action: "siPhasesSpend", label: "Phases.Spend", aria: "Phases.SpendHint" }),
      }
    : null;
}

export function panelContext(state: PhasesState, input: ModeInput<PhasesState>): PhasesPanelContext {
  const { i18n, who, nameOf } = input;
  const banner = phaseBanner(state);
  const pool = advantagePool(state);
  const showIntents = who.isGM || (state.started && state.phase !== "foesDeclare");
  const intents = intentsOf(state, input, showIntents);
  const foes = state.combatants.filter((c) => !c.isPC && !c.defeated).length;
  const declared = new Set(state.intents.filter((i) => !i.collapse).map((i) => i.foeId)).size;
  const toAct = state.started && state.phase === "heroes" ? heroesToAct(state).map(nameOf).join(", ") : "";
  return {
    banner: banner.phases.map((p) => ({
      label: `${I18N}.Step.${p.phase}`,
      current: p.current,
      css: modifiers("si-phases-step", { now: p.current, done: p.done, skipped: p.skipped }),
    })),
    bannerAria: i18n.localize(`${P}.Banner`),
    status: statusOf(state, input),
    started: state.started,
    pips: Array.from({ length: pool.cap }, (_, i) => ({ filled: i < pool.pool })),
    advantages: plural(i18n, `${P}.Advantages`, pool.cap, { pool: String(pool.pool) }),
    showCollapse: who.isGM || collapseShown(),
    collapse: plural(i18n, `${P}.CollapsePoints`, state.collapse),
    pools: poolsOf(state, input),
    spend: spendOf(input),
    gmControls: gmControlsOf(state, input),
    showIntents,
    intents,
    noIntents: showIntents && state.started && intents.length === 0,
    declaring:
      !who.isGM && state.started && state.phase === "foesDeclare"
        ? plural(i18n, `${P}.Declared`, foes, { declared: String(declared) })
        : "",
    toAct: toAct === "" ? "" : i18n.format(`${P}.ToActList`, { names: toAct }),
    luck: luckContext(state, input),
    lastRoll: rollContext(state, i18n, nameOf),
    failure: failureContext(state, input),
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
