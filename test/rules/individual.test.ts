/**
 * The `individual` mode (RULES.md §2, rulebook excerpt 001), tested in the rules' own words.
 */
import { describe, expect, it } from "vitest";
import type { Requester, RuleEvent } from "../../src/core/engine";
import { individualMode } from "../../src/modes/individual/rules/mode";
import type { IndividualCommand, IndividualState } from "../../src/modes/individual/rules/types";
import {
  flatFooted,
  groupModifier,
  isSurpriseRound,
  pendingRollOffs,
  rollsNeeded,
} from "../../src/modes/individual/rules/derived";
import { GM, deepFreeze, npc, pc, player, rulesOf } from "./harness";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const { apply, must, run } = rulesOf(individualMode);

type Roll = readonly [id: string, total: number, modifier: number];

/** Combatants (PCs unless listed in `npcs`) with their initiative recorded, not started. */
function rolled(rolls: readonly Roll[], npcs: readonly string[] = []): IndividualState {
  const roster = rolls.map(([id]) => (npcs.includes(id) ? npc(id) : pc(id)));
  return run(
    individualMode.create(roster),
    ...rolls.map(([combatantId, total, modifier]): IndividualCommand => ({
      type: "recordInitiative",
      combatantId,
      total,
      modifier,
    })),
  );
}

function started(rolls: readonly Roll[]): IndividualState {
  return run(rolled(rolls), { type: "start" });
}

const next: IndividualCommand = { type: "nextTurn" };
const order = (state: IndividualState): readonly string[] => individualMode.view(state).order;

/** Who acts, turn after turn, starting with the current one: `count` entries "round:id". */
function turns(state: IndividualState, count: number): string[] {
  const seen: string[] = [];
  let s = state;
  for (let i = 0; i < count; i++) {
    seen.push(`${s.round}:${s.current ?? "-"}`);
    s = must(s, next).state;
  }
  return seen;
}

function types(events: readonly RuleEvent[], type: string): string[] {
  return events.filter((e) => e.type === type).map((e) => e.combatantId ?? "");
}

const ABC: readonly Roll[] = [
  ["a", 18, 1],
  ["b", 12, 3],
  ["c", 15, 0],
];

// ---------------------------------------------------------------------------------------------
// Order
// ---------------------------------------------------------------------------------------------

describe("order: all act from the highest initiative check result to the lowest", () => {
  it("orders by result, high to low, before and after the start", () => {
    expect(order(rolled(ABC))).toEqual(["a", "c", "b"]);
    const s = started(ABC);
    expect(s.order).toEqual(["a", "c", "b"]);
    expect(s.current).toBe("a");
  });

  it("the order holds for every round", () => {
    expect(turns(started(ABC), 7)).toEqual(["1:a", "1:c", "1:b", "2:a", "2:c", "2:b", "3:a"]);
  });

  it.each([
    {
      rule: "ties: higher initiative modifier acts first",
      rolls: [
        ["low", 14, 1],
        ["high", 14, 4],
        ["mid", 14, 2],
      ] as Roll[],
      expected: ["high", "mid", "low"],
    },
    {
      rule: "a higher result beats a higher modifier",
      rolls: [
        ["fast", 15, 0],
        ["sharp", 14, 9],
      ] as Roll[],
      expected: ["fast", "sharp"],
    },
  ])("$rule", ({ rolls, expected }) => {
    const s = rolled(rolls);
    expect(pendingRollOffs(s)).toEqual([]);
    expect(run(s, { type: "start" }).order).toEqual(expected);
  });
});

describe("roll-off: still tied → a roll-off between exactly those tied, whose result is kept", () => {
  const tied = rolled([
    ["a", 15, 2],
    ["b", 15, 2],
    ["c", 15, 2],
    ["d", 15, 1],
    ["e", 12, 2],
  ]);

  it("names exactly the tied combatants (equal result and modifier)", () => {
    expect(pendingRollOffs(tied)).toEqual([["a", "b", "c"]]);
  });

  it.each([
    { rule: "a subset of the tied is refused", ids: ["a", "b"] },
    { rule: "a set with someone not tied is refused", ids: ["a", "b", "c", "d"] },
    { rule: "an untied combatant alone is refused", ids: ["e"] },
  ])("$rule (notTied)", ({ ids }) => {
    const outcome = apply(tied, {
      type: "recordRollOff",
      results: ids.map((combatantId) => ({ combatantId, total: 10 })),
    });
    expect(outcome).toEqual({ ok: false, refusal: { code: "notTied", combatantId: ids[0] } });
  });

  it("a roll-off that ties again is followed by another between those still tied, and the result is kept for all rounds", () => {
    let s = run(tied, {
      type: "recordRollOff",
      results: [
        { combatantId: "a", total: 9 },
        { combatantId: "b", total: 9 },
        { combatantId: "c", total: 17 },
      ],
    });
    expect(pendingRollOffs(s)).toEqual([["a", "b"]]);
    expect(apply(s, { type: "start" })).toEqual({ ok: false, refusal: { code: "rollOffPending", combatantId: "a" } });
    s = run(s, {
      type: "recordRollOff",
      results: [
        { combatantId: "a", total: 3 },
        { combatantId: "b", total: 11 },
      ],
    });
    expect(pendingRollOffs(s)).toEqual([]);
    s = run(s, { type: "start" });
    expect(s.order).toEqual(["c", "b", "a", "d", "e"]);
    expect(turns(s, 6)).toEqual(["1:c", "1:b", "1:a", "1:d", "1:e", "2:c"]);
  });

  it("start is refused while a roll-off is pending", () => {
    expect(apply(tied, { type: "start" })).toEqual({
      ok: false,
      refusal: { code: "rollOffPending", combatantId: "a" },
    });
  });

  it("a new result for a tied combatant drops its old roll-off results", () => {
    const two = rolled([
      ["a", 10, 0],
      ["b", 10, 0],
    ]);
    const settled = run(two, {
      type: "recordRollOff",
      results: [
        { combatantId: "a", total: 2 },
        { combatantId: "b", total: 5 },
      ],
    });
    expect(pendingRollOffs(settled)).toEqual([]);
    const rerolled = run(settled, { type: "recordInitiative", combatantId: "a", total: 10, modifier: 0 });
    expect(pendingRollOffs(rerolled)).toEqual([["a", "b"]]);
  });
});

