/**
 * Interop (issue 16, item 2): what core and other modules (Carousel Combat Tracker, turn markers,
 * "next up" modules) read of a structured encounter. In every mode, after every step of a round,
 * core's sort of the live combatants (initiative descending, then name, then id) is the module's
 * order on every client and `combat.combatant` is who the rules say acts; each GM step is still one
 * write. A turn written outside the module becomes the mode's jump-to command or is put back with a
 * notice; an initiative written outside the mirror is put back.
 */
import { describe, expect, it, vi } from "vitest";
import type { AllowedAction, Requester } from "../../src/core/engine";
import { MODES } from "../../src/modes/registry";
import type { AnyModeModule } from "../../src/modes/contract";
import { kit as individualKit } from "../conformance/kits/individual";
import { kit as sidesKit } from "../conformance/kits/sides";
import { kit as slotsKit } from "../conformance/kits/slots";
import { kit as declareResolveKit } from "../conformance/kits/declare-resolve";
import { kit as phasesKit } from "../conformance/kits/phases";
import type { AnyKit } from "../conformance/kit";
import { stateOn } from "../conformance/checks";
import type { Sim } from "../sim/index.js";
import { ALICE, apiOn, combatOn, coreOrderOn, expectNoErrors, messagesOn, refusalText } from "./world.js";
import { liveOrder, watchLikeCarousel } from "./carousel.js";

// The modes' glue reads Foundry's `Hooks` when its files load; only the rules are called here (the
// simulated Foundry runs the built bundle in realms of its own).
vi.hoisted(() => Object.assign(globalThis, { Hooks: {} }));

/** Each mode's kit, and the GM's commands that carry a round forward, most wanted first. */
const ROUNDS: Record<string, { kit: AnyKit; steps: readonly string[] }> = {
  individual: { kit: individualKit, steps: ["recordRollOff", "delay", "nextTurn"] },
  sides: { kit: sidesKit, steps: ["recordSideRoll", "orderTiedSides", "declare", "nextTurn"] },
  slots: { kit: slotsKit, steps: ["fillSlot", "nextTurn"] },
  "declare-resolve": { kit: declareResolveKit, steps: ["orderTied", "declare", "upkeep", "nextTurn", "nextRound"] },
  phases: {
    kit: phasesKit,
    steps: ["startTurn", "pickNext", "resolveFailure", "endTurn", "nextTurn", "nextPhase"],
  },
};

/** Commands that carry the round on (taken as often as needed). */
const ADVANCE = new Set(["nextTurn", "nextPhase", "nextRound", "endTurn", "upkeep", "resolveFailure"]);

const moduleOf = (id: string): AnyModeModule => {
  const found = MODES.find((m) => m.id === id);
  if (found === undefined) throw new Error(`no mode ${id}`);
  return found;
};

/** Core's order and the module's agree on every client; `combat.combatant` is the rules' current. */
function expectAligned(module: AnyModeModule, sim: Sim, label: string): void {
  const state = stateOn(module, sim.gm);
  const view = module.rules.view(state);
  for (const client of sim.clients) {
    const combat = combatOn(client);
    const turns = combat.turns.map((c) => c.id ?? "?");
    expect(coreOrderOn(client), `${label}: core's sort on ${client.userId}`).toEqual(turns);
    expect(combat.combatant?.id ?? null, `${label}: combat.combatant on ${client.userId}`).toBe(view.current);
  }
}

/** Writes to the Combat and its combatants since the last reset. */
const structuredWrites = (sim: Sim): number =>
  sim.server.ops.filter((op) => !op.refused && (op.documentName === "Combat" || op.documentName === "Combatant"))
    .length;

/** Every combatant's live initiative on the GM's client. */
const initiatives = (sim: Sim): string =>
  JSON.stringify(combatOn(sim.gm).combatants.contents.map((c) => [c.id, c.initiative]));

/**
 * The writes a step takes: one; on v13 a second, the combatants' own update, when it moves any
 * initiative (v14 batches both in one request: `updateWithMirror`, src/foundry/compat.ts).
 */
const writesFor = (sim: Sim, moved: boolean): number => (sim.generation < 14 && moved ? 2 : 1);

it("the table above names every registered mode and no other", () => {
  expect(Object.keys(ROUNDS).sort()).toEqual(MODES.map((m) => m.id).sort());
});

