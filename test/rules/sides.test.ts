/**
 * The `sides` mode (RULES.md §1, rulebook excerpt 000), tested in the rules' own words.
 */
import { describe, expect, it } from "vitest";
import {
  createEncounter,
  applyToEncounter,
  type Encounter,
  type EngineCommand,
  type Requester,
} from "../../src/core/engine";
import {
  actionsTaken,
  currentPass,
  declaringSides,
  isGMSide,
  earlierRolls,
  lostActions,
  penalty,
  pendingSideTies,
  pendingTies,
  sideRoll,
  sideRoller,
  sidesToRoll,
  slowedWaiting,
  declarationOrder,
  passOrder,
} from "../../src/modes/sides/rules/derived";
import { sidesMode } from "../../src/modes/sides/rules/mode";
import type { SidesCommand, SidesState } from "../../src/modes/sides/rules/types";
import { parseSidesState } from "../../src/modes/sides/rules/state";
import { GM, deepFreeze, player, rulesOf } from "./harness";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const { apply, must, run, verdict } = rulesOf(sidesMode);

/** A character: id, side, Dexterity, Perception, initiative score (defaults to Perception), PC or not. */
interface Char {
  readonly id: string;
  readonly side: string;
  readonly dex: string;
  readonly per: string;
  readonly score?: string;
  readonly pc?: boolean;
}

const SIDES: Record<string, { name: string; colour: string }> = {
  heroes: { name: "Heroes", colour: "#3366ff" },
  empire: { name: "Imperials", colour: "#cc0000" },
  pirates: { name: "Pirates", colour: "#00aa44" },
  hutts: { name: "Hutts", colour: "#aa8800" },
};

/** An encounter with these characters on their sides (PCs on "heroes" unless told), not started. */
function setup(chars: readonly Char[]): SidesState {
  let s = sidesMode.create(chars.map((c) => ({ id: c.id, name: c.id, isPC: c.pc ?? c.side === "heroes" })));
  const sideIds = [...new Set(chars.map((c) => c.side))];
  for (const sideId of sideIds) {
    const { name, colour } = SIDES[sideId] ?? { name: sideId, colour: "#888888" };
    s = run(s, { type: "defineSide", sideId, name, colour });
  }
  for (const c of chars) {
    s = run(
      s,
      { type: "setSide", combatantId: c.id, sideId: c.side },
      { type: "setTraits", combatantId: c.id, dexterity: c.dex, perception: c.per, initiativeScore: c.score ?? c.per },
    );
  }
  return s;
}

function roll(state: SidesState, rolls: Record<string, number>): SidesState {
  return run(
    state,
    ...Object.entries(rolls).map(([sideId, total]): SidesCommand => ({ type: "recordSideRoll", sideId, total })),
  );
}

const declare = (combatantId: string, count: number, forcePoint = false): SidesCommand => ({
  type: "declare",
  combatantId,
  actions: Array.from({ length: count }, (_, i) => ({ text: `action ${i + 1}` })),
  forcePoint,
});
const next: SidesCommand = { type: "nextTurn" };

const current = (state: SidesState): string | null => sidesMode.view(state).current;
const order = (state: SidesState): readonly string[] => sidesMode.view(state).order;

/** Who acts, action after action, from the current one: "pass:id" entries, until the round ends. */
function passes(state: SidesState): string[] {
  const seen: string[] = [];
  let s = state;
  const round = s.round;
  while (s.round === round && s.step === "pass") {
    seen.push(`${currentPass(s) ?? "-"}:${current(s) ?? "-"}`);
    s = must(s, next).state;
  }
  return seen;
}

// The seed's characters.
const ACE: Char = { id: "ace", side: "heroes", dex: "3D", per: "4D" };
const JALUUN: Char = { id: "jaluun", side: "heroes", dex: "3D", per: "3D+2" };
const TROOPER1: Char = { id: "trooper1", side: "empire", dex: "2D+1", per: "2D" };
const TROOPER2: Char = { id: "trooper2", side: "empire", dex: "2D+1", per: "2D" };
const GAN: Char = { id: "gan", side: "heroes", dex: "4D", per: "3D" };
const TANLEE: Char = { id: "tanlee", side: "heroes", dex: "3D+2", per: "3D+1" };

/** Ace, Jaluun and two stormtroopers; the heroes roll 12, the Imperials 9: the Imperials declare first. */
function seedDeclaration(): SidesState {
  return roll(run(setup([ACE, JALUUN, TROOPER1, TROOPER2]), { type: "start" }), { heroes: 12, empire: 9 });
}

// ---------------------------------------------------------------------------------------------
// Sides
// ---------------------------------------------------------------------------------------------

describe("sides: the GM divides combatants into sides with a name and a colour", () => {
  it("three or more sides are allowed (PCs, Imperials, pirates)", () => {
    const s = setup([
      { id: "han", side: "heroes", dex: "3D", per: "3D" },
      { id: "st", side: "empire", dex: "2D", per: "2D" },
      { id: "pirate", side: "pirates", dex: "2D", per: "2D" },
    ]);
    expect(s.sides.map((side) => side.name)).toEqual(["Heroes", "Imperials", "Pirates"]);
    expect(order(s)).toEqual(["han", "st", "pirate"]);
  });

  it("the GM renames and recolours a side; an empty side can be removed, a side with members cannot", () => {
    let s = setup([{ id: "han", side: "heroes", dex: "3D", per: "3D" }]);
    s = run(s, { type: "defineSide", sideId: "heroes", name: "Rebels", colour: "#123" });
    expect(s.sides).toEqual([{ id: "heroes", name: "Rebels", colour: "#123", gmSide: null, roller: null }]);
    s = run(s, { type: "defineSide", sideId: "spare", name: "Spare", colour: "#000000" });
    expect(verdict(s, { type: "removeSide", sideId: "heroes" })).toBe("sideNotEmpty");
    s = run(s, { type: "removeSide", sideId: "spare" });
    expect(s.sides.map((side) => side.id)).toEqual(["heroes"]);
  });

  it("PCs who cannot communicate may be split into separate sides", () => {
    let s = setup([
      { id: "han", side: "heroes", dex: "3D", per: "3D" },
      { id: "luke", side: "heroes", dex: "3D", per: "3D" },
    ]);
    s = run(s, { type: "defineSide", sideId: "cut-off", name: "Luke alone", colour: "#ffffff" });
    s = run(s, { type: "setSide", combatantId: "luke", sideId: "cut-off" });
    s = run(s, { type: "start" });
    expect(sidesToRoll(s)).toEqual(["heroes", "cut-off"]);
  });

  it("a GM side is one whose members are all NPCs; the GM may mark a side either way", () => {
    let s = setup([
      { id: "han", side: "heroes", dex: "3D", per: "3D" },
      { id: "bossk", side: "heroes", dex: "3D", per: "3D", pc: false },
      { id: "st", side: "empire", dex: "2D", per: "2D" },
    ]);
    expect(isGMSide(s, "heroes")).toBe(false);
    expect(isGMSide(s, "empire")).toBe(true);
    s = run(s, { type: "defineSide", sideId: "empire", name: "Imperials", colour: "#cc0000", isGMSide: false });
    expect(isGMSide(s, "empire")).toBe(false);
    s = run(s, { type: "defineSide", sideId: "empire", name: "Imperials", colour: "#cc0000" });
    expect(isGMSide(s, "empire")).toBe(false);
    s = run(s, { type: "defineSide", sideId: "empire", name: "Imperials", colour: "#cc0000", isGMSide: null });
    expect(isGMSide(s, "empire")).toBe(true);
  });

  it("the combat cannot start while a combatant is on no side", () => {
    const s = run(setup([ACE]), { type: "addCombatant", combatant: { id: "drifter", name: "D", isPC: false } });
    expect(apply(s, { type: "start" })).toEqual({ ok: false, refusal: { code: "noSide", combatantId: "drifter" } });
  });
});

// ---------------------------------------------------------------------------------------------
// Initiative
// ---------------------------------------------------------------------------------------------

