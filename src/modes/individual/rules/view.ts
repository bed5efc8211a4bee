/** The `individual` view (whose turn, the order) and the actions `who` may take now. */

import type { AllowedAction, Requester, TurnView } from "../../../core/engine";
import { allowedByTrial, canControl, probe, type Probe as CommonProbe } from "../../../core/common";
import type { IndividualCommand, IndividualState, IndividualStep } from "./types";
import { deriveOrder } from "./ranking";
import { delayingIds, groupIds, pendingRollOffs, unplaced } from "./derived";
import { endTurn } from "./flow";
import { applyHandler } from "./commands";

function viewOrder(state: IndividualState): string[] {
  if (!state.started) {
    const ranked = deriveOrder(state).units.flatMap((u) => u.members);
    return [...ranked, ...state.combatants.filter((c) => !ranked.includes(c.id)).map((c) => c.id)];
  }
  return [...state.order, ...delayingIds(state), ...unplaced(state).map((c) => c.id)];
}

export function view(state: IndividualState): TurnView {
  const step: IndividualStep = !state.started ? "setup" : state.surpriseRound ? "surprise" : "round";
  return {
    started: state.started,
    round: state.round,
    step,
    order: viewOrder(state),
    current: state.current,
    next: state.started ? endTurn(state, []).current : null,
  };
}

type Probe = CommonProbe<AllowedAction, IndividualCommand>;

function probes(state: IndividualState, who: Requester): Probe[] {
  const list: Probe[] = [
    probe({ type: "start", surprise: false }),
    probe({ type: "start", surprise: true }),
    probe({ type: "nextTurn" }),
    probe({ type: "nextRound" }),
  ];
  for (const c of state.combatants) {
    const combatantId = c.id;
    // Every per-combatant command needs the GM or the combatant's owner: skip the rest untried.
    if (!canControl(who, combatantId)) continue;
    const on = (command: IndividualCommand): Probe => probe(command, { combatantId });
    list.push(
      on({ type: "recordInitiative", combatantId, total: 0, modifier: 0 }),
      on({ type: "setGroup", combatantId, groupId: c.groupId ?? "group", modifier: c.modifier ?? 0 }),
      on({ type: "setAware", combatantId, aware: !c.aware }),
      on({ type: "delay", combatantId }),
      on({ type: "endDelay", combatantId }),
      on({ type: "ready", combatantId, trigger: "trigger" }),
      on({ type: "triggerReady", combatantId }),
    );
  }
  for (const groupId of groupIds(state)) {
    list.push(probe({ type: "recordGroupInitiative", groupId, total: 0 }, { groupId }));
  }
  for (const set of pendingRollOffs(state)) {
    const results = set.map((combatantId, i) => ({ combatantId, total: i }));
    const combatantId = set[0];
    list.push(probe({ type: "recordRollOff", results }, combatantId === undefined ? undefined : { combatantId }));
  }
  if (who.isGM) {
    list.push(probe({ type: "setSkipDefeated", skip: !state.skipDefeated }));
  }
  return list;
}

export function allowed(state: IndividualState, who: Requester): readonly AllowedAction[] {
  const given: AllowedAction[] = who.isGM ? [{ type: "addCombatant" }] : [];
  // Removing a combatant or marking it defeated is the GM's, for any known combatant: listed without a
  // trial apply, because each apply rebuilds the state and trying them for every row made this quadratic.
  if (who.isGM) {
    for (const c of state.combatants) {
      given.push({ type: "setDefeated", combatantId: c.id }, { type: "removeCombatant", combatantId: c.id });
    }
  }
  // A command the handler accepts is accepted: what follows (settling the steps that need nobody)
  // never refuses, so each trial stops at the handler, as in the sides rules.
  return allowedByTrial(state, who, given, probes(state, who), applyHandler);
}

/** The acting turn: whoever acts now, named by round (surprise or regular) and combatant. */
export function individualTurnKey(state: IndividualState): string | null {
  if (!state.started || state.current === null) return null;
  return `${state.round}:${state.surpriseRound ? "surprise" : "round"}:${state.current}`;
}
