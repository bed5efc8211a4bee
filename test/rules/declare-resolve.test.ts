/**
 * The `declare-resolve` mode (RULES.md §3, rulebook excerpt 002), tested in the rules' own words.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REFUSAL_CODES, applyToEncounter, type Encounter, type EngineCommand } from "../../src/core/engine";
import {
  DECLARE_RESOLVE_REFUSALS,
  type ActionInput,
  type DeclareResolveCommand,
  type DeclareResolveCombatant,
  type DeclareResolveState,
  type IPChangeDuration,
} from "../../src/modes/declare-resolve/rules/types";
import {
  apView,
  carriedInOf,
  declarationOf,
  resolvedOf,
  currentIP,
  declarationLegality,
  declareOrder,
  defChange,
  pendingTies,
  resolveOrder,
  rollsNeeded,
} from "../../src/modes/declare-resolve/rules/points";
import {
  combatantRows,
  currentDeclarer,
  currentResolver,
  currentStep,
} from "../../src/modes/declare-resolve/rules/derived";
import { createDeclareResolve } from "../../src/modes/declare-resolve/rules/flow";
import { declareResolveAllowed } from "../../src/modes/declare-resolve/rules/view";
import { declareResolveMode } from "../../src/modes/declare-resolve/rules/mode";
import {
  extraAttackQueue,
  isFinishing,
  resolutionQueue,
  upkeepPreview,
} from "../../src/modes/declare-resolve/rules/resolution";
import { parseDeclareResolveState } from "../../src/modes/declare-resolve/rules/state";
import { GM, deepFreeze, npc, pc, player, refusal, rulesOf } from "./harness";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const { apply, must, run } = rulesOf(declareResolveMode);

const ALICE = player("alice");
const BOB = player("bob");

type Cmd = DeclareResolveCommand;

function who(state: DeclareResolveState, id: string): DeclareResolveCombatant {
  const c = state.combatants.find((x) => x.id === id);
  if (c === undefined) throw new Error(`no ${id}`);
  return c;
}

// The seed's catalogue.
const DODGE: ActionInput = { name: "Dodge", cost: 2, kind: "defence", def: 3 };
const MELEE: ActionInput = { name: "Melee Attack", cost: 4, kind: "attack" };
const POWER: ActionInput = { name: "Power Attack", cost: 7, kind: "attack" };
const JAB: ActionInput = { name: "Jab", cost: 1, kind: "attack" };

const ip = (combatantId: string, total: number, modifier = 0): Cmd => ({
  type: "recordIP",
  combatantId,
  total,
  modifier,
});
const declare = (combatantId: string, ...actions: ActionInput[]): Cmd => ({ type: "declare", combatantId, actions });
const next: Cmd = { type: "nextTurn" };
const nextRound: Cmd = { type: "nextRound" };
const start: Cmd = { type: "start" };
const upkeep: Cmd = { type: "upkeep" };

// Alice and Bob are PCs; the orc and the goblin are the GM's.
const ROSTER = [pc("alice"), pc("bob"), npc("orc"), npc("goblin")];
/** IP: Alice 15, Bob 12, the orc 10, the goblin 8: declare goblin, orc, Bob, Alice; resolve the other way. */
const rolled = deepFreeze(
  run(declareResolveMode.create(ROSTER), ip("alice", 15, 3), ip("bob", 12, 2), ip("orc", 10, 1), ip("goblin", 8, 0)),
);
const battle = deepFreeze(run(rolled, start));

/** Declare for everyone in declare order (slowest first), each as the GM. */
function declareAll(state: DeclareResolveState, plan: Readonly<Record<string, readonly ActionInput[]>>) {
  let s = state;
  for (let guard = 0; currentDeclarer(s) !== null && guard < 50; guard++) {
    const id = currentDeclarer(s) ?? "";
    s = must(s, declare(id, ...(plan[id] ?? []))).state;
  }
  return s;
}

/** End resolution turns until the round reaches its upkeep; the ids of who resolved, in order, with their pass. */
function resolveAll(state: DeclareResolveState): { state: DeclareResolveState; turns: string[] } {
  let s = state;
  const turns: string[] = [];
  for (let guard = 0; s.phase === "resolve" && guard < 100; guard++) {
    const id = currentResolver(s);
    const pass = resolutionQueue(s)[0]?.pass;
    turns.push(`${id ?? "?"}@${pass ?? "?"}`);
    s = must(s, next).state;
  }
  return { state: s, turns };
}

// ---------------------------------------------------------------------------------------------
// Step 1: roll initiative
// ---------------------------------------------------------------------------------------------

describe("Step 1: each rolls 2d10 + Speed bonus + Wisdom bonus + modifiers: the base IP for the entire combat", () => {
  it("the total and the modifier arrive as data and are kept", () => {
    expect(who(rolled, "alice").ip).toEqual({ total: 15, modifier: 3 });
    expect(combatantRows(rolled).find((r) => r.combatantId === "alice")).toMatchObject({
      baseIP: 15,
      currentIP: 15,
      modifier: 3,
    });
  });

  it("initiative is only rolled once per combat: after the start a second roll is refused", () => {
    expect(refusal(apply(battle, ip("alice", 3)))).toEqual({ code: "ipAlreadyRolled", combatantId: "alice" });
  });

  it("before the start only the GM rolls again: the new roll replaces the old, which is kept", () => {
    const old = who(rolled, "alice").ip?.total;
    expect(who(run(rolled, ip("alice", 4, 1)), "alice").ip).toEqual({ total: 4, modifier: 1, replaced: [old] });
  });

  it("before the start a player's second roll is refused (the first counts)", () => {
    expect(refusal(apply(rolled, ip("alice", 4, 1), ALICE))).toEqual({ code: "rerollGMOnly", combatantId: "alice" });
  });

  it.each([
    { rule: "a player rolls for a combatant it owns", who: ALICE, id: "alice", code: null },
    { rule: "a player cannot roll for someone else's combatant", who: BOB, id: "alice", code: "notOwner" },
    { rule: "the GM rolls for anyone", who: GM, id: "orc", code: null },
  ])("$rule", ({ who: sender, id, code }) => {
    const s = declareResolveMode.create(ROSTER);
    const outcome = apply(s, ip(id, 11), sender);
    expect(outcome.ok ? null : outcome.refusal.code).toBe(code);
  });

  it.each([
    { what: "a non-finite total", total: Number.NaN, modifier: 0 },
    { what: "an infinite modifier", total: 10, modifier: Number.POSITIVE_INFINITY },
    { what: "an absurd total", total: 1e9, modifier: 0 },
  ])("refuses $what", ({ total, modifier }) => {
    expect(refusal(apply(rolled, { type: "recordIP", combatantId: "bob", total, modifier }))).toEqual({
      code: "invalidValue",
      combatantId: "bob",
    });
  });

  it("round 1 begins with the roll step while someone still needs a roll, then moves on by itself", () => {
    const s = run(declareResolveMode.create(ROSTER), ip("alice", 15), ip("bob", 12), start);
    expect(currentStep(s)).toBe("roll");
    expect(rollsNeeded(s)).toEqual(["orc", "goblin"]);
    expect(declareResolveMode.view(s).current).toBeNull();
    const after = run(s, ip("orc", 10), ip("goblin", 8));
    expect(currentStep(after)).toBe("declare");
    expect(currentDeclarer(after)).toBe("goblin");
  });

  it("the GM may move on without a missing roll: who has not rolled takes no part until it rolls", () => {
    const s = run(declareResolveMode.create(ROSTER), ip("alice", 15), ip("bob", 12), ip("orc", 10), start, next);
    expect(currentStep(s)).toBe("declare");
    expect(declareOrder(s)).toEqual(["orc", "bob", "alice"]);
    expect(refusal(apply(s, declare("goblin")))).toEqual({ code: "initiativeMissing", combatantId: "goblin" });
  });

  it("when no initiative roll is required, as in later rounds, the roll step is skipped", () => {
    const s = run(declareAll(battle, {}), upkeep);
    expect(s.round).toBe(2);
    expect(currentStep(s)).toBe("declare");
  });

  it("a combatant who joins after the start rolls when it joins; the next round has a roll step until it does", () => {
    const joined = run(battle, { type: "addCombatant", combatant: npc("troll") });
    expect(rollsNeeded(joined)).toEqual(["troll"]);
    const round2 = run(declareAll(joined, {}), upkeep);
    expect(currentStep(round2)).toBe("roll");
    const rolledIn = must(round2, ip("troll", 9)).state;
    expect(currentStep(rolledIn)).toBe("declare");
    expect(declareOrder(rolledIn)).toEqual(["goblin", "troll", "orc", "bob", "alice"]);
  });

  it("a joiner who rolls during the declare step declares at its place among those still to declare", () => {
    const joined = run(battle, { type: "addCombatant", combatant: npc("troll") }, declare("goblin"), ip("troll", 9));
    expect(currentDeclarer(joined)).toBe("troll");
  });
});

