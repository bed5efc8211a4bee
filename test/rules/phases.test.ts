/**
 * The `phases` mode (RULES.md §5, rulebook excerpt 004), tested in the rules' own words.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  REFUSAL_CODES,
  createEncounter,
  applyToEncounter,
  type Encounter,
  type EngineCommand,
  type Requester,
} from "../../src/core/engine";
import {
  PHASES,
  PHASES_REFUSALS,
  type DieSize,
  type PhasesCommand,
  type PhasesState,
} from "../../src/modes/phases/rules/types";
import {
  advantagePool,
  collapsePoints,
  defendableIntents,
  handOffPicker,
  heroesView,
  intentsView,
  lastRollView,
  nextComplexity,
  nextDice,
  pendingFailure,
  phaseBanner,
  pressYourLuck,
} from "../../src/modes/phases/rules/derived";
import { createPhases } from "../../src/modes/phases/rules/flow";
import { dicePool, doublesIn } from "../../src/modes/phases/rules/dice";
import { phasesAllowed, startableHeroes } from "../../src/modes/phases/rules/view";
import { phasesMode } from "../../src/modes/phases/rules/mode";
import { parsePhasesState } from "../../src/modes/phases/rules/state";
import { GM, deepFreeze, npc, pc, player, refusal, rulesOf } from "./harness";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const { apply, must, run } = rulesOf(phasesMode);

const start = (surprise = false): PhasesCommand => ({ type: "start", surprise });
const nextPhase: PhasesCommand = { type: "nextPhase" };
const nextTurn: PhasesCommand = { type: "nextTurn" };
const attack = (foeId: string, text: string, ...targets: string[]): PhasesCommand => ({
  type: "declareIntent",
  foeId,
  text,
  kind: "attack",
  targets,
});
const other = (foeId: string, text: string): PhasesCommand => ({
  type: "declareIntent",
  foeId,
  text,
  kind: "other",
  targets: [],
});
const takeTurn = (combatantId: string): PhasesCommand => ({ type: "startTurn", combatantId });
const endTurn = (combatantId: string): PhasesCommand => ({ type: "endTurn", combatantId });
const roll = (
  combatantId: string,
  dieSize: DieSize,
  dice: number[],
  extra: { gainsAdvantage?: boolean; defendsIntent?: string; move?: boolean; skill?: string } = {},
): PhasesCommand => ({ type: "skillRoll", combatantId, dieSize, dice, ...extra });
const freeMove = (combatantId: string): PhasesCommand => ({ type: "freeAction", combatantId, kind: "move" });
const freeItem = (combatantId: string): PhasesCommand => ({ type: "freeAction", combatantId, kind: "item" });

/** The id of the intent declared by `foeId` (its first one). */
function intentOf(state: PhasesState, foeId: string): string {
  const found = state.intents.find((i) => i.foeId === foeId);
  if (found === undefined) throw new Error(`no intent for ${foeId}`);
  return found.id;
}

// Luwe, Ballallanava and Furo are PCs; the foes are from the excerpt's examples.
const ROSTER = [pc("luwe"), pc("ball"), npc("boss"), npc("captain"), npc("nivick"), npc("grunt"), pc("furo")];
const LUWE = player("luwe");
const BALL = player("ball");
const FURO = player("furo");

const setup = deepFreeze(phasesMode.create(ROSTER));
/** Round 1, phase 1. */
const declaring = deepFreeze(run(setup, start()));
/** Intents: the boss attacks Ballallanava (laser sword), the nivick (knife) and the grunt (laser pistol) too, the captain attacks Luwe. */
const declared = deepFreeze(
  run(
    declaring,
    attack("boss", "laser sword", "ball"),
    attack("captain", "laser pistol", "luwe"),
    attack("nivick", "knife", "ball"),
    attack("grunt", "laser pistol", "ball"),
  ),
);
/** Round 1, phase 2, nobody acting yet. */
const heroes = deepFreeze(run(declared, nextPhase));

// ---------------------------------------------------------------------------------------------
// A round has three phases
// ---------------------------------------------------------------------------------------------

describe("a round has three phases: foes declare, heroes act, foes resolve", () => {
  it("the phases are shown in order, with the current one marked", () => {
    expect(PHASES).toEqual(["foesDeclare", "heroes", "foesResolve"]);
    expect(phaseBanner(setup).step).toBe("setup");
    expect(phaseBanner(heroes)).toEqual({
      round: 1,
      step: "heroes",
      phases: [
        { phase: "foesDeclare", current: false, done: true, skipped: false },
        { phase: "heroes", current: true, done: false, skipped: false },
        { phase: "foesResolve", current: false, done: false, skipped: false },
      ],
    });
  });

  it("the start is a round step into round 1, phase 1", () => {
    const { state, step, events } = must(setup, start());
    expect(step).toBe("round");
    expect(phasesMode.view(state)).toMatchObject({ started: true, round: 1, step: "foesDeclare" });
    expect(events.map((e) => e.type)).toEqual(["combatStarted", "roundStarted", "phaseStarted"]);
  });

  it("phase 1: the foe whose intent is asked for is the first foe without one, in roster order; the GM may declare in any order", () => {
    expect(phasesMode.view(declaring)).toMatchObject({ current: "boss", next: "captain" });
    const s = run(declaring, attack("nivick", "knife", "ball"), attack("boss", "laser sword", "ball"));
    expect(phasesMode.view(s)).toMatchObject({ current: "captain", next: "grunt" });
    expect(phasesMode.view(declared)).toMatchObject({ current: null, next: null });
  });

  it("phase 2: the acting hero is current; nobody when nobody acts", () => {
    expect(phasesMode.view(heroes)).toMatchObject({ step: "heroes", current: null, next: null });
    expect(phasesMode.view(run(heroes, takeTurn("furo"))).current).toBe("furo");
  });

  it("when every PC has acted, phase 2 ends", () => {
    const s = run(heroes, takeTurn("luwe"), endTurn("luwe"), takeTurn("ball"), endTurn("ball"), takeTurn("furo"));
    const { state, events } = must(s, endTurn("furo"));
    expect(state.phase).toBe("foesResolve");
    expect(events.map((e) => e.type)).toEqual(["turnEnded", "phaseStarted"]);
  });

  it("the order is stable: the foes, then the heroes, each in joining order", () => {
    expect(phasesMode.view(heroes).order).toEqual(["boss", "captain", "nivick", "grunt", "luwe", "ball", "furo"]);
  });
});