describe("initiative: each side's roller is the member with the highest initiative score", () => {
  const s = run(
    setup([
      { id: "han", side: "heroes", dex: "3D", per: "3D", score: "3D+1" },
      { id: "leia", side: "heroes", dex: "3D", per: "3D", score: "4D" },
      { id: "luke", side: "heroes", dex: "3D", per: "3D", score: "4D" },
      { id: "st", side: "empire", dex: "2D", per: "2D" },
    ]),
    { type: "start" },
  );

  it("the best score rolls (ties: the first to join), and the GM may pick another member", () => {
    expect(s.step).toBe("initiative");
    expect(sideRoller(s, "heroes")).toBe("leia");
    const picked = run(s, { type: "setRoller", sideId: "heroes", combatantId: "han" });
    expect(sideRoller(picked, "heroes")).toBe("han");
    expect(sideRoller(run(picked, { type: "setRoller", sideId: "heroes", combatantId: null }), "heroes")).toBe("leia");
    expect(verdict(s, { type: "setRoller", sideId: "heroes", combatantId: "st" })).toBe("notOnSide");
  });

  it("the roller's owner records the side's roll; other players may not; a player rolls once a round", () => {
    expect(verdict(s, { type: "recordSideRoll", sideId: "heroes", total: 11 }, player("han"))).toBe("notOwner");
    const rolled = must(s, { type: "recordSideRoll", sideId: "heroes", total: 11 }, player("leia")).state;
    expect(verdict(rolled, { type: "recordSideRoll", sideId: "heroes", total: 14 }, player("leia"))).toBe(
      "alreadyRolled",
    );
    expect(sidesToRoll(rolled)).toEqual(["empire"]);
    expect(rolled.step).toBe("initiative");
  });

  it("each side roll is an undoable step; when all sides have rolled, the declaration step begins", () => {
    const once = must(s, { type: "recordSideRoll", sideId: "heroes", total: 11 });
    expect(once.step).toBe("turn");
    const both = must(once.state, { type: "recordSideRoll", sideId: "empire", total: 7 });
    expect(both.step).toBe("turn");
    expect(both.state.step).toBe("declaration");
    expect(both.state.sideOrder).toEqual(["empire", "heroes"]);
  });

  it("the GM re-rolls or corrects a side's roll: an undoable step that keeps the old total", () => {
    const once = must(s, { type: "recordSideRoll", sideId: "heroes", total: 11 }, player("leia")).state;
    const fixed = must(once, { type: "recordSideRoll", sideId: "heroes", total: 5 });
    expect(fixed.step).toBe("turn");
    expect(sideRoll(fixed.state, "heroes")).toBe(5);
    expect(earlierRolls(fixed.state, "heroes")).toEqual([11]);
    const again = must(fixed.state, { type: "recordSideRoll", sideId: "heroes", total: 8 }).state;
    expect(earlierRolls(again, "heroes")).toEqual([11, 5]);
    expect(parseSidesState(JSON.parse(JSON.stringify(again)))).toEqual(again);
  });

  it("a correction after the last roll, before anyone declared, orders the sides again", () => {
    const declaring = roll(s, { heroes: 11, empire: 7 });
    expect(declaringSides(declaring)).toEqual(["empire", "heroes"]);
    const fixed = must(declaring, { type: "recordSideRoll", sideId: "heroes", total: 3 }).state;
    expect(fixed.step).toBe("declaration");
    expect(declaringSides(fixed)).toEqual(["heroes", "empire"]);
    expect(declarationOrder(fixed)[0]).toBe("han");
    expect(earlierRolls(fixed, "heroes")).toEqual([11]);
  });

  it("a correction into a tie of two PC sides waits for the GM again", () => {
    const two = run(
      setup([
        { id: "han", side: "heroes", dex: "3D", per: "3D" },
        { id: "lando", side: "pirates", dex: "3D", per: "3D", pc: true },
      ]),
      { type: "start" },
    );
    const declaring = roll(two, { heroes: 9, pirates: 6 });
    const tied = must(declaring, { type: "recordSideRoll", sideId: "pirates", total: 9 }).state;
    expect(tied.step).toBe("initiative");
    expect(pendingSideTies(tied)).toEqual([["heroes", "pirates"]]);
  });
});

describe("sides declare in ascending order of their initiative roll (lowest first)", () => {
  const three = (): SidesState =>
    run(
      setup([
        { id: "han", side: "heroes", dex: "3D", per: "3D" },
        { id: "st", side: "empire", dex: "2D", per: "2D" },
        { id: "pirate", side: "pirates", dex: "2D", per: "2D" },
        { id: "jabba", side: "hutts", dex: "1D", per: "2D" },
      ]),
      { type: "start" },
    );

  it.each([
    {
      rule: "three sides: ascending order of their rolls",
      rolls: { heroes: 10, empire: 14, pirates: 6 },
      expected: ["pirates", "heroes", "empire"],
    },
    {
      rule: "four sides, one of them a lone Hutt",
      rolls: { heroes: 10, empire: 14, pirates: 6, hutts: 2 },
      expected: ["hutts", "pirates", "heroes", "empire"],
    },
    {
      rule: "a tie between a GM side and a PC side: the GM side declares first",
      rolls: { heroes: 9, empire: 9, pirates: 12 },
      expected: ["empire", "heroes", "pirates"],
    },
    {
      rule: "a tie between a PC side and a GM side defined after it: still the GM side first",
      rolls: { heroes: 5, empire: 12, pirates: 5 },
      expected: ["pirates", "heroes", "empire"],
    },
  ] as { rule: string; rolls: Record<string, number>; expected: string[] }[])("$rule", ({ rolls, expected }) => {
    let s = three();
    if (!("hutts" in rolls)) s = run(s, { type: "removeCombatant", combatantId: "jabba" });
    s = roll(s, rolls);
    expect(s.step).toBe("declaration");
    expect(s.sideOrder).toEqual(expected);
  });

  it("a tie between two GM sides: the GM orders them before anyone declares", () => {
    let s = roll(three(), { heroes: 12, empire: 8, pirates: 8, hutts: 3 });
    expect(s.step).toBe("initiative");
    expect(pendingSideTies(s)).toEqual([["empire", "pirates"]]);
    expect(declaringSides(s)).toEqual(["hutts", "empire", "pirates", "heroes"]);
    expect(verdict(s, next)).toBe("tiePending");
    expect(verdict(s, { type: "orderTiedSides", sideIds: ["empire", "heroes"] })).toBe("notTied");
    expect(verdict(s, { type: "orderTiedSides", sideIds: ["pirates", "empire"] }, player("han"))).toBe("notGM");
    const settled = must(s, { type: "orderTiedSides", sideIds: ["pirates", "empire"] });
    expect(settled.step).toBe("turn");
    s = settled.state;
    expect(s.step).toBe("declaration");
    expect(s.sideOrder).toEqual(["hutts", "pirates", "empire", "heroes"]);
  });

  it("a tie between two PC sides: the GM orders them too", () => {
    let s = setup([
      { id: "han", side: "heroes", dex: "3D", per: "3D" },
      { id: "luke", side: "alone", dex: "3D", per: "3D", pc: true },
    ]);
    s = roll(run(s, { type: "start" }), { heroes: 7, alone: 7 });
    expect(pendingSideTies(s)).toEqual([["heroes", "alone"]]);
    s = run(s, { type: "orderTiedSides", sideIds: ["alone", "heroes"] });
    expect(s.sideOrder).toEqual(["alone", "heroes"]);
  });

  it("initiative is rolled every round", () => {
    let s = seedDeclaration();
    s = run(s, declare("trooper1", 0), declare("trooper2", 0), declare("jaluun", 0), declare("ace", 0));
    expect(s.round).toBe(2);
    expect(s.step).toBe("initiative");
    expect(s.rolls).toEqual([]);
    expect(sidesToRoll(s)).toEqual(["heroes", "empire"]);
  });
});

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