// ---------------------------------------------------------------------------------------------
// IP changes
// ---------------------------------------------------------------------------------------------

describe("IP may be altered by actions or events, and always returns to its starting value once they pass", () => {
  const haste = (duration: IPChangeDuration): Cmd => ({
    type: "addIPChange",
    combatantId: "goblin",
    cause: "Haste",
    amount: 10,
    duration,
  });

  it("the order uses the current IP (base + changes); the tracker shows base → current", () => {
    const s = run(battle, haste({ kind: "round" }));
    expect(currentIP(who(s, "goblin"))).toBe(18);
    expect(resolveOrder(s)).toEqual(["goblin", "alice", "bob", "orc"]);
    expect(combatantRows(s).find((r) => r.combatantId === "goblin")).toMatchObject({ baseIP: 8, currentIP: 18 });
  });

  it.each([
    { duration: { kind: "round" } as const, rounds: [18, 8, 8] },
    { duration: { kind: "rounds", rounds: 2 } as const, rounds: [18, 18, 8] },
    { duration: { kind: "untilRemoved" } as const, rounds: [18, 18, 18] },
  ])(
    "a change lasting $duration.kind $duration.rounds reverts on its own when its last round ends",
    ({ duration, rounds }) => {
      let s = run(battle, haste(duration));
      const seen: (number | null)[] = [];
      for (let i = 0; i < 3; i++) {
        seen.push(currentIP(who(s, "goblin")));
        s = run(s, nextRound, upkeep);
      }
      expect(seen).toEqual(rounds);
    },
  );

  it("the expiry is announced at the upkeep", () => {
    const s = run(battle, haste({ kind: "round" }), nextRound);
    expect(must(s, upkeep).events).toContainEqual({
      type: "ipChangeExpired",
      round: 1,
      combatantId: "goblin",
      changeId: "ip1",
    });
  });

  it("a change until removed goes with removeIPChange; an unknown change is refused", () => {
    const s = run(battle, { ...haste({ kind: "untilRemoved" }), changeId: "haste" } as Cmd);
    const removed = must(s, { type: "removeIPChange", combatantId: "goblin", changeId: "haste" }).state;
    expect(currentIP(who(removed, "goblin"))).toBe(8);
    expect(refusal(apply(removed, { type: "removeIPChange", combatantId: "goblin", changeId: "haste" }))).toEqual({
      code: "unknownIPChange",
      combatantId: "goblin",
    });
  });

  it.each([
    { what: "an empty cause", patch: { cause: " " } },
    { what: "a non-finite amount", patch: { amount: Number.NaN } },
    { what: "zero rounds", patch: { duration: { kind: "rounds", rounds: 0 } } },
    { what: "a duplicate change id", patch: { changeId: "ip1" } },
  ])("refuses $what", ({ patch }) => {
    const s = run(battle, haste({ kind: "round" }));
    expect(refusal(apply(s, { ...haste({ kind: "round" }), ...patch } as Cmd))).toEqual({
      code: "invalidValue",
      combatantId: "goblin",
    });
  });

  it("only the GM changes IP", () => {
    expect(refusal(apply(battle, { ...haste({ kind: "round" }), combatantId: "alice" } as Cmd, ALICE))).toEqual({
      code: "notGM",
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Ties
// ---------------------------------------------------------------------------------------------

describe("ties in IP: higher modifier counts as faster; what is still tied the GM orders, never the rules", () => {
  const tiedRoster = [pc("a"), pc("b"), npc("c")];

  it("the higher modifier resolves earlier and declares later", () => {
    const s = run(declareResolveMode.create(tiedRoster), ip("a", 10, 1), ip("b", 10, 4), ip("c", 10, 2), start);
    expect(resolveOrder(s)).toEqual(["b", "c", "a"]);
    expect(declareOrder(s)).toEqual(["a", "c", "b"]);
    expect(pendingTies(s)).toEqual([]);
  });

  it("still tied: the start is refused and the tie is shown; the GM's order (fastest first) settles it", () => {
    const s = run(declareResolveMode.create(tiedRoster), ip("a", 10, 1), ip("b", 10, 1), ip("c", 12, 0));
    expect(pendingTies(s)).toEqual([["a", "b"]]);
    expect(refusal(apply(s, start))).toEqual({ code: "ipTiePending" });
    expect(
      combatantRows(s)
        .filter((r) => r.tied)
        .map((r) => r.combatantId),
    ).toEqual(["a", "b"]);
    const ordered = must(s, { type: "orderTied", combatantIds: ["b", "a"] }).state;
    expect(pendingTies(ordered)).toEqual([]);
    expect(resolveOrder(run(ordered, start))).toEqual(["c", "b", "a"]);
  });

  it.each([
    { what: "part of the tie", ids: ["a", "c"] },
    { what: "someone not tied", ids: ["a", "b", "c"] },
    { what: "someone twice", ids: ["a", "a"] },
  ])("the GM must order exactly the tied combatants: $what is refused", ({ ids }) => {
    const s = run(declareResolveMode.create(tiedRoster), ip("a", 10, 1), ip("b", 10, 1), ip("c", 12, 0));
    expect(refusal(apply(s, { type: "orderTied", combatantIds: ids }))?.code).toBe("notIPTied");
  });

  it("equal IP after a change: the higher modifier still decides, and no tie is pending", () => {
    const s = run(battle, {
      type: "addIPChange",
      combatantId: "goblin",
      cause: "Rage",
      amount: 2,
      duration: { kind: "round" },
    });
    // The goblin (8 + 2, modifier 0) and the orc (10, modifier 1): the orc is faster.
    expect(pendingTies(s)).toEqual([]);
    expect(resolveOrder(s)).toEqual(["alice", "bob", "orc", "goblin"]);
  });

  it("equal IP and equal modifier mid-round: declaring and next turn are refused with the tie code", () => {
    const s = run(declareResolveMode.create(tiedRoster), ip("a", 10, 1), ip("b", 8, 1), ip("c", 12, 0), start);
    const tied = run(s, {
      type: "addIPChange",
      combatantId: "b",
      cause: "Rally",
      amount: 2,
      duration: { kind: "round" },
    });
    expect(pendingTies(tied)).toEqual([["a", "b"]]);
    expect(declareResolveMode.view(tied).current).toBeNull();
    expect(refusal(apply(tied, declare("a")))).toEqual({ code: "ipTiePending" });
    expect(refusal(apply(tied, next))).toEqual({ code: "ipTiePending" });
    const ordered = must(tied, { type: "orderTied", combatantIds: ["a", "b"] }).state;
    expect(currentDeclarer(ordered)).toBe("b");
  });

  it("the GM's order holds while the IP stays; a new member of the tie asks the GM again", () => {
    const s = run(
      declareResolveMode.create([...tiedRoster, npc("d")]),
      ip("a", 10, 1),
      ip("b", 10, 1),
      ip("c", 12, 0),
      ip("d", 7, 1),
      { type: "orderTied", combatantIds: ["b", "a"] },
      start,
    );
    expect(pendingTies(s)).toEqual([]);
    const joined = run(s, {
      type: "addIPChange",
      combatantId: "d",
      cause: "Haste",
      amount: 3,
      duration: { kind: "round" },
    });
    expect(pendingTies(joined)).toEqual([["b", "a", "d"]]);
  });
});

// ---------------------------------------------------------------------------------------------
// Step 2: declare actions
// ---------------------------------------------------------------------------------------------

describe("Step 2: declare actions in initiative order, from lowest to highest", () => {
  const NOTHING_DECLARED = { round: 1, actions: [], carry: 0, skipped: false, carriedIn: null, resolved: 0 };

  it("the slowest declares first, from the bottom of the one order the tracker shows all round; who is next", () => {
    expect(declareResolveMode.view(battle)).toEqual({
      started: true,
      round: 1,
      step: "declare",
      order: ["alice", "bob", "orc", "goblin"],
      current: "goblin",
      next: "orc",
    });
  });

  it("players for their characters, the GM for the NPCs (and anyone)", () => {
    const s = run(battle, declare("goblin", MELEE), declare("orc", DODGE));
    expect(must(s, declare("bob", MELEE), BOB).state.combatants.find((c) => c.id === "bob")?.declaration).toEqual({
      round: 1,
      actions: [{ name: "Melee Attack", cost: 4, kind: "attack", def: 0 }],
      carry: 0,
      skipped: false,
      carriedIn: null,
      resolved: 0,
    });
    expect(must(s, declare("bob", MELEE), GM).step).toBe("turn");
  });

  it("faster characters declare knowing what slower ones will do: every declaration is in the state", () => {
    const s = run(battle, declare("goblin", MELEE), declare("orc", DODGE, JAB));
    const rows = combatantRows(s);
    expect(rows.find((r) => r.combatantId === "orc")?.declaration?.actions.map((a) => a.name)).toEqual([
      "Dodge",
      "Jab",
    ]);
    expect(rows.find((r) => r.combatantId === "goblin")?.declaration?.actions.map((a) => a.name)).toEqual([
      "Melee Attack",
    ]);
  });

  it("an empty list is the explicit 'no actions this round'", () => {
    const s = must(battle, declare("goblin")).state;
    expect(who(s, "goblin").declaration).toEqual(NOTHING_DECLARED);
    expect(currentDeclarer(s)).toBe("orc");
  });

  it("the GM's next turn skips the current declarer: it declares nothing", () => {
    const { state, events } = must(battle, next);
    expect(who(state, "goblin").declaration).toEqual({ ...NOTHING_DECLARED, skipped: true });
    expect(events.map((e) => e.type)).toContain("declarationSkipped");
  });

  it("once everyone has declared, the resolution begins by itself", () => {
    const s = declareAll(battle, { goblin: [MELEE] });
    expect(currentStep(s)).toBe("resolve");
    expect(currentResolver(s)).toBe("goblin");
  });

  it("a defeated combatant takes no part: it does not declare", () => {
    const s = run(battle, { type: "setDefeated", combatantId: "goblin", defeated: true });
    expect(currentDeclarer(s)).toBe("orc");
    expect(refusal(apply(s, declare("goblin")))).toEqual({ code: "combatantDefeated", combatantId: "goblin" });
  });
});

describe("bad declarations get distinct refusals and change nothing", () => {
  const atBob = deepFreeze(run(battle, declare("goblin"), declare("orc")));
  it.each([
    {
      rule: "an unknown action (no name)",
      cmd: declare("bob", { name: " ", cost: 1, kind: "other" }),
      by: BOB,
      code: "unknownAction",
    },
    {
      rule: "an unknown action (no such kind)",
      cmd: declare("bob", { name: "Sing", cost: 1, kind: "song" }),
      by: BOB,
      code: "unknownAction",
    },
    {
      rule: "a negative cost",
      cmd: declare("bob", { name: "Cheat", cost: -2, kind: "other" }),
      by: BOB,
      code: "invalidCost",
    },
    {
      rule: "a fractional cost",
      cmd: declare("bob", { name: "Cheat", cost: 1.5, kind: "other" }),
      by: BOB,
      code: "invalidCost",
    },
    {
      rule: "a non-numeric cost",
      cmd: declare("bob", { name: "Cheat", cost: Number.NaN, kind: "other" }),
      by: BOB,
      code: "invalidCost",
    },
    { rule: "a declaration out of turn", cmd: declare("alice", DODGE), by: ALICE, code: "notYourTurn" },
    { rule: "a declaration for someone else's combatant", cmd: declare("bob", DODGE), by: ALICE, code: "notOwner" },
    { rule: "a second declaration", cmd: declare("orc", DODGE), by: GM, code: "alreadyDeclared" },
    { rule: "an unknown combatant", cmd: declare("ghost", DODGE), by: GM, code: "unknownCombatant" },
    {
      rule: "too many actions",
      cmd: declare("bob", ...Array.from({ length: 21 }, () => JAB)),
      by: BOB,
      code: "tooManyActions",
    },
    { rule: "a bad DEF change", cmd: declare("bob", { ...DODGE, def: 0.5 }), by: BOB, code: "invalidValue" },
  ])("$rule: $code", ({ cmd, by, code }) => {
    const before = structuredClone(atBob);
    const outcome = apply(atBob, cmd, by);
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? null : outcome.refusal.code).toBe(code);
    expect(atBob).toEqual(before);
  });

  it("the codes are distinct and this mode's own codes are declared", () => {
    const codes = ["unknownAction", "invalidCost", "notYourTurn", "notOwner", "alreadyDeclared"];
    expect(new Set(codes).size).toBe(codes.length);
    expect(DECLARE_RESOLVE_REFUSALS).toEqual(expect.arrayContaining(["unknownAction", "invalidCost", "apOverBudget"]));
  });

  it("a cost sent as text that is not a number comes through parseCommand and is refused as invalidCost", () => {
    const parsed = declareResolveMode.parseCommand({
      type: "declare",
      combatantId: "bob",
      actions: [{ name: "Odd", cost: "lots", kind: "other" }],
    });
    expect(parsed).not.toBeNull();
    if (parsed === null) return;
    expect(refusal(apply(atBob, parsed, BOB))?.code).toBe("invalidCost");
    const numeric = declareResolveMode.parseCommand({
      type: "declare",
      combatantId: "bob",
      actions: [{ name: "Dodge", cost: "2", kind: "defence" }],
    });
    expect(numeric).toEqual({
      type: "declare",
      combatantId: "bob",
      actions: [{ name: "Dodge", cost: 2, kind: "defence" }],
    });
  });

  it.each([
    ["text", "lots"],
    ["null", null],
    ["an object", {}],
    ["a number too big for a double", "1e400"],
  ])(
    "a cost sent as %s parses to a clean command (finite, the same through JSON), still refused as invalidCost",
    (_what, cost) => {
      const parsed = declareResolveMode.parseCommand({
        type: "declare",
        combatantId: "bob",
        actions: [{ name: "Odd", cost, kind: "other" }],
      });
      expect(parsed?.type).toBe("declare");
      if (parsed?.type !== "declare") return;
      expect(Number.isFinite(parsed.actions[0]?.cost)).toBe(true);
      expect(JSON.parse(JSON.stringify(parsed))).toEqual(parsed);
      expect(refusal(apply(atBob, parsed, BOB))?.code).toBe("invalidCost");
    },
  );

  it("a declaration outside the declare step is refused as the wrong step", () => {
    const s = declareAll(battle, { alice: [MELEE] });
    expect(currentStep(s)).toBe("resolve");
    expect(refusal(apply(s, declare("goblin")))).toEqual({ code: "wrongStep" });
    const before = declareResolveMode.create(ROSTER);
    expect(refusal(apply(before, declare("goblin")))).toEqual({ code: "notStarted" });
    const upkeepStep = run(battle, nextRound);
    expect(refusal(apply(upkeepStep, declare("goblin")))).toEqual({ code: "wrongStep" });
  });
});

// ---------------------------------------------------------------------------------------------
// Action points
// ---------------------------------------------------------------------------------------------

describe("AP: no declared action may resolve in another round unless it also requires all of this round's AP", () => {
  const goblinTurn = (budget: number, carried = 0): DeclareResolveState => {
    let s = run(
      createDeclareResolve(ROSTER, budget),
      ip("alice", 15),
      ip("bob", 12),
      ip("orc", 10),
      ip("goblin", 8),
      start,
    );
    if (carried > 0) {
      // Round 2, after a round 1 in which the goblin declared a long Power Attack.
      const power = { name: "Power Attack", cost: 7, kind: "attack", def: 0 } as const;
      const last = { round: 1, actions: [power], carry: carried, skipped: false, carriedIn: null, resolved: 1 };
      s = {
        ...s,
        round: 2,
        combatants: s.combatants.map((c) => (c.id === "goblin" ? { ...c, declaration: last } : c)),
      };
    }
    return deepFreeze(s);
  };

  it.each([
    {
      rule: "a player cannot declare both a Dodge (2 AP) and a standard Melee Attack (4 AP) in a round",
      budget: 5,
      actions: [DODGE, MELEE],
      refused: { code: "apOverBudget", combatantId: "goblin", total: 6, available: 5, budget: 5 },
    },
    {
      rule: "he would be able to declare a Power Attack (7 AP): all 5 AP now and 2 AP of the following round",
      budget: 5,
      actions: [POWER],
      carry: 2,
    },
    { rule: "a Dodge and a Jab fit the 5 AP", budget: 5, actions: [DODGE, JAB], carry: 0 },
    { rule: "a Melee Attack alone fits", budget: 5, actions: [MELEE], carry: 0 },
    {
      rule: "the same rule with a reduced budget (4): Dodge + Melee Attack is still refused, with the reduced budget",
      budget: 4,
      actions: [DODGE, MELEE],
      refused: { code: "apOverBudget", combatantId: "goblin", total: 6, available: 4, budget: 4 },
    },
    {
      rule: "the same rule with a reduced budget (4): a Power Attack takes all 4 AP now and 3 of the next round",
      budget: 4,
      actions: [POWER],
      carry: 3,
    },
    {
      rule: "the same rule with a reduced budget (3): a Melee Attack alone needs all 3 AP and carries 1",
      budget: 3,
      actions: [MELEE],
      carry: 1,
    },
    {
      rule: "an action that would not finish in the next round either is refused",
      budget: 5,
      actions: [{ name: "Ritual", cost: 11, kind: "other" }],
      refused: { code: "actionTooLong", combatantId: "goblin", total: 11, available: 5, budget: 5 },
    },
    {
      rule: "a round with 3 AP left after a carried action: Dodge 2 + Dodge 2 do not fit",
      budget: 5,
      carried: 2,
      actions: [DODGE, DODGE],
      refused: { code: "apOverBudget", combatantId: "goblin", total: 4, available: 3, budget: 5 },
    },
    {
      rule: "a round with 3 AP left after a carried action: a Melee Attack needs all 3 and carries 1",
      budget: 5,
      carried: 2,
      actions: [MELEE],
      carry: 1,
    },
  ])("$rule", ({ budget, carried, actions, refused, carry }) => {
    const s = goblinTurn(budget, carried);
    const outcome = apply(s, declare("goblin", ...actions));
    if (refused !== undefined) {
      expect(refusal(outcome)).toEqual(refused);
      expect(declarationLegality(s, "goblin", actions)).toEqual({ ok: false, refusal: refused });
    } else {
      expect(refusal(outcome)).toBeNull();
      if (!outcome.ok) return;
      expect(who(outcome.state, "goblin").declaration?.carry).toBe(carry);
      expect(declarationLegality(s, "goblin", actions)).toMatchObject({ ok: true, carry });
    }
  });

  it("Power Attack: 5 AP now, 2 AP of the next round, which then has 3 left", () => {
    const s = run(battle, declare("goblin", POWER));
    expect(apView(s, who(s, "goblin"))).toEqual({ budget: 5, available: 5, carriedIn: 0, declared: 7, carriedOut: 2 });
    const round2 = run(declareAll(s, {}), nextRound, upkeep);
    const goblin = who(round2, "goblin");
    expect(carriedInOf(round2, goblin)).toEqual({
      action: { name: "Power Attack", cost: 7, kind: "attack", def: 0 },
      ap: 2,
    });
    expect(apView(round2, goblin)).toEqual({ budget: 5, available: 3, carriedIn: 2, declared: 0, carriedOut: 0 });
    expect(refusal(apply(round2, declare("goblin", MELEE, JAB)))).toEqual({
      code: "apOverBudget",
      combatantId: "goblin",
      total: 5,
      available: 3,
      budget: 5,
    });
    expect(who(must(round2, declare("goblin", DODGE, JAB)).state, "goblin").declaration?.carry).toBe(0);
  });

  it("the budget per round is part of the state: 5 by default, set by the GM before the round's first declaration", () => {
    expect(battle.budget).toBe(5);
    const s = must(battle, { type: "setBudget", budget: 6 }).state;
    expect(s.budget).toBe(6);
    expect(must(s, declare("goblin", DODGE, MELEE)).state.combatants[3]?.declaration?.carry).toBe(0);
    const declared = run(battle, declare("goblin"));
    expect(refusal(apply(declared, { type: "setBudget", budget: 6 }))).toEqual({ code: "wrongStep" });
    expect(refusal(apply(battle, { type: "setBudget", budget: 0 }))).toEqual({ code: "invalidValue" });
    expect(refusal(apply(battle, { type: "setBudget", budget: 6 }, ALICE))).toEqual({ code: "notGM" });
  });
});

describe("DEF: declared actions that alter DEF apply for the entire round", () => {
  it("the DEF changes of a declaration add up, shown per combatant", () => {
    const s = run(battle, declare("goblin", DODGE, { ...DODGE, name: "Parry", def: -1, cost: 1 }));
    expect(defChange(s, who(s, "goblin"))).toBe(2);
    expect(combatantRows(s).find((r) => r.combatantId === "goblin")?.def).toBe(2);
    expect(combatantRows(s).find((r) => r.combatantId === "orc")?.def).toBe(0);
  });

  it("the change lasts through the round's resolution and is gone next round", () => {
    const s = declareAll(battle, { goblin: [DODGE] });
    const { state } = resolveAll(s);
    expect(defChange(state, who(state, "goblin"))).toBe(3);
    expect(defChange(run(state, upkeep), who(run(state, upkeep), "goblin"))).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Step 3: resolve actions
// ---------------------------------------------------------------------------------------------

describe("Step 3: resolve in initiative order, from the highest to the lowest", () => {
  it("the fastest resolves first; combat's current is whoever resolves now", () => {
    const s = declareAll(battle, { goblin: [MELEE], orc: [MELEE], bob: [DODGE], alice: [MELEE] });
    expect(declareResolveMode.view(s)).toMatchObject({
      step: "resolve",
      order: ["alice", "bob", "orc", "goblin"],
      current: "alice",
      next: "bob",
    });
    expect(resolveAll(s).turns).toEqual(["alice@1", "bob@1", "orc@1", "goblin@1"]);
  });

  it("combatants with nothing to resolve are skipped", () => {
    const s = declareAll(battle, { goblin: [MELEE], alice: [DODGE] });
    expect(resolveAll(s).turns).toEqual(["alice@1", "goblin@1"]);
  });

  it("multiple attacks: the first at his normal IP, the others after everybody's initial actions, in initiative order", () => {
    const s = run(
      battle,
      { type: "setBudget", budget: 10 },
      declare("goblin", JAB, JAB, JAB),
      declare("orc", MELEE),
      declare("bob", DODGE, JAB, JAB),
      declare("alice", JAB, DODGE, MELEE),
    );
    expect(extraAttackQueue(s).map((t) => `${t.combatantId}@${t.pass}:${t.actions[0]?.name ?? ""}`)).toEqual([
      "alice@2:Melee Attack",
      "bob@2:Jab",
      "goblin@2:Jab",
      "goblin@3:Jab",
    ]);
    // Alice's initial actions: her first attack and her Dodge; her Melee Attack waits.
    expect(resolutionQueue(s)[0]).toEqual({
      combatantId: "alice",
      pass: 1,
      actions: [
        { name: "Jab", cost: 1, kind: "attack", def: 0 },
        { name: "Dodge", cost: 2, kind: "defence", def: 3 },
      ],
      finishing: false,
    });
    const { turns } = resolveAll(s);
    expect(turns).toEqual(["alice@1", "bob@1", "orc@1", "goblin@1", "alice@2", "bob@2", "goblin@2", "goblin@3"]);
  });

  it("the view shows the extra attacks as their own step", () => {
    const s = run(
      battle,
      { type: "setBudget", budget: 10 },
      declare("goblin", JAB, JAB),
      declare("orc"),
      declare("bob"),
      declare("alice"),
    );
    const extra = run(s, next);
    expect(currentStep(extra)).toBe("extraAttacks");
    expect(declareResolveMode.view(extra)).toMatchObject({ step: "extraAttacks", current: "goblin", next: null });
  });

  it("a player ends the turn of its own combatant only; the GM any", () => {
    const s = declareAll(battle, { alice: [MELEE], bob: [MELEE] });
    // It is Alice's turn: only her owner or the GM ends it (issue 27 item 3).
    expect(refusal(apply(s, next, BOB))).toEqual({ code: "notOwner", combatantId: "alice" });
    const after = must(s, next, ALICE);
    expect(after.step).toBe("turn");
    expect(currentResolver(after.state)).toBe("bob");
  });

  it("a carried action finishes at the start of the next round's resolution, marked finishing until then", () => {
    const s = declareAll(battle, { goblin: [POWER], alice: [MELEE] });
    const round2 = run(resolveAll(s).state, upkeep);
    expect(isFinishing(round2, who(round2, "goblin"))).toBe(true);
    expect(combatantRows(round2).find((r) => r.combatantId === "goblin")?.finishing).toBe(true);
    const resolving = declareAll(round2, { alice: [MELEE], goblin: [DODGE] });
    expect(
      resolutionQueue(resolving).map((t) => `${t.combatantId}@${t.pass}${t.finishing ? " finishing" : ""}`),
    ).toEqual(["goblin@0 finishing", "alice@1", "goblin@1"]);
    const done = run(resolving, next);
    expect(isFinishing(done, who(done, "goblin"))).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Step 4: end round, upkeep
// ---------------------------------------------------------------------------------------------

describe("Step 4: before the next round, upkeep: bleeding hits are removed, dazed and stunned go down by one", () => {
  const wounded = deepFreeze(
    run(
      battle,
      { type: "setConditions", combatantId: "orc", bleeding: 2, dazed: 1, stunned: 3 },
      { type: "setConditions", combatantId: "bob", bleeding: 0, dazed: 2, stunned: 0 },
    ),
  );

  it("once everybody's actions are resolved, the round waits at its upkeep, which shows what will happen", () => {
    const { state } = resolveAll(declareAll(wounded, { alice: [MELEE] }));
    expect(currentStep(state)).toBe("upkeep");
    expect(declareResolveMode.view(state)).toMatchObject({ step: "upkeep", current: null, next: null });
    expect(upkeepPreview(state)).toEqual([
      { combatantId: "bob", hits: 0, dazed: { from: 2, to: 1 }, stunned: { from: 0, to: 0 } },
      { combatantId: "orc", hits: 2, dazed: { from: 1, to: 0 }, stunned: { from: 3, to: 2 } },
    ]);
  });

  it("the GM confirms it: the hits to remove are reported, a status ends at 0, and the new round begins", () => {
    const s = resolveAll(declareAll(wounded, {})).state;
    const { state, events, step } = must(s, upkeep);
    expect(step).toBe("round");
    expect(state.round).toBe(2);
    expect(events).toEqual(
      expect.arrayContaining([
        { type: "upkeepApplied", round: 1, combatantId: "orc", hits: 2, dazed: 0, stunned: 2 },
        { type: "upkeepApplied", round: 1, combatantId: "bob", hits: 0, dazed: 1, stunned: 0 },
        { type: "conditionEnded", round: 1, combatantId: "orc", condition: "dazed" },
      ]),
    );
    expect(who(state, "orc").conditions).toEqual({ bleeding: 2, dazed: 0, stunned: 2 });
  });

  it.each([
    { rule: "a player cannot confirm the upkeep", who: ALICE, cmd: upkeep, code: "notGM" },
    { rule: "the upkeep is confirmed only at the upkeep step", who: GM, cmd: upkeep, code: "wrongStep", early: true },
  ])("$rule", ({ who: sender, cmd, code, early }) => {
    const s = early === true ? wounded : resolveAll(declareAll(wounded, {})).state;
    expect(refusal(apply(s, cmd, sender))?.code).toBe(code);
  });

  it("next round skips what is left of the round to the upkeep; a second next round confirms it", () => {
    const s = must(wounded, nextRound);
    expect(s.step).toBe("turn");
    expect(currentStep(s.state)).toBe("upkeep");
    const confirmed = must(s.state, nextRound);
    expect(confirmed.step).toBe("round");
    expect(who(confirmed.state, "orc").conditions.stunned).toBe(2);
  });

  it("stunned goes down on its own (not dazed), bleeding stays, and whoever has neither keeps what it had", () => {
    const s = run(
      battle,
      { type: "setConditions", combatantId: "orc", bleeding: 0, dazed: 0, stunned: 2 },
      { type: "setConditions", combatantId: "bob", bleeding: 3, dazed: 0, stunned: 0 },
    );
    const { state } = must(must(s, nextRound).state, nextRound);
    expect(who(state, "orc").conditions).toEqual({ bleeding: 0, dazed: 0, stunned: 1 });
    expect(who(state, "bob").conditions).toEqual({ bleeding: 3, dazed: 0, stunned: 0 });
    expect(who(state, "alice")).toEqual(who(s, "alice"));
  });

  it("a defeated combatant has no upkeep", () => {
    const s = run(wounded, { type: "setDefeated", combatantId: "orc", defeated: true }, nextRound);
    expect(upkeepPreview(s).map((e) => e.combatantId)).toEqual(["bob"]);
  });

  it.each([
    { what: "a negative value", bleeding: -1 },
    { what: "a fraction", bleeding: 0.5 },
  ])("setting conditions refuses $what", ({ bleeding }) => {
    expect(
      refusal(apply(battle, { type: "setConditions", combatantId: "orc", bleeding, dazed: 0, stunned: 0 })),
    ).toEqual({
      code: "invalidValue",
      combatantId: "orc",
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Undo, through the engine
// ---------------------------------------------------------------------------------------------

describe("undo: each declaration, each resolved action, each upkeep and each round is a step", () => {
  type Any = Cmd | EngineCommand;
  function play(encounter: Encounter<DeclareResolveState>, ...commands: Any[]): Encounter<DeclareResolveState> {
    return commands.reduce((e, command) => {
      const outcome = applyToEncounter(declareResolveMode, e, command, GM);
      if (!outcome.ok) throw new Error(`${command.type} refused: ${outcome.refusal.code}`);
      return outcome.state;
    }, encounter);
  }
  const fresh: Encounter<DeclareResolveState> = { mode: "declare-resolve", state: rolled, history: [] };
  const round1 = [start, declare("goblin", POWER), declare("orc", DODGE), declare("bob", MELEE), declare("alice", JAB)];

  it("previous turn un-declares", () => {
    const e = play(fresh, start, declare("goblin", POWER), declare("orc", DODGE));
    const back = play(e, { type: "previousTurn" });
    expect(who(back.state, "orc").declaration).toBeNull();
    expect(who(back.state, "goblin").declaration?.carry).toBe(2);
    expect(currentDeclarer(back.state)).toBe("orc");
  });

  it("previous turn un-resolves", () => {
    const e = play(fresh, ...round1, next);
    expect(currentResolver(e.state)).toBe("bob");
    expect(currentResolver(play(e, { type: "previousTurn" }).state)).toBe("alice");
  });

  it("the upkeep can be undone", () => {
    const e = play(fresh, { type: "setConditions", combatantId: "orc", bleeding: 1, dazed: 1, stunned: 0 }, ...round1);
    const resolved = play(e, next, next, next, next);
    expect(currentStep(resolved.state)).toBe("upkeep");
    const after = play(resolved, upkeep);
    expect(who(after.state, "orc").conditions.dazed).toBe(0);
    const undone = play(after, { type: "previousTurn" });
    expect(undone.state).toEqual(resolved.state);
  });

  it("previous round returns to the start of the previous round, with what was declared before it intact", () => {
    // Round 1: the goblin's Power Attack carries 2 AP into round 2. Round 2 is played; round 3 begins.
    const e = play(fresh, ...round1, next, next, next, next, upkeep);
    const round2Start = e.state;
    expect(carriedInOf(round2Start, who(round2Start, "goblin"))?.ap).toBe(2);
    // Round 2: Bob and Alice are skipped; the goblin's Power Attack finishes, then the orc attacks.
    const round3 = play(e, declare("goblin"), declare("orc", MELEE), next, next, next, next, upkeep);
    expect(round3.state.round).toBe(3);
    const back = play(round3, { type: "previousRound" });
    expect(back.state).toEqual(round2Start);
    expect(carriedInOf(back.state, who(back.state, "goblin"))).toEqual({
      action: { name: "Power Attack", cost: 7, kind: "attack", def: 0 },
      ap: 2,
    });
    // Previous turn from the new round returns to the upkeep with the round's declarations intact.
    const toUpkeep = play(round3, { type: "previousTurn" });
    expect(currentStep(toUpkeep.state)).toBe("upkeep");
    expect(who(toUpkeep.state, "orc").declaration?.actions.map((a) => a.name)).toEqual(["Melee Attack"]);
  });
});

// ---------------------------------------------------------------------------------------------
// Roster, view, allowed, parsing
// ---------------------------------------------------------------------------------------------

describe("roster changes keep a valid state", () => {
  it("removing the current declarer passes the turn to the next", () => {
    const s = must(battle, { type: "removeCombatant", combatantId: "goblin" }).state;
    expect(currentDeclarer(s)).toBe("orc");
    expect(parseDeclareResolveState(structuredClone(s))).toEqual(s);
  });

  it("removing the last one to resolve ends the resolution at the upkeep", () => {
    const r = declareAll(battle, { goblin: [MELEE] });
    expect(currentResolver(r)).toBe("goblin");
    expect(currentStep(must(r, { type: "removeCombatant", combatantId: "goblin" }).state)).toBe("upkeep");
  });

  it("roster commands are the roster commands", () => {
    expect(declareResolveMode.isRosterCommand({ type: "addCombatant", combatant: pc("x") })).toBe(true);
    expect(declareResolveMode.isRosterCommand({ type: "removeCombatant", combatantId: "x" })).toBe(true);
    expect(declareResolveMode.isRosterCommand(next)).toBe(false);
  });
});

describe("allowed: players see controls only for what they may do now", () => {
  it.each([
    {
      rule: "the goblin's declaration is the GM's",
      who: GM,
      state: battle,
      has: { type: "declare", combatantId: "goblin" },
    },
    {
      rule: "Bob declares on his turn",
      who: BOB,
      state: run(battle, declare("goblin"), declare("orc")),
      has: { type: "declare", combatantId: "bob" },
    },
  ])("$rule", ({ who: sender, state, has }) => {
    expect(declareResolveAllowed(state, sender)).toContainEqual(has);
  });

  it("Alice may not declare yet and may not end anyone's turn", () => {
    const types = declareResolveAllowed(battle, ALICE).map((a) => a.type);
    expect(types).not.toContain("declare");
    expect(types).not.toContain("nextTurn");
  });

  it("the GM is asked to order a pending tie", () => {
    const s = run(declareResolveMode.create([pc("a"), pc("b")]), ip("a", 10, 1), ip("b", 10, 1));
    expect(declareResolveAllowed(s, GM)).toContainEqual({ type: "orderTied", combatantId: "a" });
    expect(declareResolveAllowed(s, GM).map((a) => a.type)).not.toContain("start");
  });
});

describe("parseCommand narrows untrusted data", () => {
  it.each([
    { data: { type: "start" }, ok: true },
    { data: { type: "upkeep" }, ok: true },
    { data: { type: "declare", combatantId: "a", actions: [] }, ok: true },
    { data: { type: "declare", combatantId: "a", actions: [{ name: 3, cost: 1, kind: "other" }] }, ok: false },
    { data: { type: "declare", combatantId: "a", actions: "Dodge" }, ok: false },
    { data: { type: "recordIP", combatantId: "a", total: "12", modifier: 0 }, ok: false },
    {
      data: { type: "addIPChange", combatantId: "a", cause: "x", amount: 1, duration: { kind: "rounds", rounds: 2 } },
      ok: true,
    },
    {
      data: { type: "addIPChange", combatantId: "a", cause: "x", amount: 1, duration: { kind: "forever" } },
      ok: false,
    },
    { data: { type: "orderTied", combatantIds: ["a"] }, ok: false },
    { data: { type: "setConditions", combatantId: "a", bleeding: 1, dazed: 0 }, ok: false },
    { data: { type: "previousTurn" }, ok: false },
    { data: null, ok: false },
    { data: { type: "setBudget", budget: "10" }, ok: false },
    { data: { type: "removeIPChange", combatantId: "a" }, ok: false },
    {
      data: { type: "addIPChange", combatantId: "a", cause: "x".repeat(501), amount: 1, duration: { kind: "round" } },
      ok: false,
    },
    {
      data: { type: "addIPChange", combatantId: "a", cause: "x", amount: 1, duration: { kind: "round" }, changeId: 7 },
      ok: false,
    },
  ])("$data → $ok", ({ data, ok }) => {
    expect(declareResolveMode.parseCommand(data) !== null).toBe(ok);
  });

  it("keeps each command's own fields and nothing else; an absent or null change id is left out", () => {
    const duration = { kind: "rounds", rounds: 2 };
    const change = { type: "addIPChange", combatantId: "a", cause: "Aim", amount: -2, duration, extra: 1 };
    expect(declareResolveMode.parseCommand({ ...change, changeId: null })).toEqual({
      type: "addIPChange",
      combatantId: "a",
      cause: "Aim",
      amount: -2,
      duration,
    });
    expect(declareResolveMode.parseCommand({ ...change, changeId: "c1" })).toMatchObject({ changeId: "c1" });
    expect(
      declareResolveMode.parseCommand({ type: "setConditions", combatantId: "a", bleeding: 1, dazed: 2, stunned: 0 }),
    ).toEqual({ type: "setConditions", combatantId: "a", bleeding: 1, dazed: 2, stunned: 0 });
    expect(declareResolveMode.parseCommand({ type: "orderTied", combatantIds: ["b", "a"], combatantId: "a" })).toEqual({
      type: "orderTied",
      combatantIds: ["b", "a"],
    });
    expect(declareResolveMode.parseCommand({ type: "upkeep", combatantId: "a" })).toEqual({ type: "upkeep" });
  });
});

describe("a state stored before declarations carried their round is read in today's shape", () => {
  /** The older shape of a state: each combatant kept `carriedIn` and `resolved`, and a new round cleared every declaration. */
  function olderShape(state: DeclareResolveState): unknown {
    return {
      ...state,
      combatants: state.combatants.map(({ declaration, ...c }) => {
        const d = declarationOf(state, { ...c, declaration });
        return {
          ...c,
          declaration: d === null ? null : { actions: d.actions, carry: d.carry, skipped: d.skipped },
          carriedIn: carriedInOf(state, { ...c, declaration }),
          resolved: resolvedOf(state, { ...c, declaration }),
        };
      }),
    };
  }
  const facts = (state: DeclareResolveState) => ({
    view: declareResolveMode.view(state),
    rows: combatantRows(state),
    allowed: declareResolveMode.allowed(state, GM),
  });

  const declared = declareAll(battle, { goblin: [POWER], orc: [MELEE, JAB] });
  const atUpkeep = resolveAll(declared).state;
  const round2 = run(atUpkeep, upkeep);
  it("(the cases below are what they say)", () => {
    const first = currentResolver(declared) ?? "";
    const oneResolved = run(declared, next);
    expect(resolvedOf(oneResolved, who(oneResolved, first))).toBe(1);
    expect(atUpkeep.phase).toBe("upkeep");
    expect(round2).toMatchObject({ round: 2, phase: "declare" });
    expect(carriedInOf(round2, who(round2, "goblin"))?.ap).toBe(2);
    expect(currentDeclarer(round2)).toBe("goblin");
  });

  it.each([
    ["mid-resolution, one turn resolved", run(declared, next)],
    ["at the upkeep", atUpkeep],
    ["the next round, a long action carried in, before anyone declares", round2],
    ["the next round, after the first declaration", run(round2, declare("goblin", DODGE))],
  ])("%s: the same order, rows, AP and what may be done", (_when, state) => {
    const read = parseDeclareResolveState(JSON.parse(JSON.stringify(olderShape(state))));
    expect(read).not.toBeNull();
    if (read === null) return;
    expect(facts(read)).toEqual(facts(state));
    // And it plays on the same: the next step's view agrees.
    const a = apply(read, next);
    const b = apply(state, next);
    expect(a.ok && declareResolveMode.view(a.state)).toEqual(b.ok && declareResolveMode.view(b.state));
  });
});

describe("parseDeclareResolveState rejects malformed stored data", () => {
  const good = declareAll(battle, { goblin: [POWER], orc: [DODGE] });
  const goblinAt = good.combatants.findIndex((c) => c.id === "goblin");
  const mutate = (change: (d: Record<string, unknown>) => void): unknown => {
    const d = structuredClone(good) as unknown as Record<string, unknown>;
    change(d);
    return d;
  };
  const combatant = (d: Record<string, unknown>, i: number): Record<string, unknown> =>
    (d.combatants as Record<string, unknown>[])[i] ?? {};

  it("a good state survives JSON", () => {
    expect(parseDeclareResolveState(JSON.parse(JSON.stringify(good)))).toEqual(good);
  });

  it.each([
    { what: "a wrong type", change: (d: Record<string, unknown>) => void (d.round = "1") },
    { what: "an unknown phase", change: (d: Record<string, unknown>) => void (d.phase = "pass") },
    { what: "round 0 after the start", change: (d: Record<string, unknown>) => void (d.round = 0) },
    { what: "a zero budget", change: (d: Record<string, unknown>) => void (d.budget = 0) },
    {
      what: "a duplicate combatant",
      change: (d: Record<string, unknown>) =>
        void (d.combatants = [...(d.combatants as unknown[]), (d.combatants as unknown[])[0]]),
    },
    {
      what: "a non-finite IP",
      change: (d: Record<string, unknown>) => void (combatant(d, 0).ip = { total: null, modifier: 0 }),
    },
    {
      what: "a negative cost",
      change: (d: Record<string, unknown>) => {
        const decl = combatant(d, goblinAt).declaration as Record<string, unknown>;
        decl.actions = [{ name: "Power Attack", cost: -1, kind: "attack", def: 0 }];
      },
    },
    {
      what: "a carry on two actions",
      change: (d: Record<string, unknown>) => {
        const decl = combatant(d, goblinAt).declaration as Record<string, unknown>;
        decl.actions = [...(decl.actions as unknown[]), ...(decl.actions as unknown[])];
      },
    },
    {
      what: "a tie break from a tie never ordered",
      change: (d: Record<string, unknown>) => void (combatant(d, 0).tieBreak = { ip: 15, tie: 0, rank: 0 }),
    },
    {
      what: "more resolved turns than it has",
      change: (d: Record<string, unknown>) => {
        (combatant(d, goblinAt).declaration as Record<string, unknown>).resolved = 5;
      },
    },
    {
      what: "a declaration of a later round",
      change: (d: Record<string, unknown>) => {
        (combatant(d, goblinAt).declaration as Record<string, unknown>).round = 2;
      },
    },
    {
      what: "a declaration without its round",
      change: (d: Record<string, unknown>) => {
        delete (combatant(d, goblinAt).declaration as Record<string, unknown>).round;
      },
    },
    {
      what: "an old-shape combatant with a malformed carried action",
      change: (d: Record<string, unknown>) => {
        const c = combatant(d, goblinAt);
        c.carriedIn = { action: null, ap: 2 };
        c.resolved = 0;
      },
    },
    {
      what: "duplicate IP change ids",
      change: (d: Record<string, unknown>) =>
        void (combatant(d, 0).ipChanges = [
          { id: "x", cause: "a", amount: 1, lastRound: null },
          { id: "x", cause: "b", amount: 1, lastRound: null },
        ]),
    },
    {
      what: "an IP change past its last round",
      change: (d: Record<string, unknown>) =>
        void ((d.round = 3), (combatant(d, 0).ipChanges = [{ id: "x", cause: "a", amount: 1, lastRound: 2 }])),
    },
    {
      what: "a declaration before the start",
      change: (d: Record<string, unknown>) => void ((d.round = 0), (d.phase = "setup")),
    },
    {
      what: "negative bleeding",
      change: (d: Record<string, unknown>) =>
        void (combatant(d, 0).conditions = { bleeding: -1, dazed: 0, stunned: 0 }),
    },
  ])("rejects $what", ({ change }) => {
    expect(parseDeclareResolveState(mutate(change))).toBeNull();
  });
});

describe("every code and step this mode adds has its message", () => {
  const lang = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../lang/en.json"), "utf8")) as {
    STRUCTURED_INITIATIVE: { Refusal: Record<string, string>; Step: Record<string, string> };
  };
  const { Refusal, Step } = lang.STRUCTURED_INITIATIVE;

  it.each([...DECLARE_RESOLVE_REFUSALS])("refusal %s has a clear sentence", (code) => {
    expect(Refusal[code]?.length ?? 0).toBeGreaterThan(10);
    expect(REFUSAL_CODES as readonly string[]).not.toContain(code);
  });

  it("the budget refusals name the sum and the AP available", () => {
    for (const code of ["apOverBudget", "actionTooLong"]) {
      expect(Refusal[code]).toContain("{total}");
      expect(Refusal[code]).toContain("{available}");
    }
  });

  it.each(["setup", "roll", "declare", "resolve", "extraAttacks", "upkeep"])("step %s has a name", (step) => {
    expect(typeof Step[step]).toBe("string");
  });
});

describe("NOW and NEXT (issue 27 item 4)", () => {
  it("never name the same combatant twice, in the declarations and the resolution", () => {
    // Alice (the fastest) declares last and resolves first; she alone acts, twice in a row.
    let s = battle;
    const seen: string[] = [];
    for (let guard = 0; guard < 60 && s.round === battle.round; guard++) {
      const { current, next: upNext } = declareResolveMode.view(s);
      seen.push(`${current ?? "-"}>${upNext ?? "-"}`);
      if (current !== null) expect(upNext, `${currentStep(s)}: ${current}`).not.toBe(current);
      const declarer = currentDeclarer(s);
      const actions = declarer === "alice" ? [JAB, JAB] : [];
      s = declarer === null ? must(s, next).state : must(s, declare(declarer, ...actions)).state;
    }
    // While she resolves her first action, nobody else comes this round.
    expect(seen).toContain("alice>-");
  });
});