describe.each(MODES.map((m): [string, AnyModeModule] => [m.id, m]))("interop in %s", (id, module) => {
  const round = ROUNDS[id];
  if (round === undefined) {
    it("has its kit and round steps in this file's table", () => {
      expect.fail(`the registered mode ${id} has no entry in ROUNDS (test/integration/interop.test.ts)`);
    });
    return;
  }
  const { kit, steps } = round;

  it("plays a round: after every step core's sort of the live combatants is the module's order and a carousel shows it, one write a step (two on v13 when initiatives move)", async () => {
    const sim = await kit.sim.world(7);
    // A module that re-sorts only on combatant updates and turn changes (Carousel): `./carousel.ts`.
    const carousels = watchLikeCarousel(sim);
    await kit.sim.begin(sim);
    await sim.settle();
    expectAligned(module, sim, "after the start");
    const gm: Requester = { userId: sim.gm.userId, isGM: true, owns: [] };
    const startRound = module.rules.view(stateOn(module, sim.gm)).round;
    const used = new Set<string>();
    let taken = 0;
    for (let step = 0; step < 120; step += 1) {
      const state = stateOn(module, sim.gm);
      if (module.rules.view(state).round > startRound) break;
      const allowed = module.rules.allowed(state, gm);
      // Each roll, declaration or fill once (the GM may redo them); one delay in individual (a move);
      // the commands that step on as often as the round needs them.
      const key = (a: AllowedAction): string =>
        a.type === "delay" ? "delay" : `${a.type}|${a.combatantId ?? ""}|${a.groupId ?? ""}`;
      const pick = steps
        .flatMap((type) => allowed.filter((a: AllowedAction) => a.type === type))
        .find((a) => ADVANCE.has(a.type) || !used.has(key(a)));
      const command = pick === undefined ? null : kit.commandFor(state, pick, gm);
      expect(command, `${id}: step ${step} has a command among ${allowed.map((a) => a.type).join(",")}`).not.toBeNull();
      if (command === null || pick === undefined) return;
      used.add(key(pick));
      sim.server.resetStats();
      const before = initiatives(sim);
      const result = await apiOn(sim.gm).command(combatOn(sim.gm), command);
      await sim.settle();
      expect(result, `${id}: ${JSON.stringify(command)}`).toEqual({ ok: true });
      const moved = initiatives(sim) !== before;
      expect(structuredWrites(sim), `${id}: writes for ${pick.type}`).toBe(writesFor(sim, moved));
      expectAligned(module, sim, `${id} after ${pick.type} (step ${step})`);
      for (const view of carousels)
        expect(view.shown, `${id} after ${pick.type}: the carousel on ${view.client.userId}`).toEqual(
          liveOrder(view.client),
        );
      taken += 1;
    }
    expect(module.rules.view(stateOn(module, sim.gm)).round, `${id}: the round ended`).toBeGreaterThan(startRound);
    expect(taken).toBeGreaterThan(2);
    // Every combatant in the running encounter shows a number: nobody is offered a roll button.
    for (const c of combatOn(sim.gm).combatants.contents) expect(c.initiative, `${c.name}'s initiative`).not.toBeNull();
  }, 30_000);

  it("a player's own write of their initiative is put back with the notice, even one that keeps the order (issue 27 item 4)", async () => {
    const sim = await kit.sim.world(3);
    await kit.sim.begin(sim);
    await sim.settle();
    const alice = sim.client(ALICE);
    const turns = combatOn(alice).turns;
    const at = turns.findIndex((c) => c.isOwner && typeof c.initiative === "number");
    const own = turns[at];
    expect(own, `${id}: Alice owns a combatant with an initiative`).toBeDefined();
    if (own === undefined) return;
    const before = own.initiative ?? 0;
    const above = turns[at - 1]?.initiative ?? before + 2;
    // Halfway to the combatant above (or half a point up): the order stays as it is.
    const written = before + Math.min(0.5, (above - before) / 2);
    const order = turns.map((c) => c.id);
    await own.update({ initiative: written });
    await sim.settle();
    for (const client of sim.clients) {
      expect(combatOn(client).combatants.get(own.id ?? "")?.initiative, client.userId).toBe(before);
      expect(
        combatOn(client).turns.map((c) => c.id),
        client.userId,
      ).toEqual(order);
    }
    expect(messagesOn(alice)).toEqual([refusalText("interopInitiativeReverted", own.name)]);
    expectAligned(module, sim, `${id}: after the put-back`);
    expectNoErrors(sim);
  });
});