describe("declaration: sides in order; inside a side, characters by Perception, lowest first", () => {
  it("the Imperials (lower roll) declare first; Jaluun (Per 3D+2) declares before Ace (Per 4D)", () => {
    const s = seedDeclaration();
    expect(declarationOrder(s)).toEqual(["trooper1", "trooper2", "jaluun", "ace"]);
    // The tracker keeps the passes' ranking all round; the declarer is wherever it ranks.
    expect(order(s)).toEqual(["ace", "jaluun", "trooper1", "trooper2"]);
    expect(sidesMode.view(s)).toMatchObject({ step: "declaration", current: "trooper1", next: "trooper2" });
  });

  it("only the character whose turn it is declares; the owner for a PC, the GM for anyone", () => {
    let s = seedDeclaration();
    expect(verdict(s, declare("ace", 1), player("ace"))).toBe("notYourTurn");
    expect(verdict(s, declare("trooper1", 1), player("ace"))).toBe("notOwner");
    s = run(s, declare("trooper1", 1), declare("trooper2", 1));
    expect(verdict(s, declare("jaluun", 1), player("ace"))).toBe("notOwner");
    s = must(s, declare("jaluun", 1), player("jaluun")).state;
    expect(current(s)).toBe("ace");
  });

  it("a declaration states the actions, in order, and Force Point use; 0 actions is a valid declaration", () => {
    const s = run(seedDeclaration(), declare("trooper1", 0), {
      type: "declare",
      combatantId: "trooper2",
      actions: [{ text: "  fire at Ace " }, { text: "duck" }],
      forcePoint: false,
    });
    expect(s.declarations).toEqual([
      { combatantId: "trooper1", actions: [], forcePoint: false, hesitated: false, reactions: [] },
      {
        combatantId: "trooper2",
        actions: [{ text: "fire at Ace" }, { text: "duck" }],
        forcePoint: false,
        hesitated: false,
        reactions: [],
      },
    ]);
    const ace = run(s, declare("jaluun", 1), declare("ace", 3, true));
    expect(ace.declarations.at(-1)).toMatchObject({ combatantId: "ace", forcePoint: true });
  });

  it("what was declared cannot be changed: a declaration is locked", () => {
    const s = run(seedDeclaration(), declare("trooper1", 1));
    expect(apply(s, declare("trooper1", 2))).toEqual({
      ok: false,
      refusal: { code: "alreadyDeclared", combatantId: "trooper1" },
    });
  });

  it("at most the configured number of actions (default 10)", () => {
    const s = seedDeclaration();
    expect(verdict(s, declare("trooper1", 11))).toBe("tooManyActions");
    expect(verdict(s, declare("trooper1", 10))).toBe("accepted");
    const strict = run(s, { type: "configure", maxActions: 3, actionPenalty: "1D" });
    expect(verdict(strict, declare("trooper1", 4))).toBe("tooManyActions");
  });

  it("dodges and parries are never declared", () => {
    expect(
      sidesMode.parseCommand({
        type: "declare",
        combatantId: "ace",
        actions: [{ text: "dodge", kind: "dodge" }],
        forcePoint: false,
      }),
    ).toBeNull();
  });

  it.each([
    { count: 0, expected: "0D" },
    { count: 1, expected: "0D" },
    { count: 2, expected: "1D" },
    { count: 4, expected: "3D" },
  ])("the multiple-action penalty is shown: $count declared → −$expected", ({ count, expected }) => {
    const s = run(seedDeclaration(), declare("trooper1", count));
    expect(penalty(s, "trooper1")).toBe(expected);
  });

  it("the per-action penalty is configurable", () => {
    const s = run(
      seedDeclaration(),
      { type: "configure", maxActions: 10, actionPenalty: "0D+2" },
      declare("trooper1", 3),
    );
    expect(penalty(s, "trooper1")).toBe("1D+1");
  });
});

describe("hesitation: a character that does not declare in time takes no action this round", () => {
  it("the countdown marks the current declarer as hesitating: an undoable step", () => {
    const s = must(seedDeclaration(), { type: "hesitate", combatantId: "trooper1" });
    expect(s.step).toBe("turn");
    expect(s.state.declarations[0]).toMatchObject({ combatantId: "trooper1", hesitated: true, actions: [] });
    expect(current(s.state)).toBe("trooper2");
  });

  it("a hesitating character cannot declare afterwards, nor act, nor react", () => {
    let s = run(seedDeclaration(), { type: "hesitate", combatantId: "trooper1" });
    expect(verdict(s, declare("trooper1", 1))).toBe("hesitated");
    s = run(s, declare("trooper2", 1), declare("jaluun", 1), declare("ace", 1));
    expect(passOrder(s)).toEqual(["ace", "jaluun", "trooper2"]);
    expect(verdict(s, { type: "react", combatantId: "trooper1", kind: "dodge" })).toBe("hesitated");
  });

  it("hesitate after the declaration landed is refused: exactly one outcome", () => {
    const declared = run(seedDeclaration(), declare("trooper1", 2));
    expect(apply(declared, { type: "hesitate", combatantId: "trooper1" })).toEqual({
      ok: false,
      refusal: { code: "alreadyDeclared", combatantId: "trooper1" },
    });
    const hesitated = run(seedDeclaration(), { type: "hesitate", combatantId: "trooper1" });
    expect(verdict(hesitated, declare("trooper1", 2))).toBe("hesitated");
  });

  it("only the GM (the glue's countdown) marks hesitation, and only for the one declaring now", () => {
    const s = seedDeclaration();
    expect(verdict(s, { type: "hesitate", combatantId: "trooper1" }, player("trooper1"))).toBe("notGM");
    expect(verdict(s, { type: "hesitate", combatantId: "ace" })).toBe("notYourTurn");
  });
});

// ---------------------------------------------------------------------------------------------
// Passes
// ---------------------------------------------------------------------------------------------

describe("rolling actions in passes: Dexterity highest first, equal Dexterity → higher Perception first", () => {
  it("seed: Ace (Dex 3D, Per 4D) acts before Jaluun (Dex 3D, Per 3D+2)", () => {
    const s = run(
      seedDeclaration(),
      declare("trooper1", 1),
      declare("trooper2", 1),
      declare("jaluun", 1),
      declare("ace", 1),
    );
    expect(sidesMode.view(s)).toMatchObject({ step: "pass", current: "ace", next: "jaluun" });
    expect(passOrder(s)).toEqual(["ace", "jaluun", "trooper1", "trooper2"]);
  });

  it("seed: Peter/Ace (2 actions), Tony/Jaluun (1), the stormtroopers (1): pass 2 holds only Ace", () => {
    const s = run(
      seedDeclaration(),
      declare("trooper1", 1),
      declare("trooper2", 1),
      declare("jaluun", 1),
      declare("ace", 2),
    );
    expect(currentPass(s)).toBe(1);
    expect(passes(s)).toEqual(["1:ace", "1:jaluun", "1:trooper1", "1:trooper2", "2:ace"]);
  });

  it("pass k holds everyone with at least k declared actions; those with none left are skipped", () => {
    const s = run(
      seedDeclaration(),
      declare("trooper1", 3),
      declare("trooper2", 0),
      declare("jaluun", 2),
      declare("ace", 1),
    );
    expect(passes(s)).toEqual(["1:ace", "1:jaluun", "1:trooper1", "2:jaluun", "2:trooper1", "3:trooper1"]);
  });

  it("after the last action of the last pass, nextTurn begins the next round's initiative step", () => {
    let s = run(
      seedDeclaration(),
      declare("trooper1", 0),
      declare("trooper2", 0),
      declare("jaluun", 0),
      declare("ace", 1),
    );
    expect(current(s)).toBe("ace");
    const ended = must(s, next, player("ace"));
    expect(ended.step).toBe("round");
    s = ended.state;
    expect(sidesMode.view(s)).toMatchObject({ round: 2, step: "initiative", current: null });
    expect(actionsTaken(s, "ace")).toBe(0);
  });

  it("the acting character's owner or the GM ends its action; nobody else", () => {
    const s = run(
      seedDeclaration(),
      declare("trooper1", 1),
      declare("trooper2", 1),
      declare("jaluun", 1),
      declare("ace", 1),
    );
    expect(verdict(s, next, player("jaluun"))).toBe("notOwner");
    const done = must(s, next, player("ace"));
    expect(done.step).toBe("turn");
    expect(current(done.state)).toBe("jaluun");
    expect(actionsTaken(done.state, "ace")).toBe(1);
  });

  it("still tied on Dexterity and Perception → the GM orders them; until then joining order, with the tie shown", () => {
    let s = run(
      seedDeclaration(),
      declare("trooper1", 2),
      declare("trooper2", 2),
      declare("jaluun", 0),
      declare("ace", 0),
    );
    expect(passOrder(s)).toEqual(["trooper1", "trooper2"]);
    expect(pendingTies(s)).toEqual([["trooper1", "trooper2"]]);
    expect(verdict(s, { type: "orderTied", pass: 2, combatantIds: ["trooper2", "trooper1"] })).toBe("invalidValue");
    expect(verdict(s, { type: "orderTied", pass: 1, combatantIds: ["trooper2", "ace"] })).toBe("notTied");
    s = run(s, { type: "orderTied", pass: 1, combatantIds: ["trooper2", "trooper1"] });
    expect(passOrder(s)).toEqual(["trooper2", "trooper1"]);
    expect(pendingTies(s)).toEqual([]);
    // The GM's order holds for the later passes of the round.
    expect(passes(s)).toEqual(["1:trooper2", "1:trooper1", "2:trooper2", "2:trooper1"]);
  });

  it("a pair the GM ordered twice in a round follows the later record", () => {
    const s = run(
      seedDeclaration(),
      declare("trooper1", 2),
      declare("trooper2", 2),
      declare("jaluun", 0),
      declare("ace", 0),
    );
    const ordered = (tieOrders: string[][]): readonly string[] => passOrder({ ...s, tieOrders });
    expect(ordered([["trooper2", "trooper1"]])).toEqual(["trooper2", "trooper1"]);
    expect(
      ordered([
        ["trooper2", "trooper1"],
        ["ace", "trooper1", "jaluun", "trooper2"],
      ]),
    ).toEqual(["trooper1", "trooper2"]);
    expect(
      ordered([
        ["trooper1", "jaluun", "trooper2"],
        ["trooper2", "trooper1"],
        ["ace", "jaluun"],
      ]),
    ).toEqual(["trooper2", "trooper1"]);
  });
});