// ---------------------------------------------------------------------------------------------
// Phase 1: foes declare
// ---------------------------------------------------------------------------------------------

describe("foes declare: the GM states each foe's intent, attacks with their targets included", () => {
  it("an intent has a text, a kind and, for an attack, its targets among the PCs", () => {
    expect(intentsView(declared)[0]).toMatchObject({
      foeId: "boss",
      text: "laser sword",
      kind: "attack",
      targets: ["ball"],
      foiled: false,
      outOfReach: false,
      collapse: false,
    });
  });

  it.each([
    { rule: "only the GM declares", command: attack("boss", "x", "ball"), who: LUWE, code: "notGM", id: undefined },
    { rule: "an attack needs a target", command: attack("boss", "x"), who: GM, code: "invalidValue", id: undefined },
    { rule: "targets are PCs", command: attack("boss", "x", "grunt"), who: GM, code: "notPC", id: "grunt" },
    { rule: "only foes declare intents", command: attack("luwe", "x", "ball"), who: GM, code: "notFoe", id: "luwe" },
    {
      rule: "targets are known combatants",
      command: attack("boss", "x", "ghost"),
      who: GM,
      code: "unknownCombatant",
      id: "ghost",
    },
    {
      rule: "a target is named once",
      command: attack("boss", "x", "ball", "ball"),
      who: GM,
      code: "invalidValue",
      id: undefined,
    },
  ])("$rule", ({ command, who, code, id }) => {
    expect(refusal(apply(declaring, command, who))).toEqual(id === undefined ? { code } : { code, combatantId: id });
  });

  it("a foe declares once a round; only a Collapse point buys it an extra attack", () => {
    expect(refusal(apply(declared, other("boss", "flee")))).toEqual({ code: "alreadyDeclared", combatantId: "boss" });
  });

  it("a foe with no intent does nothing this round: it is not handled in phase 3", () => {
    const s = run(declaring, attack("boss", "laser sword", "ball"), nextPhase, nextPhase);
    expect(phasesMode.view(s)).toMatchObject({ step: "foesResolve", current: "boss", next: null });
  });

  it("each intent is an undoable step; intents are declared only in phase 1", () => {
    expect(must(declaring, other("boss", "flee")).step).toBe("turn");
    expect(refusal(apply(heroes, other("boss", "flee")))).toEqual({ code: "wrongStep" });
  });
});

describe("Collapse points: the GM starts with 2, and may spend them on an extra foe attack in phase 1 or while a PC has yet to finish its turn", () => {
  const extra = (foeId: string, ...targets: string[]): PhasesCommand => ({
    type: "spendCollapse",
    foeId,
    text: "extra attack",
    targets,
  });

  it("the Collapse pool starts at 2 unless configured otherwise", () => {
    expect(collapsePoints(setup)).toBe(2);
    expect(collapsePoints(createPhases(ROSTER, { collapse: 5 }))).toBe(5);
    expect(collapsePoints(run(setup, { type: "setCollapse", points: 4 }))).toBe(4);
  });

  it.each([
    { rule: "in phase 1", state: declared, ok: true },
    { rule: "in phase 2, before anyone acts", state: heroes, ok: true },
    { rule: "in phase 2, during a turn", state: run(heroes, takeTurn("luwe")), ok: true },
  ])("an extra attack can be declared $rule", ({ state, ok }) => {
    const outcome = apply(state, extra("boss", "luwe"));
    expect(outcome.ok).toBe(ok);
    if (!outcome.ok) return;
    expect(collapsePoints(outcome.state)).toBe(collapsePoints(state) - 1);
    expect(
      intentsView(outcome.state)
        .filter((i) => i.foeId === "boss")
        .map((i) => i.collapse),
    ).toEqual([false, true]);
  });

  it("not once every PC has finished its turn (phase 3)", () => {
    const s = run(heroes, nextPhase);
    expect(refusal(apply(s, extra("boss", "luwe")))).toEqual({ code: "wrongStep" });
  });

  it("a Collapse spend with none left is refused and changes nothing", () => {
    const empty = deepFreeze(run(declared, extra("boss", "luwe"), extra("grunt", "luwe")));
    expect(collapsePoints(empty)).toBe(0);
    expect(refusal(apply(empty, extra("boss", "luwe")))).toEqual({ code: "noCollapse" });
  });
});

// ---------------------------------------------------------------------------------------------
// Phase 2: heroes act, in any order
// ---------------------------------------------------------------------------------------------

describe("heroes act: player characters take individual turns in any order they choose", () => {
  it("while nobody is acting, a player may start the turn of a PC they own who has not acted", () => {
    expect(startableHeroes(heroes, LUWE)).toEqual(["luwe"]);
    expect(startableHeroes(heroes, GM)).toEqual(["luwe", "ball", "furo"]);
    const { state, step, events } = must(heroes, takeTurn("luwe"), LUWE);
    expect(step).toBe("turn");
    expect(events.map((e) => e.type)).toEqual(["turnStarted"]);
    expect(heroesView(state).map((h) => [h.id, h.acted, h.acting])).toEqual([
      ["luwe", true, true],
      ["ball", false, false],
      ["furo", false, false],
    ]);
  });

  it("an action for someone else's PC is refused", () => {
    expect(refusal(apply(heroes, takeTurn("ball"), LUWE))).toEqual({ code: "notOwner", combatantId: "ball" });
    const luwe = run(heroes, takeTurn("luwe"));
    expect(refusal(apply(luwe, roll("luwe", 8, [1, 7]), BALL))).toEqual({ code: "notOwner", combatantId: "luwe" });
    expect(refusal(apply(luwe, endTurn("luwe"), BALL))).toEqual({ code: "notOwner", combatantId: "luwe" });
  });

  it("a player character must complete all its actions before the next begins: a turn started while another runs is refused", () => {
    const luwe = deepFreeze(run(heroes, takeTurn("luwe")));
    expect(refusal(apply(luwe, takeTurn("ball"), BALL))).toEqual({ code: "heroActing", combatantId: "luwe" });
    expect(refusal(apply(luwe, takeTurn("ball"), GM))).toEqual({ code: "heroActing", combatantId: "luwe" });
  });

  it("two players starting at once: exactly one wins, the other is told who did", () => {
    const first = must(heroes, takeTurn("ball"), BALL).state;
    expect(refusal(apply(first, takeTurn("luwe"), LUWE))).toEqual({ code: "heroActing", combatantId: "ball" });
  });

  it("each player character may only take one turn per round", () => {
    const s = run(heroes, takeTurn("luwe"), endTurn("luwe"));
    expect(refusal(apply(s, takeTurn("luwe"), LUWE))).toEqual({ code: "alreadyActed", combatantId: "luwe" });
    expect(refusal(apply(s, takeTurn("luwe"), GM))).toEqual({ code: "alreadyActed", combatantId: "luwe" });
  });

  it("turns are taken in phase 2 only, and only by PCs", () => {
    expect(refusal(apply(declared, takeTurn("luwe")))).toEqual({ code: "wrongStep" });
    expect(refusal(apply(heroes, takeTurn("boss")))).toEqual({ code: "notPC", combatantId: "boss" });
  });

  it("the GM can start any PC's turn", () => {
    expect(must(heroes, takeTurn("furo"), GM).state.turn?.combatantId).toBe("furo");
  });
});

