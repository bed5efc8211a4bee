/**
 * The generators of the `individual` mode, shared by its property test and its conformance kit:
 * abstract actions (checks, groups, roll-offs, surprise, turns, delay and ready, defeats, joins and
 * removals) from the GM, owners and strangers, how each becomes commands against the state it meets,
 * and the command an allowed action names.
 */
import fc from "fast-check";
import type { AllowedAction } from "../../src/core/engine";
import type { IndividualCommand, IndividualState } from "../../src/modes/individual/rules/types";
import { pendingRollOffs } from "../../src/modes/individual/rules/derived";
import type { Sent } from "../conformance/kit";
import { GM, T as t, pickId, requester, senders, variant, type By } from "./property-harness";

/** An abstract action. */
export type IndividualAction =
  | { k: "roll"; t: number; total: number; by: By }
  | { k: "begin"; totals: readonly number[]; surprise: boolean }
  | { k: "group"; t: number; g: number | null }
  | { k: "groupRoll"; g: number; total: number }
  | { k: "rollOff"; t: number; by: By }
  | { k: "aware"; t: number; v: boolean }
  | { k: "start"; surprise: boolean; by: By }
  | { k: "next"; by: By }
  | { k: "nextRound"; by: By }
  | { k: "delay"; t: number; after: number | null; by: By }
  | { k: "endDelay"; t: number; by: By }
  | { k: "ready"; t: number; by: By }
  | { k: "trigger"; t: number; by: By }
  | { k: "defeated"; t: number; v: boolean }
  | { k: "skip"; v: boolean }
  | { k: "add"; isPC: boolean }
  | { k: "remove"; t: number };

/**
 * The actions. `roster: false` leaves out joins and removals (in Foundry they come from combatant
 * documents).
 */
export function individualActions({ roster = true }: { roster?: boolean } = {}): fc.Arbitrary<IndividualAction> {
  const by = senders();
  const total = fc.integer({ min: 1, max: 6 });
  const totals = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 6, maxLength: 6 });
  const play = [
    variant("roll", { t, total, by }, 4),
    variant("begin", { totals, surprise: fc.boolean() }, 3),
    variant("group", { t, g: fc.option(fc.nat(1)) }, 1),
    variant("groupRoll", { g: fc.nat(1), total }, 1),
    variant("rollOff", { t, by }, 3),
    variant("aware", { t, v: fc.boolean() }, 1),
    variant("start", { surprise: fc.boolean(), by }, 2),
    variant("next", { by }, 10),
    variant("nextRound", { by }, 1),
    variant("delay", { t, after: fc.option(t), by }, 3),
    variant("endDelay", { t, by }, 4),
    variant("ready", { t, by }, 2),
    variant("trigger", { t, by }, 4),
    variant("defeated", { t, v: fc.boolean() }, 1),
    variant("skip", { v: fc.boolean() }, 1),
  ] as const;
  if (!roster) return fc.oneof(...play);
  return fc.oneof(...play, variant("add", { isPC: fc.boolean() }, 1), variant("remove", { t }, 1));
}

/** A combatant id from a number: mostly a live one, sometimes the acting one, sometimes a stranger. */
function pick(state: IndividualState, n: number, preferCurrent = false): string {
  if (preferCurrent && n % 2 === 0 && state.current !== null) return state.current;
  return pickId(
    state.combatants.map((c) => c.id),
    n,
  );
}

/**
 * Turn an action into commands and their senders, each against the state `now()` returns at the time
 * (`begin` reads the state between its rolls). `fresh` names joiners.
 */