describe("reactions: a character who is attacked may dodge or parry; it counts as an action", () => {
  const battle = (): SidesState =>
    run(seedDeclaration(), declare("trooper1", 1), declare("trooper2", 1), declare("jaluun", 1), declare("ace", 2));

  it("a reaction adds to the multiple-action penalty of the actions still to come", () => {
    let s = battle();
    expect(penalty(s, "jaluun")).toBe("0D");
    s = must(s, { type: "react", combatantId: "jaluun", kind: "dodge" }, player("jaluun")).state;
    expect(penalty(s, "jaluun")).toBe("1D");
    expect(actionsTaken(s, "jaluun")).toBe(1);
    s = run(s, { type: "react", combatantId: "ace", kind: "parry" });
    expect(penalty(s, "ace")).toBe("2D");
  });

  it("at any time during the passes, not only on the character's turn; never during declaration", () => {
    const s = battle();
    expect(current(s)).toBe("ace");
    expect(verdict(s, { type: "react", combatantId: "trooper2", kind: "dodge" })).toBe("accepted");
    expect(verdict(seedDeclaration(), { type: "react", combatantId: "ace", kind: "dodge" })).toBe("wrongStep");
  });

  it("a reaction is an undoable step that moves nobody's turn", () => {
    const outcome = must(battle(), { type: "react", combatantId: "trooper1", kind: "dodge" });
    expect(outcome.step).toBe("turn");
    expect(current(outcome.state)).toBe("ace");
  });

  const dodge: SidesCommand = { type: "react", combatantId: "jaluun", kind: "dodge" };
  const parry: SidesCommand = { type: "react", combatantId: "jaluun", kind: "parry" };

  it("at most 10 reactions a round by default (issue 15 item 11: thirty dodges were accepted)", () => {
    const s = run(battle(), ...Array.from({ length: 10 }, () => dodge));
    expect(s.maxReactions).toBe(10);
    expect(verdict(s, dodge, player("jaluun"))).toBe("tooManyReactions");
    expect(verdict(s, parry)).toBe("tooManyReactions");
    expect(penalty(s, "jaluun")).toBe("10D");
  });

  it("the limit is configurable; a new round starts the count again", () => {
    let s = run(battle(), { type: "configure", maxActions: 10, actionPenalty: "1D", maxReactions: 3 }, dodge, parry);
    expect(verdict(s, dodge)).toBe("accepted");
    s = run(s, dodge);
    expect(verdict(s, dodge)).toBe("tooManyReactions");
    // A configure without a limit keeps it.
    s = run(s, { type: "configure", maxActions: 10, actionPenalty: "1D" });
    expect(s.maxReactions).toBe(3);
    expect(verdict(s, { type: "configure", maxActions: 10, actionPenalty: "1D", maxReactions: 0 })).toBe(
      "invalidValue",
    );
    s = run(s, { type: "nextRound" });
    expect(s.declarations).toEqual([]);
  });
});

describe("slowing down: a character may act after a chosen character", () => {
  const gan = (): SidesState =>
    run(
      roll(run(setup([GAN, TANLEE, TROOPER1]), { type: "start" }), { heroes: 10, empire: 6 }),
      declare("trooper1", 1),
      declare("gan", 1),
      declare("tanlee", 1),
    );

  it("seed: Gan (Dex 4D) slows down to act after Tanlee (Dex 3D+2) so he can cover her", () => {
    let s = gan();
    expect(passOrder(s)).toEqual(["gan", "tanlee", "trooper1"]);
    const slowed = must(s, { type: "slowDown", combatantId: "gan", after: "tanlee" }, player("gan"));
    expect(slowed.step).toBe("turn");
    s = slowed.state;
    expect(current(s)).toBe("tanlee");
    expect(slowedWaiting(s)).toEqual([{ combatantId: "gan", after: "tanlee" }]);
    expect(order(s)).toEqual(["tanlee", "trooper1", "gan"]);
    expect(sidesMode.view(s).next).toBe("gan");
    expect(passes(s)).toEqual(["1:tanlee", "1:gan", "1:trooper1"]);
  });

  it("a slowed action not taken before the pass ends is lost, and its penalty still stands", () => {
    let s = run(
      roll(run(setup([GAN, TANLEE, TROOPER1]), { type: "start" }), { heroes: 10, empire: 6 }),
      declare("trooper1", 0),
      declare("gan", 2),
      declare("tanlee", 1),
    );
    // Gan waits for the trooper, who has no action in this pass.
    s = run(s, { type: "slowDown", combatantId: "gan", after: "trooper1" });
    const end = must(s, next);
    s = end.state;
    expect(end.events.map((e) => e.type)).toContain("slowedActionLost");
    expect(lostActions(s)).toEqual([{ combatantId: "gan", pass: 1 }]);
    expect(currentPass(s)).toBe(2);
    expect(current(s)).toBe("gan");
    expect(actionsTaken(s, "gan")).toBe(1);
    expect(penalty(s, "gan")).toBe("1D");
  });

  it("a slowed character may let its moment pass: the action is lost, its penalty stands, the pass goes on", () => {
    let s = run(gan(), { type: "slowDown", combatantId: "gan", after: "tanlee" }, next);
    expect(current(s)).toBe("gan");
    expect(verdict(s, { type: "letPass", combatantId: "gan" }, player("tanlee"))).toBe("notOwner");
    const passed = must(s, { type: "letPass", combatantId: "gan" }, player("gan"));
    expect(passed.step).toBe("turn");
    expect(passed.events.map((e) => e.type)).toEqual(["slowedActionLost", "turnStarted"]);
    s = passed.state;
    expect(lostActions(s)).toEqual([{ combatantId: "gan", pass: 1 }]);
    expect(current(s)).toBe("trooper1");
    expect(actionsTaken(s, "gan")).toBe(1);
    expect(penalty(s, "gan")).toBe("0D");
    // Not before its moment, and not for one who did not slow down.
    const waiting = run(gan(), { type: "slowDown", combatantId: "gan", after: "tanlee" });
    expect(verdict(waiting, { type: "letPass", combatantId: "gan" })).toBe("notYourTurn");
    expect(verdict(waiting, { type: "letPass", combatantId: "tanlee" })).toBe("notSlowed");
  });

  it("a lost action's penalty stands for the actions still to come", () => {
    let s = run(
      roll(run(setup([GAN, TANLEE, TROOPER1]), { type: "start" }), { heroes: 10, empire: 6 }),
      declare("trooper1", 1),
      declare("gan", 2),
      declare("tanlee", 1),
    );
    s = run(s, { type: "slowDown", combatantId: "gan", after: "tanlee" }, next, {
      type: "letPass",
      combatantId: "gan",
    });
    expect(penalty(s, "gan")).toBe("1D");
    s = run(s, next);
    expect(currentPass(s)).toBe(2);
    expect(current(s)).toBe("gan");
    expect(lostActions(s)).toEqual([{ combatantId: "gan", pass: 1 }]);
    expect(penalty(s, "gan")).toBe("1D");
  });

  it("only before its action in this pass is taken, once a pass, after someone still to act", () => {
    let s = gan();
    expect(verdict(s, { type: "slowDown", combatantId: "gan", after: "tanlee" }, player("tanlee"))).toBe("notOwner");
    expect(verdict(s, { type: "slowDown", combatantId: "gan", after: "gan" })).toBe("invalidValue");
    s = run(s, next); // Gan acts
    expect(verdict(s, { type: "slowDown", combatantId: "gan", after: "trooper1" })).toBe("alreadyActed");
    expect(verdict(s, { type: "slowDown", combatantId: "trooper1", after: "gan" })).toBe("alreadyActed");
    s = run(s, { type: "slowDown", combatantId: "tanlee", after: "trooper1" });
    expect(verdict(s, { type: "slowDown", combatantId: "tanlee", after: "trooper1" })).toBe("alreadySlowed");
    expect(passes(s)).toEqual(["1:trooper1", "1:tanlee"]);
  });
});

// ---------------------------------------------------------------------------------------------
// Undo
// ---------------------------------------------------------------------------------------------

