/**
 * The `slots` mode (RULES.md §4, rulebook excerpt 003), tested in the rules' own words.
 */
import { describe, expect, it } from "vitest";
import {
  applyToEncounter,
  type Encounter,
  type EngineCommand,
  type Requester,
  type RosterEntry,
} from "../../src/core/engine";
import {
  checksNeeded,
  claimOf,
  currentSlot,
  eligibleFillers,
  slotsView,
  tiedSlots,
} from "../../src/modes/slots/rules/derived";
import { slotsAllowed } from "../../src/modes/slots/rules/view";
import { slotsMode } from "../../src/modes/slots/rules/mode";
import type { SlotsCommand, SlotsState } from "../../src/modes/slots/rules/types";
import { GM, deepFreeze, npc, pc, player, refusal, rulesOf } from "./harness";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const { apply, must, run } = rulesOf(slotsMode);

type Check = readonly [id: string, successes: number, advantages: number];

const check = ([combatantId, primary, secondary]: Check): SlotsCommand => ({
  type: "recordCheck",
  combatantId,
  primary,
  secondary,
});
const fill = (slot: number, combatantId: string): SlotsCommand => ({ type: "fillSlot", slot, combatantId });
const claim = (slot: number, combatantId: string): SlotsCommand => ({ type: "claimSlot", slot, combatantId });
const release = (slot: number): SlotsCommand => ({ type: "releaseClaim", slot });
const next: SlotsCommand = { type: "nextTurn" };
const start: SlotsCommand = { type: "start" };
const defeat = (combatantId: string, defeated = true): SlotsCommand => ({ type: "setDefeated", combatantId, defeated });
const remove = (combatantId: string): SlotsCommand => ({ type: "removeCombatant", combatantId });

function rolled(roster: readonly RosterEntry[], checks: readonly Check[]): SlotsState {
  return run(slotsMode.create(roster), ...checks.map(check));
}

/** "kind p/s" per slot, best first, with the filler or claimant. */
function slotList(state: SlotsState): string[] {
  return slotsView(state).map((v) => {
    const who = v.filledBy ?? (v.claimedBy === null ? "" : `(${v.claimedBy})`);
    return `${v.current ? ">" : ""}${v.kind} ${v.primary}/${v.secondary}${who === "" ? "" : ` ${who}`}`;
  });
}

// Luke and Han are PCs; the officer and two troopers are NPCs.
const ROSTER = [pc("luke"), pc("han"), npc("officer"), npc("t1"), npc("t2")];
const CHECKS: readonly Check[] = [
  ["luke", 2, 1],
  ["han", 1, 0],
  ["officer", 3, 0],
  ["t1", 2, 1],
  ["t2", 0, 2],
];
const LUKE = player("luke");
const HAN = player("han");
/** Slots: 0 npc 3/0, 1 pc 2/1, 2 npc 2/1, 3 pc 1/0, 4 npc 0/2. */
const setup = deepFreeze(rolled(ROSTER, CHECKS));
const battle = deepFreeze(run(setup, start));

// ---------------------------------------------------------------------------------------------
// Ranking and slots
// ---------------------------------------------------------------------------------------------

describe("ranking: successes high → low, then advantages; a PC and an NPC still tied → the PC ranks higher", () => {
  it.each([
    {
      rule: "more successes rank higher",
      roster: [pc("a"), npc("b"), pc("c")],
      checks: [
        ["a", 1, 5],
        ["b", 3, 0],
        ["c", 2, 0],
      ] as Check[],
      expected: ["npc 3/0", "pc 2/0", "pc 1/5"],
    },
    {
      rule: "tied successes: the check with more advantages ranks higher",
      roster: [npc("a"), pc("b")],
      checks: [
        ["a", 2, 0],
        ["b", 2, 3],
      ] as Check[],
      expected: ["pc 2/3", "npc 2/0"],
    },
    {
      rule: "a PC and an NPC still tied: the PC ranks higher (whoever rolled first)",
      roster: [npc("n"), pc("p")],
      checks: [
        ["n", 2, 1],
        ["p", 2, 1],
      ] as Check[],
      expected: ["pc 2/1", "npc 2/1"],
    },
    {
      rule: "net threats and failures may come through as negative scores and rank lowest",
      roster: [npc("n"), pc("p")],
      checks: [
        ["n", 0, -2],
        ["p", 0, 0],
      ] as Check[],
      expected: ["pc 0/0", "npc 0/-2"],
    },
  ])("$rule", ({ roster, checks, expected }) => {
    expect(slotList(rolled(roster, checks))).toEqual(expected);
  });

  it("other ties stay in order and are shown as tied", () => {
    const s = rolled(
      [pc("a"), pc("b"), npc("c"), npc("d"), npc("e")],
      [
        ["a", 1, 1],
        ["b", 1, 1],
        ["c", 1, 1],
        ["d", 0, 0],
        ["e", 0, 0],
      ],
    );
    expect(slotList(s)).toEqual(["pc 1/1", "pc 1/1", "npc 1/1", "npc 0/0", "npc 0/0"]);
    expect(tiedSlots(s)).toEqual([
      [0, 1],
      [3, 4],
    ]);
    expect(slotsView(s).map((v) => v.tied)).toEqual([true, true, false, true, true]);
  });

  it("a new check before the start replaces the old one and its slot", () => {
    const s = run(setup, check(["han", 4, 0]));
    expect(slotList(s)).toEqual(["pc 4/0", "npc 3/0", "pc 2/1", "npc 2/1", "npc 0/2"]);
  });

  it("the skill used is kept for display", () => {
    const s = run(setup, { type: "recordCheck", combatantId: "han", primary: 1, secondary: 0, skill: "cool" });
    expect(s.combatants.find((c) => c.id === "han")?.check).toEqual({ primary: 1, secondary: 0, skill: "cool" });
  });
});