describe("if the player characters cannot agree on an order, the GM selects one to go first, then that character chooses the next", () => {
  const handOff = deepFreeze(run(heroes, { type: "setHandOff", on: true }));
  const pick = (combatantId: string): PhasesCommand => ({ type: "pickNext", combatantId });

  it("the GM picks the first PC; players do not start turns themselves", () => {
    expect(handOffPicker(handOff)).toEqual({ picker: null, choices: ["luwe", "ball", "furo"] });
    expect(refusal(apply(handOff, takeTurn("luwe"), LUWE))).toEqual({ code: "notGM" });
    expect(refusal(apply(handOff, pick("luwe"), LUWE))).toEqual({ code: "notGM" });
    expect(must(handOff, pick("ball")).state.turn?.combatantId).toBe("ball");
  });

  it("at the end of each turn, that PC's owner picks the next from those who have not acted", () => {
    const s = run(handOff, pick("ball"), endTurn("ball"));
    expect(handOffPicker(s)).toEqual({ picker: "ball", choices: ["luwe", "furo"] });
    expect(startableHeroes(s, BALL)).toEqual(["luwe", "furo"]);
    expect(startableHeroes(s, LUWE)).toEqual([]);
    expect(refusal(apply(s, pick("luwe"), LUWE))).toEqual({ code: "pickerChooses", combatantId: "ball" });
    expect(refusal(apply(s, takeTurn("luwe"), LUWE))).toEqual({ code: "pickerChooses", combatantId: "ball" });
    expect(refusal(apply(s, pick("ball"), BALL))).toEqual({ code: "alreadyActed", combatantId: "ball" });
    const next = must(s, pick("luwe"), BALL).state;
    expect(next.turn?.combatantId).toBe("luwe");
    expect(handOffPicker(next)).toBeNull();
  });

  it("the GM can override the pick", () => {
    const s = run(handOff, pick("ball"), endTurn("ball"));
    expect(must(s, pick("furo"), GM).state.turn?.combatantId).toBe("furo");
    expect(must(s, takeTurn("furo"), GM).state.turn?.combatantId).toBe("furo");
  });

  it("hand-off order is set per round", () => {
    const s = run(handOff, nextPhase, nextRound());
    expect(s.handOff).toBe(false);
    expect(refusal(apply(run(s, nextPhase), pick("luwe")))).toEqual({ code: "notHandOff" });
  });
});

function nextRound(): PhasesCommand {
  return { type: "nextRound" };
}

describe("if the enemies catch all the player characters unaware, skip this phase during the first round of combat", () => {
  it("round 1 goes from foes declare straight to foes resolve", () => {
    const s = run(setup, start(true), attack("boss", "laser sword", "ball"));
    const { state, events } = must(s, nextPhase);
    expect(state.phase).toBe("foesResolve");
    expect(events.map((e) => e.type)).toEqual(["heroesSkipped", "phaseStarted"]);
    expect(phaseBanner(state).phases.map((p) => p.skipped)).toEqual([false, true, false]);
  });

  it("round 2 has its heroes phase", () => {
    const s = run(setup, start(true), nextPhase, nextTurn, nextPhase);
    expect(s).toMatchObject({ round: 2, phase: "heroes" });
    expect(phaseBanner(s).phases.map((p) => p.skipped)).toEqual([false, false, false]);
  });

  it("without surprise, round 1 has its heroes phase", () => {
    expect(run(setup, start(false), nextPhase).phase).toBe("heroes");
  });
});

// ---------------------------------------------------------------------------------------------
// Press your luck
// ---------------------------------------------------------------------------------------------

describe("using a skill: the first action is a complexity 2 skill roll, every further one increases the complexity by 1", () => {
  it.each([
    { skillActions: 0, complexity: 2 },
    { skillActions: 1, complexity: 3 },
    { skillActions: 2, complexity: 4 },
    { skillActions: 3, complexity: 5 },
  ])("after $skillActions skill actions the next roll has complexity $complexity", ({ skillActions, complexity }) => {
    let s = run(heroes, takeTurn("furo"));
    for (let n = 0; n < skillActions; n++) {
      s = run(
        s,
        roll(
          "furo",
          12,
          Array.from({ length: n + 2 }, (_, i) => i + 1),
        ),
      );
    }
    expect(nextComplexity(s)).toBe(complexity);
    expect(pressYourLuck(s)).toMatchObject({ combatantId: "furo", skillActions, complexity, failed: false });
  });

  it("complexity n rolls n dice of the skill's die size", () => {
    const s = run(heroes, takeTurn("furo"));
    expect(nextDice(s, 8)).toEqual({ count: 2, dieSize: 8, formula: "2d8" });
    expect(dicePool(4, 6).formula).toBe("4d6");
    expect(nextDice(heroes, 8)).toBeNull();
  });

  // The seed's example, step by step.
  const luwe: readonly {
    step: string;
    skill: string;
    dieSize: DieSize;
    dice: number[];
    formula: string;
    success: boolean;
  }[] = [
    { step: "Melee (d8) on the nivick boss", skill: "melee", dieSize: 8, dice: [1, 7], formula: "2d8", success: true },
    {
      step: "Ranged (d10) on the pirate captain, her second action",
      skill: "ranged",
      dieSize: 10,
      dice: [10, 8, 2],
      formula: "3d10",
      success: true,
    },
    {
      step: "Stealth (d6) to hide, her third action",
      skill: "stealth",
      dieSize: 6,
      dice: [6, 5, 5, 3],
      formula: "4d6",
      success: false,
    },
  ];

  it("Luwe: Melee d8 → 2d8 (1, 7) succeeds, Ranged d10 → 3d10 (10, 8, 2) succeeds, Stealth d6 → 4d6 (6, 5, 5, 3) fails", () => {
    let s = run(heroes, takeTurn("luwe"));
    for (const { skill, dieSize, dice, formula, success } of luwe) {
      expect(nextDice(s, dieSize)?.formula).toBe(formula);
      const outcome = must(s, roll("luwe", dieSize, dice, { skill }), LUWE);
      expect(outcome.step).toBe("turn");
      expect(lastRollView(outcome.state)).toMatchObject({ skill, dieSize, dice, success });
      s = outcome.state;
    }
    expect(lastRollView(s)?.doubles).toEqual([1, 2]);
    // "the GM gains 1 Collapse point, and Luwe's turn ends"
    expect(pendingFailure(s)?.combatantId).toBe("luwe");
    const { state } = must(s, { type: "resolveFailure", choice: "collapse" });
    expect(collapsePoints(state)).toBe(3);
    expect(state.turn).toBeNull();
    expect(state.lastRoll?.answer).toEqual({ choice: "collapse" });
  });
});

