/**
 * Property test of the `phases` mode: random command sequences from the GM and two players (intents,
 * Collapse spends, phase and turn changes, turn starts and picks, skill rolls with honest and forged
 * dice, free actions, defenses, Advantage gains and spends, failure answers, joins, defeats and
 * removals), checking the mode's invariants after every step.
 *
 * Invariants checked:
 * - A refusal leaves the state deep-equal (every input is deep-frozen, and compared after): `apply`
 *   never mutates.
 * - The view's order is a permutation of the combatants in the encounter; `current` is one of them.
 * - `allowed()` never offers what `apply` refuses: every offered action, made into a command (with
 *   fresh dice of the right count), is accepted for the same user.
 * - parse(JSON(state)) deep-equals the state; at most one hero turn runs; `0 ≤ pool ≤ poolCap`.
 * - Every accepted step, dispatched through the engine then undone with previous turn, gives back
 *   the encounter it started from.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyToEncounter, type Encounter, type Requester } from "../../src/core/engine";
import { defendableIntents, heroesToAct, nextComplexity } from "../../src/modes/phases/rules/derived";
import { phasesAllowed } from "../../src/modes/phases/rules/view";
import { phasesMode } from "../../src/modes/phases/rules/mode";
import { type PhasesCommand, type PhasesState } from "../../src/modes/phases/rules/types";
import { parsePhasesState } from "../../src/modes/phases/rules/state";
import { phasesCommandFor } from "./phases-commands";
import { GM, deepFreeze } from "./harness";

type By = "gm" | "owner" | "p1" | "p2";

type Action =
  | { k: "start"; surprise: boolean; by: By }
  | { k: "begin"; surprise: boolean }
  | { k: "intent"; t: number; attack: boolean; targets: readonly number[] }
  | { k: "collapse"; t: number; targets: readonly number[]; by: By }
  | { k: "nextPhase"; by: By }
  | { k: "nextTurn"; by: By }
  | { k: "nextRound" }
  | { k: "handOff"; on: boolean }
  | { k: "startTurn"; t: number; by: By }
  | { k: "pick"; t: number; by: By }
  | {
      k: "roll";
      size: number;
      faces: readonly number[];
      forge: number;
      advantage: boolean;
      defend: number;
      move: boolean;
      by: By;
    }
  | { k: "free"; move: boolean; by: By }
  | { k: "end"; by: By }
  | { k: "answer"; collapse: boolean; by: By }
  | { k: "spend"; by: By }
  | { k: "cap"; cap: number }
  | { k: "setCollapse"; points: number }
  | { k: "reach"; i: number; v: boolean; by: By }
  | { k: "add"; isPC: boolean }
  | { k: "remove"; t: number }
  | { k: "defeat"; t: number; v: boolean };

const by = fc.constantFrom<By>("gm", "owner", "owner", "p1", "p2");
const t = fc.nat(20);
const targets = fc.array(fc.nat(20), { maxLength: 3 });
const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.record({ k: fc.constant("start" as const), surprise: fc.boolean(), by }), weight: 1 },
  {
    arbitrary: fc.record({ k: fc.constant("begin" as const), surprise: fc.constantFrom(false, false, false, true) }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ k: fc.constant("intent" as const), t, attack: fc.boolean(), targets }),
    weight: 6,
  },
  { arbitrary: fc.record({ k: fc.constant("collapse" as const), t, targets, by }), weight: 2 },
  { arbitrary: fc.record({ k: fc.constant("nextPhase" as const), by }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant("nextTurn" as const), by }), weight: 6 },
  { arbitrary: fc.record({ k: fc.constant("nextRound" as const) }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant("handOff" as const), on: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant("startTurn" as const), t, by }), weight: 8 },
  { arbitrary: fc.record({ k: fc.constant("pick" as const), t, by }), weight: 3 },
  {
    arbitrary: fc.record({
      k: fc.constant("roll" as const),
      size: fc.constantFrom(4, 6, 8, 10, 12, 12, 7),
      faces: fc.array(fc.integer({ min: 0, max: 13 }), { minLength: 16, maxLength: 16 }),
      forge: fc.nat(9),
      advantage: fc.boolean(),
      defend: fc.nat(8),
      move: fc.boolean(),
      by,
    }),
    weight: 14,
  },
  { arbitrary: fc.record({ k: fc.constant("free" as const), move: fc.boolean(), by }), weight: 3 },
  { arbitrary: fc.record({ k: fc.constant("end" as const), by }), weight: 4 },
  { arbitrary: fc.record({ k: fc.constant("answer" as const), collapse: fc.boolean(), by }), weight: 8 },
  { arbitrary: fc.record({ k: fc.constant("spend" as const), by }), weight: 2 },
  { arbitrary: fc.record({ k: fc.constant("cap" as const), cap: fc.nat(4) }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant("setCollapse" as const), points: fc.nat(3) }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant("reach" as const), i: fc.nat(8), v: fc.boolean(), by }), weight: 2 },
  { arbitrary: fc.record({ k: fc.constant("add" as const), isPC: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant("remove" as const), t }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant("defeat" as const), t, v: fc.boolean() }), weight: 1 },
);

/** A combatant id from a number: mostly a present one, sometimes a stranger. */
function pick(state: PhasesState, n: number, filter: (c: PhasesState["combatants"][number]) => boolean): string {
  if (n % 11 === 10) return "ghost";
  const list = state.combatants.filter(filter);
  return list[n % Math.max(list.length, 1)]?.id ?? "ghost";
}