describe("each result becomes a PC slot or an NPC slot; the names are then dropped", () => {
  it("a slot holds its kind and scores, not who rolled it", () => {
    expect(battle.slots.map(({ kind, primary, secondary }) => ({ kind, primary, secondary }))).toEqual([
      { kind: "npc", primary: 3, secondary: 0 },
      { kind: "pc", primary: 2, secondary: 1 },
      { kind: "npc", primary: 2, secondary: 1 },
      { kind: "pc", primary: 1, secondary: 0 },
      { kind: "npc", primary: 0, secondary: 2 },
    ]);
    expect(JSON.stringify(battle.slots)).not.toContain("luke");
  });

  it("any PC who has not acted fills a PC slot, not the one who rolled it: Han takes the slot of Luke's result", () => {
    const s = run(battle, fill(0, "t2"), next);
    expect(must(s, fill(1, "han"), HAN).state.slots[1]?.filledBy).toBe("han");
    const later = run(s, fill(1, "han"), next, fill(2, "officer"), next);
    expect(must(later, fill(3, "luke"), LUKE).state.slots[3]?.filledBy).toBe("luke");
  });

  it("any NPC who has not acted fills an NPC slot, chosen by the GM", () => {
    expect(eligibleFillers(battle, 0)).toEqual(["officer", "t1", "t2"]);
    expect(must(battle, fill(0, "t2")).state.acted).toEqual(["t2"]);
  });
});

describe("start: every combatant makes a check first", () => {
  it.each([
    { rule: "refused with no combatants", state: slotsMode.create([]), code: "noCombatants", id: undefined },
    {
      rule: "refused while a combatant has no check (names it)",
      state: rolled([pc("a"), npc("b")], [["a", 1, 0]]),
      code: "initiativeMissing",
      id: "b",
    },
  ])("$rule", ({ state, code, id }) => {
    expect(apply(state, start)).toEqual({
      ok: false,
      refusal: id === undefined ? { code } : { code, combatantId: id },
    });
  });

  it("a defeated combatant needs no check", () => {
    const s = run(slotsMode.create([pc("a"), npc("b")]), check(["a", 1, 0]), defeat("b"));
    expect(checksNeeded(s)).toEqual([]);
    expect(must(s, start).state.started).toBe(true);
  });

  it("starts round 1 at the top slot, as an undoable round step", () => {
    const { state, events, step } = must(setup, start);
    expect(step).toBe("round");
    expect(currentSlot(state)).toBe(0);
    expect(slotsMode.view(state)).toEqual({
      started: true,
      round: 1,
      step: "round",
      order: ["luke", "han", "officer", "t1", "t2"],
      current: null,
      next: null,
    });
    expect(events.map((e) => e.type)).toEqual(["combatStarted", "roundStarted"]);
  });

  it("players roll their own checks; the GM rolls for anyone", () => {
    const fresh = slotsMode.create(ROSTER);
    expect(apply(fresh, check(["luke", 1, 1]), LUKE).ok).toBe(true);
    expect(refusal(apply(fresh, check(["han", 1, 1]), LUKE))).toEqual({ code: "notOwner", combatantId: "han" });
    expect(apply(fresh, check(["t1", 1, 1]), GM).ok).toBe(true);
  });

  it("players roll once, as in core: only the GM re-rolls a check before the start (issue 15 item 4)", () => {
    const rolled = must(slotsMode.create(ROSTER), check(["luke", 1, 1]), LUKE).state;
    expect(refusal(apply(rolled, check(["luke", 4, 4]), LUKE))).toEqual({ code: "rerollGMOnly", combatantId: "luke" });
    expect(slotsMode.allowed(rolled, LUKE).some((a) => a.type === "recordCheck")).toBe(false);
    expect(slotsMode.allowed(rolled, GM).some((a) => a.type === "recordCheck" && a.combatantId === "luke")).toBe(true);
    const again = must(rolled, check(["luke", 4, 4]), GM).state;
    expect(again.combatants.find((c) => c.id === "luke")?.check).toMatchObject({ primary: 4, secondary: 4 });
  });
});

// ---------------------------------------------------------------------------------------------
// Turns
// ---------------------------------------------------------------------------------------------

