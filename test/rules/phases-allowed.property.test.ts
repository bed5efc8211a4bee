/**
 * Property test of what `phases` says a user may do (`phasesMode.allowed`). The rules try only the
 * probes that can be accepted now (the GM's commands for the GM, intents in phase 1, a Collapse
 * attack while its window is open, turn starts while phase 2 has no turn running, the acting hero's
 * rolls and free actions for that hero alone…) and try most commands by their refusal check alone.
 * Whatever the state and whoever asks, that must give exactly the actions (and in the same order)
 * that trying every command on every combatant and every intent through `phasesMode.apply` gives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allowedByTrial, probe, type Probe } from "../../src/core/common";
import type { Requester } from "../../src/core/engine";
import { heroesToAct, nextComplexity } from "../../src/modes/phases/rules/derived";
import { phasesMode } from "../../src/modes/phases/rules/mode";
import { type PhasesAllowedAction, type PhasesCommand, type PhasesState } from "../../src/modes/phases/rules/types";
import { GM, STRANGER } from "./property-harness";

type PhasesProbe = Probe<PhasesAllowedAction, PhasesCommand>;

/** Every command the tracker's controls stand for, on every combatant and every intent. */
function everyProbe(state: PhasesState): PhasesProbe[] {
  const on = (command: PhasesCommand, about?: Omit<PhasesAllowedAction, "type">): PhasesProbe => probe(command, about);
  const list: PhasesProbe[] = [
    on({ type: "start", surprise: false }),
    on({ type: "nextPhase" }),
    on({ type: "nextTurn" }),
    on({ type: "nextRound" }),
    on({ type: "setPoolCap", cap: state.poolCap }),
    on({ type: "setCollapse", points: state.collapse }),
    on({ type: "setHandOff", on: !state.handOff }),
    on({ type: "resolveFailure", choice: "collapse" }),
    on({ type: "spendAdvantage", note: "" }),
  ];
  const firstTarget = heroesToAct(state)[0] ?? state.combatants.find((c) => c.isPC && !c.defeated)?.id;
  const count = nextComplexity(state) ?? 2;
  const dice = Array.from({ length: count }, (_, i) => (i % 12) + 1);
  for (const c of state.combatants) {
    const combatantId = c.id;
    const about = { combatantId };
    list.push(
      on({ type: "setDefeated", combatantId, defeated: !c.defeated }, about),
      on({ type: "removeCombatant", combatantId }, about),
    );
    if (!c.isPC) {
      list.push(on({ type: "declareIntent", foeId: combatantId, text: "", kind: "other", targets: [] }, about));
      if (firstTarget !== undefined)
        list.push(on({ type: "spendCollapse", foeId: combatantId, text: "", targets: [firstTarget] }, about));
      continue;
    }
    const roll = { type: "skillRoll", combatantId, dieSize: 12, dice } as const;
    list.push(
      on({ type: "startTurn", combatantId }, about),
      on({ type: "pickNext", combatantId }, about),
      on({ type: "endTurn", combatantId }, about),
      on(roll, about),
      on({ ...roll, gainsAdvantage: true }, { combatantId, gainsAdvantage: true }),
      on({ type: "freeAction", combatantId, kind: "move" }, { combatantId, kind: "move" }),
      on({ type: "freeAction", combatantId, kind: "item" }, { combatantId, kind: "item" }),
      on({ type: "spendAdvantage", note: "", combatantId }, about),
    );
    // Every intent, not only those that can be defended against now.
    for (const intent of state.intents)
      list.push(on({ ...roll, defendsIntent: intent.id }, { combatantId, intentId: intent.id }));
  }
  for (const intent of state.intents) {
    list.push(
      on(
        { type: "markOutOfReach", intentId: intent.id, outOfReach: !intent.outOfReach },
        { intentId: intent.id, combatantId: intent.foeId },
      ),
    );
  }
  return list;
}

/** What `who` may do, found by applying every command. */
function byEveryTrial(state: PhasesState, who: Requester): PhasesAllowedAction[] {
  const given: PhasesAllowedAction[] = who.isGM ? [{ type: "addCombatant" }] : [];
  return allowedByTrial(state, who, given, everyProbe(state), (s, command, w) => phasesMode.apply(s, command, w));
}

/** A step of a random encounter: which kind of command and which of them, by whom, with which numbers. */
interface Step {
  readonly kind: number;
  readonly pick: number;
  readonly by: number;
  readonly faces: readonly number[];
  readonly points: number;
}