describe("doubles: if the dice rolled result in doubles, the attempt fails and the turn ends immediately", () => {
  it.each([
    { dice: [1, 7], doubles: [] },
    { dice: [3, 3], doubles: [0, 1] },
    { dice: [10, 8, 2], doubles: [] },
    { dice: [2, 9, 2], doubles: [0, 2] },
    { dice: [6, 5, 5, 3], doubles: [1, 2] },
    { dice: [4, 4, 4, 1, 1], doubles: [0, 1, 2, 3, 4] },
  ])("$dice has doubles at $doubles", ({ dice, doubles }) => {
    expect(doublesIn(dice)).toEqual(doubles);
  });

  it.each([
    { dice: [1, 7], success: true },
    { dice: [3, 3], success: false },
    { dice: [10, 8, 2], success: true },
    { dice: [2, 9, 2], success: false },
    { dice: [6, 5, 5, 3], success: false },
    { dice: [1, 2, 3, 4, 5, 6], success: true },
    { dice: [6, 1, 2, 3, 4, 6], success: false },
  ])("a roll of $dice: success $success", ({ dice, success }) => {
    let s = run(heroes, takeTurn("furo"));
    for (let n = 2; n < dice.length; n++)
      s = run(
        s,
        roll(
          "furo",
          12,
          Array.from({ length: n }, (_, i) => i + 1),
        ),
      );
    const outcome = must(s, roll("furo", 12, dice), FURO);
    expect(lastRollView(outcome.state)?.success).toBe(success);
    expect(outcome.events[0]?.type).toBe(success ? "skillRolled" : "rollFailed");
    expect(pressYourLuck(outcome.state)?.failed).toBe(!success);
  });

  const failed = deepFreeze(run(heroes, takeTurn("luwe"), roll("luwe", 6, [3, 3])));

  it("a failed roll ends the turn: no more actions, not even ending it", () => {
    expect(lastRollView(failed)?.success).toBe(false);
    expect(pressYourLuck(failed)?.failed).toBe(true);
    expect(refusal(apply(failed, roll("luwe", 6, [1, 2, 3]), LUWE))).toEqual({
      code: "failurePending",
      combatantId: "luwe",
    });
    expect(refusal(apply(failed, freeMove("luwe"), LUWE))).toEqual({ code: "failurePending", combatantId: "luwe" });
    expect(refusal(apply(failed, endTurn("luwe"), LUWE))).toEqual({ code: "failurePending", combatantId: "luwe" });
  });

  it("the turn stays ended until the GM answers: no other turn begins, the phase does not move", () => {
    expect(refusal(apply(failed, takeTurn("ball"), BALL))).toEqual({ code: "failurePending", combatantId: "luwe" });
    expect(refusal(apply(failed, nextPhase))).toEqual({ code: "failurePending", combatantId: "luwe" });
    expect(refusal(apply(failed, nextTurn))).toEqual({ code: "failurePending", combatantId: "luwe" });
  });

  it("the GM either invokes a failure effect (recorded) or gains 1 Collapse point; only the GM answers", () => {
    expect(refusal(apply(failed, { type: "resolveFailure", choice: "collapse" }, LUWE))).toEqual({ code: "notGM" });
    const effect = must(failed, { type: "resolveFailure", choice: "effect", text: "Luwe drops her pistol" });
    expect(effect.events.map((e) => e.type)).toEqual(["failureEffect", "turnEnded"]);
    expect(effect.events[0]).toMatchObject({ text: "Luwe drops her pistol", combatantId: "luwe" });
    expect(effect.state.lastRoll?.answer).toEqual({ choice: "effect", text: "Luwe drops her pistol" });
    expect(collapsePoints(effect.state)).toBe(2);
    const collapse = must(failed, { type: "resolveFailure", choice: "collapse" });
    expect(collapse.events.map((e) => e.type)).toEqual(["collapseGained", "turnEnded"]);
    expect(collapsePoints(collapse.state)).toBe(3);
    expect(must(collapse.state, takeTurn("ball"), BALL).state.turn?.combatantId).toBe("ball");
  });

  it("without a failed roll there is nothing to answer", () => {
    expect(refusal(apply(heroes, { type: "resolveFailure", choice: "collapse" }))).toEqual({ code: "noFailure" });
  });

  it("after a success the hero may take another action or end the turn", () => {
    const s = run(heroes, takeTurn("luwe"), roll("luwe", 8, [1, 7]));
    expect(apply(s, roll("luwe", 10, [10, 8, 2]), LUWE).ok).toBe(true);
    const ended = must(s, endTurn("luwe"), LUWE).state;
    expect(ended.turn).toBeNull();
    expect(ended.lastHero).toBe("luwe");
  });
});

