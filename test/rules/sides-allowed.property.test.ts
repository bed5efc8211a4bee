/**
 * Property test of what `sides` says a user may do (`sidesMode.allowed`). The rules try a
 * declaration, a hesitation, a reaction, a slow-down and a let-pass by their refusal checks alone
 * (building no state), only for the characters the user controls, and look for whom a slow-down
 * follows once per state. Whatever the state and whoever asks, that must give exactly the actions,
 * in the same order, that trying every command on every character through `sidesMode.apply` gives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allowedByTrial, probe, type Probe } from "../../src/core/common";
import type { AllowedAction, Requester } from "../../src/core/engine";
import {
  passOrder,
  pendingSideTies,
  pendingTies,
  sideMembers,
  slowedWaiting,
} from "../../src/modes/sides/rules/derived";
import { sidesMode } from "../../src/modes/sides/rules/mode";
import type { SidesCommand, SidesState } from "../../src/modes/sides/rules/types";
import { GM, STRANGER, freshIds } from "./property-harness";
import { created, roster, setupCommands, sidesActions, sidesCommands, type SidesAction } from "./sides-commands";

/** The kit's actions with trait changes. */
const action = sidesActions({ traits: true });

type SidesProbe = Probe<AllowedAction, SidesCommand>;

/** Every command the tracker's controls stand for, on every character, side and tie. */
function everyProbe(state: SidesState): SidesProbe[] {
  const list: SidesProbe[] = [probe({ type: "start" }), probe({ type: "nextTurn" }), probe({ type: "nextRound" })];
  for (const c of state.combatants) {
    const combatantId = c.id;
    const about = { combatantId };
    // The one a slow-down follows: the first other still to act in the pass, else the first other waiting.
    const follow =
      passOrder(state).find((x) => x !== combatantId && !state.done.includes(x)) ??
      slowedWaiting(state).find((entry) => entry.combatantId !== combatantId)?.combatantId;
    list.push(
      probe({ type: "declare", combatantId, actions: [], forcePoint: false }, about),
      probe({ type: "hesitate", combatantId }, about),
      probe({ type: "react", combatantId, kind: "dodge" }, about),
      probe({ type: "letPass", combatantId }, about),
    );
    if (follow !== undefined) list.push(probe({ type: "slowDown", combatantId, after: follow }, about));
  }
  for (const side of state.sides)
    list.push(probe({ type: "recordSideRoll", sideId: side.id, total: 0 }, { groupId: side.id }));
  for (const tie of pendingSideTies(state))
    list.push(probe({ type: "orderTiedSides", sideIds: tie }, { groupId: tie[0] ?? "" }));
  for (const tie of pendingTies(state))
    list.push(probe({ type: "orderTied", pass: state.pass, combatantIds: tie }, { combatantId: tie[0] ?? "" }));
  return list;
}

/** What the GM may always do (the same list the rules give without a trial). */
function gmGiven(state: SidesState): AllowedAction[] {
  const out: AllowedAction[] = [{ type: "addCombatant" }, { type: "defineSide" }, { type: "configure" }];
  for (const c of state.combatants)
    out.push(
      { type: "setSide", combatantId: c.id },
      { type: "setTraits", combatantId: c.id },
      { type: "removeCombatant", combatantId: c.id },
    );
  for (const side of state.sides) {
    out.push({ type: "setRoller", groupId: side.id });
    if (sideMembers(state, side.id).length === 0) out.push({ type: "removeSide", groupId: side.id });
  }
  return out;
}

/** What `who` may do, found by applying every command. */
function byEveryTrial(state: SidesState, who: Requester): AllowedAction[] {
  return allowedByTrial(state, who, who.isGM ? gmGiven(state) : [], everyProbe(state), (s, command, w) =>
    sidesMode.apply(s, command, w),
  );
}

/** Who asks: the GM, a player of every other character, one of the first character, a stranger. */
function askers(state: SidesState): Requester[] {
  const ids = state.combatants.map((c) => c.id);
  return [
    GM,
    { userId: "half", isGM: false, owns: ids.filter((_, i) => i % 2 === 0) },
    { userId: "one", isGM: false, owns: ids.slice(0, 1) },
    STRANGER,
  ];
}

const kinds = new Set<string>();

function check(state: SidesState): void {
  for (const who of askers(state)) {
    const allowed = sidesMode.allowed(state, who);
    expect(allowed).toEqual(byEveryTrial(state, who));
    for (const a of allowed) kinds.add(a.type);
  }
}

function play(people: Parameters<typeof created>[0], actions: readonly SidesAction[]): void {
  let state = created(people);
  const run = (command: SidesCommand, who: Requester): void => {
    const outcome = sidesMode.apply(state, command, who);
    if (!outcome.ok) return;
    state = outcome.state;
    check(state);
  };
  check(state);
  for (const command of setupCommands(people)) run(command, GM);
  const fresh = freshIds();
  for (const a of actions) {
    for (const [command, who] of sidesCommands(a, () => state, fresh)) run(command, who);
  }
}

describe("sides: what a user may do", () => {
  it("is what trying every command on every character gives, for the GM, owners and a stranger", () => {
    fc.assert(
      fc.property(roster, fc.array(action, { minLength: 10, maxLength: 60 }), (people, actions) => {
        play(people, actions);
      }),
      { numRuns: Number(process.env.SIDES_RUNS ?? 200) },
    );
    // The plays reach the passes: reactions, slow-downs and let-passes were allowed somewhere.
    for (const kind of ["declare", "hesitate", "react", "slowDown", "letPass", "orderTied", "orderTiedSides"])
      expect(kinds.has(kind), kind).toBe(true);
  }, 120_000);
});
