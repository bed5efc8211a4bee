/** The `declare-resolve` command handlers with their refusal checks, and `applyCommand` that moves the round on after each. */
import { accept, type Outcome, type Requester, refuse } from "../../../core/engine";
import {
  addToRoster,
  runHandler,
  type Handlers,
  type RefusalChecks,
  canControl,
  findById,
  isId,
  isRecord,
  sameSet,
  stepKind,
  isWhole,
  updateCombatant,
  gmCombatantRefusal,
} from "../../../core/common";
import {
  type DeclareResolveState,
  type IPChangeDuration,
  MAX_IP_CHANGE_ROUNDS,
  type DeclareResolveCombatant,
  type DeclareResolveCommand,
  MAX_AP_BUDGET,
  MAX_REPLACED_IP,
  type IPChange,
  type DeclareResolveEvent,
  MAX_CONDITION,
  MAX_IP_CHANGES,
} from "./types";
import { declarationOf, pendingTies, currentIP, tiePending, declarationLegality } from "./points";
import { started, currentDeclarer, currentOf, currentResolver } from "./derived";
import { newCombatant, startRound, newDeclaration, advance, enterPhase, settle } from "./flow";
import { isIPValue, isCause } from "./untrusted";

function lastRoundOf(state: DeclareResolveState, duration: IPChangeDuration): number | null | undefined {
  const from = Math.max(state.round, 1);
  switch (duration.kind) {
    case "round":
      return from;
    case "rounds":
      return isWhole(duration.rounds, MAX_IP_CHANGE_ROUNDS, 1) ? from + duration.rounds - 1 : undefined;
    case "untilRemoved":
      return null;
    default:
      return undefined;
  }
}

/** A change id not yet used by the combatant. */
function freshChangeId(c: DeclareResolveCombatant): string {
  for (let n = c.ipChanges.length + 1; ; n++) {
    const id = `ip${n}`;
    if (!c.ipChanges.some((x) => x.id === id)) return id;
  }
}

/**
 * The refusal checks of the commands probed once per combatant, and of the next turn: each handler
 * makes its check first, then builds the new state (and always accepts), so a trial by the check
 * builds none. The property test (test/rules/declare-resolve-allowed.property.test.ts) compares the
 * two ways.
 */