describe("turns go down the slot list, one slot at a time", () => {
  /** A full round: t2, Han, the officer, Luke, t1. */
  const round1 = [fill(0, "t2"), next, fill(1, "han"), next, fill(2, "officer"), next, fill(3, "luke"), next];

  it("each slot is filled and its turn ended in rank order", () => {
    const s = run(battle, ...round1, fill(4, "t1"));
    expect(slotList(s)).toEqual(["npc 3/0 t2", "pc 2/1 han", "npc 2/1 officer", "pc 1/0 luke", ">npc 0/2 t1"]);
    expect(slotsMode.view(s)).toMatchObject({ order: ["t2", "han", "officer", "luke", "t1"], current: "t1" });
  });

  it("a combatant acts at most once a round", () => {
    const s = run(battle, fill(0, "t2"), next, fill(1, "han"), next);
    expect(refusal(apply(s, fill(2, "t2")))).toEqual({ code: "alreadyActed", combatantId: "t2" });
    const atLuke = run(s, fill(2, "officer"), next);
    expect(refusal(apply(atLuke, fill(3, "han"), HAN))).toEqual({ code: "alreadyActed", combatantId: "han" });
    expect(eligibleFillers(atLuke, 3)).toEqual(["luke"]);
  });

  it("a slot is filled at most once a round", () => {
    const s = run(battle, fill(0, "t2"));
    expect(refusal(apply(s, fill(0, "t1")))).toEqual({ code: "slotTaken", combatantId: "t2" });
    const passed = run(s, next);
    expect(refusal(apply(passed, fill(0, "t1")))).toEqual({ code: "slotPassed" });
  });

  it("only the current slot is filled now; later PC slots are claimed", () => {
    expect(refusal(apply(battle, fill(1, "luke")))).toEqual({ code: "notCurrentSlot" });
  });

  it("a new round frees everyone: next turn on the last slot starts it", () => {
    const end = run(battle, ...round1, fill(4, "t1"));
    const { state, step } = must(end, next);
    expect(step).toBe("round");
    expect(state.round).toBe(2);
    expect(state.acted).toEqual([]);
    expect(currentSlot(state)).toBe(0);
    expect(slotList(state)).toEqual([">npc 3/0", "pc 2/1", "npc 2/1", "pc 1/0", "npc 0/2"]);
    expect(must(state, fill(0, "t2")).state.acted).toEqual(["t2"]);
  });

  it("next round: the GM starts the next round at once, freeing everyone", () => {
    const mid = run(battle, fill(0, "t2"), next, claim(3, "luke"));
    const { state, step } = must(mid, { type: "nextRound" });
    expect(step).toBe("round");
    expect(state.round).toBe(2);
    expect(state.slots.every((s) => s.filledBy === null && s.claimedBy === null)).toBe(true);
  });

  it("each fill and turn change is an undoable turn step", () => {
    expect(must(battle, fill(0, "t2")).step).toBe("turn");
    expect(must(run(battle, fill(0, "t2")), next).step).toBe("turn");
  });

  it("the owner of the PC filling the slot ends its turn; nobody else's", () => {
    const s = run(battle, fill(0, "t2"), next, fill(1, "han"));
    expect(apply(s, next, HAN).ok).toBe(true);
    expect(refusal(apply(s, next, LUKE))).toEqual({ code: "notOwner", combatantId: "han" });
    expect(refusal(apply(battle, next, LUKE))).toEqual({ code: "notYourTurn" });
  });

  it("the GM may end an open slot: it passes unfilled", () => {
    const { state, events } = must(battle, next);
    expect(currentSlot(state)).toBe(1);
    expect(state.slots[0]?.filledBy).toBeNull();
    expect(events).toEqual([]);
  });

  it("a slot nobody can fill is skipped (every NPC has acted)", () => {
    const s = run(
      rolled(
        [npc("a"), npc("b"), pc("p")],
        [
          ["a", 3, 0],
          ["b", 2, 0],
          ["p", 1, 0],
        ],
      ),
      { type: "setKeepSlots", keepSlots: { pc: true, npc: true } },
      start,
      remove("b"),
      fill(0, "a"),
    );
    const { state, events } = must(s, next);
    expect(slotList(state)).toEqual(["npc 3/0 a", "npc 2/0", ">pc 1/0"]);
    expect(events).toContainEqual({ type: "slotSkipped", round: 1, slot: 1 });
  });
});

// ---------------------------------------------------------------------------------------------
// Claims
// ---------------------------------------------------------------------------------------------