describe("undo: every declaration and every resolved action is a step", () => {
  type Any = SidesCommand | EngineCommand;
  function play(encounter: Encounter<SidesState>, ...commands: Any[]): Encounter<SidesState> {
    return commands.reduce((e, command) => {
      const outcome = applyToEncounter(sidesMode, e, command, GM);
      if (!outcome.ok) throw new Error(`${command.type} refused: ${outcome.refusal.code}`);
      return outcome.state;
    }, encounter);
  }

  it("previous turn walks back across passes and steps: pass 2 → pass 1 → declaration → initiative", () => {
    const start = play(createEncounter(sidesMode, []), {
      type: "addCombatant",
      combatant: { id: "x", name: "x", isPC: false },
    });
    const base: Encounter<SidesState> = { ...start, state: seedDeclaration() };
    const passing = play(base, declare("trooper1", 1), declare("trooper2", 1), declare("jaluun", 1), declare("ace", 2));
    const inPass2 = play(passing, next, next, next, next);
    expect(currentPass(inPass2.state)).toBe(2);
    const back = play(inPass2, { type: "previousTurn" });
    expect(back.state).toEqual(play(passing, next, next, next).state);
    expect(currentPass(back.state)).toBe(1);
    const beforeDeclarations = play(back, ...Array<Any>(7).fill({ type: "previousTurn" }));
    expect(beforeDeclarations.state).toEqual(base.state);
  });

  /** The seed's declarations when only Ace acts, once: his action ends the round. */
  const ONE_ACTION_ROUND: Any[] = [
    declare("trooper1", 0),
    declare("trooper2", 0),
    declare("jaluun", 0),
    declare("ace", 1),
    next,
  ];

  it("previous turn during the initiative step takes back the last side roll only", () => {
    const fresh: Encounter<SidesState> = { ...createEncounter(sidesMode, []), state: setup([ACE, TROOPER1, GAN]) };
    const initiative = play(
      fresh,
      { type: "start" },
      { type: "defineSide", sideId: "pirates", name: "P", colour: "#000" },
    );
    const three = play(initiative, { type: "setSide", combatantId: "gan", sideId: "pirates" });
    const rolled = play(
      three,
      { type: "recordSideRoll", sideId: "heroes", total: 12 },
      { type: "recordSideRoll", sideId: "empire", total: 9 },
    );
    const back = play(rolled, { type: "previousTurn" });
    expect(back.state.started).toBe(true);
    expect(back.state.rolls).toEqual([{ sideId: "heroes", total: 12 }]);
    // A correction is a step too: previous turn brings the mis-entered roll back.
    const fixed = play(rolled, { type: "recordSideRoll", sideId: "empire", total: 4 });
    expect(play(fixed, { type: "previousTurn" }).state).toEqual(rolled.state);
  });

  it("previous round from round 2 lands at the start of round 1 with all of its side rolls kept", () => {
    const fresh: Encounter<SidesState> = {
      ...createEncounter(sidesMode, []),
      state: setup([ACE, JALUUN, TROOPER1, TROOPER2]),
    };
    const round1 = play(
      fresh,
      { type: "start" },
      { type: "recordSideRoll", sideId: "heroes", total: 12 },
      { type: "recordSideRoll", sideId: "empire", total: 9 },
    );
    expect(round1.state.step).toBe("declaration");
    const round2 = play(round1, ...ONE_ACTION_ROUND);
    expect(round2.state.round).toBe(2);
    const back = play(round2, { type: "previousRound" });
    expect(back.state).toEqual(round1.state);
    expect(back.state.rolls).toEqual([
      { sideId: "heroes", total: 12 },
      { sideId: "empire", total: 9 },
    ]);
    // In round 2's initiative step with a roll made, too.
    const rolling = play(round2, { type: "recordSideRoll", sideId: "heroes", total: 3 });
    expect(play(rolling, { type: "previousRound" }).state).toEqual(round1.state);
  });

  it("previous round returns to the start of the previous round", () => {
    const e = createEncounter(sidesMode, []);
    const base: Encounter<SidesState> = { ...e, state: seedDeclaration() };
    const round2 = play(base, ...ONE_ACTION_ROUND);
    expect(round2.state.round).toBe(2);
    const back = play(round2, { type: "previousRound" });
    expect(back.state).toEqual(base.state);
  });
});

// ---------------------------------------------------------------------------------------------
// Removal and joining
// ---------------------------------------------------------------------------------------------

describe("removal of any combatant keeps a valid state", () => {
  it("removing the one declaring now: the next one declares", () => {
    const s = run(seedDeclaration(), { type: "removeCombatant", combatantId: "trooper1" });
    expect(current(s)).toBe("trooper2");
  });

  it("removing the one acting now: the next one acts; removing the last one still to act ends the pass", () => {
    const s = run(
      seedDeclaration(),
      declare("trooper1", 1),
      declare("trooper2", 0),
      declare("jaluun", 2),
      declare("ace", 1),
    );
    expect(current(run(s, { type: "removeCombatant", combatantId: "ace" }))).toBe("jaluun");
    const last = run(s, next, next, { type: "removeCombatant", combatantId: "trooper1" });
    expect(currentPass(last)).toBe(2);
    expect(current(last)).toBe("jaluun");
    expect(parseSidesState(last)).toEqual(last);
  });

  it("a slowed character following someone who leaves loses its action at the end of the pass", () => {
    let s = run(
      roll(run(setup([GAN, TANLEE, TROOPER1]), { type: "start" }), { heroes: 10, empire: 6 }),
      declare("trooper1", 1),
      declare("gan", 1),
      declare("tanlee", 1),
      { type: "slowDown", combatantId: "gan", after: "tanlee" },
      { type: "removeCombatant", combatantId: "tanlee" },
    );
    expect(slowedWaiting(s)).toEqual([{ combatantId: "gan", after: null }]);
    s = run(s, next);
    expect(s.round).toBe(2);
  });

  it("a combatant who joins mid-round takes part from the next round", () => {
    let s = run(
      seedDeclaration(),
      { type: "addCombatant", combatant: { id: "late", name: "late", isPC: false } },
      { type: "setSide", combatantId: "late", sideId: "empire" },
    );
    expect(declarationOrder(s)).not.toContain("late");
    expect(order(s)).toContain("late");
    s = run(s, declare("trooper1", 0), declare("trooper2", 0), declare("jaluun", 0), declare("ace", 0));
    s = roll(s, { heroes: 3, empire: 4 });
    expect(declarationOrder(s)).toContain("late");
  });
});

// ---------------------------------------------------------------------------------------------
// Refusals
// ---------------------------------------------------------------------------------------------