describe("a forged roll: dice that do not match the complexity are refused and change nothing", () => {
  const s = deepFreeze(run(heroes, takeTurn("luwe")));
  it.each([
    { rule: "too few dice", dieSize: 8, dice: [4], code: "wrongDice" },
    { rule: "too many dice", dieSize: 8, dice: [4, 5, 6], code: "wrongDice" },
    { rule: "a face above the die size", dieSize: 8, dice: [4, 9], code: "wrongDice" },
    { rule: "a face of 0", dieSize: 8, dice: [0, 5], code: "wrongDice" },
    { rule: "a fractional face", dieSize: 8, dice: [1.5, 5], code: "wrongDice" },
    { rule: "a die size that is not d4 to d12", dieSize: 7, dice: [1, 2], code: "invalidValue" },
  ])("$rule", ({ dieSize, dice, code }) => {
    const command: PhasesCommand = { type: "skillRoll", combatantId: "luwe", dieSize, dice };
    expect(refusal(apply(s, command, LUWE))).toEqual({ code, combatantId: "luwe" });
  });

  it("a roll outside the hero's own running turn is refused", () => {
    expect(refusal(apply(heroes, roll("luwe", 8, [1, 2]), LUWE))).toEqual({
      code: "notYourTurn",
      combatantId: "luwe",
    });
    // Luwe's turn runs: that is why Ball cannot roll now (issue 27 item 3).
    expect(refusal(apply(s, roll("ball", 8, [1, 2]), BALL))).toEqual({ code: "heroActing", combatantId: "luwe" });
  });
});

describe("free actions: an action that does not require a skill roll does not increase the complexity", () => {
  it.each([
    {
      rule: "the one free move does not raise the complexity",
      commands: [freeMove("furo")],
      complexity: 2,
      freeMoveUsed: true,
    },
    {
      rule: "an item that needs no roll does not either, however many",
      commands: [freeItem("furo"), freeItem("furo")],
      complexity: 2,
      freeMoveUsed: false,
    },
    {
      rule: "a second move needs a skill roll: a skill action",
      commands: [freeMove("furo"), roll("furo", 8, [1, 2], { move: true })],
      complexity: 3,
      freeMoveUsed: true,
    },
    {
      rule: "a first move that itself needs a roll (stealth, jumping) is a skill action and uses up the free move",
      commands: [roll("furo", 6, [1, 2], { move: true, skill: "stealth" })],
      complexity: 3,
      freeMoveUsed: true,
    },
    {
      rule: "a skill roll that is not a move leaves the free move",
      commands: [roll("furo", 8, [1, 2])],
      complexity: 3,
      freeMoveUsed: false,
    },
  ])("$rule", ({ commands, complexity, freeMoveUsed }) => {
    const s = run(run(heroes, takeTurn("furo")), ...commands);
    expect(pressYourLuck(s)).toMatchObject({ complexity, freeMoveUsed });
  });

  it("only one free move per turn", () => {
    const moved = run(heroes, takeTurn("furo"), freeMove("furo"));
    expect(refusal(apply(moved, freeMove("furo"), FURO))).toEqual({ code: "freeMoveUsed", combatantId: "furo" });
    const rolledMove = run(heroes, takeTurn("furo"), roll("furo", 6, [1, 2], { move: true }));
    expect(refusal(apply(rolledMove, freeMove("furo"), FURO))).toEqual({ code: "freeMoveUsed", combatantId: "furo" });
  });

  it("Furo moves 5 squares free, attacks (2 dice), then moves again with Athletics d8: 3d8, 7, 6, 3, succeeds", () => {
    let s = run(heroes, takeTurn("furo"));
    s = must(s, freeMove("furo"), FURO).state;
    expect(nextDice(s, 10)?.formula).toBe("2d10");
    s = must(s, roll("furo", 10, [4, 9]), FURO).state;
    expect(refusal(apply(s, freeMove("furo"), FURO))?.code).toBe("freeMoveUsed");
    expect(nextDice(s, 8)?.formula).toBe("3d8");
    s = must(s, roll("furo", 8, [7, 6, 3], { move: true, skill: "athletics" }), FURO).state;
    expect(lastRollView(s)?.success).toBe(true);
    expect(nextComplexity(s)).toBe(4);
  });

  it("every free action is an undoable step", () => {
    expect(must(run(heroes, takeTurn("furo")), freeItem("furo")).step).toBe("turn");
  });
});

// ---------------------------------------------------------------------------------------------
// Active defense
// ---------------------------------------------------------------------------------------------

describe("active defense: any player character can make a skill roll during their turn to defend against a declared attack", () => {
  it("a nivick boss declares a laser sword attack on Ballallanava; his second action, Presence d10, rolls 3d10: 9, 6, 2, and the attack does nothing", () => {
    const boss = intentOf(heroes, "boss");
    let s = run(heroes, takeTurn("ball"), roll("ball", 8, [2, 5]));
    s = must(s, roll("ball", 10, [9, 6, 2], { defendsIntent: boss, skill: "presence" }), BALL).state;
    expect(intentsView(s).find((i) => i.id === boss)).toMatchObject({
      foiled: true,
      foiledBy: "ball",
      outcome: "foiled",
    });
    // Phase 3: the boss's attack resolves as "foiled, no effect".
    const resolved = run(s, endTurn("ball"), nextPhase);
    const { events } = must(resolved, nextTurn);
    expect(events.find((e) => "intentId" in e && e.intentId === boss)).toMatchObject({
      type: "intentResolved",
      outcome: "foiled",
    });
  });

  it("a nivick's knife and a pirate grunt's laser pistol: Presence d10 as his first action, 2d10: 3, 7, prevents the knife; he could defend against the pistol at complexity 3", () => {
    const knife = intentOf(heroes, "nivick");
    const pistol = intentOf(heroes, "grunt");
    let s = run(heroes, takeTurn("ball"));
    expect(nextDice(s, 10)?.formula).toBe("2d10");
    s = must(s, roll("ball", 10, [3, 7], { defendsIntent: knife }), BALL).state;
    expect(
      intentsView(s)
        .filter((i) => i.foiled)
        .map((i) => i.id),
    ).toEqual([knife]);
    expect(defendableIntents(s)).toContain(pistol);
    expect(nextComplexity(s)).toBe(3);
    s = must(s, roll("ball", 10, [1, 4, 8], { defendsIntent: pistol }), BALL).state;
    expect(
      intentsView(s)
        .filter((i) => i.foiled)
        .map((i) => i.id),
    ).toEqual([knife, pistol]);
  });

  it("an ally may defend: Luwe foils the attack on Ballallanava", () => {
    const boss = intentOf(heroes, "boss");
    const s = run(heroes, takeTurn("luwe"), roll("luwe", 8, [1, 7], { defendsIntent: boss }));
    expect(intentsView(s).find((i) => i.id === boss)?.foiledBy).toBe("luwe");
  });

  it("if the skill roll fails, the attack still hits in phase 3", () => {
    const boss = intentOf(heroes, "boss");
    const s = run(
      heroes,
      takeTurn("ball"),
      roll("ball", 10, [5, 5], { defendsIntent: boss }),
      { type: "resolveFailure", choice: "collapse" },
      nextPhase,
    );
    expect(intentsView(s).find((i) => i.id === boss)).toMatchObject({ foiled: false, outcome: "resolves" });
  });

  it.each([
    { rule: "an unknown intent", intent: "i99", code: "unknownIntent" },
    { rule: "an intent that is not an attack", intent: "other", code: "notAnAttack" },
    { rule: "an attack already foiled", intent: "foiled", code: "alreadyFoiled" },
  ])("defending against $rule is refused", ({ intent, code }) => {
    const s = run(declaring, other("boss", "calls for help"), attack("grunt", "laser pistol", "luwe"), nextPhase);
    const foiled = run(s, takeTurn("ball"), roll("ball", 10, [1, 2], { defendsIntent: intentOf(s, "grunt") }));
    const id = intent === "other" ? intentOf(s, "boss") : intent === "foiled" ? intentOf(s, "grunt") : intent;
    expect(refusal(apply(foiled, roll("ball", 10, [1, 2, 3], { defendsIntent: id }), BALL))).toEqual({ code });
  });
});

