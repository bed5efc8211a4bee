/**
 * Property test of the `individual` mode: random sequences of legal and illegal commands from the
 * GM, an owner and a non-owner, checking the mode's invariants after every step.
 *
 * Invariants checked:
 * - The stored order holds each live, rolled combatant at most once; together with the delaying
 *   combatants (who have left the order for now) and the joiners whose place waits on a roll-off it
 *   is exactly the live rolled combatants. Joiners that have not rolled are in none of them.
 * - Members of a group stand together in the order at the start.
 * - Each combatant takes at most one regular turn a round (counted from `turnStarted` events; the
 *   resumption of an interrupted turn is not a turn).
 * - A refusal leaves the state unchanged (every input is deep-frozen, and compared after).
 * - `view().next` is who acts after a next turn, and next turn then previous turn (through the
 *   engine's `applyCommand`) gives back an equal encounter.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Requester } from "../../src/core/engine";
import { individualMode } from "../../src/modes/individual/rules/mode";
import type { IndividualCommand, IndividualState } from "../../src/modes/individual/rules/types";
import { pendingRollOffs } from "../../src/modes/individual/rules/derived";
import {
  GM,
  ModeRun,
  STRANGER,
  T as t,
  expectStepBack,
  freshIds,
  perRoundTally,
  pickId,
  requester,
  senders,
  variant,
  type By,
} from "./property-harness";

type Action =
  | { k: "roll"; t: number; total: number; mod: number; by: By }
  | { k: "rollAll"; totals: readonly number[] }
  | { k: "begin"; totals: readonly number[]; surprise: boolean }
  | { k: "group"; t: number; g: number | null; mod: number }
  | { k: "groupRoll"; g: number; total: number; by: By }
  | { k: "rollOff"; legal: boolean; t: number; totals: readonly number[]; by: By }
  | { k: "aware"; t: number; aware: boolean }
  | { k: "start"; surprise: boolean; by: By }
  | { k: "next"; by: By }
  | { k: "nextRound"; by: By }
  | { k: "delay"; t: number; after: number | null; by: By }
  | { k: "endDelay"; t: number; by: By }
  | { k: "ready"; t: number; by: By }
  | { k: "trigger"; t: number; by: By }
  | { k: "add"; isPC: boolean }
  | { k: "remove"; t: number }
  | { k: "defeated"; t: number; v: boolean }
  | { k: "skip"; v: boolean };

const by = senders();
const action: fc.Arbitrary<Action> = fc.oneof(
  variant("roll", { t, total: fc.integer({ min: 1, max: 6 }), mod: fc.integer({ min: 0, max: 2 }), by }, 5),
  variant("rollAll", { totals: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 8, maxLength: 8 }) }, 2),
  variant(
    "begin",
    { totals: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 8, maxLength: 8 }), surprise: fc.boolean() },
    2,
  ),
  variant("group", { t, g: fc.option(fc.nat(1)), mod: fc.integer({ min: 0, max: 2 }) }, 2),
  variant("groupRoll", { g: fc.nat(1), total: fc.integer({ min: 1, max: 6 }), by }, 2),
  variant(
    "rollOff",
    {
      legal: fc.boolean(),
      t,
      totals: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 6, maxLength: 6 }),
      by,
    },
    4,
  ),
  variant("aware", { t, aware: fc.boolean() }, 1),
  variant("start", { surprise: fc.boolean(), by }, 3),
  variant("next", { by }, 8),
  variant("nextRound", { by }, 1),
  variant("delay", { t, after: fc.option(t), by }, 3),
  variant("endDelay", { t, by }, 5),
  variant("ready", { t, by }, 2),
  variant("trigger", { t, by }, 5),
  variant("add", { isPC: fc.boolean() }, 1),
  variant("remove", { t }, 1),
  variant("defeated", { t, v: fc.boolean() }, 1),
  variant("skip", { v: fc.boolean() }, 1),
);

/** A combatant id from a number: mostly a live one, sometimes the acting one, sometimes a stranger. */
function pick(state: IndividualState, n: number, preferCurrent = false): string {
  if (preferCurrent && n % 2 === 0 && state.current !== null) return state.current;
  return pickId(
    state.combatants.map((c) => c.id),
    n,
  );
}