describe("a refused command changes nothing", () => {
  const fresh = deepFreeze(setup([ACE, JALUUN, TROOPER1, TROOPER2]));
  const empty = deepFreeze(sidesMode.create([]));
  const initiative = deepFreeze(run(fresh, { type: "start" }));
  const declaring = deepFreeze(seedDeclaration());
  const passing = deepFreeze(
    run(declaring, declare("trooper1", 1), declare("trooper2", 0), declare("jaluun", 1), declare("ace", 2)),
  );
  const withSpare = deepFreeze(run(initiative, { type: "defineSide", sideId: "spare", name: "Spare", colour: "#000" }));
  const tied = deepFreeze(
    roll(run(setup([ACE, TROOPER1, { id: "pirate", side: "pirates", dex: "2D", per: "2D" }]), { type: "start" }), {
      heroes: 12,
      empire: 5,
      pirates: 5,
    }),
  );
  const slowed = deepFreeze(run(passing, { type: "slowDown", combatantId: "jaluun", after: "trooper1" }));
  const hesitant = deepFreeze(run(declaring, { type: "hesitate", combatantId: "trooper1" }));
  const late = deepFreeze(run(passing, { type: "addCombatant", combatant: { id: "late", name: "late", isPC: false } }));
  const P = player("ace");

  type Case = { name: string; state: SidesState; command: SidesCommand; who?: Requester; code: string; id?: string };
  const cases: Case[] = [
    {
      name: "a player adds",
      state: fresh,
      command: { type: "addCombatant", combatant: { id: "x", name: "x", isPC: true } },
      who: P,
      code: "notGM",
    },
    {
      name: "a player removes",
      state: fresh,
      command: { type: "removeCombatant", combatantId: "ace" },
      who: P,
      code: "notGM",
    },
    {
      name: "a player defines a side",
      state: fresh,
      command: { type: "defineSide", sideId: "x", name: "X", colour: "#fff" },
      who: P,
      code: "notGM",
    },
    {
      name: "a player removes a side",
      state: withSpare,
      command: { type: "removeSide", sideId: "spare" },
      who: P,
      code: "notGM",
    },
    {
      name: "a player moves a combatant",
      state: fresh,
      command: { type: "setSide", combatantId: "ace", sideId: "empire" },
      who: P,
      code: "notGM",
    },
    {
      name: "a player sets traits",
      state: fresh,
      command: { type: "setTraits", combatantId: "ace", dexterity: "5D", perception: "5D", initiativeScore: "5D" },
      who: P,
      code: "notGM",
    },
    {
      name: "a player configures",
      state: fresh,
      command: { type: "configure", maxActions: 3, actionPenalty: "1D" },
      who: P,
      code: "notGM",
    },
    { name: "a player starts", state: fresh, command: { type: "start" }, who: P, code: "notGM" },
    {
      name: "a player picks a roller",
      state: initiative,
      command: { type: "setRoller", sideId: "heroes", combatantId: "ace" },
      who: P,
      code: "notGM",
    },
    {
      name: "a player orders tied sides",
      state: tied,
      command: { type: "orderTiedSides", sideIds: ["empire", "pirates"] },
      who: P,
      code: "notGM",
    },
    {
      name: "a player marks hesitation",
      state: declaring,
      command: { type: "hesitate", combatantId: "trooper1" },
      who: P,
      code: "notGM",
    },
    {
      name: "a player orders a tie",
      state: passing,
      command: { type: "orderTied", pass: 1, combatantIds: ["ace", "jaluun"] },
      who: P,
      code: "notGM",
    },
    { name: "a player starts the next round", state: passing, command: { type: "nextRound" }, who: P, code: "notGM" },
    {
      name: "a player rolls for a side whose roller is not theirs",
      state: initiative,
      command: { type: "recordSideRoll", sideId: "empire", total: 3 },
      who: P,
      code: "notOwner",
      id: "trooper1",
    },
    {
      name: "a player declares for another's character",
      state: declaring,
      command: declare("trooper1", 1),
      who: P,
      code: "notOwner",
      id: "trooper1",
    },
    {
      name: "a player reacts for another's character",
      state: passing,
      command: { type: "react", combatantId: "jaluun", kind: "dodge" },
      who: P,
      code: "notOwner",
      id: "jaluun",
    },
    {
      name: "a player slows another's character",
      state: passing,
      command: { type: "slowDown", combatantId: "jaluun", after: "trooper1" },
      who: P,
      code: "notOwner",
      id: "jaluun",
    },
    {
      name: "a player ends another's action",
      state: run(passing, next),
      command: next,
      who: P,
      code: "notOwner",
      id: "jaluun",
    },
    {
      name: "adding a duplicate",
      state: fresh,
      command: { type: "addCombatant", combatant: { id: "ace", name: "x", isPC: true } },
      code: "duplicateCombatant",
      id: "ace",
    },
    {
      name: "removing an unknown combatant",
      state: fresh,
      command: { type: "removeCombatant", combatantId: "ghost" },
      code: "unknownCombatant",
      id: "ghost",
    },
    {
      name: "moving an unknown combatant",
      state: fresh,
      command: { type: "setSide", combatantId: "ghost", sideId: "empire" },
      code: "unknownCombatant",
      id: "ghost",
    },
    {
      name: "moving to an unknown side",
      state: fresh,
      command: { type: "setSide", combatantId: "ace", sideId: "nowhere" },
      code: "unknownSide",
    },
    {
      name: "removing an unknown side",
      state: fresh,
      command: { type: "removeSide", sideId: "nowhere" },
      code: "unknownSide",
    },
    {
      name: "removing a side with members",
      state: fresh,
      command: { type: "removeSide", sideId: "heroes" },
      code: "sideNotEmpty",
    },
    {
      name: "a side without a name",
      state: fresh,
      command: { type: "defineSide", sideId: "x", name: " ", colour: "#fff" },
      code: "invalidValue",
    },
    {
      name: "a side with a bad colour",
      state: fresh,
      command: { type: "defineSide", sideId: "x", name: "X", colour: "red" },
      code: "invalidValue",
    },
    {
      name: "malformed traits",
      state: fresh,
      command: { type: "setTraits", combatantId: "ace", dexterity: "3D+3", perception: "3D", initiativeScore: "3D" },
      code: "invalidValue",
      id: "ace",
    },
    {
      name: "a bad configuration",
      state: fresh,
      command: { type: "configure", maxActions: 0, actionPenalty: "1D" },
      code: "invalidValue",
    },
    { name: "starting an empty encounter", state: empty, command: { type: "start" }, code: "noCombatants" },
    { name: "starting twice", state: initiative, command: { type: "start" }, code: "alreadyStarted" },
    {
      name: "rolling before the start",
      state: fresh,
      command: { type: "recordSideRoll", sideId: "heroes", total: 3 },
      code: "notStarted",
    },
    {
      name: "rolling for an unknown side",
      state: initiative,
      command: { type: "recordSideRoll", sideId: "nowhere", total: 3 },
      code: "unknownSide",
    },
    {
      name: "rolling for an empty side",
      state: withSpare,
      command: { type: "recordSideRoll", sideId: "spare", total: 3 },
      code: "emptySide",
    },
    {
      name: "a player rolling twice",
      state: run(initiative, { type: "recordSideRoll", sideId: "heroes", total: 3 }),
      command: { type: "recordSideRoll", sideId: "heroes", total: 4 },
      who: player("ace"),
      code: "alreadyRolled",
    },
    {
      name: "a roll that is not a number",
      state: initiative,
      command: { type: "recordSideRoll", sideId: "heroes", total: Number.NaN },
      code: "invalidValue",
    },
    {
      name: "rolling once someone declared",
      state: run(declaring, declare("trooper1", 1)),
      command: { type: "recordSideRoll", sideId: "heroes", total: 3 },
      code: "wrongStep",
    },
    {
      name: "a player correcting a roll in the declaration step",
      state: declaring,
      command: { type: "recordSideRoll", sideId: "heroes", total: 3 },
      who: player("ace"),
      code: "wrongStep",
    },
    {
      name: "letting the moment pass without having slowed down",
      state: run(declaring, declare("trooper1", 1), declare("trooper2", 1), declare("jaluun", 1), declare("ace", 1)),
      command: { type: "letPass", combatantId: "ace" },
      code: "notSlowed",
      id: "ace",
    },
    {
      name: "a roller from another side",
      state: initiative,
      command: { type: "setRoller", sideId: "heroes", combatantId: "trooper1" },
      code: "notOnSide",
      id: "trooper1",
    },
    {
      name: "a roller for an unknown side",
      state: initiative,
      command: { type: "setRoller", sideId: "nowhere", combatantId: null },
      code: "unknownSide",
    },
    {
      name: "ordering sides that are not tied",
      state: tied,
      command: { type: "orderTiedSides", sideIds: ["heroes", "empire"] },
      code: "notTied",
    },
    {
      name: "next turn while a side has not rolled",
      state: initiative,
      command: next,
      code: "initiativeMissing",
      id: "ace",
    },
    { name: "next turn while sides are tied", state: tied, command: next, code: "tiePending" },
    {
      name: "next turn while a character must declare",
      state: declaring,
      command: next,
      code: "notDeclared",
      id: "trooper1",
    },
    { name: "next turn before the start", state: fresh, command: next, code: "notStarted" },
    { name: "declaring during the initiative", state: initiative, command: declare("ace", 1), code: "wrongStep" },
    { name: "declaring out of turn", state: declaring, command: declare("ace", 1), code: "notYourTurn", id: "ace" },
    {
      name: "declaring twice",
      state: run(declaring, declare("trooper1", 1)),
      command: declare("trooper1", 1),
      code: "alreadyDeclared",
      id: "trooper1",
    },
    {
      name: "declaring after hesitating",
      state: hesitant,
      command: declare("trooper1", 1),
      code: "hesitated",
      id: "trooper1",
    },
    {
      name: "declaring too many actions",
      state: declaring,
      command: declare("trooper1", 11),
      code: "tooManyActions",
      id: "trooper1",
    },
    {
      name: "declaring an over-long action",
      state: declaring,
      command: { type: "declare", combatantId: "trooper1", actions: [{ text: "x".repeat(201) }], forcePoint: false },
      code: "invalidValue",
      id: "trooper1",
    },
    {
      name: "hesitating after declaring",
      state: run(declaring, declare("trooper1", 1)),
      command: { type: "hesitate", combatantId: "trooper1" },
      code: "alreadyDeclared",
      id: "trooper1",
    },
    {
      name: "hesitating twice",
      state: hesitant,
      command: { type: "hesitate", combatantId: "trooper1" },
      code: "hesitated",
      id: "trooper1",
    },
    {
      name: "reacting before the passes",
      state: declaring,
      command: { type: "react", combatantId: "ace", kind: "dodge" },
      code: "wrongStep",
    },
    {
      name: "reacting without a declaration",
      state: late,
      command: { type: "react", combatantId: "late", kind: "dodge" },
      code: "notDeclared",
      id: "late",
    },
    {
      name: "slowing down without an action in this pass",
      state: passing,
      command: { type: "slowDown", combatantId: "trooper2", after: "jaluun" },
      code: "notInPass",
      id: "trooper2",
    },
    {
      name: "slowing down twice",
      state: slowed,
      command: { type: "slowDown", combatantId: "jaluun", after: "ace" },
      code: "alreadySlowed",
      id: "jaluun",
    },
    {
      name: "slowing down after acting",
      state: run(passing, next),
      command: { type: "slowDown", combatantId: "ace", after: "trooper1" },
      code: "alreadyActed",
      id: "ace",
    },
    {
      name: "slowing down after an unknown character",
      state: passing,
      command: { type: "slowDown", combatantId: "ace", after: "ghost" },
      code: "unknownCombatant",
      id: "ghost",
    },
    {
      name: "ordering a tie in another pass",
      state: passing,
      command: { type: "orderTied", pass: 2, combatantIds: ["ace", "jaluun"] },
      code: "invalidValue",
    },
    {
      name: "ordering characters that are not tied",
      state: passing,
      command: { type: "orderTied", pass: 1, combatantIds: ["ace", "jaluun"] },
      code: "notTied",
      id: "ace",
    },
    {
      name: "an unknown command",
      state: fresh,
      command: { type: "teleport" } as unknown as SidesCommand,
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
        "alreadyDeclared",
        "alreadyRolled",
        "alreadySlowed",
        "alreadyStarted",
        "duplicateCombatant",
        "emptySide",
        "hesitated",
        "initiativeMissing",
        "invalidValue",
        "noCombatants",
        "notDeclared",
        "notGM",
        "notInPass",
        "notOnSide",
        "notOwner",
        "notSlowed",
        "notStarted",
        "notTied",
        "notYourTurn",
        "sideNotEmpty",
        "tiePending",
        "tooManyActions",
        "unknownCombatant",
        "unknownCommand",
        "unknownSide",
        "wrongStep",
      ].sort(),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Permissions and allowed actions
// ---------------------------------------------------------------------------------------------

describe("permissions: a player acts only for combatants it owns; the GM may do anything", () => {
  const list = (state: SidesState, who: Requester): string[] =>
    sidesMode
      .allowed(state, who)
      .map(
        (a) =>
          `${a.type}${a.combatantId === undefined ? "" : `:${a.combatantId}`}${a.groupId === undefined ? "" : `@${a.groupId}`}`,
      );

  it("allowed() lists exactly what each user may do now", () => {
    const initiative = run(setup([ACE, JALUUN, TROOPER1]), { type: "start" });
    // Ace has the best Perception, so rolls for the heroes.
    expect(list(initiative, player("ace"))).toEqual(["recordSideRoll@heroes"]);
    expect(list(initiative, player("jaluun"))).toEqual([]);
    const gm = list(initiative, GM);
    expect(gm).toEqual(
      expect.arrayContaining([
        "addCombatant",
        "defineSide",
        "configure",
        "nextRound",
        "recordSideRoll@empire",
        "setRoller@heroes",
        "setSide:ace",
      ]),
    );
    expect(gm).not.toContain("nextTurn");
    expect(gm).not.toContain("removeSide@heroes");

    const declaring = roll(initiative, { heroes: 10, empire: 4 });
    expect(list(declaring, player("ace"))).toEqual([]);
    const heroesTurn = run(declaring, declare("trooper1", 1));
    expect(list(heroesTurn, player("jaluun"))).toEqual(["declare:jaluun"]);
    expect(list(heroesTurn, GM)).toEqual(expect.arrayContaining(["declare:jaluun", "hesitate:jaluun"]));

    const passing = run(heroesTurn, declare("jaluun", 1), declare("ace", 1));
    expect(list(passing, player("ace"))).toEqual(["nextTurn", "react:ace", "slowDown:ace"]);
    expect(list(passing, player("jaluun"))).toEqual(["react:jaluun", "slowDown:jaluun"]);
  });

  it("an exposed tie lets the GM order it", () => {
    const s = run(
      seedDeclaration(),
      declare("trooper1", 1),
      declare("trooper2", 1),
      declare("jaluun", 0),
      declare("ace", 0),
    );
    expect(sidesMode.allowed(s, GM)).toContainEqual({ type: "orderTied", combatantId: "trooper1" });
    const tied = roll(
      run(setup([ACE, TROOPER1, { id: "pirate", side: "pirates", dex: "2D", per: "2D" }]), { type: "start" }),
      { heroes: 12, empire: 5, pirates: 5 },
    );
    expect(sidesMode.allowed(tied, GM)).toContainEqual({ type: "orderTiedSides", groupId: "empire" });
  });
});

// ---------------------------------------------------------------------------------------------
// Untrusted data
// ---------------------------------------------------------------------------------------------

describe("parseCommand narrows untrusted data", () => {
  it.each([
    [{ type: "nextTurn" }, { type: "nextTurn" }],
    [{ type: "start", surprise: false }, { type: "start" }],
    [
      { type: "defineSide", sideId: "s", name: "S", colour: "#abcdef", extra: 1 },
      { type: "defineSide", sideId: "s", name: "S", colour: "#abcdef" },
    ],
    [
      { type: "defineSide", sideId: "s", name: "S", colour: "#abc", isGMSide: null },
      { type: "defineSide", sideId: "s", name: "S", colour: "#abc", isGMSide: null },
    ],
    [
      { type: "setTraits", combatantId: "a", dexterity: "3d+2", perception: "4D", initiativeScore: "2D-1" },
      { type: "setTraits", combatantId: "a", dexterity: "3D+2", perception: "4D", initiativeScore: "2D-1" },
    ],
    [
      { type: "declare", combatantId: "a", actions: [{ text: "fire" }], forcePoint: true },
      { type: "declare", combatantId: "a", actions: [{ text: "fire" }], forcePoint: true },
    ],
    [
      { type: "declare", combatantId: "a", actions: [], forcePoint: false },
      { type: "declare", combatantId: "a", actions: [], forcePoint: false },
    ],
    [
      { type: "setRoller", sideId: "s", combatantId: null },
      { type: "setRoller", sideId: "s", combatantId: null },
    ],
    [
      { type: "orderTied", pass: 2, combatantIds: ["a", "b"] },
      { type: "orderTied", pass: 2, combatantIds: ["a", "b"] },
    ],
    [
      { type: "react", combatantId: "a", kind: "parry" },
      { type: "react", combatantId: "a", kind: "parry" },
    ],
    [
      { type: "configure", maxActions: 4, actionPenalty: "1d" },
      { type: "configure", maxActions: 4, actionPenalty: "1D" },
    ],
  ])("accepts %j", (data, expected) => {
    expect(sidesMode.parseCommand(data)).toEqual(expected);
  });

  it.each([
    null,
    "nextTurn",
    { type: "start", surprise: true },
    { type: "defineSide", sideId: "s", name: "S", colour: "blue" },
    { type: "defineSide", sideId: "s", name: "x".repeat(101), colour: "#fff" },
    { type: "defineSide", sideId: "s", name: "S", colour: "#fff", isGMSide: "yes" },
    { type: "setTraits", combatantId: "a", dexterity: "3D+3", perception: "4D", initiativeScore: "4D" },
    { type: "setTraits", combatantId: "a", dexterity: "3D", perception: "4D" },
    { type: "declare", combatantId: "a", actions: "two", forcePoint: false },
    { type: "declare", combatantId: "a", actions: [{ text: "x".repeat(201) }], forcePoint: false },
    { type: "declare", combatantId: "a", actions: Array(100).fill({ text: "x" }), forcePoint: false },
    { type: "declare", combatantId: "a", actions: [], forcePoint: "no" },
    { type: "declare", combatantId: "a", actions: [{ text: "parry", kind: "parry" }], forcePoint: false },
    { type: "react", combatantId: "a", kind: "block" },
    { type: "slowDown", combatantId: "a" },
    { type: "orderTied", pass: 0, combatantIds: ["a", "b"] },
    { type: "orderTied", pass: 1, combatantIds: ["a"] },
    { type: "orderTied", pass: 1, combatantIds: ["a", "a"] },
    { type: "orderTiedSides", sideIds: ["a", 2] },
    { type: "recordSideRoll", sideId: "s", total: Infinity },
    { type: "configure", maxActions: 1.5, actionPenalty: "1D" },
    { type: "configure", maxActions: 100, actionPenalty: "1D" },
    { type: "setRoller", sideId: "s" },
  ])("refuses %j", (data) => {
    expect(sidesMode.parseCommand(data)).toBeNull();
  });
});

describe("parseSidesState accepts what the mode writes and rejects corrupted data", () => {
  const states = [
    sidesMode.create([]),
    setup([ACE, JALUUN, TROOPER1]),
    seedDeclaration(),
    run(seedDeclaration(), declare("trooper1", 1), declare("trooper2", 2), declare("jaluun", 1), declare("ace", 2)),
  ];

  it.each(states.map((state, i) => [i, state] as const))("state %i round-trips through JSON", (_i, state) => {
    expect(parseSidesState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  const passing = states[3] as SidesState;
  it.each([
    { rule: "not an object", data: [] },
    { rule: "a malformed trait", data: { ...passing, combatants: [{ ...passing.combatants[0], dexterity: "3d" }] } },
    { rule: "a duplicate combatant", data: { ...passing, combatants: [...passing.combatants, passing.combatants[0]] } },
    { rule: "an unknown side", data: { ...passing, rolls: [{ sideId: "nowhere", total: 3 }] } },
    { rule: "an unknown step", data: { ...passing, step: "phase" } },
    { rule: "a pass order naming a stranger", data: { ...passing, passOrder: ["ghost"] } },
    { rule: "done out of order", data: { ...passing, done: ["jaluun"] } },
    { rule: "a pass step without a pass", data: { ...passing, pass: 0 } },
    {
      rule: "an over-long action",
      data: { ...passing, declarations: [{ ...passing.declarations[0], actions: [{ text: "x".repeat(201) }] }] },
    },
    { rule: "a bad penalty", data: { ...passing, actionPenalty: "lots" } },
  ])("rejects $rule", ({ data }) => {
    expect(parseSidesState(data)).toBeNull();
  });
});

describe("view", () => {
  it("before the start: setup, everyone as the passes rank them, nobody acting", () => {
    expect(sidesMode.view(setup([TROOPER1, ACE, JALUUN]))).toEqual({
      started: false,
      round: 0,
      step: "setup",
      order: ["ace", "jaluun", "trooper1"],
      current: null,
      next: null,
    });
  });

  it("initiative: the same order, nobody acting yet", () => {
    expect(sidesMode.view(run(setup([TROOPER1, ACE]), { type: "start" }))).toMatchObject({
      started: true,
      round: 1,
      step: "initiative",
      current: null,
    });
  });

  it("the last action of the round has no next", () => {
    const s = run(
      seedDeclaration(),
      declare("trooper1", 0),
      declare("trooper2", 0),
      declare("jaluun", 1),
      declare("ace", 1),
      next,
    );
    expect(sidesMode.view(s)).toMatchObject({ step: "pass", current: "jaluun", next: null });
  });
});

// ---------------------------------------------------------------------------------------------
// Derived orders: the running step's orders hold; one tracker order all round
// ---------------------------------------------------------------------------------------------

describe("derived orders: a change in the running step keeps its order", () => {
  it("a side change in the declaration keeps the declaring order; the next round uses the new side", () => {
    let s = seedDeclaration();
    s = run(s, { type: "setSide", combatantId: "trooper1", sideId: "heroes" });
    expect(declarationOrder(s)).toEqual(["trooper1", "trooper2", "jaluun", "ace"]);
    expect(current(s)).toBe("trooper1");
    s = run(s, declare("trooper1", 0), declare("trooper2", 0), declare("jaluun", 0), declare("ace", 0));
    s = roll(s, { heroes: 12, empire: 9 });
    expect(declarationOrder(s)).toEqual(["trooper2", "trooper1", "jaluun", "ace"]);
    expect(s.held).toEqual([]);
  });

  it("a joiner in the declaration takes no part until the next round", () => {
    let s = seedDeclaration();
    s = run(
      s,
      { type: "addCombatant", combatant: { id: "late", name: "late", isPC: false } },
      { type: "setSide", combatantId: "late", sideId: "empire" },
      { type: "setTraits", combatantId: "late", dexterity: "5D", perception: "1D", initiativeScore: "1D" },
    );
    expect(declarationOrder(s)).not.toContain("late");
    s = run(s, declare("trooper1", 1), declare("trooper2", 0), declare("jaluun", 1), declare("ace", 1));
    expect(passOrder(s)).toEqual(["ace", "jaluun", "trooper1"]);
  });

  it("a trait change in a pass keeps this pass's order; the next pass uses the new traits", () => {
    let s = run(
      seedDeclaration(),
      declare("trooper1", 2),
      declare("trooper2", 0),
      declare("jaluun", 2),
      declare("ace", 2),
    );
    expect(passOrder(s)).toEqual(["ace", "jaluun", "trooper1"]);
    s = run(s, {
      type: "setTraits",
      combatantId: "trooper1",
      dexterity: "5D",
      perception: "2D",
      initiativeScore: "2D",
    });
    expect(passOrder(s)).toEqual(["ace", "jaluun", "trooper1"]);
    s = run(s, next, next, next);
    expect(s.pass).toBe(2);
    expect(passOrder(s)).toEqual(["trooper1", "ace", "jaluun"]);
  });

  it("a tie made by a trait change in a pass, ordered by the GM, swaps the places the tied hold", () => {
    let s = run(
      seedDeclaration(),
      declare("trooper1", 1),
      declare("trooper2", 0),
      declare("jaluun", 1),
      declare("ace", 1),
    );
    s = run(s, {
      type: "setTraits",
      combatantId: "trooper1",
      dexterity: "3D",
      perception: "4D",
      initiativeScore: "2D",
    });
    expect(pendingTies(s)).toEqual([["ace", "trooper1"]]);
    s = run(s, { type: "orderTied", pass: 1, combatantIds: ["trooper1", "ace"] });
    expect(passOrder(s)).toEqual(["trooper1", "jaluun", "ace"]);
    expect(pendingTies(s)).toEqual([]);
  });

  it("removing an empty side keeps the declaring place of a member that left it in this step", () => {
    let s = roll(
      run(setup([TROOPER1, ACE, { id: "pirate", side: "pirates", dex: "2D", per: "1D" }]), { type: "start" }),
      { heroes: 12, empire: 9, pirates: 3 },
    );
    expect(declarationOrder(s)).toEqual(["pirate", "trooper1", "ace"]);
    s = run(s, { type: "setSide", combatantId: "pirate", sideId: "empire" }, { type: "removeSide", sideId: "pirates" });
    expect(declarationOrder(s)).toEqual(["pirate", "trooper1", "ace"]);
    expect(declaringSides(s)).toEqual(["empire", "heroes"]);
    expect(parseSidesState(JSON.parse(JSON.stringify(s)))).toEqual(s);
  });

  it("a follower whose moment came stays due when the one it followed leaves", () => {
    let s = run(
      seedDeclaration(),
      declare("trooper1", 1),
      declare("trooper2", 1),
      declare("jaluun", 1),
      declare("ace", 1),
    );
    s = run(s, { type: "slowDown", combatantId: "trooper2", after: "ace" }, next);
    expect(current(s)).toBe("trooper2");
    s = run(s, { type: "removeCombatant", combatantId: "ace" });
    expect(current(s)).toBe("trooper2");
    expect(passOrder(s)).toEqual(["trooper2", "jaluun", "trooper1"]);
  });
});

describe("derived orders: the tracker shows one order all round", () => {
  it("the same order through initiative, declaration, every pass and the next round", () => {
    let s = run(setup([TROOPER1, ACE, TROOPER2, JALUUN]), { type: "start" });
    const ranked = ["ace", "jaluun", "trooper1", "trooper2"];
    expect(order(s)).toEqual(ranked);
    s = roll(s, { heroes: 12, empire: 9 });
    expect(order(s)).toEqual(ranked);
    s = run(s, declare("trooper1", 1), declare("trooper2", 2), declare("jaluun", 1), declare("ace", 2));
    expect(s.pass).toBe(1);
    expect(order(s)).toEqual(ranked);
    s = run(s, next, next, next, next);
    expect(s.pass).toBe(2);
    expect(order(s)).toEqual(ranked);
    s = run(s, next, next);
    expect(s.round).toBe(2);
    expect(order(s)).toEqual(ranked);
  });

  it("a slow-down moves the one who slowed, and nobody else", () => {
    let s = run(
      seedDeclaration(),
      declare("trooper1", 1),
      declare("trooper2", 1),
      declare("jaluun", 1),
      declare("ace", 1),
    );
    s = run(s, { type: "slowDown", combatantId: "ace", after: "trooper1" });
    expect(order(s)).toEqual(["jaluun", "trooper1", "trooper2", "ace"]);
    s = run(s, next, next);
    expect(order(s)).toEqual(["jaluun", "trooper1", "ace", "trooper2"]);
    expect(current(s)).toBe("ace");
  });
});