// ---------------------------------------------------------------------------------------------
// Advantages
// ---------------------------------------------------------------------------------------------

describe("advantages: the characters can have a maximum number of Advantages equal to their ship's Livability Rating", () => {
  const capped = deepFreeze(run(heroes, { type: "setPoolCap", cap: 2 }, takeTurn("luwe")));
  const knowledge = (dice: number[]): PhasesCommand =>
    roll("luwe", 8, dice, { gainsAdvantage: true, skill: "knowledge" });

  it("a successful roll that gathers information or improves position adds 1 to the shared pool", () => {
    const { state, events } = must(capped, knowledge([1, 2]), LUWE);
    expect(advantagePool(state)).toEqual({ pool: 1, cap: 2, full: false });
    expect(events.map((e) => e.type)).toEqual(["skillRolled", "advantageGained"]);
  });

  it("a failed roll gains nothing", () => {
    expect(advantagePool(must(capped, knowledge([4, 4]), LUWE).state).pool).toBe(0);
  });

  it("a gain past the cap is refused and changes nothing", () => {
    const full = deepFreeze(run(capped, knowledge([1, 2]), knowledge([1, 2, 3])));
    expect(advantagePool(full)).toEqual({ pool: 2, cap: 2, full: true });
    expect(refusal(apply(full, knowledge([1, 2, 3, 4]), LUWE))).toEqual({ code: "poolFull", combatantId: "luwe" });
    // The same roll without the mark is fine.
    expect(apply(full, roll("luwe", 8, [1, 2, 3, 4]), LUWE).ok).toBe(true);
    expect(phasesAllowed(full, LUWE)).not.toContainEqual({
      type: "skillRoll",
      combatantId: "luwe",
      gainsAdvantage: true,
    });
    expect(phasesAllowed(capped, LUWE)).toContainEqual({
      type: "skillRoll",
      combatantId: "luwe",
      gainsAdvantage: true,
    });
  });

  it("any player may spend an Advantage, with a note; an empty pool has none to spend", () => {
    const one = run(capped, knowledge([1, 2]));
    const spent = must(one, { type: "spendAdvantage", note: "reroll the boss's attack" }, BALL);
    expect(spent.step).toBe("turn");
    expect(spent.events[0]).toMatchObject({ type: "advantageSpent", text: "reroll the boss's attack" });
    expect(advantagePool(spent.state).pool).toBe(0);
    expect(refusal(apply(spent.state, { type: "spendAdvantage", note: "again" }, BALL))).toEqual({
      code: "noAdvantage",
    });
  });

  it("lowering the cap below the pool discards the excess, and says so", () => {
    const two = run(capped, knowledge([1, 2]), knowledge([1, 2, 3]));
    const { state, events } = must(two, { type: "setPoolCap", cap: 1 });
    expect(advantagePool(state)).toEqual({ pool: 1, cap: 1, full: true });
    expect(events.map((e) => e.type)).toEqual(["poolCapChanged", "advantagesLost"]);
  });

  it("the cap is a per-encounter setting (Livability Rating) and the pool starts empty", () => {
    expect(advantagePool(createPhases(ROSTER, { poolCap: 4 }))).toEqual({ pool: 0, cap: 4, full: false });
    expect(refusal(apply(setup, { type: "setPoolCap", cap: 1 }, LUWE))).toEqual({ code: "notGM" });
  });
});

// ---------------------------------------------------------------------------------------------
// Phase 3: foes resolve
// ---------------------------------------------------------------------------------------------

describe("foes resolve: foes move, then their declared actions resolve; foiled attacks and attacks out of reach do nothing", () => {
  const resolving = deepFreeze(run(heroes, nextPhase));

  it("the GM steps through the foes with intents, in roster order", () => {
    expect(phasesMode.view(resolving)).toMatchObject({ step: "foesResolve", current: "boss", next: "captain" });
    const { state, events, step } = must(resolving, nextTurn);
    expect(step).toBe("turn");
    expect(events).toEqual([
      {
        type: "intentResolved",
        round: 1,
        combatantId: "boss",
        intentId: intentOf(resolving, "boss"),
        outcome: "resolves",
      },
    ]);
    expect(phasesMode.view(state).current).toBe("captain");
    expect(refusal(apply(resolving, nextTurn, LUWE))).toEqual({ code: "notGM" });
  });

  it("the GM can mark an intent out of reach (the target moved away)", () => {
    const pistol = intentOf(resolving, "captain");
    const s = must(resolving, { type: "markOutOfReach", intentId: pistol, outOfReach: true }).state;
    expect(intentsView(s).find((i) => i.id === pistol)).toMatchObject({ outOfReach: true, outcome: "outOfReach" });
    const { events } = must(must(s, nextTurn).state, nextTurn);
    expect(events[0]).toMatchObject({ intentId: pistol, outcome: "outOfReach" });
    expect(refusal(apply(heroes, { type: "markOutOfReach", intentId: pistol, outOfReach: true }))).toEqual({
      code: "wrongStep",
    });
  });

  it("a defeated foe is no longer in the fight: its intent does not resolve", () => {
    const s = run(resolving, { type: "setDefeated", combatantId: "boss", defeated: true });
    expect(phasesMode.view(s).current).toBe("captain");
    expect(intentsView(s).find((i) => i.foeId === "boss")?.foeDefeated).toBe(true);
  });

  it("then the next round starts at phase 1, the intents and the turns cleared, the pools kept", () => {
    const s = run(
      heroes,
      takeTurn("luwe"),
      roll("luwe", 8, [1, 2], { gainsAdvantage: true }),
      endTurn("luwe"),
      nextPhase,
    );
    const { state, step } = must(run(s, nextTurn, nextTurn, nextTurn), nextTurn);
    expect(step).toBe("round");
    expect(state).toMatchObject({ round: 2, phase: "foesDeclare", intents: [], turn: null, lastRoll: null, pool: 1 });
    expect(heroesView(state).every((h) => !h.acted)).toBe(true);
  });

  it("with no foe to resolve, next turn starts the next round", () => {
    const s = run(declaring, nextPhase, nextPhase);
    expect(phasesMode.view(s).current).toBeNull();
    expect(must(s, nextTurn).state.round).toBe(2);
  });
});