const parity = (id: string): number => Number(/\d+/.exec(id)?.[0] ?? "0") % 2;

/** The two players split the PCs: p1 owns the even-numbered ones, p2 the odd (joiners by their number). */
function players(state: PhasesState): Record<"gm" | "p1" | "p2", Requester> {
  const pcs = state.combatants.filter((c) => c.isPC).map((c) => c.id);
  const owned = (p: number): string[] => pcs.filter((id) => parity(id) === p);
  return {
    gm: GM,
    p1: { userId: "p1", isGM: false, owns: owned(0) },
    p2: { userId: "p2", isGM: false, owns: owned(1) },
  };
}

/** The sender: the GM, a given player, or the player who owns `subject` (p1 or p2). */
function sender(state: PhasesState, kind: By, subject: string | null): Requester {
  const who = players(state);
  if (kind !== "owner") return who[kind];
  return subject !== null && parity(subject) === 1 ? who.p2 : who.p1;
}

/** Dice for the running turn: mostly the right count (then sometimes forged). */
function diceFor(state: PhasesState, a: Extract<Action, { k: "roll" }>): number[] {
  const count = nextComplexity(state) ?? 2;
  const size = a.size;
  const fair = Array.from({ length: count }, (_, i) => ((a.faces[i % a.faces.length] ?? 1) % size) + 1);
  if (a.forge === 0) return fair.slice(1);
  if (a.forge === 1) return [...fair, 1];
  if (a.forge === 2) return fair.map((f, i) => (i === 0 ? size + 1 : f));
  return fair;
}