describe("turns written outside the module", () => {
  it("individual: a GM's turn write (a carousel's 'set as current combatant') is put back, with a notice", async () => {
    const sim = await individualKit.sim.world(3);
    await individualKit.sim.begin(sim);
    const combat = combatOn(sim.gm);
    const acting = combat.combatant?.id;
    const other = combat.turns.findIndex((c) => c.id !== acting);
    await combat.update({ turn: other });
    await sim.settle();
    expect(combatOn(sim.gm).combatant?.id).toBe(acting);
    for (const client of sim.clients) expect(combatOn(client).combatant?.id, client.userId).toBe(acting);
    expect(sim.gm.notifications.map((n) => n.message)).toContain(refusalText("interopTurnReverted"));
    expectAligned(moduleOf("individual"), sim, "after the put-back");
  });

  it("individual: an initiative written by another module is put back and the writer told", async () => {
    const sim = await individualKit.sim.world(4);
    await individualKit.sim.begin(sim);
    const combat = combatOn(sim.gm);
    const last = combat.turns.at(-1);
    const before = last?.initiative;
    await last?.update({ initiative: 99 });
    await sim.settle();
    expect(combatOn(sim.gm).combatants.get(last?.id ?? "")?.initiative).toBe(before);
    expect(sim.gm.notifications.map((n) => n.message)).toContain(
      refusalText("interopInitiativeReverted", last?.name ?? ""),
    );
    expectAligned(moduleOf("individual"), sim, "after the put-back");
  });

  it("slots: a GM's turn write on an open slot fills it with that combatant", async () => {
    const sim = await slotsKit.sim.world(5);
    await slotsKit.sim.begin(sim);
    const module = moduleOf("slots");
    const gm: Requester = { userId: sim.gm.userId, isGM: true, owns: [] };
    // Step until the current slot is open and the GM may fill it.
    for (let i = 0; i < 20; i += 1) {
      const state = stateOn(module, sim.gm);
      if (module.rules.allowed(state, gm).some((a) => a.type === "fillSlot")) break;
      await apiOn(sim.gm).command(combatOn(sim.gm), { type: "nextTurn" });
      await sim.settle();
    }
    const state = stateOn(module, sim.gm);
    const fill = module.rules.allowed(state, gm).find((a) => a.type === "fillSlot");
    expect(fill).toBeDefined();
    const combat = combatOn(sim.gm);
    const target = fill?.combatantId ?? "";
    await combat.update({ turn: combat.turns.findIndex((c) => c.id === target) });
    await sim.settle();
    expect(module.rules.view(stateOn(module, sim.gm)).current).toBe(target);
    for (const client of sim.clients) expect(combatOn(client).combatant?.id, client.userId).toBe(target);
    expectAligned(module, sim, "after the jump");
  });

  it("phases: a GM's turn write on a hero while nobody acts starts that hero's turn", async () => {
    const sim = await phasesKit.sim.world(6);
    await phasesKit.sim.begin(sim);
    const module = moduleOf("phases");
    for (let i = 0; i < 10 && (stateOn(module, sim.gm) as { phase: string }).phase !== "heroes"; i += 1) {
      await apiOn(sim.gm).command(combatOn(sim.gm), { type: "nextPhase" });
      await sim.settle();
    }
    const state = stateOn(module, sim.gm) as { phase: string; turn: unknown; handOff: boolean };
    expect(state.phase).toBe("heroes");
    expect(state.turn).toBeNull();
    const gm: Requester = { userId: sim.gm.userId, isGM: true, owns: [] };
    const type = state.handOff ? "pickNext" : "startTurn";
    const hero = module.rules.allowed(state, gm).find((a) => a.type === type)?.combatantId ?? "";
    expect(hero).not.toBe("");
    const combat = combatOn(sim.gm);
    await combat.update({ turn: combat.turns.findIndex((c) => c.id === hero) });
    await sim.settle();
    expect(module.rules.view(stateOn(module, sim.gm)).current).toBe(hero);
    expect((stateOn(module, sim.gm) as { turn: { combatantId: string } | null }).turn?.combatantId).toBe(hero);
    expectAligned(module, sim, "after the jump");
  });
});