// ---------------------------------------------------------------------------------------------
// Undo
// ---------------------------------------------------------------------------------------------

describe("undo: previous turn and previous round restore consistently, including the pools", () => {
  type Enc = Encounter<PhasesState>;
  function send(e: Enc, command: PhasesCommand | EngineCommand, who: Requester = GM): Enc {
    const outcome = applyToEncounter(phasesMode, e, command, who);
    if (!outcome.ok) throw new Error(`${command.type} refused: ${outcome.refusal.code}`);
    return outcome.state;
  }
  const sendAll = (e: Enc, ...commands: PhasesCommand[]): Enc => commands.reduce((x, c) => send(x, c), e);

  it.each([
    { rule: "an intent", command: attack("boss", "laser sword", "ball"), at: "declaring" },
    { rule: "a phase change", command: nextPhase, at: "declared" },
    { rule: "a hero turn start", command: takeTurn("luwe"), at: "heroes" },
    { rule: "a roll that gains an advantage", command: roll("luwe", 8, [1, 2], { gainsAdvantage: true }), at: "turn" },
    { rule: "a free action", command: freeMove("luwe"), at: "turn" },
    { rule: "a failed roll", command: roll("luwe", 8, [2, 2]), at: "turn" },
    {
      rule: "a Collapse spend",
      command: { type: "spendCollapse", foeId: "boss", text: "", targets: ["luwe"] },
      at: "turn",
    },
  ] as const)("$rule is a step that previous turn takes back", ({ command, at }) => {
    const base: Record<string, PhasesState> = {
      declaring,
      declared,
      heroes,
      turn: run(heroes, takeTurn("luwe")),
    };
    const before: Enc = { mode: "phases", state: base[at] ?? declaring, history: [] };
    const after = send(before, command);
    expect(after.history).toHaveLength(1);
    expect(send(after, { type: "previousTurn" })).toEqual(before);
  });

  it("settings are undo steps once the combat runs, not before the start", () => {
    expect(must(setup, { type: "setPoolCap", cap: 4 }).step).toBeUndefined();
    expect(must(setup, { type: "setCollapse", points: 4 }).step).toBeUndefined();
    expect(must(declaring, { type: "setPoolCap", cap: 4 }).step).toBe("turn");
    expect(must(declaring, { type: "setCollapse", points: 4 }).step).toBe("turn");
    expect(must(declaring, { type: "setHandOff", on: true }).step).toBe("turn");
    // So previous round from round 1 keeps the settings made before the start.
    let e = sendAll(createEncounter(phasesMode, ROSTER), { type: "setPoolCap", cap: 5 }, start(), nextPhase);
    e = send(e, { type: "previousRound" });
    expect(e.state).toMatchObject({ started: false, poolCap: 5 });
  });

  it("previous round returns to the start of the previous round with its pools; previous turn undoes a Collapse gain", () => {
    let e = sendAll(createEncounter(phasesMode, ROSTER), start());
    e = sendAll(e, attack("boss", "laser sword", "ball"), nextPhase, takeTurn("luwe"));
    e = sendAll(e, roll("luwe", 8, [1, 2], { gainsAdvantage: true }), roll("luwe", 8, [3, 3, 1]));
    const failed = e;
    e = send(e, { type: "resolveFailure", choice: "collapse" });
    expect(collapsePoints(e.state)).toBe(3);
    expect(send(e, { type: "previousTurn" }).state).toEqual(failed.state);
    e = sendAll(e, takeTurn("ball"), endTurn("ball"), takeTurn("furo"), endTurn("furo"), nextTurn);
    expect(e.state).toMatchObject({ round: 2, phase: "foesDeclare", pool: 1, collapse: 3 });
    const back = send(e, { type: "previousRound" });
    expect(back.state).toMatchObject({ round: 1, phase: "foesDeclare", pool: 0, collapse: 2, intents: [] });
    expect(parsePhasesState(JSON.parse(JSON.stringify(back.state)))).toEqual(back.state);
  });
});

// ---------------------------------------------------------------------------------------------
// Roster changes, commands from the network, messages
// ---------------------------------------------------------------------------------------------

describe("roster changes keep a valid state", () => {
  it("a hero removed in its turn: the turn ends, and it is no one's target", () => {
    const s = run(heroes, takeTurn("ball"), { type: "removeCombatant", combatantId: "ball" });
    expect(s.turn).toBeNull();
    expect(s.intents.filter((i) => i.targets.includes("ball"))).toEqual([]);
    expect(parsePhasesState(JSON.parse(JSON.stringify(s)))).toEqual(s);
  });

  it("a foe removed takes its intents along", () => {
    const s = run(heroes, { type: "removeCombatant", combatantId: "boss" });
    expect(s.intents.map((i) => i.foeId)).toEqual(["captain", "nivick", "grunt"]);
  });

  it("a hero defeated in its turn stops acting", () => {
    const s = run(heroes, takeTurn("ball"), { type: "setDefeated", combatantId: "ball", defeated: true });
    expect(s.turn).toBeNull();
    expect(refusal(apply(s, takeTurn("luwe"), LUWE))).toBeNull();
  });
});