describe("players roll once, as in core; only the GM rolls again (issue 15 item 4)", () => {
  const fresh = individualMode.create([pc("a"), pc("b")]);
  const roll = (total: number, typed?: boolean): IndividualCommand => ({
    type: "recordInitiative",
    combatantId: "a",
    total,
    modifier: 0,
    ...(typed === undefined ? {} : { typed }),
  });
  const once = must(fresh, roll(7), player("a")).state;

  it("a player's second roll for the same combatant is refused, and their Roll button goes", () => {
    expect(apply(once, roll(19), player("a"))).toEqual({
      ok: false,
      refusal: { code: "rerollGMOnly", combatantId: "a" },
    });
    expect(individualMode.allowed(fresh, player("a")).some((x) => x.type === "recordInitiative")).toBe(true);
    expect(individualMode.allowed(once, player("a")).some((x) => x.type === "recordInitiative")).toBe(false);
  });

  it("a result marked typed is the GM's only, and the tracker's mark follows the last record", () => {
    expect(apply(fresh, roll(7, true), player("a"))).toEqual({
      ok: false,
      refusal: { code: "typedResult", combatantId: "a" },
    });
    const typed = must(fresh, roll(7, true)).state;
    expect(typed.combatants.find((c) => c.id === "a")?.typed).toBe(true);
    expect(must(typed, roll(9)).state.combatants.find((c) => c.id === "a")?.typed).toBeUndefined();
  });

  it("the GM re-rolls it before the start", () => {
    expect(individualMode.allowed(once, GM).some((x) => x.type === "recordInitiative" && x.combatantId === "a")).toBe(
      true,
    );
    expect(must(once, roll(19)).state.combatants.find((c) => c.id === "a")?.initiative).toBe(19);
  });
});

describe("start", () => {
  it.each([
    { rule: "refused with no combatants", state: individualMode.create([]), code: "noCombatants", id: undefined },
    {
      rule: "refused while a combatant has no initiative (names it)",
      state: run(individualMode.create([pc("a"), pc("b")]), {
        type: "recordInitiative",
        combatantId: "a",
        total: 3,
        modifier: 0,
      }),
      code: "initiativeMissing",
      id: "b",
    },
  ])("$rule", ({ state, code, id }) => {
    expect(apply(state, { type: "start" })).toEqual({
      ok: false,
      refusal: id === undefined ? { code } : { code, combatantId: id },
    });
  });

  it("starts round 1 with the first in the order, as an undoable round step", () => {
    const { state, events, step } = must(rolled(ABC), { type: "start" });
    expect(step).toBe("round");
    expect(individualMode.view(state)).toEqual({
      started: true,
      round: 1,
      step: "round",
      order: ["a", "c", "b"],
      current: "a",
      next: "c",
    });
    expect(events.map((e) => e.type)).toEqual(["combatStarted", "roundStarted", "turnStarted"]);
  });
});

// ---------------------------------------------------------------------------------------------
// Group checks
// ---------------------------------------------------------------------------------------------

describe("group checks: one check for a group of opponents, with the lowest modifier in the group", () => {
  const base = run(
    individualMode.create([pc("hero"), npc("t1"), npc("t2"), npc("t3")]),
    { type: "recordInitiative", combatantId: "hero", total: 15, modifier: 3 },
    { type: "setGroup", combatantId: "t1", groupId: "troopers", modifier: 5 },
    { type: "setGroup", combatantId: "t2", groupId: "troopers", modifier: 1 },
    { type: "setGroup", combatantId: "t3", groupId: "troopers", modifier: 4 },
  );

  it("the group rolls with the lowest modifier of its members", () => {
    expect(groupModifier(base, "troopers")).toBe(1);
    expect(groupModifier(base, "nobody")).toBeNull();
    expect(rollsNeeded(base)).toEqual({ combatants: [], groups: ["troopers"] });
  });

  it("every member gets the group's total; ties rank the group with its lowest modifier", () => {
    // 15 each: the hero's +3 beats the group's lowest +1 (its best member's +5 does not count).
    const s = run(base, { type: "recordGroupInitiative", groupId: "troopers", total: 15 }, { type: "start" });
    expect(s.combatants.map((c) => c.initiative)).toEqual([15, 15, 15, 15]);
    expect(s.order).toEqual(["hero", "t1", "t2", "t3"]);
  });

  it("members of one group act one after the other and do not roll off among themselves", () => {
    const s = run(
      base,
      { type: "recordInitiative", combatantId: "hero", total: 2, modifier: 0 },
      { type: "recordGroupInitiative", groupId: "troopers", total: 9 },
    );
    expect(pendingRollOffs(s)).toEqual([]);
    expect(run(s, { type: "start" }).order).toEqual(["t1", "t2", "t3", "hero"]);
  });

  it("two groups: an Imperial officer alone, his squad of stormtroopers together", () => {
    const s = run(
      individualMode.create([pc("luke"), npc("st1"), npc("officer"), npc("st2"), pc("leia")]),
      { type: "setGroup", combatantId: "officer", groupId: "officer", modifier: 6 },
      { type: "setGroup", combatantId: "st1", groupId: "squad", modifier: 2 },
      { type: "setGroup", combatantId: "st2", groupId: "squad", modifier: 3 },
      { type: "recordGroupInitiative", groupId: "officer", total: 11 },
      { type: "recordGroupInitiative", groupId: "squad", total: 16 },
      { type: "recordInitiative", combatantId: "luke", total: 14, modifier: 5 },
      { type: "recordInitiative", combatantId: "leia", total: 8, modifier: 4 },
      { type: "start" },
    );
    expect(s.order).toEqual(["st1", "st2", "luke", "officer", "leia"]);
    expect(turns(s, 6)).toEqual(["1:st1", "1:st2", "1:luke", "1:officer", "1:leia", "2:st1"]);
  });

  it("a group tied with a combatant rolls off as one, named by any member", () => {
    let s = run(
      base,
      { type: "recordInitiative", combatantId: "hero", total: 12, modifier: 1 },
      { type: "recordGroupInitiative", groupId: "troopers", total: 12 },
    );
    expect(pendingRollOffs(s)).toEqual([["hero", "t1"]]);
    s = run(s, {
      type: "recordRollOff",
      results: [
        { combatantId: "t3", total: 19 },
        { combatantId: "hero", total: 4 },
      ],
    });
    expect(run(s, { type: "start" }).order).toEqual(["t1", "t2", "t3", "hero"]);
  });

  it("leaving a group means rolling alone; joining a rolled group takes its total", () => {
    const rolledGroup = run(base, { type: "recordGroupInitiative", groupId: "troopers", total: 7 });
    const left = run(rolledGroup, { type: "setGroup", combatantId: "t2", groupId: null });
    expect(left.combatants.find((c) => c.id === "t2")?.initiative).toBeNull();
    expect(groupModifier(left, "troopers")).toBe(4);
    const back = run(left, { type: "setGroup", combatantId: "t2", groupId: "troopers", modifier: 1 });
    expect(back.combatants.find((c) => c.id === "t2")?.initiative).toBe(7);
  });
});