const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.nat(9),
  pick: fc.nat(400),
  by: fc.nat(4),
  faces: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 6, maxLength: 6 }),
  points: fc.nat(3),
});

const ROSTER = new Set(["removeCombatant", "setDefeated"]);

/**
 * The commands a step picks from. Mostly every probe `who` may take now but the roster's (so that
 * most steps move the encounter on), or the next turn or phase; else attacks on heroes, rolls with
 * drawn dice (doubles fail), pools and Collapse points set, the GM's answer to a failure; now and
 * then a roster change.
 */
function candidates(state: PhasesState, s: Step, who: Requester, joiner: string): PhasesCommand[] {
  const c = state.combatants[s.pick % Math.max(state.combatants.length, 1)];
  if (s.kind === 0) {
    const join: PhasesCommand = {
      type: "addCombatant",
      combatant: { id: joiner, name: joiner, isPC: s.points % 2 === 0 },
    };
    if (c === undefined) return [join];
    return [
      join,
      { type: "removeCombatant", combatantId: c.id },
      ...[true, false].map((defeated): PhasesCommand => ({ type: "setDefeated", combatantId: c.id, defeated })),
    ];
  }
  if (s.kind === 3 || s.kind === 4) return [{ type: "nextTurn" }, { type: "nextPhase" }, { type: "nextTurn" }];
  if (s.kind >= 5) {
    const moving = everyProbe(state)
      .map((p) => p.command)
      .filter((command) => !ROSTER.has(command.type) && phasesMode.apply(state, command, who).ok);
    if (moving.length > 0) return moving;
  }
  const heroes = state.combatants.filter((x) => x.isPC && !x.defeated).map((x) => x.id);
  const target = heroes[s.pick % Math.max(heroes.length, 1)];
  const foes = state.combatants.filter((x) => !x.isPC).map((x) => x.id);
  const foe = foes[s.pick % Math.max(foes.length, 1)] ?? "ghost";
  const acting = state.turn?.combatantId ?? "ghost";
  const count = nextComplexity(state) ?? 2;
  const dice = Array.from({ length: count }, (_, i) => s.faces[i % s.faces.length] ?? 1);
  const defend = state.intents[s.pick % Math.max(state.intents.length, 1)]?.id;
  const roll: PhasesCommand = { type: "skillRoll", combatantId: acting, dieSize: 4, dice };
  const attack = target === undefined ? [] : [target];
  return [
    { type: "declareIntent", foeId: foe, text: "Strike", kind: "attack", targets: attack },
    { type: "spendCollapse", foeId: foe, text: "Extra", targets: attack },
    roll,
    defend === undefined ? roll : { ...roll, defendsIntent: defend },
    { ...roll, gainsAdvantage: true },
    { type: "setCollapse", points: s.points },
    { type: "setPoolCap", cap: s.points },
    { type: "resolveFailure", choice: "effect", text: "Ouch" },
    { type: "setHandOff", on: s.points % 2 === 0 },
  ];
}

describe("phases: what a user may do", () => {
  it("is what trying every command on every combatant and intent gives, for the GM, owners and a stranger", () => {
    const roster = fc.array(fc.boolean(), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(roster, fc.boolean(), fc.array(step, { minLength: 1, maxLength: 60 }), (pcs, begin, steps) => {
        let state = phasesMode.create(pcs.map((isPC, i) => ({ id: `c${i}`, name: `C${i}`, isPC })));
        if (begin) {
          const started = phasesMode.apply(state, { type: "start", surprise: false }, GM);
          if (started.ok) state = started.state;
        }
        for (const [k, s] of steps.entries()) {
          const ids = state.combatants.map((c) => c.id);
          const p1: Requester = { userId: "p1", isGM: false, owns: ids.filter((_, i) => i % 2 === 0) };
          const p2: Requester = { userId: "p2", isGM: false, owns: ids.filter((_, i) => i % 2 === 1) };
          for (const who of [GM, p1, p2, STRANGER])
            expect(phasesMode.allowed(state, who)).toEqual(byEveryTrial(state, who));
          const by = s.by === 0 ? p1 : s.by === 1 ? p2 : GM;
          const list = candidates(state, s, by, `j${k}`);
          const command = list[s.pick % list.length];
          if (command === undefined) continue;
          const outcome = phasesMode.apply(state, command, by);
          if (outcome.ok) state = outcome.state;
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});