describe("commands from the network are narrowed", () => {
  it.each([
    [
      { type: "startTurn", combatantId: "luwe" },
      { type: "startTurn", combatantId: "luwe" },
    ],
    [
      { type: "skillRoll", combatantId: "luwe", dieSize: 8, dice: [1, 2], gainsAdvantage: true },
      { type: "skillRoll", combatantId: "luwe", dieSize: 8, dice: [1, 2], gainsAdvantage: true },
    ],
    [
      { type: "markOutOfReach", intentId: "i1" },
      { type: "markOutOfReach", intentId: "i1", outOfReach: true },
    ],
    [
      { type: "resolveFailure", choice: "collapse", text: 5 },
      { type: "resolveFailure", choice: "collapse" },
    ],
    [{ type: "start" }, { type: "start", surprise: false }],
    [{ type: "start", surprise: "yes" }, null],
    [{ type: "skillRoll", combatantId: "luwe", dieSize: 8, dice: "1,2" }, null],
    [{ type: "declareIntent", foeId: "boss", text: "x", kind: "charm", targets: [] }, null],
    [{ type: "freeAction", combatantId: "luwe", kind: "teleport" }, null],
    [{ type: "previousTurn" }, null],
  ])("%j → %j", (data, expected) => {
    expect(phasesMode.parseCommand(data)).toEqual(expected);
  });
});

describe("every refusal is a localised message; every phase has a name", () => {
  type Tree = { [key: string]: string | Tree };
  const lang = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../lang/en.json"), "utf8")) as Tree;
  const lookup = (key: string): unknown =>
    key.split(".").reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], lang);

  it.each([...PHASES_REFUSALS])("refusal %s has a message and is new", (code) => {
    expect((REFUSAL_CODES as readonly string[]).includes(code)).toBe(false);
    const text = lookup(`STRUCTURED_INITIATIVE.Refusal.${code}`);
    expect(typeof text).toBe("string");
    expect((text as string).length).toBeGreaterThan(10);
  });

  it.each(["setup", ...PHASES])("step %s has a name", (step) => {
    expect(typeof lookup(`STRUCTURED_INITIATIVE.Step.${step}`)).toBe("string");
  });
});

describe("stored state is narrowed: a well-formed, consistent state comes back as it is; anything else is rejected", () => {
  const failedTurn = run(
    heroes,
    takeTurn("luwe"),
    roll("luwe", 8, [1, 2], { gainsAdvantage: true }),
    roll("luwe", 6, [4, 4, 1]),
  );
  const resolving = run(
    heroes,
    takeTurn("ball"),
    roll("ball", 10, [3, 7], { defendsIntent: intentOf(heroes, "nivick") }),
    endTurn("ball"),
    nextPhase,
    nextTurn,
  );

  it.each([
    ["a fresh state", setup],
    ["phase 1 with intents", declared],
    ["a failed roll waiting for the GM", failedTurn],
    ["phase 3 with a foiled and a resolved intent", resolving],
  ])("accepts %s after JSON", (_name, state) => {
    expect(parsePhasesState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  it.each([
    ["a failed roll waiting for the GM", () => failedTurn, false],
    ["phase 3 with a foiled intent", () => resolving, true],
  ])("reads %s stored with its success (before it was derived) as today's state", (_name, state, success) => {
    const s = state();
    const older = JSON.parse(JSON.stringify(s)) as Record<string, unknown>;
    older.lastRoll = { ...(older.lastRoll as Record<string, unknown>), success };
    const parsed = parsePhasesState(older);
    expect(parsed).toEqual(s);
    expect(parsed?.lastRoll).not.toHaveProperty("success");
    expect(lastRollView(s)?.success).toBe(success);
  });

  /** A copy of `state` with a change made through JSON (as a corrupt flag would be). */
  function corrupt(state: PhasesState, change: (data: Record<string, unknown>) => void): unknown {
    const data = JSON.parse(JSON.stringify(state)) as Record<string, unknown>;
    change(data);
    return data;
  }
  const first = (d: Record<string, unknown>, key: string): Record<string, unknown> =>
    (d[key] as Record<string, unknown>[])[0] ?? {};

  it.each([
    ["not an object", null],
    ["an array", []],
    ["no intents", corrupt(declared, (d) => delete d.intents)],
    ["a pool above its cap", corrupt(declared, (d) => (d.pool = 9))],
    ["a negative Collapse count", corrupt(declared, (d) => (d.collapse = -1))],
    ["an unknown phase", corrupt(declared, (d) => (d.phase = "lunch"))],
    ["setup after the start", corrupt(declared, (d) => (d.phase = "setup"))],
    ["a started state in round 0", corrupt(declared, (d) => (d.round = 0))],
    [
      "two combatants with one id",
      corrupt(declared, (d) => (d.combatants = [first(d, "combatants"), first(d, "combatants")])),
    ],
    ["an intent of an unknown foe", corrupt(declared, (d) => (first(d, "intents").foeId = "ghost"))],
    ["an intent of a PC", corrupt(declared, (d) => (first(d, "intents").foeId = "luwe"))],
    ["an intent aimed at a foe", corrupt(declared, (d) => (first(d, "intents").targets = ["grunt"]))],
    ["an intent id not yet issued", corrupt(declared, (d) => (first(d, "intents").id = "i99"))],
    ["two own intents of one foe", corrupt(declared, (d) => (first(d, "intents").foeId = "captain"))],
    ["a resolved intent before phase 3", corrupt(declared, (d) => (first(d, "intents").resolved = true))],
    [
      "a foe that has acted",
      corrupt(
        declared,
        (d) =>
          ((d.combatants as Record<string, unknown>[])[2] = {
            id: "boss",
            name: "boss",
            isPC: false,
            defeated: false,
            acted: true,
          }),
      ),
    ],
    [
      "a turn in phase 3",
      corrupt(
        resolving,
        (d) => (d.turn = { combatantId: "ball", skillActions: 0, freeMoveUsed: false, failed: false }),
      ),
    ],
    ["a turn of a hero who has not acted", corrupt(failedTurn, (d) => (first(d, "combatants").acted = false))],
    [
      "a last roll whose dice do not match its complexity",
      corrupt(failedTurn, (d) => ((d.lastRoll as Record<string, unknown>).dice = [4, 4])),
    ],
    [
      "a last roll whose success disagrees with its doubles",
      corrupt(failedTurn, (d) => ((d.lastRoll as Record<string, unknown>).success = true)),
    ],
    ["a last roll of a d7", corrupt(failedTurn, (d) => ((d.lastRoll as Record<string, unknown>).dieSize = 7))],
  ])("rejects %s", (_name, data) => {
    expect(parsePhasesState(data)).toBeNull();
  });
});
