/**
 * Timed effects across order changes (issue 28, item 1), one change at a time, in each mode, on the
 * flavour the run picks (`SIM_GENERATION`). A "1 round" and a "1 turn" effect (core's default expiry,
 * the start of the bearer's turn) and a "1 round" effect that expires at the end of the bearer's turn
 * go on the combatant of round 1's second acting turn, during that turn. Then one order change is
 * made, and the GM's commands run the encounter on: on v14 the first two end at the start of the
 * bearer's next acting turn (in the next round), the third at its end, each exactly there and not a
 * step before; on v13 nothing ends (core has no registry there).
 *
 * At that moment the effect's start record must make sense to core and to systems (see
 * docs/design.md, "Timed effects"): core counts positions (round and turn index) from `start.round`
 * and `start.turn`, so exactly one round must lie between them and where the combat stands; a system
 * comparing `start.initiative` with the acting combatant's (pf2e, draw-steel's countdown mode) must
 * see the bearer's own, although the initiative mirror renumbers it; `start.combatant` stays the
 * bearer.
 *
 * v13's displayed remaining duration is a count of the same positions from the moment the effect was
 * applied (no start record moves there): the column `v13Shown` is what it shows, in turns, at the
 * start of the bearer's next turn (0: right; otherwise off by the places the bearer moved up, as
 * docs/design.md says).
 */
import { describe, expect, it, vi } from "vitest";
import { SIM_GENERATION } from "../sim/index.js";
import { drive, trailOf, type DriveContext } from "./effect-drive.js";
import { claimOutOfOrder, delayAhead, handOff, ipChangeAhead, join, slowDownAhead } from "./effect-changes.js";

vi.hoisted(() => Object.assign(globalThis, { Hooks: {} }));

const v14 = SIM_GENERATION === 14;

const EFFECTS = [
  { name: "one round", duration: { value: 1, units: "rounds" } },
  { name: "one turn", duration: { value: 1, units: "turns" } },
  { name: "one round to turn end", duration: { value: 1, units: "rounds", expiry: "turnEnd" } },
];

type Change = "delay" | "slow-down" | "hand-off" | "slot claimed out of order" | "joining";

interface Row {
  readonly mode: string;
  readonly change: Change;
  /** Why the mode has no such change. */
  readonly lacks?: string;
  /** Make the change once it can be made (a label), or not yet (false). */
  readonly make?: (ctx: DriveContext) => Promise<string | false>;
  /** The bearer's place in `combat.turns` at its next turn, against where it was: up, down or the same. */
  readonly moves?: "up" | "down" | "same";
  /** v13: the turns the displayed duration of the "one round" effect shows left at the bearer's next turn. */
  readonly v13Shown?: number;
}

const NO_DELAY = "no delay: nobody leaves the order and comes back";
const NO_SLOW = "no slow-down";
const NO_HANDOFF = "no hand-off: the order is the rules' own";
const NO_SLOTS = "no slots";

const TABLE: readonly Row[] = [
  { mode: "individual", change: "delay", make: delayAhead, moves: "up", v13Shown: 1 },
  { mode: "individual", change: "slow-down", lacks: `${NO_SLOW} (a delay or a readied action moves a combatant)` },
  { mode: "individual", change: "hand-off", lacks: NO_HANDOFF },
  { mode: "individual", change: "slot claimed out of order", lacks: NO_SLOTS },
  {
    mode: "individual",
    change: "joining",
    make: join((_, id) => ({ type: "recordInitiative", combatantId: id, total: 30, modifier: 0 })),
    moves: "down",
    v13Shown: -1,
  },
  { mode: "sides", change: "delay", lacks: `${NO_DELAY} (a slow-down moves a character within its pass)` },
  { mode: "sides", change: "slow-down", make: slowDownAhead, moves: "up", v13Shown: 1 },
  { mode: "sides", change: "hand-off", lacks: NO_HANDOFF },
  { mode: "sides", change: "slot claimed out of order", lacks: NO_SLOTS },
  { mode: "sides", change: "joining", make: join(null, true), moves: "same", v13Shown: 0 },
  { mode: "slots", change: "delay", lacks: NO_DELAY },
  { mode: "slots", change: "slow-down", lacks: NO_SLOW },
  { mode: "slots", change: "hand-off", lacks: `${NO_HANDOFF} (players claim slots instead)` },
  { mode: "slots", change: "slot claimed out of order", make: claimOutOfOrder, moves: "up", v13Shown: 1 },
  {
    mode: "slots",
    change: "joining",
    make: join((_, id) => ({ type: "recordCheck", combatantId: id, primary: 9, secondary: 0 })),
    moves: "same",
    v13Shown: 0,
  },
  { mode: "declare-resolve", change: "delay", lacks: NO_DELAY },
  {
    mode: "declare-resolve",
    change: "slow-down",
    make: ipChangeAhead,
    moves: "up",
    v13Shown: 1,
  },
  { mode: "declare-resolve", change: "hand-off", lacks: NO_HANDOFF },
  { mode: "declare-resolve", change: "slot claimed out of order", lacks: NO_SLOTS },
  { mode: "declare-resolve", change: "joining", make: join(null), moves: "down", v13Shown: -1 },
  { mode: "phases", change: "delay", lacks: NO_DELAY },
  { mode: "phases", change: "slow-down", lacks: NO_SLOW },
  { mode: "phases", change: "hand-off", make: handOff, moves: "same", v13Shown: 0 },
  { mode: "phases", change: "slot claimed out of order", lacks: NO_SLOTS },
  { mode: "phases", change: "joining", make: join(null), moves: "down", v13Shown: -1 },
];