describe("claims: a player claims a later open PC slot ahead of time, for a PC it owns", () => {
  it("the claimant fills the slot when it comes up", () => {
    const s = run(battle, fill(0, "t2"));
    const claimed = must(s, claim(3, "luke"), LUKE);
    expect(claimed.step).toBe("turn");
    expect(claimOf(claimed.state, "luke")).toBe(3);
    const atHan = run(claimed.state, next);
    expect(eligibleFillers(atHan, 1)).toEqual(["luke", "han"]);
    const came = run(atHan, fill(1, "han"), next, fill(2, "officer"), next);
    expect(slotList(came)[3]).toBe(">pc 1/0 luke");
    expect(slotsMode.view(came).current).toBe("luke");
  });

  it("view: next is the claimant of the next slot", () => {
    const s = run(battle, claim(1, "han"), fill(0, "t1"));
    expect(slotsMode.view(s)).toMatchObject({
      current: "t1",
      next: "han",
      order: ["t1", "han", "luke", "officer", "t2"],
    });
  });

  it("two players claiming the same slot: the second is told who holds it", () => {
    const both = player("luke", "han");
    const first = run(battle, claim(3, "han"));
    expect(refusal(apply(first, claim(3, "luke"), both))).toEqual({ code: "slotClaimed", combatantId: "han" });
  });

  it("claiming the slot whose turn it is now fills it", () => {
    const s = run(battle, fill(0, "t2"), next);
    const { state, step } = must(s, claim(1, "luke"), LUKE);
    expect(step).toBe("turn");
    expect(slotsMode.view(state).current).toBe("luke");
  });

  it.each([
    { rule: "only PC slots are claimed", command: claim(2, "luke"), code: "wrongSlotKind", id: "luke" },
    { rule: "only for a PC the player owns", command: claim(3, "han"), code: "notOwner", id: "han" },
    { rule: "not a passed slot", command: claim(0, "luke"), code: "slotPassed", id: undefined },
    { rule: "not a slot that does not exist", command: claim(9, "luke"), code: "unknownSlot", id: undefined },
  ])("$rule → $code", ({ command, code, id }) => {
    const s = run(battle, next);
    expect(refusal(apply(s, command, LUKE))).toEqual(id === undefined ? { code } : { code, combatantId: id });
  });

  it("one claim per PC", () => {
    const s = run(
      slotsMode.create([pc("a"), pc("b"), pc("c")]),
      check(["a", 3, 0]),
      check(["b", 2, 0]),
      check(["c", 1, 0]),
      start,
    );
    const once = run(s, claim(2, "a"));
    expect(refusal(apply(once, claim(1, "a")))).toEqual({ code: "alreadyClaimed", combatantId: "a" });
  });

  it("a PC that acts in an earlier slot gives up its claim", () => {
    const s = run(battle, claim(3, "luke"), fill(0, "t1"), next, fill(1, "luke"));
    expect(claimOf(s, "luke")).toBeNull();
    expect(s.slots[3]?.claimedBy).toBeNull();
  });

  it("a claim is released before its slot starts, by the claimant's owner or the GM", () => {
    const s = run(battle, claim(3, "luke"));
    expect(claimOf(must(s, release(3), LUKE).state, "luke")).toBeNull();
    expect(must(s, release(3), GM).step).toBe("turn");
    expect(refusal(apply(s, release(3), HAN))).toEqual({ code: "notOwner", combatantId: "luke" });
    expect(refusal(apply(s, release(1), LUKE))).toEqual({ code: "notClaimed" });
  });

  it("the GM overrides a claim by releasing it and assigning another PC", () => {
    const s = run(battle, claim(1, "luke"), release(1), fill(0, "t1"), next, fill(1, "han"));
    expect(slotsMode.view(s).current).toBe("han");
  });

  it("a defeated claimant loses its claim", () => {
    const s = run(battle, claim(3, "luke"), defeat("luke"));
    expect(s.slots[3]?.claimedBy).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Mid-combat changes
// ---------------------------------------------------------------------------------------------

describe("removal: a defeated or removed combatant's slot is removed or kept by the keepSlots option", () => {
  it.each([
    {
      rule: "default: an NPC's slot is removed",
      keep: undefined,
      who: "t2",
      expected: [">npc 3/0", "pc 2/1", "npc 2/1", "pc 1/0"],
    },
    {
      rule: "default: a PC's slot is kept",
      keep: undefined,
      who: "han",
      expected: [">npc 3/0", "pc 2/1", "npc 2/1", "pc 1/0", "npc 0/2"],
    },
    {
      rule: "keepSlots.npc: an NPC's slot is kept",
      keep: { pc: true, npc: true },
      who: "t2",
      expected: [">npc 3/0", "pc 2/1", "npc 2/1", "pc 1/0", "npc 0/2"],
    },
    {
      rule: "keepSlots.pc off: a PC's slot is removed",
      keep: { pc: false, npc: false },
      who: "han",
      expected: [">npc 3/0", "pc 2/1", "npc 2/1", "npc 0/2"],
    },
  ])("$rule (defeated or removed alike)", ({ keep, who, expected }) => {
    const base = keep === undefined ? battle : run(battle, { type: "setKeepSlots", keepSlots: keep });
    expect(slotList(run(base, defeat(who)))).toEqual(expected);
    expect(slotList(run(base, remove(who)))).toEqual(expected);
  });

  it("a kept PC slot that no PC can fill is skipped", () => {
    const s = run(battle, remove("han"), fill(0, "t2"), next, fill(1, "luke"), next, fill(2, "t1"), next);
    expect(currentSlot(s)).toBe(4);
    expect(slotsView(s)[3]).toMatchObject({ passed: true, filledBy: null });
  });

  it("removing the current open slot: the next slot becomes current", () => {
    const s = rolled(
      [npc("a"), pc("p")],
      [
        ["a", 3, 0],
        ["p", 1, 0],
      ],
    );
    const started = run(s, start);
    expect(currentSlot(started)).toBe(0);
    const after = run(started, defeat("a"));
    expect(slotList(after)).toEqual([">pc 1/0"]);
  });

  it("removing the filler of the current slot ends that turn cleanly", () => {
    const s = run(battle, fill(0, "t2"), next, fill(1, "han"));
    const { state, events } = must(s, remove("han"));
    expect(slotList(state)).toEqual(["npc 3/0 t2", "pc 2/1", ">npc 2/1", "pc 1/0", "npc 0/2"]);
    expect(events.map((e) => e.type)).toContain("turnEnded");
    expect(state.acted).toEqual(["t2"]);
  });

  it("a removed NPC whose slot has passed: the slot stays passed and goes at the round's end", () => {
    const s = run(battle, fill(0, "officer"), next, fill(1, "han"));
    // The officer rolled 3/0: that slot has passed, so it leaves at the end of the round.
    const gone = run(s, remove("officer"));
    expect(slotsView(gone)[0]).toMatchObject({ leaving: true, passed: true, filledBy: null });
    expect(slotsMode.view(gone).current).toBe("han");
    const nextRound = run(gone, { type: "nextRound" });
    expect(slotList(nextRound)).toEqual([">pc 2/1", "npc 2/1", "pc 1/0", "npc 0/2"]);
  });

  it("an NPC defeated while another fills the slot of its result: the slot goes when that turn ends", () => {
    const s = run(battle, fill(0, "t1"));
    const defeated = run(s, defeat("officer"));
    expect(slotsView(defeated)[0]).toMatchObject({ leaving: true, current: true, filledBy: "t1" });
    expect(slotList(run(defeated, next))).toEqual([">pc 2/1", "npc 2/1", "pc 1/0", "npc 0/2"]);
  });

  it("a combatant back from defeat gets its slot back at its ranked place", () => {
    const s = run(battle, defeat("officer"));
    expect(slotList(s)[0]).toBe(">pc 2/1");
    const back = run(s, defeat("officer", false));
    // Its slot ranks above the current one: it has passed this round.
    expect(slotList(back)).toEqual(["npc 3/0", ">pc 2/1", "npc 2/1", "pc 1/0", "npc 0/2"]);
  });

  it("a player cannot set the option", () => {
    expect(refusal(apply(battle, { type: "setKeepSlots", keepSlots: { pc: false, npc: false } }, LUKE))).toEqual({
      code: "notGM",
    });
  });
});

describe("joining: a combatant that joins rolls then and adds its slot at its ranked place", () => {
  const joined = deepFreeze(
    run(battle, fill(0, "t2"), next, fill(1, "han"), { type: "addCombatant", combatant: npc("j") }),
  );

  it("has no slot and fills none until it rolls", () => {
    expect(slotsMode.view(joined).order).toContain("j");
    const atNpc = run(joined, next);
    expect(refusal(apply(atNpc, fill(2, "j")))).toEqual({ code: "initiativeMissing", combatantId: "j" });
  });

  it("a slot below the current one is used this round", () => {
    const s = run(joined, check(["j", 1, 5]));
    expect(slotList(s)).toEqual(["npc 3/0 t2", ">pc 2/1 han", "npc 2/1", "npc 1/5", "pc 1/0", "npc 0/2"]);
    expect(slotsView(s)[3]).toMatchObject({ passed: false });
  });

  it("a slot above the current one has passed this round; it is used from the next round", () => {
    const s = run(joined, check(["j", 4, 0]));
    expect(slotList(s)).toEqual(["npc 4/0", "npc 3/0 t2", ">pc 2/1 han", "npc 2/1", "pc 1/0", "npc 0/2"]);
    expect(slotsView(s)[0]).toMatchObject({ passed: true, filledBy: null });
    // The joiner may still fill a later NPC slot this round.
    expect(must(run(s, next), fill(3, "j")).state.acted).toEqual(["t2", "han", "j"]);
  });

  it("a joining PC's owner rolls its check; not a second time", () => {
    const s = run(battle, { type: "addCombatant", combatant: pc("leia") });
    const leia = player("leia");
    const rolledIn = must(s, check(["leia", 0, 0]), leia).state;
    expect(refusal(apply(rolledIn, check(["leia", 2, 0]), leia))).toEqual({
      code: "alreadyStarted",
      combatantId: "leia",
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Undo
// ---------------------------------------------------------------------------------------------

describe("undo: previous turn un-fills the slot and restores who has acted; previous round restores the earlier round", () => {
  type Enc = Encounter<SlotsState>;
  function send(e: Enc, command: SlotsCommand | EngineCommand, who: Requester = GM): Enc {
    const outcome = applyToEncounter(slotsMode, e, command, who);
    if (!outcome.ok) throw new Error(`${command.type} refused: ${outcome.refusal.code}`);
    return outcome.state;
  }
  const begin = (): Enc => send({ mode: "slots", state: setup, history: [] }, start);

  it("previous turn un-fills the slot and restores who has acted", () => {
    const a = send(begin(), fill(0, "t2"));
    const b = send(a, next);
    const c = send(b, fill(1, "han"), HAN);
    const back = send(c, { type: "previousTurn" });
    expect(back).toEqual(b);
    expect(back.state.slots[1]?.filledBy).toBeNull();
    expect(back.state.acted).toEqual(["t2"]);
    expect(send(send(back, { type: "previousTurn" }), { type: "previousTurn" }).state.acted).toEqual([]);
  });

  it("claims and releases are undone one at a time", () => {
    const a = send(begin(), claim(3, "luke"), LUKE);
    const b = send(a, release(3), LUKE);
    expect(send(b, { type: "previousTurn" }).state.slots[3]?.claimedBy).toBe("luke");
  });

  it("previous turn across the round's end brings back the earlier round's fills", () => {
    let e = begin();
    for (const command of [
      fill(0, "t2"),
      next,
      fill(1, "han"),
      next,
      fill(2, "officer"),
      next,
      fill(3, "luke"),
      next,
      fill(4, "t1"),
    ]) {
      e = send(e, command);
    }
    const endOfRound1 = e;
    e = send(e, next);
    expect(e.state.round).toBe(2);
    expect(e.state.acted).toEqual([]);
    const back = send(e, { type: "previousTurn" });
    expect(back.state).toEqual(endOfRound1.state);
    expect(back.state.acted).toEqual(["t2", "han", "officer", "luke", "t1"]);
  });

  it("previous round goes back to the start of the earlier round, its fills as they were then", () => {
    let e = begin();
    const round1Start = e;
    for (const command of [fill(0, "t2"), next, next, next, next, { type: "nextRound" } as const]) e = send(e, command);
    e = send(send(e, fill(0, "t1")), next);
    expect(e.state.round).toBe(2);
    const back = send(e, { type: "previousRound" });
    expect(back.state).toEqual(round1Start.state);
    expect(send(back, { type: "previousRound" }).state).toEqual(setup);
  });
});

// ---------------------------------------------------------------------------------------------
// Refusals: every kind returns a refusal and changes nothing
// ---------------------------------------------------------------------------------------------

describe("a refused command changes nothing", () => {
  const atHan = deepFreeze(run(battle, fill(0, "t2"), next, fill(1, "han")));
  const claimed = deepFreeze(run(battle, claim(3, "han")));
  const empty = deepFreeze(slotsMode.create([]));
  const unrolled = deepFreeze(slotsMode.create([pc("a")]));
  const withDefeated = deepFreeze(
    run(battle, { type: "setKeepSlots", keepSlots: { pc: true, npc: true } }, defeat("t1")),
  );
  const joinerUnrolled = deepFreeze(run(battle, { type: "addCombatant", combatant: npc("j") }));

  type Case = { name: string; state: SlotsState; command: SlotsCommand; who?: Requester; code: string; id?: string };
  const cases: Case[] = [
    { name: "a player starts", state: setup, command: start, who: LUKE, code: "notGM" },
    {
      name: "a player adds",
      state: setup,
      command: { type: "addCombatant", combatant: pc("x") },
      who: LUKE,
      code: "notGM",
    },
    { name: "a player removes", state: battle, command: remove("luke"), who: LUKE, code: "notGM" },
    { name: "a player marks defeated", state: battle, command: defeat("luke"), who: LUKE, code: "notGM" },
    {
      name: "a player sets the slot policy",
      state: battle,
      command: { type: "setKeepSlots", keepSlots: { pc: false, npc: false } },
      who: LUKE,
      code: "notGM",
    },
    { name: "a player fills an NPC slot", state: battle, command: fill(0, "t1"), who: player("t1"), code: "notGM" },
    { name: "a player ends the round", state: battle, command: { type: "nextRound" }, who: LUKE, code: "notGM" },
    {
      name: "a player rolls for another's PC",
      state: setup,
      command: check(["han", 1, 0]),
      who: LUKE,
      code: "notOwner",
      id: "han",
    },
    {
      name: "a player claims for another's PC",
      state: battle,
      command: claim(3, "han"),
      who: LUKE,
      code: "notOwner",
      id: "han",
    },
    {
      name: "a player releases another's claim",
      state: claimed,
      command: release(3),
      who: LUKE,
      code: "notOwner",
      id: "han",
    },
    {
      name: "a player fills a PC slot with another's PC",
      state: run(battle, next),
      command: fill(1, "han"),
      who: LUKE,
      code: "notOwner",
      id: "han",
    },
    {
      name: "an unknown combatant rolls",
      state: setup,
      command: check(["zz", 1, 0]),
      code: "unknownCombatant",
      id: "zz",
    },
    { name: "an unknown combatant fills", state: battle, command: fill(0, "zz"), code: "unknownCombatant", id: "zz" },
    { name: "an unknown combatant claims", state: battle, command: claim(1, "zz"), code: "unknownCombatant", id: "zz" },
    {
      name: "an unknown combatant is removed",
      state: battle,
      command: remove("zz"),
      code: "unknownCombatant",
      id: "zz",
    },
    {
      name: "an unknown combatant is defeated",
      state: battle,
      command: defeat("zz"),
      code: "unknownCombatant",
      id: "zz",
    },
    {
      name: "a duplicate is added",
      state: setup,
      command: { type: "addCombatant", combatant: pc("luke") },
      code: "duplicateCombatant",
      id: "luke",
    },
    { name: "a fill before the start", state: setup, command: fill(0, "t1"), code: "notStarted" },
    { name: "a claim before the start", state: setup, command: claim(1, "luke"), code: "notStarted" },
    { name: "next turn before the start", state: setup, command: next, code: "notStarted" },
    { name: "next round before the start", state: setup, command: { type: "nextRound" }, code: "notStarted" },
    { name: "start twice", state: battle, command: start, code: "alreadyStarted" },
    {
      name: "re-rolling after the start",
      state: battle,
      command: check(["luke", 5, 0]),
      code: "alreadyStarted",
      id: "luke",
    },
    {
      name: "a player ends someone else's turn",
      state: atHan,
      command: next,
      who: LUKE,
      code: "notOwner",
      id: "han",
    },
    { name: "a player ends an open slot", state: battle, command: next, who: LUKE, code: "notYourTurn" },
    {
      name: "a PC acts twice in a round",
      state: run(atHan, next, fill(2, "t1"), next),
      command: fill(3, "han"),
      code: "alreadyActed",
      id: "han",
    },
    { name: "a PC claims after acting", state: atHan, command: claim(3, "han"), code: "alreadyActed", id: "han" },
    {
      name: "start with a missing check",
      state: run(setup, { type: "addCombatant", combatant: npc("x") }),
      command: start,
      code: "initiativeMissing",
      id: "x",
    },
    {
      name: "an unrolled joiner fills a slot",
      state: joinerUnrolled,
      command: fill(0, "j"),
      code: "initiativeMissing",
      id: "j",
    },
    { name: "start with nobody", state: empty, command: start, code: "noCombatants" },
    { name: "fractional successes", state: unrolled, command: check(["a", 1.5, 0]), code: "invalidValue", id: "a" },
    { name: "NaN advantages", state: unrolled, command: check(["a", 1, Number.NaN]), code: "invalidValue", id: "a" },
    { name: "huge successes", state: unrolled, command: check(["a", 1e6, 0]), code: "invalidValue", id: "a" },
    {
      name: "an empty skill",
      state: unrolled,
      command: { type: "recordCheck", combatantId: "a", primary: 1, secondary: 0, skill: "" },
      code: "invalidValue",
      id: "a",
    },
    {
      name: "a malformed slot policy",
      state: battle,
      command: { type: "setKeepSlots", keepSlots: { pc: "yes" } } as unknown as SlotsCommand,
      code: "invalidValue",
    },
    { name: "a slot that does not exist is filled", state: battle, command: fill(7, "t1"), code: "unknownSlot" },
    { name: "a slot that does not exist is released", state: battle, command: release(7), code: "unknownSlot" },
    { name: "a passed slot is filled", state: atHan, command: fill(0, "t1"), code: "slotPassed" },
    { name: "a later slot is filled now", state: battle, command: fill(2, "t1"), code: "notCurrentSlot" },
    { name: "a filled slot is filled again", state: atHan, command: fill(1, "luke"), code: "slotTaken", id: "han" },
    { name: "a filled slot is claimed", state: atHan, command: claim(1, "luke"), code: "slotTaken", id: "han" },
    { name: "a claimed slot is claimed", state: claimed, command: claim(3, "luke"), code: "slotClaimed", id: "han" },
    { name: "a PC fills an NPC slot", state: battle, command: fill(0, "luke"), code: "wrongSlotKind", id: "luke" },
    {
      name: "an NPC fills a PC slot",
      state: run(battle, next),
      command: fill(1, "t1"),
      code: "wrongSlotKind",
      id: "t1",
    },
    { name: "an NPC slot is claimed", state: battle, command: claim(2, "luke"), code: "wrongSlotKind", id: "luke" },
    { name: "a second claim", state: claimed, command: claim(1, "han"), code: "alreadyClaimed", id: "han" },
    { name: "a release of no claim", state: battle, command: release(1), code: "notClaimed" },
    {
      name: "a defeated NPC fills a slot",
      state: withDefeated,
      command: fill(0, "t1"),
      code: "combatantDefeated",
      id: "t1",
    },
    {
      name: "a command of no known type",
      state: battle,
      command: { type: "teleport" } as unknown as SlotsCommand,
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
    expect([...new Set(cases.map((c) => c.code))].sort()).toEqual(
      [
        "alreadyActed",
        "alreadyClaimed",
        "alreadyStarted",
        "combatantDefeated",
        "duplicateCombatant",
        "initiativeMissing",
        "invalidValue",
        "noCombatants",
        "notClaimed",
        "notCurrentSlot",
        "notGM",
        "notOwner",
        "notStarted",
        "notYourTurn",
        "slotPassed",
        "slotTaken",
        "slotClaimed",
        "unknownCombatant",
        "unknownCommand",
        "unknownSlot",
        "wrongSlotKind",
      ].sort(),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Permissions and allowed actions
// ---------------------------------------------------------------------------------------------

describe("allowed() lists exactly what each user may do now", () => {
  const list = (state: SlotsState, who: Requester): string[] =>
    slotsAllowed(state, who).map(
      (a) =>
        `${a.type}${a.slot === undefined ? "" : `@${a.slot}`}${a.combatantId === undefined ? "" : `:${a.combatantId}`}`,
    );

  it("before the start: players roll their own check, once", () => {
    expect(list(slotsMode.create(ROSTER), LUKE)).toEqual(["recordCheck:luke"]);
    // Luke has rolled: only the GM rolls again (issue 15 item 4).
    expect(list(setup, LUKE)).toEqual([]);
    expect(list(setup, GM)).toContain("start");
  });

  it("claim buttons only for eligible owned PCs on open PC slots", () => {
    expect(list(battle, LUKE)).toEqual(["claimSlot@1:luke", "claimSlot@3:luke"]);
    const claimed = run(battle, claim(3, "luke"));
    expect(list(claimed, LUKE)).toEqual(["releaseClaim@3:luke"]);
    expect(list(claimed, HAN)).toEqual(["claimSlot@1:han"]);
    const atPcSlot = run(battle, fill(0, "t2"), next);
    expect(list(atPcSlot, HAN)).toEqual(["claimSlot@1:han", "fillSlot@1:han", "claimSlot@3:han"]);
    expect(list(run(atPcSlot, fill(1, "han")), HAN)).toEqual(["nextTurn"]);
    expect(list(battle, player("nobody"))).toEqual([]);
  });

  it("GM assign controls: fill the current slot with any eligible combatant of its kind", () => {
    const gm = list(battle, GM);
    expect(gm).toEqual(
      expect.arrayContaining([
        "fillSlot@0:officer",
        "fillSlot@0:t1",
        "fillSlot@0:t2",
        "claimSlot@1:luke",
        "nextTurn",
        "nextRound",
        "addCombatant",
        "setKeepSlots",
      ]),
    );
    expect(gm).not.toContain("fillSlot@0:luke");
    expect(gm).not.toContain("start");
  });

  it("allowed agrees with the mode interface", () => {
    expect(slotsMode.allowed(battle, LUKE)).toEqual(slotsAllowed(battle, LUKE));
  });
});

// ---------------------------------------------------------------------------------------------
// Untrusted data
// ---------------------------------------------------------------------------------------------

describe("parseCommand narrows untrusted data", () => {
  it.each([
    [{ type: "nextTurn" }, { type: "nextTurn" }],
    [{ type: "start", extra: 1 }, { type: "start" }],
    [
      { type: "recordCheck", combatantId: "a", primary: 2, secondary: -1, extra: "dropped" },
      { type: "recordCheck", combatantId: "a", primary: 2, secondary: -1 },
    ],
    [
      { type: "recordCheck", combatantId: "a", primary: 0, secondary: 0, skill: "vigilance" },
      { type: "recordCheck", combatantId: "a", primary: 0, secondary: 0, skill: "vigilance" },
    ],
    [
      { type: "claimSlot", slot: 3, combatantId: "a" },
      { type: "claimSlot", slot: 3, combatantId: "a" },
    ],
    [
      { type: "fillSlot", slot: 0, combatantId: "a" },
      { type: "fillSlot", slot: 0, combatantId: "a" },
    ],
    [
      { type: "releaseClaim", slot: 2 },
      { type: "releaseClaim", slot: 2 },
    ],
    [
      { type: "setKeepSlots", keepSlots: { pc: false, npc: true } },
      { type: "setKeepSlots", keepSlots: { pc: false, npc: true } },
    ],
    [
      { type: "setDefeated", combatantId: "a", defeated: true },
      { type: "setDefeated", combatantId: "a", defeated: true },
    ],
    [
      { type: "addCombatant", combatant: { id: "x", name: "X", isPC: false } },
      { type: "addCombatant", combatant: { id: "x", name: "X", isPC: false } },
    ],
    [
      { type: "removeCombatant", combatantId: "x" },
      { type: "removeCombatant", combatantId: "x" },
    ],
  ])("accepts %j", (data, expected) => {
    expect(slotsMode.parseCommand(data)).toEqual(expected);
  });

  it.each([
    null,
    undefined,
    7,
    "nextTurn",
    [],
    {},
    { type: "teleport" },
    { type: "previousTurn" },
    { type: "recordCheck", combatantId: "a", primary: 1.5, secondary: 0 },
    { type: "recordCheck", combatantId: "a", primary: Number.NaN, secondary: 0 },
    { type: "recordCheck", combatantId: "a", primary: 1, secondary: 1000 },
    { type: "recordCheck", combatantId: "a", primary: "2", secondary: 0 },
    { type: "recordCheck", combatantId: "a", primary: 2 },
    { type: "recordCheck", combatantId: "a", primary: 2, secondary: 0, skill: 5 },
    { type: "recordCheck", combatantId: "", primary: 2, secondary: 0 },
    { type: "claimSlot", slot: -1, combatantId: "a" },
    { type: "claimSlot", slot: 1.5, combatantId: "a" },
    { type: "claimSlot", slot: "1", combatantId: "a" },
    { type: "claimSlot", slot: 1 },
    { type: "fillSlot", slot: 1e9, combatantId: "a" },
    { type: "releaseClaim" },
    { type: "setKeepSlots", keepSlots: { pc: true } },
    { type: "setKeepSlots", pc: true, npc: true },
    { type: "setDefeated", combatantId: "a" },
    { type: "addCombatant", combatant: { id: "x", name: "X" } },
  ])("refuses %j", (data) => {
    expect(slotsMode.parseCommand(data)).toBeNull();
  });
});