export const refusalChecks = {
  // One probe, but its handler moves the round on (a resolved turn, a step of the round).
  nextTurn(state, _command, who) {
    if (!started(state)) return refuse("notStarted");
    if (tiePending(state)) return refuse("ipTiePending");
    if (state.phase === "resolve") {
      const current = currentResolver(state);
      if (current === null) return refuse("wrongStep");
      // It is the resolver's turn: only its owner or the GM ends it.
      if (!canControl(who, current)) return refuse("notOwner", current);
    } else if (!who.isGM) {
      // Declaring is done by declaring; only the GM skips a declarer, a roll or confirms the upkeep.
      const current = currentDeclarer(state);
      return current === null ? refuse("notGM") : refuse("skipDeclarerGM", current);
    }
    return null;
  },
  removeCombatant: (state, { combatantId }, who) => gmCombatantRefusal(state, combatantId, who),
  setDefeated: (state, { combatantId }, who) => gmCombatantRefusal(state, combatantId, who),
  setConditions(state, { combatantId, bleeding, dazed, stunned }, who) {
    const why = gmCombatantRefusal(state, combatantId, who);
    if (why !== null) return why;
    if (![bleeding, dazed, stunned].every((v) => isWhole(v, MAX_CONDITION))) return refuse("invalidValue", combatantId);
    return null;
  },
  recordIP(state, { combatantId, total, modifier }, who) {
    const c = findById(state.combatants, combatantId);
    if (c === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    if (!isIPValue(total) || !isIPValue(modifier)) return refuse("invalidValue", combatantId);
    // Once per combat: after the start only a combatant that has not rolled (a joiner) rolls.
    if (started(state) && c.ip !== null) return refuse("ipAlreadyRolled", combatantId);
    // Before it, a player's roll is the first that counts: only the GM rolls again or corrects it.
    if (!who.isGM && c.ip !== null) return refuse("rerollGMOnly", combatantId);
    return null;
  },
  addIPChange(state, { combatantId, changeId, cause, amount, duration }, who) {
    if (!who.isGM) return refuse("notGM");
    const c = findById(state.combatants, combatantId);
    if (c === undefined) return refuse("unknownCombatant", combatantId);
    if (!isCause(cause) || !isIPValue(amount) || !isRecord(duration)) return refuse("invalidValue", combatantId);
    if (lastRoundOf(state, duration) === undefined) return refuse("invalidValue", combatantId);
    if (c.ipChanges.length >= MAX_IP_CHANGES) return refuse("invalidValue", combatantId);
    if (changeId !== undefined && (!isId(changeId) || c.ipChanges.some((x) => x.id === changeId))) {
      return refuse("invalidValue", combatantId);
    }
    return null;
  },
  removeIPChange(state, { combatantId, changeId }, who) {
    if (!who.isGM) return refuse("notGM");
    const c = findById(state.combatants, combatantId);
    if (c === undefined) return refuse("unknownCombatant", combatantId);
    if (!c.ipChanges.some((x) => x.id === changeId)) return refuse("unknownIPChange", combatantId);
    return null;
  },
} satisfies RefusalChecks<DeclareResolveState, DeclareResolveCommand>;

export const handlers: Handlers<DeclareResolveState, DeclareResolveCommand> = {
  addCombatant: (state, { combatant }, who) => addToRoster(state, combatant, who, newCombatant),

  removeCombatant(state, { combatantId }, who) {
    const why = gmCombatantRefusal(state, combatantId, who);
    if (why !== null) return why;
    const s: DeclareResolveState = { ...state, combatants: state.combatants.filter((c) => c.id !== combatantId) };
    return accept(s, [{ type: "combatantRemoved", round: s.round, combatantId }]);
  },

  setDefeated(state, { combatantId, defeated }, who) {
    const why = gmCombatantRefusal(state, combatantId, who);
    if (why !== null) return why;
    const s = updateCombatant(state, combatantId, (c) => ({ ...c, defeated }));
    return accept(s, [{ type: "defeatedChanged", round: s.round, combatantId }]);
  },

  setBudget(state, { budget }, who) {
    if (!who.isGM) return refuse("notGM");
    if (!isWhole(budget, MAX_AP_BUDGET, 1)) return refuse("invalidValue");
    // Declarations were checked against the budget: it changes only before the round's first one.
    if (state.combatants.some((c) => declarationOf(state, c) !== null)) return refuse("wrongStep");
    return accept({ ...state, budget: budget + 0 }, [{ type: "budgetChanged", round: state.round }]);
  },

  recordIP(state, command, who) {
    const why = refusalChecks.recordIP(state, command, who);
    if (why !== null) return why;
    const { combatantId, total, modifier } = command;
    const s = updateCombatant(state, combatantId, (x) => ({
      ...x,
      ip: {
        total: total + 0,
        modifier: modifier + 0,
        ...(x.ip === null ? {} : { replaced: [...(x.ip.replaced ?? []), x.ip.total].slice(-MAX_REPLACED_IP) }),
      },
      tieBreak: null,
    }));
    return accept(s, [{ type: "ipRecorded", round: s.round, combatantId }]);
  },

  addIPChange(state, command, who) {
    const why = refusalChecks.addIPChange(state, command, who);
    if (why !== null) return why;
    const { combatantId, changeId, cause, amount, duration } = command;
    const c = findById(state.combatants, combatantId);
    const lastRound = lastRoundOf(state, duration);
    // Both are there: the refusal check found them.
    if (c === undefined || lastRound === undefined) return refuse("invalidValue", combatantId);
    const id = changeId ?? freshChangeId(c);
    const change: IPChange = { id, cause: cause.trim(), amount: amount + 0, lastRound };
    const s = updateCombatant(state, combatantId, (x) => ({ ...x, ipChanges: [...x.ipChanges, change] }));
    const events: DeclareResolveEvent[] = [{ type: "ipChangeAdded", round: s.round, combatantId, changeId: id }];
    return accept(s, events);
  },

  removeIPChange(state, command, who) {
    const why = refusalChecks.removeIPChange(state, command, who);
    if (why !== null) return why;
    const { combatantId, changeId } = command;
    const s = updateCombatant(state, combatantId, (x) => ({
      ...x,
      ipChanges: x.ipChanges.filter((y) => y.id !== changeId),
    }));
    const events: DeclareResolveEvent[] = [{ type: "ipChangeRemoved", round: s.round, combatantId, changeId }];
    return accept(s, events);
  },

  orderTied(state, { combatantIds }, who) {
    if (!who.isGM) return refuse("notGM");
    if (!pendingTies(state).some((tie) => sameSet(combatantIds, tie))) return refuse("notIPTied", combatantIds[0]);
    const tie = state.tiesOrdered;
    let s: DeclareResolveState = { ...state, tiesOrdered: tie + 1 };
    combatantIds.forEach((id, rank) => {
      s = updateCombatant(s, id, (c) => ({ ...c, tieBreak: { ip: currentIP(c) ?? 0, tie, rank } }));
    });
    return accept(s, [{ type: "tieOrdered", round: s.round }]);
  },

  setConditions(state, command, who) {
    const why = refusalChecks.setConditions(state, command, who);
    if (why !== null) return why;
    const { combatantId, bleeding, dazed, stunned } = command;
    const s = updateCombatant(state, combatantId, (c) => ({
      ...c,
      conditions: { bleeding: bleeding + 0, dazed: dazed + 0, stunned: stunned + 0 },
    }));
    return accept(s, [{ type: "conditionsSet", round: s.round, combatantId }]);
  },

  start(state, _command, who) {
    if (!who.isGM) return refuse("notGM");
    if (started(state)) return refuse("alreadyStarted");
    if (state.combatants.length === 0) return refuse("noCombatants");
    if (tiePending(state)) return refuse("ipTiePending");
    const events: DeclareResolveEvent[] = [{ type: "combatStarted", round: 1 }];
    return accept(startRound(state, 1, events), events, "round");
  },

  declare(state, { combatantId, actions }, who) {
    if (!started(state)) return refuse("notStarted");
    if (state.phase !== "declare") return refuse("wrongStep");
    const c = findById(state.combatants, combatantId);
    if (c === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    if (c.defeated) return refuse("combatantDefeated", combatantId);
    if (c.ip === null) return refuse("initiativeMissing", combatantId);
    if (declarationOf(state, c) !== null) return refuse("alreadyDeclared", combatantId);
    if (tiePending(state)) return refuse("ipTiePending");
    if (currentDeclarer(state) !== combatantId) return refuse("notYourTurn", combatantId);
    const legality = declarationLegality(state, combatantId, actions);
    if (!legality.ok) return { ok: false, refusal: legality.refusal };
    const declaration = newDeclaration(state, c, legality.actions, legality.carry, false);
    const s = updateCombatant(state, combatantId, (x) => ({ ...x, declaration }));
    return accept(s, [{ type: "declared", round: s.round, combatantId }], "turn");
  },

  nextTurn(state, command, who) {
    const why = refusalChecks.nextTurn(state, command, who);
    if (why !== null) return why;
    const events: DeclareResolveEvent[] = [];
    const s = advance(state, events);
    return accept(s, events, stepKind(state.round, s.round));
  },

  nextRound(state, _command, who) {
    if (!who.isGM) return refuse("notGM");
    if (!started(state)) return refuse("notStarted");
    if (tiePending(state)) return refuse("ipTiePending");
    const events: DeclareResolveEvent[] = [];
    // Before the upkeep: what is left of the round is skipped and the upkeep is shown; at the upkeep: confirm it.
    const s = state.phase === "upkeep" ? advance(state, events) : enterPhase(state, "upkeep", events);
    return accept(s, events, stepKind(state.round, s.round));
  },

  upkeep(state, _command, who) {
    if (!who.isGM) return refuse("notGM");
    if (!started(state)) return refuse("notStarted");
    if (state.phase !== "upkeep") return refuse("wrongStep");
    if (tiePending(state)) return refuse("ipTiePending");
    const events: DeclareResolveEvent[] = [];
    return accept(advance(state, events), events, "round");
  },
};

export function applyHandler(
  state: DeclareResolveState,
  command: DeclareResolveCommand,
  who: Requester,
): Outcome<DeclareResolveState> {
  return runHandler(handlers, state, command, who);
}

/**
 * Apply a command, then take every step that needs nobody (all rolled → declare; all declared →
 * resolve; nothing left to resolve → upkeep). A command that moves the round to another step is an
 * undoable step too (roster commands never are: the engine does not record them).
 */
export function applyCommand(
  state: DeclareResolveState,
  command: DeclareResolveCommand,
  who: Requester,
): Outcome<DeclareResolveState> {
  const outcome = applyHandler(state, command, who);
  if (!outcome.ok) return outcome;
  const events: DeclareResolveEvent[] = [...(outcome.events as readonly DeclareResolveEvent[])];
  const after = settle(outcome.state, events);
  const current = currentOf(after);
  const moved = after.round !== state.round || after.phase !== state.phase;
  if (current !== null && (moved || current !== currentOf(state))) {
    events.push({ type: "turnStarted", round: after.round, combatantId: current });
  }
  const step = outcome.step !== undefined || moved ? stepKind(state.round, after.round) : undefined;
  return accept(after, events, step);
}
