/** The `phases` view (whose turn, the order) and the actions `who` may take now. */

import type { Requester, TurnView } from "../../../core/engine";
import {
  type Probe,
  probe,
  canControl,
  type RefusalChecks,
  allowedByTrial,
  gmCombatantRefusal,
} from "../../../core/common";
import { type PhasesState, type PhasesAllowedAction, type PhasesCommand, FIRST_COMPLEXITY } from "./types";
import {
  applyCommand,
  nextTurnRefusal,
  advanceRefusal,
  declareRefusal,
  collapseRefusal,
  startRefusal,
  pickRefusal,
  actingRefusal,
  rollRefusal,
  freeRefusal,
  advantageRefusal,
  reachRefusal,
} from "./commands";
import {
  declaringFoe,
  foesToResolve,
  foesToDeclare,
  isFoe,
  collapseWindow,
  heroesToAct,
  nextComplexity,
  defendableIntents,
} from "./derived";

/** The heroes whose turn `who` may start now ("Take turn" buttons): free order or, in hand-off order, a pick. */
export function startableHeroes(state: PhasesState, who: Requester): readonly string[] {
  const type = state.handOff ? "pickNext" : "startTurn";
  return state.combatants
    .filter((c) => c.isPC && applyCommand(state, { type, combatantId: c.id }, who).ok)
    .map((c) => c.id);
}

/** Whoever is handled now: the foe being declared for, the acting hero, the resolving foe; or null. */
function currentOf(state: PhasesState): string | null {
  if (!state.started) return null;
  switch (state.phase) {
    case "foesDeclare":
      return declaringFoe(state);
    case "heroes":
      return state.turn?.combatantId ?? null;
    case "foesResolve":
      return foesToResolve(state)[0] ?? null;
    default:
      return null;
  }
}

/** Who comes after the current one, where the order is known (phases 1 and 3); null in phase 2. */
function nextOf(state: PhasesState): string | null {
  if (!state.started) return null;
  if (state.phase === "foesDeclare") return foesToDeclare(state)[1] ?? null;
  if (state.phase === "foesResolve") return foesToResolve(state)[1] ?? null;
  return null;
}

/** Foes first, then heroes, each in joining order: a stable order, so turn changes move no rows. */
function viewOrder(state: PhasesState): string[] {
  return [...state.combatants.filter(isFoe), ...state.combatants.filter((c) => c.isPC)].map((c) => c.id);
}

export function view(state: PhasesState): TurnView {
  return {
    started: state.started,
    round: state.round,
    step: state.phase,
    order: viewOrder(state),
    current: currentOf(state),
    next: nextOf(state),
  };
}

/** A fair-looking roll of `count` dice (only the count and range matter to a probe). */
function probeDice(count: number): number[] {
  return Array.from({ length: count }, (_, i) => (i % 12) + 1);
}

type PhasesProbe = Probe<PhasesAllowedAction, PhasesCommand>;

/** A probe of `command` for the action of its type, about `about`. */
const on = (command: PhasesCommand, about?: Omit<PhasesAllowedAction, "type">): PhasesProbe => probe(command, about);

/**
 * The probes of what `who` may do now. Only those that can be accepted are made: the GM's commands
 * for the GM alone, an intent while phase 1 takes them, a Collapse attack while its window is open
 * and a point is left, a turn start or pick while phase 2 has no turn running, the acting hero's
 * commands (end, rolls, free actions) for that hero alone, an Advantage spend while the pool holds
 * one, a reach mark in phase 3 on an unresolved intent. Every other probe could only be refused
 * (test/rules/phases-allowed.property.test.ts compares this with trying them all).
 */
