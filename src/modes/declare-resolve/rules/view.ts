/** The `declare-resolve` view (one order all round, the current and next actor) and the allowed actions. */
import type { AllowedAction, Requester, TurnView } from "../../../core/engine";
import { allowedByTrial, canControl, probe, type Probe as CommonProbe } from "../../../core/common";
import type { DeclareResolveState, DeclareResolveCommand } from "./types";
import { tiePending, pendingTies } from "./points";
import { started, currentOf, currentStep, viewOrder, currentDeclarer, currentTurn } from "./derived";
import { advance } from "./flow";
import { applyHandler, refusalChecks } from "./commands";

/**
 * Who comes next: the first combatant after the current one, in this round, that is someone else
 * (a resolver with a second action in a row, or the last declarer who resolves first, is not named
 * twice). Steps with nobody (the upkeep) are passed over; null when the round ends first.
 */
function nextOf(state: DeclareResolveState): string | null {
  if (!started(state) || tiePending(state)) return null;
  const now = currentOf(state);
  let s = state;
  for (let guard = 0; guard < 4 * (state.combatants.length + 2); guard++) {
    const after = advance(s, []);
    if (after.round !== state.round || after === s) return null;
    const who = currentOf(after);
    if (who !== null && who !== now) return who;
    s = after;
  }
  return null;
}

export function view(state: DeclareResolveState): TurnView {
  return {
    started: started(state),
    round: state.round,
    step: currentStep(state),
    order: viewOrder(state),
    current: currentOf(state),
    next: nextOf(state),
  };
}

type Probe = CommonProbe<AllowedAction, DeclareResolveCommand>;

function probes(state: DeclareResolveState, who: Requester): Probe[] {
  const list: Probe[] = [
    probe({ type: "start" }),
    probe({ type: "nextTurn" }),
    probe({ type: "nextRound" }),
    probe({ type: "upkeep" }),
    probe({ type: "setBudget", budget: state.budget }),
  ];
  for (const tie of pendingTies(state)) {
    list.push(probe({ type: "orderTied", combatantIds: tie }, { combatantId: tie[0] }));
  }
  const declarer = currentDeclarer(state);
  for (const c of state.combatants) {
    const combatantId = c.id;
    // Every per-combatant command needs the GM or the combatant's owner: skip the rest untried.
    if (!canControl(who, combatantId)) continue;
    const on = (command: DeclareResolveCommand): Probe => probe(command, { combatantId });
    // Probes that can only be refused are left out (only the current declarer may declare; after the
    // start only who has not rolled rolls, before it only the GM rolls again; the rest is the GM's).
    if (combatantId === declarer) list.push(on({ type: "declare", combatantId, actions: [] }));
    if (c.ip === null || (!started(state) && who.isGM))
      list.push(on({ type: "recordIP", combatantId, total: 0, modifier: 0 }));
    if (!who.isGM) continue;
    list.push(
      on({ type: "setDefeated", combatantId, defeated: !c.defeated }),
      on({ type: "removeCombatant", combatantId }),
      on({ type: "setConditions", combatantId, ...c.conditions }),
      on({ type: "addIPChange", combatantId, cause: "?", amount: 0, duration: { kind: "round" } }),
    );
    const change = c.ipChanges[0];
    if (change !== undefined) list.push(on({ type: "removeIPChange", combatantId, changeId: change.id }));
  }
  return list;
}
/** What this user may do now (each per-combatant action names its combatant). */
export function declareResolveAllowed(state: DeclareResolveState, who: Requester): readonly AllowedAction[] {
  const given: AllowedAction[] = who.isGM ? [{ type: "addCombatant" }] : [];
  // A command the handler accepts is accepted: what follows (settling the steps that need nobody)
  // never refuses, so each trial stops at the handler (or at its refusal check), as in the sides rules.
  return allowedByTrial(state, who, given, probes(state, who), applyHandler, refusalChecks);
}

/**
 * The acting turn: a combatant's part of a resolution pass, named by round, pass and combatant.
 * Rolls, declarations and the upkeep are no turns.
 */
export function declareResolveTurnKey(state: DeclareResolveState): string | null {
  if (state.phase !== "resolve") return null;
  const turn = currentTurn(state);
  return turn === null ? null : `${state.round}:resolve${turn.pass}:${turn.combatantId}`;
}