/** Turn an abstract action into one command and its sender, against the current state. */
function resolve(
  state: PhasesState,
  a: Exclude<Action, { k: "begin" }>,
  fresh: () => string,
): [PhasesCommand, Requester] {
  const acting = state.turn?.combatantId ?? pick(state, 0, (c) => c.isPC);
  switch (a.k) {
    case "start":
      return [{ type: "start", surprise: a.surprise }, sender(state, a.by, null)];
    case "intent":
      return [
        {
          type: "declareIntent",
          foeId: pick(state, a.t, (c) => !c.isPC),
          text: "intent",
          kind: a.attack ? "attack" : "other",
          targets: [...new Set(a.targets.map((n) => pick(state, n, (c) => c.isPC && !c.defeated)))],
        },
        GM,
      ];
    case "collapse":
      return [
        {
          type: "spendCollapse",
          foeId: pick(state, a.t, (c) => !c.isPC),
          text: "extra",
          targets: [...new Set(a.targets.map((n) => pick(state, n, (c) => c.isPC)))],
        },
        sender(state, a.by, null),
      ];
    case "nextPhase":
      return [{ type: "nextPhase" }, sender(state, a.by, null)];
    case "nextTurn":
      return [{ type: "nextTurn" }, sender(state, a.by, null)];
    case "nextRound":
      return [{ type: "nextRound" }, GM];
    case "handOff":
      return [{ type: "setHandOff", on: a.on }, GM];
    case "startTurn":
    case "pick": {
      // Mostly a hero still to act, so that turns race for the same moment.
      const waiting = heroesToAct(state);
      const id =
        a.t % 4 === 3 ? pick(state, a.t, (c) => c.isPC) : (waiting[a.t % Math.max(waiting.length, 1)] ?? "ghost");
      const subject = a.k === "pick" ? state.lastHero : id;
      return [{ type: a.k === "pick" ? "pickNext" : "startTurn", combatantId: id }, sender(state, a.by, subject)];
    }
    case "roll": {
      const intents = defendableIntents(state);
      const defend = a.defend < intents.length ? intents[a.defend] : undefined;
      const base: PhasesCommand = {
        type: "skillRoll",
        combatantId: acting,
        dieSize: a.size,
        dice: diceFor(state, a),
        gainsAdvantage: a.advantage,
        move: a.move,
      };
      return [defend === undefined ? base : { ...base, defendsIntent: defend }, sender(state, a.by, acting)];
    }
    case "free":
      return [{ type: "freeAction", combatantId: acting, kind: a.move ? "move" : "item" }, sender(state, a.by, acting)];
    case "end":
      return [{ type: "endTurn", combatantId: acting }, sender(state, a.by, acting)];
    case "answer":
      return [
        a.collapse
          ? { type: "resolveFailure", choice: "collapse" }
          : { type: "resolveFailure", choice: "effect", text: "ouch" },
        sender(state, a.by, null),
      ];
    case "spend":
      return [{ type: "spendAdvantage", note: "spent" }, sender(state, a.by, null)];
    case "cap":
      return [{ type: "setPoolCap", cap: a.cap }, GM];
    case "setCollapse":
      return [{ type: "setCollapse", points: a.points }, GM];
    case "reach": {
      const intent = state.intents[a.i % Math.max(state.intents.length, 1)];
      return [{ type: "markOutOfReach", intentId: intent?.id ?? "i999", outOfReach: a.v }, sender(state, a.by, null)];
    }
    case "add":
      return [{ type: "addCombatant", combatant: { id: fresh(), name: "joiner", isPC: a.isPC } }, GM];
    case "remove":
      return [{ type: "removeCombatant", combatantId: pick(state, a.t, () => true) }, GM];
    case "defeat":
      return [{ type: "setDefeated", combatantId: pick(state, a.t, () => true), defeated: a.v }, GM];
  }
}