/** Turn an abstract action into commands and their senders, against the current state. */
function resolve(state: IndividualState, a: Action, fresh: () => string): [IndividualCommand, Requester][] {
  if (a.k === "rollAll") {
    // The GM rolls for everyone and every group still without a result (ties are likely).
    const total = (i: number): number => a.totals[i % a.totals.length] ?? 1;
    const commands: [IndividualCommand, Requester][] = [];
    state.combatants.forEach((c, i) => {
      if (c.initiative !== null) return;
      const command: IndividualCommand =
        c.groupId === null
          ? { type: "recordInitiative", combatantId: c.id, total: total(i), modifier: i % 2 }
          : { type: "recordGroupInitiative", groupId: c.groupId, total: total(i) };
      commands.push([command, GM]);
    });
    return commands;
  }
  if (a.k === "begin") return []; // run by the property itself: it needs the state between commands
  return [resolveOne(state, a, fresh)];
}

function resolveOne(
  state: IndividualState,
  a: Exclude<Action, { k: "rollAll" | "begin" }>,
  fresh: () => string,
): [IndividualCommand, Requester] {
  switch (a.k) {
    case "roll": {
      const id = pick(state, a.t);
      return [{ type: "recordInitiative", combatantId: id, total: a.total, modifier: a.mod }, requester(a.by, id)];
    }
    case "group":
      return [
        { type: "setGroup", combatantId: pick(state, a.t), groupId: a.g === null ? null : `g${a.g}`, modifier: a.mod },
        GM,
      ];
    case "groupRoll":
      return [{ type: "recordGroupInitiative", groupId: `g${a.g}`, total: a.total }, requester(a.by, null)];
    case "rollOff": {
      const pending = pendingRollOffs(state)[0];
      const ids = a.legal && pending !== undefined ? pending : [pick(state, a.t), pick(state, a.t + 1)];
      const results = ids.map((combatantId, i) => ({ combatantId, total: a.totals[i % a.totals.length] ?? 1 }));
      const owner: Requester =
        a.by === "gm" ? GM : a.by === "owner" ? { userId: "owner", isGM: false, owns: ids } : STRANGER;
      return [{ type: "recordRollOff", results }, owner];
    }
    case "aware":
      return [{ type: "setAware", combatantId: pick(state, a.t), aware: a.aware }, GM];
    case "start":
      return [{ type: "start", surprise: a.surprise }, requester(a.by, null)];
    case "next":
      return [{ type: "nextTurn" }, requester(a.by, state.current)];
    case "nextRound":
      return [{ type: "nextRound" }, requester(a.by, null)];
    case "delay": {
      const id = pick(state, a.t, true);
      const after = a.after === null ? null : pick(state, a.after);
      return [{ type: "delay", combatantId: id, after }, requester(a.by, id)];
    }
    case "endDelay": {
      const delayer = state.delaying[a.t % Math.max(state.delaying.length, 1)];
      const id = a.t % 4 !== 3 && delayer !== undefined ? delayer.combatantId : pick(state, a.t);
      return [{ type: "endDelay", combatantId: id }, requester(a.by, id)];
    }
    case "ready": {
      const id = pick(state, a.t, true);
      return [{ type: "ready", combatantId: id, trigger: "when the door opens" }, requester(a.by, id)];
    }
    case "trigger": {
      const readied = state.combatants.filter((c) => c.ready !== null);
      const one = readied[a.t % Math.max(readied.length, 1)];
      const id = a.t % 4 !== 3 && one !== undefined ? one.id : pick(state, a.t);
      return [{ type: "triggerReady", combatantId: id }, requester(a.by, id)];
    }
    case "add":
      return [{ type: "addCombatant", combatant: { id: fresh(), name: "joiner", isPC: a.isPC } }, GM];
    case "remove":
      return [{ type: "removeCombatant", combatantId: pick(state, a.t) }, GM];
    case "defeated":
      return [{ type: "setDefeated", combatantId: pick(state, a.t), defeated: a.v }, GM];
    case "skip":
      return [{ type: "setSkipDefeated", skip: a.v }, GM];
  }
}