// ---------------------------------------------------------------------------------------------
// Joining
// ---------------------------------------------------------------------------------------------

describe("joining: a combatant added after the start rolls then and takes its place in the existing order", () => {
  const battle = started(ABC); // a 18, c 15, b 12; a acts
  const joined = run(battle, { type: "addCombatant", combatant: pc("j") });

  it("has no turn until it rolls", () => {
    expect(joined.order).toEqual(["a", "c", "b"]);
    expect(order(joined)).toEqual(["a", "c", "b", "j"]);
    expect(turns(joined, 4)).toEqual(["1:a", "1:c", "1:b", "2:a"]);
  });

  it("acts this round when its place is still to come", () => {
    const s = run(joined, { type: "recordInitiative", combatantId: "j", total: 13, modifier: 0 });
    expect(s.order).toEqual(["a", "c", "j", "b"]);
    expect(turns(s, 5)).toEqual(["1:a", "1:c", "1:j", "1:b", "2:a"]);
  });

  it("acts from the next round when its place has passed", () => {
    const atB = run(joined, next, next); // b acts
    const s = run(atB, { type: "recordInitiative", combatantId: "j", total: 16, modifier: 0 });
    expect(s.order).toEqual(["a", "j", "c", "b"]);
    expect(turns(s, 4)).toEqual(["1:b", "2:a", "2:j", "2:c"]);
  });

  it("a tie with a combatant in the order is settled by a roll-off between the two", () => {
    let s = run(joined, { type: "recordInitiative", combatantId: "j", total: 15, modifier: 0 });
    expect(s.order).toEqual(["a", "c", "b"]);
    expect(pendingRollOffs(s)).toEqual([["j", "c"]]);
    s = run(s, {
      type: "recordRollOff",
      results: [
        { combatantId: "c", total: 10 },
        { combatantId: "j", total: 20 },
      ],
    });
    expect(s.order).toEqual(["a", "j", "c", "b"]);
  });

  it("a tie that goes away (the tied combatant delays) places the joiner without a roll-off", () => {
    const tied = run(joined, { type: "recordInitiative", combatantId: "j", total: 15, modifier: 0 }, next);
    const s = run(tied, { type: "delay", combatantId: "c" });
    expect(pendingRollOffs(s)).toEqual([]);
    expect(s.order).toEqual(["a", "j", "b"]);
  });

  it("a joiner that has rolled cannot roll again", () => {
    const s = run(joined, { type: "recordInitiative", combatantId: "j", total: 13, modifier: 0 });
    expect(apply(s, { type: "recordInitiative", combatantId: "j", total: 19, modifier: 0 })).toEqual({
      ok: false,
      refusal: { code: "alreadyStarted", combatantId: "j" },
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Surprise round and flat-footed
// ---------------------------------------------------------------------------------------------

describe("surprise round: only aware combatants act; everyone is flat-footed until its first regular turn", () => {
  const setup = run(rolled(ABC), { type: "setAware", combatantId: "b", aware: true });

  it("only the aware act in the surprise round, then everyone in order", () => {
    const s = run(setup, { type: "start", surprise: true });
    expect(isSurpriseRound(s)).toBe(true);
    expect(individualMode.view(s).step).toBe("surprise");
    expect(turns(s, 4)).toEqual(["1:b", "2:a", "2:c", "2:b"]);
  });

  it("every combatant is flat-footed from the start until its first regular turn begins", () => {
    let s = run(setup, { type: "start", surprise: true });
    expect(["a", "b", "c"].map((id) => flatFooted(s, id))).toEqual([true, true, true]);
    // b's surprise-round turn is not a regular turn.
    const round2 = must(s, next);
    s = round2.state;
    expect(isSurpriseRound(s)).toBe(false);
    expect(individualMode.view(s).step).toBe("round");
    expect(types(round2.events, "flatFootedEnded")).toEqual(["a"]);
    expect(["a", "b", "c"].map((id) => flatFooted(s, id))).toEqual([false, true, true]);
    s = run(s, next, next);
    expect(["a", "b", "c"].map((id) => flatFooted(s, id))).toEqual([false, false, false]);
  });

  it("a battle without a surprise round has nobody flat-footed", () => {
    const s = run(setup, { type: "start" });
    expect(["a", "b", "c"].some((id) => flatFooted(s, id))).toBe(false);
    expect(turns(s, 3)).toEqual(["1:a", "1:c", "1:b"]);
  });

  it("a surprise round needs someone aware", () => {
    expect(apply(rolled(ABC), { type: "start", surprise: true })).toEqual({
      ok: false,
      refusal: { code: "notAware" },
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Delay
// ---------------------------------------------------------------------------------------------

describe("delay: act later; the new position holds for later rounds", () => {
  const ABCD: readonly Roll[] = [
    ["a", 20, 0],
    ["b", 15, 0],
    ["c", 10, 0],
    ["d", 5, 0],
  ];
  const battle = started(ABCD);

  it("only on your own turn", () => {
    expect(apply(battle, { type: "delay", combatantId: "b" }, player("b"))).toEqual({
      ok: false,
      refusal: { code: "notYourTurn", combatantId: "b" },
    });
  });

  it("you leave the order; endDelay makes you act now, and the one about to act goes next without a second turn", () => {
    const delayed = must(battle, { type: "delay", combatantId: "a" }, player("a"));
    expect(delayed.step).toBe("turn");
    expect(delayed.state.order).toEqual(["b", "c", "d"]);
    expect(delayed.state.current).toBe("b");
    const atC = run(delayed.state, next);
    const resumed = must(atC, { type: "endDelay", combatantId: "a" }, player("a"));
    expect(resumed.state.order).toEqual(["b", "a", "c", "d"]);
    expect(resumed.state.current).toBe("a");
    expect(individualMode.view(resumed.state).next).toBe("c");
    const back = must(resumed.state, next);
    expect(back.state.current).toBe("c");
    expect(types(back.events, "turnResumed")).toEqual(["c"]);
    expect(types(back.events, "turnStarted")).toEqual([]);
    // The new position holds.
    expect(turns(back.state, 5)).toEqual(["1:c", "1:d", "2:b", "2:a", "2:c"]);
  });

  it("a place that comes from a delay or a ready is marked (issue 15 item 10); removal forgets it", () => {
    expect(battle.moved).toEqual([]);
    const delayed = run(battle, { type: "delay", combatantId: "a", after: "c" });
    expect(delayed.moved).toEqual(["a"]);
    const later = run(delayed, next, next, next, next);
    expect(later.round).toBe(2);
    expect(order(later)).toEqual(["b", "c", "a", "d"]);
    expect(later.moved).toEqual(["a"]);
    expect(run(later, { type: "removeCombatant", combatantId: "a" }).moved).toEqual([]);
    const triggered = run(battle, { type: "ready", combatantId: "a", trigger: "x" }, next, {
      type: "triggerReady",
      combatantId: "a",
    });
    expect(triggered.moved).toEqual(["a"]);
    // Readying alone moves nobody.
    expect(run(battle, { type: "ready", combatantId: "a", trigger: "x" }).moved).toEqual([]);
  });

  it("delay{after}: acts right after that combatant's turn", () => {
    const s = run(battle, { type: "delay", combatantId: "a", after: "c" });
    expect(turns(s, 6)).toEqual(["1:b", "1:c", "1:a", "1:d", "2:b", "2:c"]);
  });

  it("a delayer who has not acted when the round runs out acts last, and stays last", () => {
    const s = run(battle, next, { type: "delay", combatantId: "b" });
    expect(turns(s, 7)).toEqual(["1:c", "1:d", "1:b", "2:a", "2:c", "2:d", "2:b"]);
  });

  it("delays at most once a round", () => {
    const s = run(battle, { type: "delay", combatantId: "a", after: "b" }, next);
    expect(s.current).toBe("a");
    expect(apply(s, { type: "delay", combatantId: "a" })).toEqual({
      ok: false,
      refusal: { code: "alreadyWaiting", combatantId: "a" },
    });
  });

  it("delay{after} must name someone still to act this round", () => {
    const atB = run(battle, next);
    expect(apply(atB, { type: "delay", combatantId: "b", after: "a" })).toEqual({
      ok: false,
      refusal: { code: "alreadyActed", combatantId: "a" },
    });
    expect(apply(atB, { type: "delay", combatantId: "b", after: "b" })).toEqual({
      ok: false,
      refusal: { code: "invalidValue", combatantId: "b" },
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Ready
// ---------------------------------------------------------------------------------------------

describe("ready: act on a trigger; afterwards the new position holds", () => {
  const battle = started([
    ["a", 20, 0],
    ["b", 15, 0],
    ["c", 10, 0],
    ["d", 5, 0],
  ]);
  const readied = run(battle, { type: "ready", combatantId: "a", trigger: "when the door opens" });

  it("readying uses your turn", () => {
    expect(readied.current).toBe("b");
    expect(readied.combatants.find((c) => c.id === "a")?.ready).toBe("when the door opens");
  });

  it("the readied combatant acts at once ahead of the current one, who resumes afterwards without a second turn", () => {
    const atC = run(readied, next);
    const triggered = must(atC, { type: "triggerReady", combatantId: "a" }, player("a"));
    expect(triggered.step).toBe("turn");
    expect(triggered.state.current).toBe("a");
    expect(triggered.state.order).toEqual(["b", "a", "c", "d"]);
    expect(types(triggered.events, "turnStarted")).toEqual([]);
    const resumed = must(triggered.state, next);
    expect(resumed.state.current).toBe("c");
    expect(types(resumed.events, "turnResumed")).toEqual(["c"]);
    expect(types(resumed.events, "turnStarted")).toEqual([]);
    // The new position holds.
    expect(turns(resumed.state, 5)).toEqual(["1:c", "1:d", "2:b", "2:a", "2:c"]);
  });

  it("if its own next turn comes first, the readied action lapses", () => {
    const s = run(readied, next, next); // b, c, then d acts
    const lapse = must(s, next);
    expect(lapse.state.round).toBe(2);
    expect(lapse.state.current).toBe("a");
    expect(types(lapse.events, "readyLapsed")).toEqual(["a"]);
    expect(apply(lapse.state, { type: "triggerReady", combatantId: "a" })).toEqual({
      ok: false,
      refusal: { code: "notReady", combatantId: "a" },
    });
  });

  it("triggered in a later round before its own place comes up: that is its turn for the round", () => {
    const c = run(readied, { type: "ready", combatantId: "b", trigger: "an attack" }, next, next); // c, d, then round 2: a
    expect(c.round).toBe(2);
    const t = must(c, { type: "triggerReady", combatantId: "b" });
    expect(types(t.events, "turnStarted")).toEqual(["b"]);
    expect(t.state.order).toEqual(["b", "a", "c", "d"]);
    expect(turns(t.state, 5)).toEqual(["2:b", "2:a", "2:c", "2:d", "3:b"]);
  });

  it("needs a trigger text", () => {
    expect(apply(battle, { type: "ready", combatantId: "a", trigger: "  " })).toEqual({
      ok: false,
      refusal: { code: "invalidValue", combatantId: "a" },
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Removal and defeat
// ---------------------------------------------------------------------------------------------

describe("removal of any combatant keeps a valid state", () => {
  const battle = started(ABC); // a, c, b

  it("removing one who is not acting changes nobody's turn", () => {
    const s = run(battle, { type: "removeCombatant", combatantId: "c" });
    expect(s.current).toBe("a");
    expect(s.order).toEqual(["a", "b"]);
    expect(turns(s, 3)).toEqual(["1:a", "1:b", "2:a"]);
  });

  it("removing the one acting: the next one in the order acts", () => {
    const { state, events } = must(battle, { type: "removeCombatant", combatantId: "a" });
    expect(state.current).toBe("c");
    expect(state.round).toBe(1);
    expect(types(events, "turnStarted")).toEqual(["c"]);
  });

  it("removing the last one of the round while it acts: the next round starts", () => {
    const s = run(battle, next, next, { type: "removeCombatant", combatantId: "b" });
    expect(s.round).toBe(2);
    expect(s.current).toBe("a");
  });

  it("removing everyone leaves nobody acting", () => {
    const s = run(
      battle,
      { type: "removeCombatant", combatantId: "a" },
      { type: "removeCombatant", combatantId: "b" },
      { type: "removeCombatant", combatantId: "c" },
    );
    expect(individualMode.view(s)).toMatchObject({ order: [], current: null, next: null });
  });

  it("removing a delayer takes it out of the battle", () => {
    const s = run(battle, { type: "delay", combatantId: "a" }, { type: "removeCombatant", combatantId: "a" });
    expect(s.delaying).toEqual([]);
    expect(turns(s, 3)).toEqual(["1:c", "1:b", "2:c"]);
  });

  it("defeated combatants are skipped when the option is on", () => {
    const s = run(battle, { type: "setDefeated", combatantId: "c", defeated: true });
    expect(turns(s, 3)).toEqual(["1:a", "1:c", "1:b"]);
    expect(turns(run(s, { type: "setSkipDefeated", skip: true }), 3)).toEqual(["1:a", "1:b", "2:a"]);
  });
});

// ---------------------------------------------------------------------------------------------
// Turns and rounds
// ---------------------------------------------------------------------------------------------

describe("next turn and next round", () => {
  const battle = started(ABC);

  it("every turn change is an undoable step: 'turn' inside a round, 'round' across rounds", () => {
    expect(must(battle, next).step).toBe("turn");
    expect(must(run(battle, next, next), next).step).toBe("round");
    expect(must(battle, { type: "nextRound" }).step).toBe("round");
  });

  it("the owner of the acting combatant ends its own turn; nobody else's", () => {
    expect(must(battle, next, player("a")).state.current).toBe("c");
    expect(apply(battle, next, player("c"))).toEqual({ ok: false, refusal: { code: "notOwner", combatantId: "a" } });
  });

  it("next round: the GM starts the next round at the top of the order; delayers keep their last place", () => {
    const s = run(battle, { type: "delay", combatantId: "a" }, { type: "nextRound" });
    expect(s.round).toBe(2);
    expect(s.order).toEqual(["c", "b", "a"]);
    expect(s.current).toBe("c");
  });
});

// ---------------------------------------------------------------------------------------------
// Refusals: every kind returns a refusal and changes nothing
// ---------------------------------------------------------------------------------------------

describe("a refused command changes nothing", () => {
  const setup = deepFreeze(
    run(
      individualMode.create([pc("a"), pc("b"), npc("n")]),
      { type: "recordInitiative", combatantId: "a", total: 10, modifier: 1 },
      { type: "recordInitiative", combatantId: "b", total: 10, modifier: 1 },
    ),
  );
  const settled = deepFreeze(
    run(
      setup,
      {
        type: "recordRollOff",
        results: [
          { combatantId: "a", total: 5 },
          { combatantId: "b", total: 2 },
        ],
      },
      { type: "recordInitiative", combatantId: "n", total: 4, modifier: 0 },
    ),
  );
  const battle = deepFreeze(run(settled, { type: "start" })); // a, b, n; a acts
  const readied = deepFreeze(run(battle, { type: "ready", combatantId: "a", trigger: "x" })); // b acts
  const empty = deepFreeze(individualMode.create([]));
  const grouped = deepFreeze(run(setup, { type: "setGroup", combatantId: "n", groupId: "g", modifier: 0 }));

  type Case = {
    name: string;
    state: IndividualState;
    command: IndividualCommand;
    who?: Requester;
    code: string;
    id?: string;
  };
  const cases: Case[] = [
    { name: "a player starts", state: settled, command: { type: "start" }, who: player("a"), code: "notGM" },
    {
      name: "a player adds",
      state: setup,
      command: { type: "addCombatant", combatant: pc("x") },
      who: player("a"),
      code: "notGM",
    },
    {
      name: "a player removes",
      state: setup,
      command: { type: "removeCombatant", combatantId: "a" },
      who: player("a"),
      code: "notGM",
    },
    {
      name: "a player marks defeated",
      state: battle,
      command: { type: "setDefeated", combatantId: "a", defeated: true },
      who: player("a"),
      code: "notGM",
    },
    {
      name: "a player sets skip",
      state: battle,
      command: { type: "setSkipDefeated", skip: true },
      who: player("a"),
      code: "notGM",
    },
    {
      name: "a player groups",
      state: setup,
      command: { type: "setGroup", combatantId: "n", groupId: "g", modifier: 0 },
      who: player("n"),
      code: "notGM",
    },
    {
      name: "a player rolls for a group",
      state: setup,
      command: { type: "recordGroupInitiative", groupId: "g", total: 3 },
      who: player("n"),
      code: "notGM",
    },
    {
      name: "a player marks aware",
      state: setup,
      command: { type: "setAware", combatantId: "a", aware: true },
      who: player("a"),
      code: "notGM",
    },
    { name: "a player ends the round", state: battle, command: { type: "nextRound" }, who: player("a"), code: "notGM" },
    {
      name: "a player rolls for another's combatant",
      state: setup,
      command: { type: "recordInitiative", combatantId: "b", total: 3, modifier: 0 },
      who: player("a"),
      code: "notOwner",
      id: "b",
    },
    {
      name: "a player records a roll-off for another's combatant",
      state: setup,
      command: {
        type: "recordRollOff",
        results: [
          { combatantId: "a", total: 1 },
          { combatantId: "b", total: 2 },
        ],
      },
      who: player("a"),
      code: "notOwner",
      id: "b",
    },
    {
      name: "a player delays another's combatant",
      state: battle,
      command: { type: "delay", combatantId: "a" },
      who: player("b"),
      code: "notOwner",
      id: "a",
    },
    {
      name: "a player triggers another's readied action",
      state: readied,
      command: { type: "triggerReady", combatantId: "a" },
      who: player("b"),
      code: "notOwner",
      id: "a",
    },
    {
      name: "unknown combatant rolls",
      state: setup,
      command: { type: "recordInitiative", combatantId: "zz", total: 3, modifier: 0 },
      code: "unknownCombatant",
      id: "zz",
    },
    {
      name: "unknown combatant removed",
      state: battle,
      command: { type: "removeCombatant", combatantId: "zz" },
      code: "unknownCombatant",
      id: "zz",
    },
    {
      name: "unknown combatant in a roll-off",
      state: setup,
      command: { type: "recordRollOff", results: [{ combatantId: "zz", total: 1 }] },
      code: "unknownCombatant",
      id: "zz",
    },
    {
      name: "delay after an unknown combatant",
      state: battle,
      command: { type: "delay", combatantId: "a", after: "zz" },
      code: "unknownCombatant",
      id: "zz",
    },
    {
      name: "a duplicate is added",
      state: setup,
      command: { type: "addCombatant", combatant: pc("a") },
      code: "duplicateCombatant",
      id: "a",
    },
    {
      name: "an unknown group rolls",
      state: setup,
      command: { type: "recordGroupInitiative", groupId: "nope", total: 3 },
      code: "unknownGroup",
    },
    { name: "next turn before the start", state: settled, command: next, code: "notStarted" },
    { name: "next round before the start", state: settled, command: { type: "nextRound" }, code: "notStarted" },
    {
      name: "delay before the start",
      state: settled,
      command: { type: "delay", combatantId: "a" },
      code: "notStarted",
    },
    { name: "start twice", state: battle, command: { type: "start" }, code: "alreadyStarted" },
    {
      name: "grouping after the start",
      state: battle,
      command: { type: "setGroup", combatantId: "n", groupId: "g", modifier: 0 },
      code: "alreadyStarted",
    },
    {
      name: "marking aware after the start",
      state: battle,
      command: { type: "setAware", combatantId: "a", aware: true },
      code: "alreadyStarted",
    },
    {
      name: "re-rolling after the start",
      state: battle,
      command: { type: "recordInitiative", combatantId: "a", total: 3, modifier: 0 },
      code: "alreadyStarted",
      id: "a",
    },
    {
      name: "delay out of turn",
      state: battle,
      command: { type: "delay", combatantId: "b" },
      code: "notYourTurn",
      id: "b",
    },
    {
      name: "ready out of turn",
      state: battle,
      command: { type: "ready", combatantId: "b", trigger: "x" },
      code: "notYourTurn",
      id: "b",
    },
    {
      name: "a player ends someone else's turn",
      state: battle,
      command: next,
      who: player("b"),
      code: "notOwner",
      id: "a",
    },
    {
      name: "delay after one who already acted",
      state: readied,
      command: { type: "delay", combatantId: "b", after: "a" },
      code: "alreadyActed",
      id: "a",
    },
    { name: "start with a missing roll", state: setup, command: { type: "start" }, code: "initiativeMissing", id: "n" },
    {
      name: "start with a pending roll-off",
      state: run(setup, { type: "recordInitiative", combatantId: "n", total: 1, modifier: 0 }),
      command: { type: "start" },
      code: "rollOffPending",
      id: "a",
    },
    {
      name: "a roll-off for the untied",
      state: settled,
      command: {
        type: "recordRollOff",
        results: [
          { combatantId: "a", total: 1 },
          { combatantId: "n", total: 2 },
        ],
      },
      code: "notTied",
      id: "a",
    },
    { name: "an empty roll-off", state: setup, command: { type: "recordRollOff", results: [] }, code: "notTied" },
    {
      name: "a NaN total",
      state: setup,
      command: { type: "recordInitiative", combatantId: "a", total: Number.NaN, modifier: 0 },
      code: "invalidValue",
      id: "a",
    },
    {
      name: "an infinite modifier",
      state: setup,
      command: { type: "recordInitiative", combatantId: "a", total: 1, modifier: Infinity },
      code: "invalidValue",
      id: "a",
    },
    {
      name: "a roll-off naming one twice",
      state: setup,
      command: {
        type: "recordRollOff",
        results: [
          { combatantId: "a", total: 1 },
          { combatantId: "a", total: 2 },
        ],
      },
      code: "invalidValue",
      id: "a",
    },
    {
      name: "joining a group without a modifier",
      state: setup,
      command: { type: "setGroup", combatantId: "n", groupId: "g" },
      code: "invalidValue",
      id: "n",
    },
    {
      name: "an empty ready trigger",
      state: battle,
      command: { type: "ready", combatantId: "a", trigger: "" },
      code: "invalidValue",
      id: "a",
    },
    {
      name: "end a delay nobody took",
      state: battle,
      command: { type: "endDelay", combatantId: "b" },
      code: "notDelaying",
      id: "b",
    },
    {
      name: "trigger a ready nobody took",
      state: battle,
      command: { type: "triggerReady", combatantId: "b" },
      code: "notReady",
      id: "b",
    },
    {
      name: "ready twice in a round",
      state: run(battle, { type: "delay", combatantId: "a", after: "b" }, next),
      command: { type: "ready", combatantId: "a", trigger: "x" },
      code: "alreadyWaiting",
      id: "a",
    },
    {
      name: "surprise with nobody aware",
      state: settled,
      command: { type: "start", surprise: true },
      code: "notAware",
    },
    { name: "start with nobody", state: empty, command: { type: "start" }, code: "noCombatants" },
    {
      name: "a grouped combatant rolls alone",
      state: grouped,
      command: { type: "recordInitiative", combatantId: "n", total: 1, modifier: 0 },
      code: "inGroup",
      id: "n",
    },
    {
      name: "grouping a PC",
      state: setup,
      command: { type: "setGroup", combatantId: "a", groupId: "g", modifier: 0 },
      code: "notNPC",
      id: "a",
    },
    {
      name: "a command of no known type",
      state: setup,
      command: { type: "teleport" } as unknown as IndividualCommand,
      code: "unknownCommand",
    },
  ];

  it.each(cases)("$name → $code", ({ state, command, who, code, id }) => {
    const before = structuredClone(state);
    const outcome = apply(state, command, who ?? GM);
    expect(outcome).toEqual({ ok: false, refusal: id === undefined ? { code } : { code, combatantId: id } });
    expect(state).toEqual(before);
  });

  it("covers every refusal code the mode can give", () => {
    const codes = new Set(cases.map((c) => c.code));
    expect([...codes].sort()).toEqual(
      [
        "alreadyActed",
        "alreadyStarted",
        "alreadyWaiting",
        "duplicateCombatant",
        "inGroup",
        "initiativeMissing",
        "invalidValue",
        "noCombatants",
        "notAware",
        "notDelaying",
        "notGM",
        "notNPC",
        "notOwner",
        "notReady",
        "notStarted",
        "notTied",
        "notYourTurn",
        "rollOffPending",
        "unknownCombatant",
        "unknownCommand",
        "unknownGroup",
      ].sort(),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Permissions
// ---------------------------------------------------------------------------------------------

describe("permissions: a player acts only for combatants it owns; the GM may do anything", () => {
  const setup = individualMode.create([pc("a"), pc("b")]);
  const roll: IndividualCommand = { type: "recordInitiative", combatantId: "a", total: 12, modifier: 2 };
  const battle = started([
    ["a", 12, 0],
    ["b", 8, 0],
  ]);

  it.each([
    { who: "the GM", requester: GM, state: setup, command: roll, ok: true },
    { who: "the owner", requester: player("a"), state: setup, command: roll, ok: true },
    { who: "another player", requester: player("b"), state: setup, command: roll, ok: false },
    { who: "the GM", requester: GM, state: battle, command: { type: "delay", combatantId: "a" }, ok: true },
    { who: "the owner", requester: player("a"), state: battle, command: { type: "delay", combatantId: "a" }, ok: true },
    {
      who: "another player",
      requester: player("b"),
      state: battle,
      command: { type: "delay", combatantId: "a" },
      ok: false,
    },
    { who: "the GM", requester: GM, state: battle, command: next, ok: true },
    { who: "the owner", requester: player("a"), state: battle, command: next, ok: true },
    { who: "another player", requester: player("b"), state: battle, command: next, ok: false },
    { who: "the owner", requester: player("a"), state: battle, command: { type: "nextRound" }, ok: false },
  ] as { who: string; requester: Requester; state: IndividualState; command: IndividualCommand; ok: boolean }[])(
    "$command.type by $who → allowed: $ok",
    ({ requester, state, command, ok }) => {
      expect(apply(state, command, requester).ok).toBe(ok);
    },
  );

  it("allowed() lists exactly what each user may do now", () => {
    const list = (state: IndividualState, who: Requester): string[] =>
      individualMode
        .allowed(state, who)
        .map((a) => `${a.type}${a.combatantId === undefined ? "" : `:${a.combatantId}`}`);
    expect(list(setup, player("a"))).toEqual(["recordInitiative:a"]);
    expect(list(setup, player("x"))).toEqual([]);
    expect(list(battle, player("a"))).toEqual(["nextTurn", "delay:a", "ready:a"]);
    expect(list(battle, player("b"))).toEqual([]);
    const gm = list(setup, GM);
    expect(gm).toContain("recordInitiative:b");
    expect(gm).toContain("setAware:a");
    expect(gm).toContain("addCombatant");
    expect(gm).not.toContain("start");
    expect(gm).not.toContain("nextTurn");
    const delayed = run(battle, { type: "delay", combatantId: "a" });
    expect(list(delayed, player("a"))).toEqual(["endDelay:a"]);
    const grouped = run(
      individualMode.create([npc("n1"), npc("n2")]),
      { type: "setGroup", combatantId: "n1", groupId: "g", modifier: 1 },
      { type: "setGroup", combatantId: "n2", groupId: "g", modifier: 2 },
    );
    expect(individualMode.allowed(grouped, GM)).toContainEqual({ type: "recordGroupInitiative", groupId: "g" });
    expect(list(grouped, GM)).not.toContain("recordInitiative:n1");
    const tied = rolled([
      ["a", 5, 0],
      ["b", 5, 0],
    ]);
    expect(individualMode.allowed(tied, GM)).toContainEqual({ type: "recordRollOff", combatantId: "a" });
    expect(list(tied, player("a"))).not.toContain("recordRollOff:a");
  });
});

// ---------------------------------------------------------------------------------------------
// Untrusted data
// ---------------------------------------------------------------------------------------------

describe("parseCommand narrows untrusted data", () => {
  it.each([
    [{ type: "nextTurn" }, { type: "nextTurn" }],
    [{ type: "start" }, { type: "start", surprise: false }],
    [
      { type: "start", surprise: true },
      { type: "start", surprise: true },
    ],
    [
      { type: "recordInitiative", combatantId: "a", total: 17, modifier: 3, extra: "dropped" },
      { type: "recordInitiative", combatantId: "a", total: 17, modifier: 3 },
    ],
    [
      { type: "recordRollOff", results: [{ combatantId: "a", total: 4 }] },
      { type: "recordRollOff", results: [{ combatantId: "a", total: 4 }] },
    ],
    [
      { type: "delay", combatantId: "a" },
      { type: "delay", combatantId: "a", after: null },
    ],
    [
      { type: "delay", combatantId: "a", after: "b" },
      { type: "delay", combatantId: "a", after: "b" },
    ],
    [
      { type: "setGroup", combatantId: "a", groupId: null },
      { type: "setGroup", combatantId: "a", groupId: null },
    ],
    [
      { type: "setGroup", combatantId: "a", groupId: "g", modifier: -1 },
      { type: "setGroup", combatantId: "a", groupId: "g", modifier: -1 },
    ],
    [
      { type: "addCombatant", combatant: { id: "x", name: "X", isPC: false } },
      { type: "addCombatant", combatant: { id: "x", name: "X", isPC: false } },
    ],
    [
      { type: "ready", combatantId: "a", trigger: "door" },
      { type: "ready", combatantId: "a", trigger: "door" },
    ],
  ])("accepts %j", (data, expected) => {
    expect(individualMode.parseCommand(data)).toEqual(expected);
  });

  it.each([
    null,
    undefined,
    42,
    "nextTurn",
    [],
    {},
    { type: "teleport" },
    { type: "toString" },
    { type: "recordInitiative", combatantId: "a", total: Number.NaN, modifier: 0 },
    { type: "recordInitiative", combatantId: "a", total: Infinity, modifier: 0 },
    { type: "recordInitiative", combatantId: "a", total: "17", modifier: 0 },
    { type: "recordInitiative", combatantId: "a", total: 17 },
    { type: "recordInitiative", total: 17, modifier: 0 },
    { type: "recordInitiative", combatantId: "", total: 17, modifier: 0 },
    { type: "recordGroupInitiative", groupId: "g", total: -Infinity },
    { type: "recordRollOff", results: [] },
    { type: "recordRollOff", results: [{ combatantId: "a", total: Number.NaN }] },
    { type: "recordRollOff", results: { a: 3 } },
    { type: "setAware", combatantId: "a", aware: "yes" },
    { type: "setDefeated", combatantId: "a" },
    { type: "start", surprise: 1 },
    { type: "delay", combatantId: "a", after: 7 },
    { type: "ready", combatantId: "a" },
    { type: "ready", combatantId: "a", trigger: "   " },
    { type: "setGroup", combatantId: "a", groupId: "g" },
    { type: "addCombatant", combatant: { id: "x", name: "X" } },
    { type: "addCombatant", combatant: { id: 5, name: "X", isPC: true } },
  ])("refuses %j", (data) => {
    expect(individualMode.parseCommand(data)).toBeNull();
  });
});

describe("view", () => {
  it("before the start: setup, derived order with the unrolled last, nobody acting", () => {
    const s = run(individualMode.create([pc("x"), pc("a"), pc("b")]), {
      type: "recordInitiative",
      combatantId: "b",
      total: 3,
      modifier: 0,
    });
    expect(individualMode.view(s)).toEqual({
      started: false,
      round: 0,
      step: "setup",
      order: ["b", "x", "a"],
      current: null,
      next: null,
    });
  });

  it("next is the first of the next round at the end of a round", () => {
    expect(individualMode.view(run(started(ABC), next, next))).toMatchObject({ current: "b", next: "a" });
  });
});

describe("stored states from before a field existed", () => {
  it("a state without `moved` reads as nobody moved; a `moved` naming a stranger is refused", async () => {
    const { parseIndividualState } = await import("../../src/modes/individual/rules/state");
    const s = started([
      ["a", 20, 0],
      ["b", 15, 0],
    ]);
    const { moved: _moved, ...old } = s;
    expect(parseIndividualState(JSON.parse(JSON.stringify(old)))?.moved).toEqual([]);
    expect(parseIndividualState({ ...s, moved: ["zz"] })).toBeNull();
  });
});
