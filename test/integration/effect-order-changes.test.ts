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
import { turnKeyCombatant } from "../../src/core/engine";
import { SIM_GENERATION } from "../sim/index.js";
import type { SimCombat } from "../sim/index.js";
import { ACTOR, tokenOf } from "./world.js";
import { D6, d6Token } from "./sides-world.js";
import { drive, roundOf, trailOf, type DriveContext } from "./effect-drive.js";

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

/** Whether the encounter is in a later round than the bearer's first turn. */
const later = (ctx: DriveContext): boolean => ctx.combat.round > ctx.bearer.round;

/** The live combatants ahead of the bearer in `combat.turns`, nearest first. */
function ahead(combat: SimCombat, bearer: string): string[] {
  const order = combat.turns.map((c) => c.id ?? "");
  return order.slice(0, Math.max(order.indexOf(bearer), 0)).reverse();
}

/** The command sent, or false where the rules refuse it. */
async function tried(ctx: DriveContext, command: Record<string, unknown>): Promise<boolean> {
  return (await ctx.api.command(ctx.combat, command)).ok;
}

/** individual: the one acting now, ahead of the bearer, delays until after the bearer's turn. */
async function delayAhead(ctx: DriveContext): Promise<string | false> {
  const key = ctx.key();
  if (!later(ctx) || key === null || roundOf(key) <= ctx.bearer.round) return false;
  const acting = turnKeyCombatant(key);
  if (acting === ctx.bearer.combatantId || !ahead(ctx.combat, ctx.bearer.combatantId).includes(acting)) return false;
  if (!(await tried(ctx, { type: "delay", combatantId: acting, after: ctx.bearer.combatantId }))) return false;
  return `delay (${acting} after the bearer)`;
}

/** sides: someone ahead of the bearer in this pass slows down to act right after it. */
async function slowDownAhead(ctx: DriveContext): Promise<string | false> {
  if (!later(ctx)) return false;
  for (const id of ahead(ctx.combat, ctx.bearer.combatantId)) {
    if (await tried(ctx, { type: "slowDown", combatantId: id, after: ctx.bearer.combatantId }))
      return `slowDown (${id} after the bearer)`;
  }
  return false;
}

/** declare-resolve: the one just ahead of the bearer gets an IP change that puts it behind (a slow-down). */
async function ipChangeAhead(ctx: DriveContext): Promise<string | false> {
  if (!later(ctx)) return false;
  const [id] = ahead(ctx.combat, ctx.bearer.combatantId);
  if (id === undefined) return false;
  const command = { type: "addIPChange", combatantId: id, cause: "slowed", amount: -20, duration: { kind: "round" } };
  if (!(await tried(ctx, command))) return false;
  return `addIPChange (${id} −20)`;
}

/** slots: another PC claims the bearer's slot of round 1, a later PC slot; the bearer fills the open one. */
async function claimOutOfOrder(ctx: DriveContext): Promise<string | false> {
  if (!later(ctx)) return false;
  const state = ctx.state() as {
    slotIndex: number | null;
    slots: { kind: string; filledBy: string | null; claimedBy: string | null }[];
    combatants: { id: string; isPC: boolean }[];
  };
  const current = state.slotIndex;
  if (current === null || state.slots[current]?.kind !== "pc" || state.slots[current].filledBy !== null) return false;
  const laterPC = state.slots.findIndex((s, i) => i > current && s.kind === "pc" && s.claimedBy === null);
  const other = state.combatants.find((c) => c.isPC && c.id !== ctx.bearer.combatantId);
  if (laterPC < 0 || other === undefined) return false;
  if (!(await tried(ctx, { type: "claimSlot", slot: laterPC, combatantId: other.id }))) return false;
  if (!(await tried(ctx, { type: "fillSlot", slot: current, combatantId: ctx.bearer.combatantId }))) return false;
  return `claimSlot (slot ${laterPC} by ${other.id}), fillSlot (slot ${current} by the bearer)`;
}

/** phases: the GM sets hand-off order for the round and hands the first hero turn to the bearer. */
async function handOff(ctx: DriveContext): Promise<string | false> {
  if (!later(ctx)) return false;
  const state = ctx.state() as { phase: string; handOff: boolean };
  if (state.phase !== "heroes") return false;
  if (!(await tried(ctx, { type: "setHandOff", on: true }))) return false;
  if (!(await tried(ctx, { type: "pickNext", combatantId: ctx.bearer.combatantId }))) return false;
  return "setHandOff, pickNext (the bearer)";
}

/** A new combatant joins the encounter (for a mode that rolls, with a roll that puts it first). */
function join(roll: ((ctx: DriveContext, id: string) => Record<string, unknown>) | null, sides = false) {
  return async (ctx: DriveContext): Promise<string | false> => {
    const [created] = (await ctx.combat.createEmbeddedDocuments("Combatant", [
      sides
        ? { actorId: D6.smuggler, tokenId: d6Token("smuggler"), sceneId: ctx.combat.scene?.id ?? null }
        : { actorId: ACTOR.trooper3, tokenId: tokenOf("trooper3"), sceneId: ctx.combat.scene?.id ?? null },
    ])) as { id: string }[];
    await ctx.sim.settle();
    const id = created?.id ?? "";
    if (roll !== null)
      expect(await ctx.api.command(ctx.combat, roll(ctx, id)), "the joiner's roll").toEqual({ ok: true });
    return `joined (${id})`;
  };
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