function checkOrder(state: IndividualState): void {
  const live = state.combatants.map((c) => c.id);
  const rolled = state.combatants.filter((c) => c.initiative !== null).map((c) => c.id);
  const view = individualMode.view(state);
  // The tracker order always shows every live combatant once.
  expect([...view.order].sort()).toEqual([...live].sort());
  if (!state.started) {
    expect(state.order).toEqual([]);
    expect(state.current).toBeNull();
    return;
  }
  expect(new Set(state.order).size).toBe(state.order.length);
  const delaying = state.delaying.map((d) => d.combatantId);
  const awaitingRollOff = pendingRollOffs(state).flatMap((set) => set.filter((id) => !state.order.includes(id)));
  for (const id of state.order) expect(rolled).toContain(id);
  for (const id of delaying) expect(state.order).not.toContain(id);
  expect([...new Set([...state.order, ...delaying, ...awaitingRollOff])].sort()).toEqual([...rolled].sort());
  if (state.current !== null) expect(state.order).toContain(state.current);
  for (const id of state.flatFooted) expect(live).toContain(id);
}

function checkGroupsAdjacent(state: IndividualState): void {
  for (const c of state.combatants) {
    if (c.groupId === null) continue;
    const positions = state.order
      .map((id, i) => (state.combatants.find((x) => x.id === id)?.groupId === c.groupId ? i : -1))
      .filter((i) => i >= 0);
    const first = positions[0] ?? 0;
    expect(positions).toEqual(positions.map((_, i) => first + i));
  }
}

function checkUndo(state: IndividualState): void {
  expectStepBack(individualMode, state, { type: "nextTurn" }, (after) => {
    expect(after.current).toBe(individualMode.view(state).next);
  });
}

describe("individual mode: invariants under random command sequences", () => {
  it("holds after every step", () => {
    const roster = fc.array(fc.boolean(), { minLength: 0, maxLength: 6 });
    fc.assert(
      fc.property(roster, fc.array(action, { minLength: 10, maxLength: 80, size: "medium" }), (pcs, actions) => {
        const fresh = freshIds();
        const turnsTaken = perRoundTally("turnStarted");
        const people = pcs.map((isPC, i) => ({ id: `c${i}`, name: `C${i}`, isPC }));
        const run = new ModeRun(individualMode, individualMode.create(people), {
          accepted: ({ events }) => {
            for (const { key, count } of turnsTaken(events)) expect(count, `a second turn in a round: ${key}`).toBe(1);
          },
          invariants: (state, command) => {
            checkOrder(state);
            if (command.type === "start") checkGroupsAdjacent(state);
            if (state.started) checkUndo(state);
          },
        });
        /** The GM rolls what is missing, settles every roll-off and starts. */
        const begin = (a: Extract<Action, { k: "begin" }>): void => {
          run.steps(resolve(run.state, { k: "rollAll", totals: a.totals }, fresh));
          for (let i = 0; i < 12; i++) {
            const pending = pendingRollOffs(run.state)[0];
            if (pending === undefined) break;
            const results = pending.map((combatantId, j) => ({
              combatantId,
              total: a.totals[(i + j) % a.totals.length] ?? j,
            }));
            run.step({ type: "recordRollOff", results }, GM);
          }
          const first = run.state.combatants[0];
          if (a.surprise && first !== undefined) run.step({ type: "setAware", combatantId: first.id, aware: true }, GM);
          run.step({ type: "start", surprise: a.surprise }, GM);
        };
        for (const a of actions) {
          if (a.k === "begin") begin(a);
          else run.steps(resolve(run.state, a, fresh));
        }
      }),
      { numRuns: 150 },
    );
  }, 30_000);
});