describe("the table covers every mode and change", () => {
  it("one row per mode and change", () => {
    const changes: Change[] = ["delay", "slow-down", "hand-off", "slot claimed out of order", "joining"];
    const modes = ["individual", "sides", "slots", "declare-resolve", "phases"];
    expect(TABLE.map((r) => `${r.mode}/${r.change}`).sort()).toEqual(
      modes.flatMap((m) => changes.map((c) => `${m}/${c}`)).sort(),
    );
    for (const row of TABLE) expect(row.make !== undefined, `${row.mode}/${row.change}`).toBe(row.lacks === undefined);
  });
});

describe.each(TABLE.filter((r) => r.make !== undefined))("timed effects: $mode, $change", (row) => {
  it(`a one-round and a one-turn effect end at the bearer's next acting turn (v${SIM_GENERATION})`, async () => {
    const run = await drive(row.mode, { effects: EFFECTS, change: row.make });
    const { steps, bearer, startAt, endAt, changedAt } = run;
    const trail = trailOf(run);
    expect(changedAt, `${row.mode}: the change was made\n${trail}`).toBeGreaterThan(bearer.at);
    expect(changedAt, `${row.mode}: the change came before the bearer's next turn\n${trail}`).toBeLessThanOrEqual(
      startAt,
    );

    // Each effect, step by step after it was applied: live before its moment, expired from it on.
    const expectAt = (name: string, at: number): void => {
      const seen = steps.slice(bearer.at + 1).map((s) => s.effects[name]?.expired === true);
      const wanted = steps.slice(bearer.at + 1).map((_, k) => v14 && bearer.at + 1 + k >= at);
      expect(seen, `"${name}" expired after each step (ends at step ${at})\n${trail}`).toEqual(wanted);
    };
    expectAt("one round", startAt);
    expectAt("one turn", startAt);
    expectAt("one round to turn end", endAt);

    // The bearer's place moved as the table says.
    const [applied, next] = [steps[bearer.at] ?? steps[0], steps[startAt]];
    const moved = (applied?.index ?? 0) - (next?.index ?? 0);
    expect(moved > 0 ? "up" : moved < 0 ? "down" : "same", `the bearer's place\n${trail}`).toBe(row.moves);

    // v13's count of positions from the application to the bearer's next turn, for a one-round effect.
    const position = (s: typeof next): number => (s?.round ?? 0) * 100 + (s?.turn ?? 0);
    expect(100 - (position(next) - position(applied)), `v13's shown remaining turns\n${trail}`).toBe(row.v13Shown);

    if (v14) {
      // At the bearer's turn start, its effects' start records as core and systems read them.
      const at = steps[startAt];
      for (const name of ["one round", "one turn"]) {
        const start = at?.effects[name]?.start ?? {};
        expect(start.combatant, `${name}: start.combatant`).toBe(bearer.combatantId);
        expect(start.initiative, `${name}: start.initiative is the bearer's own`).toBe(at?.initiative);
        expect(position(at) - ((start.round as number) * 100 + ((start.turn as number | null) ?? 0)), name).toBe(100);
      }
      const end = steps[endAt];
      const start = end?.effects["one round to turn end"]?.start ?? {};
      expect(start.combatant).toBe(bearer.combatantId);
      const ended = steps[endAt - 1];
      expect(start.initiative, "turn end: start.initiative is the bearer's own").toBe(ended?.initiative);
    }
  }, 60_000);
});