function checkState(state: PhasesState, faces: readonly number[]): void {
  expect(parsePhasesState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  const v = phasesMode.view(state);
  const ids = state.combatants.map((c) => c.id);
  expect([...v.order].sort()).toEqual([...ids].sort());
  if (v.current !== null) expect(ids).toContain(v.current);
  expect(state.pool).toBeGreaterThanOrEqual(0);
  expect(state.pool).toBeLessThanOrEqual(state.poolCap);
  for (const who of Object.values(players(state))) {
    for (const a of phasesAllowed(state, who)) {
      const command = phasesCommandFor(state, a, faces);
      if (command === null) continue;
      const outcome = phasesMode.apply(state, command, who);
      expect(outcome.ok, `${who.userId} offered ${JSON.stringify(a)} but ${JSON.stringify(outcome)}`).toBe(true);
    }
  }
}

describe("phases mode: invariants under random command sequences from the GM and two players", () => {
  it("holds after every step", () => {
    const roster = fc.array(fc.boolean(), { minLength: 1, maxLength: 7 });
    const faces = fc.array(fc.nat(20), { minLength: 8, maxLength: 8 });
    fc.assert(
      fc.property(
        roster,
        faces,
        fc.array(action, { minLength: 20, maxLength: 120, size: "medium" }),
        (pcs, dice, actions) => {
          let joined = pcs.length;
          const fresh = (): string => `c${joined++}`;
          let state = deepFreeze(phasesMode.create(pcs.map((isPC, i) => ({ id: `c${i}`, name: `C${i}`, isPC }))));
          const step = (command: PhasesCommand, who: Requester): void => {
            const before = structuredClone(state);
            const outcome = phasesMode.apply(state, command, who);
            if (!outcome.ok) {
              expect(state).toEqual(before);
              return;
            }
            if (outcome.step !== undefined && !phasesMode.isRosterCommand(command)) {
              const encounter: Encounter<PhasesState> = { mode: "phases", state, history: [] };
              const forward = applyToEncounter(phasesMode, encounter, command, who);
              if (!forward.ok) throw new Error(`applyToEncounter refused ${command.type}`);
              const back = applyToEncounter(phasesMode, forward.state, { type: "previousTurn" }, GM);
              if (!back.ok) throw new Error("previousTurn refused");
              expect(back.state).toEqual(encounter);
            }
            state = deepFreeze(outcome.state);
            checkState(state, dice);
          };
          for (const a of actions) {
            if (a.k === "begin") {
              // The GM starts (if need be), declares an attack for every live foe, and moves on.
              if (!state.started) step({ type: "start", surprise: a.surprise }, GM);
              const live = state.combatants.filter((c) => c.isPC && !c.defeated).map((c) => c.id);
              state.combatants.forEach((c, i) => {
                const target = live[i % Math.max(live.length, 1)];
                if (c.isPC || c.defeated || target === undefined || state.phase !== "foesDeclare") return;
                step({ type: "declareIntent", foeId: c.id, text: "attack", kind: "attack", targets: [target] }, GM);
              });
              if (state.phase === "foesDeclare") step({ type: "nextPhase" }, GM);
            } else {
              step(...resolve(state, a, fresh));
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  }, 60_000);
});

describe("races: two players starting a turn at the same moment", () => {
  it("exactly one wins, in whatever order they arrive; the other is told who is acting", () => {
    const roster = ["c0", "c1", "c2", "c3"].map((id) => ({ id, name: id, isPC: true }));
    let s = phasesMode.create([...roster, { id: "n", name: "N", isPC: false }]);
    for (const command of [{ type: "start", surprise: false }, { type: "nextPhase" }] as const) {
      const outcome = phasesMode.apply(s, command, GM);
      if (!outcome.ok) throw new Error(outcome.refusal.code);
      s = outcome.state;
    }
    const heroes = deepFreeze(s);
    fc.assert(
      fc.property(fc.shuffledSubarray(["c0", "c1", "c2", "c3"], { minLength: 2 }), (order) => {
        let state = heroes;
        const results = order.map((id) => {
          const who: Requester = { userId: `owner-${id}`, isGM: false, owns: [id] };
          const outcome = phasesMode.apply(state, { type: "startTurn", combatantId: id }, who);
          if (outcome.ok) state = outcome.state;
          return outcome;
        });
        expect(results.filter((o) => o.ok)).toHaveLength(1);
        expect(state.turn?.combatantId).toBe(order[0]);
        for (const o of results.slice(1)) {
          expect(o).toEqual({ ok: false, refusal: { code: "heroActing", combatantId: order[0] } });
        }
      }),
      { numRuns: 100 },
    );
  });
});