function probes(state: PhasesState, who: Requester): PhasesProbe[] {
  const list: PhasesProbe[] = [
    on({ type: "start", surprise: false }),
    on({ type: "nextPhase" }),
    on({ type: "nextTurn" }),
    on({ type: "nextRound" }),
    on({ type: "setPoolCap", cap: state.poolCap }),
    on({ type: "setCollapse", points: state.collapse }),
    on({ type: "setHandOff", on: !state.handOff }),
    on({ type: "resolveFailure", choice: "collapse" }),
    on({ type: "spendAdvantage", note: "" }),
  ];
  const gm = who.isGM;
  const declaring = gm && state.started && state.phase === "foesDeclare";
  const collapsing = gm && collapseWindow(state) && state.collapse > 0;
  const firstTarget = heroesToAct(state)[0] ?? state.combatants.find((c) => c.isPC && !c.defeated)?.id;
  const starting = state.started && state.phase === "heroes" && state.turn === null;
  const t = state.turn;
  const acting = state.started && state.phase === "heroes" && t !== null && !t.failed ? t.combatantId : null;
  const spending = state.started && state.pool > 0;
  const dice = probeDice(nextComplexity(state) ?? FIRST_COMPLEXITY);
  const defendable = acting === null ? [] : defendableIntents(state);
  for (const c of state.combatants) {
    const combatantId = c.id;
    const about = { combatantId };
    if (gm) {
      list.push(
        on({ type: "setDefeated", combatantId, defeated: !c.defeated }, about),
        on({ type: "removeCombatant", combatantId }, about),
      );
    }
    if (!c.isPC) {
      if (declaring)
        list.push(on({ type: "declareIntent", foeId: combatantId, text: "", kind: "other", targets: [] }, about));
      if (collapsing && firstTarget !== undefined) {
        list.push(on({ type: "spendCollapse", foeId: combatantId, text: "", targets: [firstTarget] }, about));
      }
      continue;
    }
    if (starting && !c.acted && !c.defeated) {
      list.push(on({ type: "startTurn", combatantId }, about), on({ type: "pickNext", combatantId }, about));
    }
    const roll = { type: "skillRoll", combatantId, dieSize: 12, dice } as const;
    if (combatantId === acting) {
      list.push(
        on({ type: "endTurn", combatantId }, about),
        on(roll, about),
        on({ ...roll, gainsAdvantage: true }, { combatantId, gainsAdvantage: true }),
        on({ type: "freeAction", combatantId, kind: "move" }, { combatantId, kind: "move" }),
        on({ type: "freeAction", combatantId, kind: "item" }, { combatantId, kind: "item" }),
      );
    }
    if (spending && canControl(who, combatantId))
      list.push(on({ type: "spendAdvantage", note: "", combatantId }, about));
    if (combatantId !== acting) continue;
    for (const intentId of defendable) list.push(on({ ...roll, defendsIntent: intentId }, { combatantId, intentId }));
  }
  if (gm && state.started && state.phase === "foesResolve") {
    for (const intent of state.intents) {
      if (intent.resolved) continue;
      list.push(
        on(
          { type: "markOutOfReach", intentId: intent.id, outOfReach: !intent.outOfReach },
          { intentId: intent.id, combatantId: intent.foeId },
        ),
      );
    }
  }
  return list;
}

/**
 * The commands tried by their refusal check alone: each handler, once past it, always accepts, so
 * that no new state is built per combatant, hero and intent, nor for a turn, phase or round moving
 * on. Every other command (one cheap probe each) is tried through the rules.
 */
const refusalChecks: RefusalChecks<PhasesState, PhasesCommand> = {
  nextTurn: (state, _command, who) => nextTurnRefusal(state, who),
  nextPhase: (state, _command, who) => advanceRefusal(state, who),
  nextRound: (state, _command, who) => advanceRefusal(state, who),
  removeCombatant: (state, { combatantId }, who) => gmCombatantRefusal(state, combatantId, who),
  setDefeated: (state, { combatantId }, who) => gmCombatantRefusal(state, combatantId, who),
  declareIntent: declareRefusal,
  spendCollapse: collapseRefusal,
  startTurn: startRefusal,
  pickNext: pickRefusal,
  endTurn: (state, { combatantId }, who) => actingRefusal(state, combatantId, who),
  skillRoll: rollRefusal,
  freeAction: freeRefusal,
  spendAdvantage: advantageRefusal,
  markOutOfReach: reachRefusal,
};

/** What this user may do now, with the combatant, intent or free action each control is about. */
export function phasesAllowed(state: PhasesState, who: Requester): readonly PhasesAllowedAction[] {
  const given: PhasesAllowedAction[] = who.isGM ? [{ type: "addCombatant" }] : [];
  return allowedByTrial(state, who, given, probes(state, who), applyCommand, refusalChecks);
}

/**
 * The acting turn: a hero's turn (phase 2) or a foe resolving its intents (phase 3), named by round,
 * phase and combatant. A foe declaring (phase 1) takes no turn.
 */
export function phasesTurnKey(state: PhasesState): string | null {
  if (!state.started || (state.phase !== "heroes" && state.phase !== "foesResolve")) return null;
  const current = currentOf(state);
  return current === null ? null : `${state.round}:${state.phase}:${current}`;
}
