/** The `individual` command handlers. */

import { accept, refuse, type Outcome, type Requester, type RuleEvent } from "../../../core/engine";
import {
  addToRoster,
  canControl,
  runHandler,
  findById,
  isFiniteNumber,
  isId,
  isText,
  markTyped,
  updateCombatant,
  withItem,
  without,
  type Handlers,
  gmCombatantRefusal,
} from "../../../core/common";
import type { IndividualCommand, IndividualState, RollOffResult } from "./types";
import { deriveOrder, unitsOf } from "./ranking";
import { groupMembers, pendingRollOffs } from "./derived";
import {
  actNow,
  appendDelayers,
  beginTurn,
  continueFrom,
  endTurn,
  newCombatant,
  placeJoiners,
  removeRollOffEntries,
  startRound,
  turnOutcome,
} from "./flow";

export const handlers: Handlers<IndividualState, IndividualCommand> = {
  addCombatant: (state, { combatant }, who) => addToRoster(state, combatant, who, newCombatant),

  removeCombatant(state, { combatantId }, who) {
    if (!who.isGM) return refuse("notGM");
    const gone = findById(state.combatants, combatantId);
    if (gone === undefined) return refuse("unknownCombatant", combatantId);
    const events: RuleEvent[] = [{ type: "combatantRemoved", round: state.round, combatantId }];
    // Its group ranks differently without it: that group's roll-offs no longer apply.
    const cleared = gone.groupId === null ? [combatantId] : [...groupMembers(state, gone.groupId)];
    const index = state.order.indexOf(combatantId);
    let s: IndividualState = {
      ...state,
      combatants: state.combatants.filter((c) => c.id !== combatantId),
      rollOffs: removeRollOffEntries(state.rollOffs, cleared),
      order: without(state.order, combatantId),
      acted: without(state.acted, combatantId),
      waited: without(state.waited, combatantId),
      flatFooted: without(state.flatFooted, combatantId),
      moved: without(state.moved, combatantId),
      delaying: state.delaying
        .filter((d) => d.combatantId !== combatantId)
        .map((d) => (d.after === combatantId ? { combatantId: d.combatantId, after: null } : d)),
      current: state.current === combatantId ? null : state.current,
    };
    // The one acting is gone: the next in the order acts (a new round if it was the last).
    if (state.started && state.current === combatantId) s = continueFrom(s, index, events);
    return accept(s, events);
  },

  setDefeated(state, { combatantId, defeated }, who) {
    const why = gmCombatantRefusal(state, combatantId, who);
    if (why !== null) return why;
    const s = updateCombatant(state, combatantId, (c) => ({ ...c, defeated }));
    return accept(s, [{ type: "defeatedChanged", round: s.round, combatantId }]);
  },

  setSkipDefeated(state, { skip }, who) {
    if (!who.isGM) return refuse("notGM");
    return accept({ ...state, skipDefeated: skip });
  },

  recordInitiative(state, { combatantId, total, modifier, typed }, who) {
    const c = findById(state.combatants, combatantId);
    if (c === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    if (typed === true && !who.isGM) return refuse("typedResult", combatantId);
    if (!isFiniteNumber(total) || !isFiniteNumber(modifier)) return refuse("invalidValue", combatantId);
    if (c.groupId !== null) return refuse("inGroup", combatantId);
    // After the start only a joiner that has not rolled may roll.
    if (state.started && (c.initiative !== null || state.order.includes(combatantId))) {
      return refuse("alreadyStarted", combatantId);
    }
    // Players roll once, as in core; only the GM rolls again (the earlier roll stays in chat).
    if (!who.isGM && c.initiative !== null) return refuse("rerollGMOnly", combatantId);
    const events: RuleEvent[] = [{ type: "initiativeRecorded", round: state.round, combatantId }];
    let s = updateCombatant(state, combatantId, (x) => markTyped({ ...x, initiative: total, modifier }, typed));
    s = { ...s, rollOffs: removeRollOffEntries(s.rollOffs, [combatantId]) };
    return accept(s, events);
  },

  setGroup(state, { combatantId, groupId, modifier }, who) {
    if (!who.isGM) return refuse("notGM");
    const c = findById(state.combatants, combatantId);
    if (c === undefined) return refuse("unknownCombatant", combatantId);
    if (state.started) return refuse("alreadyStarted");
    if (c.isPC) return refuse("notNPC", combatantId);
    if (groupId !== null && (!isId(groupId) || !isFiniteNumber(modifier))) return refuse("invalidValue", combatantId);
    const others = groupId === null ? [] : groupMembers(state, groupId).filter((id) => id !== combatantId);
    const first = others[0] === undefined ? undefined : findById(state.combatants, others[0]);
    // A member takes its group's total (or none yet); leaving a group means rolling alone.
    const initiative = groupId === null ? null : (first?.initiative ?? null);
    const cleared = [combatantId, ...others, ...(c.groupId === null ? [] : groupMembers(state, c.groupId))];
    let s = updateCombatant(state, combatantId, (x) =>
      markTyped(
        { ...x, groupId, initiative, modifier: modifier === undefined ? x.modifier : modifier },
        initiative !== null && first?.typed === true,
      ),
    );
    s = { ...s, rollOffs: removeRollOffEntries(s.rollOffs, cleared) };
    return accept(s, [{ type: "groupChanged", round: s.round, combatantId }]);
  },

  recordGroupInitiative(state, { groupId, total, typed }, who) {
    if (!who.isGM) return refuse("notGM");
    const members = groupMembers(state, groupId);
    if (members.length === 0) return refuse("unknownGroup");
    if (state.started) return refuse("alreadyStarted");
    if (!isFiniteNumber(total)) return refuse("invalidValue");
    let s: IndividualState = {
      ...state,
      combatants: state.combatants.map((c) =>
        c.groupId === groupId ? markTyped({ ...c, initiative: total }, typed) : c,
      ),
    };
    s = { ...s, rollOffs: removeRollOffEntries(s.rollOffs, members) };
    return accept(
      s,
      members.map((combatantId) => ({ type: "initiativeRecorded", round: s.round, combatantId })),
    );
  },

  recordRollOff(state, { results }, who) {
    const first = results[0];
    if (first === undefined) return refuse("notTied");
    for (const r of results) {
      if (findById(state.combatants, r.combatantId) === undefined) return refuse("unknownCombatant", r.combatantId);
    }
    for (const r of results) {
      if (!canControl(who, r.combatantId)) return refuse("notOwner", r.combatantId);
    }
    const units = unitsOf(state);
    const reps: string[] = [];
    const record: RollOffResult[] = [];
    for (const r of results) {
      const unit = units.find((u) => u.members.includes(r.combatantId));
      if (!isFiniteNumber(r.total) || unit === undefined || reps.includes(unit.rep)) {
        return refuse("invalidValue", r.combatantId);
      }
      reps.push(unit.rep);
      for (const member of unit.members) record.push({ combatantId: member, total: r.total });
    }
    const matches = pendingRollOffs(state).some(
      (set) => set.length === reps.length && set.every((id) => reps.includes(id)),
    );
    if (!matches) return refuse("notTied", first.combatantId);
    const events: RuleEvent[] = [{ type: "rollOffRecorded", round: state.round, combatantId: first.combatantId }];
    return accept({ ...state, rollOffs: [...state.rollOffs, record] }, events);
  },

  setAware(state, { combatantId, aware }, who) {
    const why = gmCombatantRefusal(state, combatantId, who);
    if (why !== null) return why;
    if (state.started) return refuse("alreadyStarted");
    const s = updateCombatant(state, combatantId, (c) => ({ ...c, aware }));
    return accept(s, [{ type: "awareChanged", round: s.round, combatantId }]);
  },

  start(state, { surprise = false }, who) {
    if (!who.isGM) return refuse("notGM");
    if (state.started) return refuse("alreadyStarted");
    if (state.combatants.length === 0) return refuse("noCombatants");
    const missing = state.combatants.find((c) => c.initiative === null);
    if (missing !== undefined) return refuse("initiativeMissing", missing.id);
    const derived = deriveOrder(state);
    const tie = derived.pending[0]?.[0];
    if (tie !== undefined) return refuse("rollOffPending", tie.rep);
    if (surprise && !state.combatants.some((c) => c.aware)) return refuse("notAware");
    const events: RuleEvent[] = [{ type: "combatStarted", round: 1 }];
    const s: IndividualState = {
      ...state,
      started: true,
      surpriseBattle: surprise,
      order: derived.units.flatMap((u) => u.members),
      flatFooted: surprise ? state.combatants.map((c) => c.id) : [],
    };
    return accept(startRound(s, 1, surprise, events), events, "round");
  },

  nextTurn(state, _command, who) {
    if (!state.started) return refuse("notStarted");
    if (!who.isGM && state.current === null) return refuse("notYourTurn");
    // Someone else's combatant is acting: the reason is ownership, not whose turn it is.
    if (!who.isGM && state.current !== null && !who.owns.includes(state.current))
      return refuse("notOwner", state.current);
    const events: RuleEvent[] = [];
    return turnOutcome(state, endTurn(state, events), events);
  },

  nextRound(state, _command, who) {
    if (!who.isGM) return refuse("notGM");
    if (!state.started) return refuse("notStarted");
    const events: RuleEvent[] = [];
    const s = startRound(appendDelayers(state, events), state.round + 1, false, events);
    return accept(s, events, "round");
  },

  delay(state, { combatantId, after = null }, who) {
    if (!state.started) return refuse("notStarted");
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    if (state.current !== combatantId) return refuse("notYourTurn", combatantId);
    if (state.waited.includes(combatantId)) return refuse("alreadyWaiting", combatantId);
    const index = state.order.indexOf(combatantId);
    if (after !== null) {
      if (findById(state.combatants, after) === undefined) return refuse("unknownCombatant", after);
      const at = state.order.indexOf(after);
      if (after === combatantId || at < 0) return refuse("invalidValue", after);
      if (at < index || state.acted.includes(after)) return refuse("alreadyActed", after);
    }
    const events: RuleEvent[] = [{ type: "delayed", round: state.round, combatantId }];
    const s: IndividualState = {
      ...state,
      order: without(state.order, combatantId),
      delaying: [...state.delaying, { combatantId, after }],
      waited: withItem(state.waited, combatantId),
      moved: withItem(state.moved, combatantId),
      current: null,
    };
    const next = continueFrom(s, index, events);
    // Nobody else acts this round before the delay would come back: waiting longer is no choice
    // (the longest one may wait is until everyone else has acted once). Say so and change nothing.
    if (next.current === combatantId && next.round === state.round) return refuse("lastToAct", combatantId);
    return turnOutcome(state, next, events);
  },

  endDelay(state, { combatantId }, who) {
    if (!state.started) return refuse("notStarted");
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    if (!state.delaying.some((d) => d.combatantId === combatantId)) return refuse("notDelaying", combatantId);
    const events: RuleEvent[] = [{ type: "delayEnded", round: state.round, combatantId }];
    const placed: IndividualState = {
      ...actNow(state, combatantId),
      delaying: state.delaying.filter((d) => d.combatantId !== combatantId),
    };
    // Its turn began before it delayed: this resumes it.
    return turnOutcome(state, beginTurn({ ...placed, current: null }, combatantId, events), events);
  },

  ready(state, { combatantId, trigger }, who) {
    if (!state.started) return refuse("notStarted");
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    if (state.current !== combatantId) return refuse("notYourTurn", combatantId);
    if (!isText(trigger) || trigger.trim() === "") return refuse("invalidValue", combatantId);
    if (state.waited.includes(combatantId)) return refuse("alreadyWaiting", combatantId);
    const events: RuleEvent[] = [{ type: "readied", round: state.round, combatantId }];
    let s = updateCombatant(state, combatantId, (c) => ({ ...c, ready: trigger.trim() }));
    s = { ...s, waited: withItem(s.waited, combatantId) };
    return turnOutcome(state, endTurn(s, events), events);
  },

  triggerReady(state, { combatantId }, who) {
    if (!state.started) return refuse("notStarted");
    const c = findById(state.combatants, combatantId);
    if (c === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    if (c.ready === null || !state.order.includes(combatantId)) return refuse("notReady", combatantId);
    const events: RuleEvent[] = [{ type: "readyTriggered", round: state.round, combatantId }];
    let s = updateCombatant(actNow(state, combatantId), combatantId, (x) => ({ ...x, ready: null }));
    s = { ...s, moved: withItem(s.moved, combatantId) };
    if (!s.acted.includes(combatantId)) {
      // Triggered before its own turn this round came up: this is its turn for the round.
      s = beginTurn({ ...s, current: null }, combatantId, events);
    }
    return turnOutcome(state, s, events);
  },
};

export function applyCommand(
  state: IndividualState,
  command: IndividualCommand,
  who: Requester,
): Outcome<IndividualState> {
  const outcome = applyHandler(state, command, who);
  if (!outcome.ok || !outcome.state.started) return outcome;
  // Any change to the order (a delay, a removal, a roll-off) can decide where a rolled joiner goes.
  const events = [...outcome.events];
  const placed = placeJoiners(outcome.state, events);
  if (placed === outcome.state) return outcome;
  return accept(placed, events, outcome.step);
}

export function applyHandler(
  state: IndividualState,
  command: IndividualCommand,
  who: Requester,
): Outcome<IndividualState> {
  return runHandler(handlers, state, command, who);
}