export function* individualCommands(
  a: IndividualAction,
  now: () => IndividualState,
  fresh: () => string,
): Iterable<Sent<IndividualCommand>> {
  const s = now();
  switch (a.k) {
    case "roll": {
      const id = pick(s, a.t);
      yield [{ type: "recordInitiative", combatantId: id, total: a.total, modifier: a.t % 3 }, requester(a.by, id)];
      return;
    }
    case "begin": {
      // The GM rolls what is missing, settles the roll-offs and starts.
      for (const [i, c] of s.combatants.entries()) {
        if (c.initiative !== null) continue;
        const value = a.totals[i % a.totals.length] ?? 1;
        yield c.groupId === null
          ? [{ type: "recordInitiative", combatantId: c.id, total: value, modifier: i % 2 }, GM]
          : [{ type: "recordGroupInitiative", groupId: c.groupId, total: value }, GM];
      }
      for (let i = 0; i < 8; i++) {
        const pending = pendingRollOffs(now())[0];
        if (pending === undefined) break;
        yield [
          { type: "recordRollOff", results: pending.map((combatantId, j) => ({ combatantId, total: i + j })) },
          GM,
        ];
      }
      const first = now().combatants[0];
      if (a.surprise && first !== undefined) yield [{ type: "setAware", combatantId: first.id, aware: true }, GM];
      yield [{ type: "start", surprise: a.surprise }, GM];
      return;
    }
    case "group":
      yield [
        { type: "setGroup", combatantId: pick(s, a.t), groupId: a.g === null ? null : `g${a.g}`, modifier: a.t % 2 },
        GM,
      ];
      return;
    case "groupRoll":
      yield [{ type: "recordGroupInitiative", groupId: `g${a.g}`, total: a.total }, GM];
      return;
    case "rollOff": {
      const ids = pendingRollOffs(s)[0] ?? [pick(s, a.t), pick(s, a.t + 1)];
      const results = ids.map((combatantId, i) => ({ combatantId, total: (a.t + i) % 4 }));
      const owner = requester(a.by, ids[0] ?? null);
      yield [{ type: "recordRollOff", results }, a.by === "owner" ? { ...owner, owns: ids } : owner];
      return;
    }
    case "aware":
      yield [{ type: "setAware", combatantId: pick(s, a.t), aware: a.v }, GM];
      return;
    case "start":
      yield [{ type: "start", surprise: a.surprise }, requester(a.by, null)];
      return;
    case "next":
      yield [{ type: "nextTurn" }, requester(a.by, s.current)];
      return;
    case "nextRound":
      yield [{ type: "nextRound" }, requester(a.by, null)];
      return;
    case "delay": {
      const id = pick(s, a.t, true);
      yield [
        { type: "delay", combatantId: id, after: a.after === null ? null : pick(s, a.after) },
        requester(a.by, id),
      ];
      return;
    }
    case "endDelay": {
      const delayer = s.delaying[a.t % Math.max(s.delaying.length, 1)]?.combatantId;
      const id = a.t % 4 !== 3 && delayer !== undefined ? delayer : pick(s, a.t);
      yield [{ type: "endDelay", combatantId: id }, requester(a.by, id)];
      return;
    }
    case "ready": {
      const id = pick(s, a.t, true);
      yield [{ type: "ready", combatantId: id, trigger: "when the door opens" }, requester(a.by, id)];
      return;
    }
    case "trigger": {
      const readied = s.combatants.filter((c) => c.ready !== null);
      const one = readied[a.t % Math.max(readied.length, 1)]?.id;
      const id = a.t % 4 !== 3 && one !== undefined ? one : pick(s, a.t);
      yield [{ type: "triggerReady", combatantId: id }, requester(a.by, id)];
      return;
    }
    case "defeated":
      yield [{ type: "setDefeated", combatantId: pick(s, a.t), defeated: a.v }, GM];
      return;
    case "skip":
      yield [{ type: "setSkipDefeated", skip: a.v }, GM];
      return;
    case "add":
      yield [{ type: "addCombatant", combatant: { id: fresh(), name: "joiner", isPC: a.isPC } }, GM];
      return;
    case "remove":
      yield [{ type: "removeCombatant", combatantId: pick(s, a.t) }, GM];
      return;
  }
}

/** The command an allowed action names, or null when it names none this helper builds. */
export function individualCommandFor(state: IndividualState, action: AllowedAction): IndividualCommand | null {
  const id = action.combatantId ?? "";
  const c = state.combatants.find((x) => x.id === id);
  switch (action.type) {
    case "addCombatant":
      return { type: "addCombatant", combatant: { id: "kit-joiner", name: "Joiner", isPC: false } };
    case "removeCombatant":
      return { type: "removeCombatant", combatantId: id };
    case "setDefeated":
      return c === undefined ? null : { type: "setDefeated", combatantId: id, defeated: !c.defeated };
    case "setSkipDefeated":
      return { type: "setSkipDefeated", skip: !state.skipDefeated };
    case "recordInitiative":
      // Ties of at most 50 (a roll-off takes at most 100), so that large benchmark encounters start.
      return {
        type: "recordInitiative",
        combatantId: id,
        total: 12 + Math.floor(state.combatants.findIndex((x) => x.id === id) / 50),
        modifier: 1,
      };
    case "setGroup":
      return c === undefined
        ? null
        : { type: "setGroup", combatantId: id, groupId: c.groupId ?? "kit-group", modifier: c.modifier ?? 0 };
    case "recordGroupInitiative":
      return action.groupId === undefined ? null : { type: "recordGroupInitiative", groupId: action.groupId, total: 9 };
    case "recordRollOff": {
      const set = pendingRollOffs(state).find((ids) => ids[0] === id);
      return set === undefined
        ? null
        : { type: "recordRollOff", results: set.map((combatantId, i) => ({ combatantId, total: 10 - i })) };
    }
    case "setAware":
      return c === undefined ? null : { type: "setAware", combatantId: id, aware: !c.aware };
    case "start":
      return { type: "start", surprise: false };
    case "nextTurn":
    case "nextRound":
      return { type: action.type };
    case "delay":
      return { type: "delay", combatantId: id, after: null };
    case "endDelay":
    case "triggerReady":
      return { type: action.type, combatantId: id };
    case "ready":
      return { type: "ready", combatantId: id, trigger: "when they come through the door" };
    default:
      return null;
  }
}
