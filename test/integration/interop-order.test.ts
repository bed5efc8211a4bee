/**
 * Other modules see each change of the order as it happens (issue 28, item 5): a module that sorts
 * again only on `updateCombatant` (with `initiative` changed), on a combatant's creation or deletion
 * and on a Combat update that changes `turn` or `round` — as Carousel Combat Tracker does
 * (`./carousel.ts`) — shows, on every client and after every step, `combat.turns` with each
 * combatant's live initiative. The steps that used to leave it stale: rolls before the start
 * (`individual`, `declare-resolve`'s IP rolls), a delay mid-combat (the turn index stays), the places
 * given right after creating a `sides` or `phases` encounter. On v13 a step that moves initiatives
 * takes a second write (the combatants' own update); on v14 it is one batched request.
 */
import { describe, expect, it } from "vitest";
import type { Sim } from "../sim/index.js";
import { liveOrder, watchLikeCarousel, type CarouselView } from "./carousel.js";
import { apiOn, combatOn, encounter, expectNoErrors, idOf, rollAs, start, world } from "./world.js";
import { drEncounter, drWorld, rollIPs } from "./declare-resolve-world.js";
import { sidesEncounter, sidesWorld } from "./sides-world.js";
import { phasesEncounter, phasesWorld } from "./phases-world.js";

/** Every client's carousel shows the live order and numbers. */
function expectCarouselsCurrent(views: readonly CarouselView[], label: string): void {
  for (const view of views)
    expect(view.shown, `${label}: the carousel on ${view.client.userId}`).toEqual(liveOrder(view.client));
}

/** The requests the authority sent to the server for the Combat and its combatants since the last reset. */
function structuredRequests(sim: Sim): number {
  return sim.server.ops.filter((op) => !op.refused && (op.documentName === "Combat" || op.documentName === "Combatant"))
    .length;
}

describe("a module that re-sorts on combatant updates sees every order change at once", () => {
  it("individual: each roll before the start, then a delay mid-combat", async () => {
    const sim = await world({ seed: 3 });
    const views = watchLikeCarousel(sim);
    await encounter(sim, ["aria", "brom", "officer"]);
    expectCarouselsCurrent(views, "created");
    await rollAs(sim, { officer: 9 });
    expectCarouselsCurrent(views, "the officer rolled");
    expect(views[0]?.shown[0]?.initiative).not.toBeNull();
    await rollAs(sim, { aria: 15 });
    expectCarouselsCurrent(views, "Aria rolled");
    await rollAs(sim, { brom: 4 });
    expectCarouselsCurrent(views, "Brom rolled");
    await start(sim);
    expectCarouselsCurrent(views, "started");
    // Aria delays: the Officer acts at the same turn index; Aria moves down.
    const combat = combatOn(sim.gm);
    const turnBefore = combat.turn;
    sim.server.resetStats();
    const result = await apiOn(sim.gm).command(combat, { type: "delay", combatantId: idOf(sim.gm, "aria") });
    await sim.settle();
    expect(result).toEqual({ ok: true });
    expect(combatOn(sim.gm).turn, "the turn index did not move").toBe(turnBefore);
    expect(combatOn(sim.gm).combatant?.name).toBe("Officer");
    expectCarouselsCurrent(views, "Aria delayed");
    expect(views[1]?.shown.map((p) => p.id).indexOf(idOf(sim.gm, "aria"))).toBeGreaterThan(0);
    expect(structuredRequests(sim), "requests for the delay").toBe(sim.generation >= 14 ? 1 : 2);
    // A step that moves nobody's initiative is one write on both.
    sim.server.resetStats();
    await apiOn(sim.gm).command(combatOn(sim.gm), { type: "nextTurn" });
    await sim.settle();
    expectCarouselsCurrent(views, "next turn");
    expectNoErrors(sim);
  });

  it("declare-resolve: each IP roll before the start", async () => {
    const sim = await drWorld();
    const views = watchLikeCarousel(sim);
    await drEncounter(sim, ["aria", "brom", "officer"]);
    await rollIPs(sim, { officer: [3, 4] });
    expectCarouselsCurrent(views, "the officer rolled");
    await rollIPs(sim, { aria: [9, 8] });
    expectCarouselsCurrent(views, "Aria rolled");
    await rollIPs(sim, { brom: [1, 2] });
    expectCarouselsCurrent(views, "Brom rolled");
    expect(views[2]?.shown.every((p) => p.initiative !== null)).toBe(true);
    expectNoErrors(sim);
  });

  it("declare-resolve: a tie the modifier breaks shows both IPs as rolled, the faster first, before and after the start", async () => {
    const sim = await drWorld();
    const views = watchLikeCarousel(sim);
    await drEncounter(sim, ["aria", "brom", "officer"]);
    // The Officer 17 + 4 = 21; Brom 10 + 3 = 13, then Aria 9 + 4 = 13: Aria's higher modifier makes
    // her the faster of the tie (docs/modes/declare-resolve.md, "Ties"), though she rolled last.
    await rollIPs(sim, { officer: [9, 8] });
    await rollIPs(sim, { brom: [5, 5] });
    await rollIPs(sim, { aria: [5, 4] });
    const shown = (label: string): void => {
      for (const client of sim.clients) {
        const turns = combatOn(client).turns.map((c) => [c.name, c.initiative]);
        expect(turns, `${label}: combat.turns on ${client.userId}`).toEqual([
          ["Officer", 21],
          ["Aria", 13],
          ["Brom", 13],
        ]);
      }
      expectCarouselsCurrent(views, label);
    };
    shown("rolled");
    await start(sim);
    shown("started");
    expectNoErrors(sim);
  });

  it("sides: right after the encounter is created, everyone shows a place", async () => {
    const sim = await sidesWorld();
    const views = watchLikeCarousel(sim);
    await sidesEncounter(sim, ["ace", "jaluun", "trooper1", "trooper2"]);
    expectCarouselsCurrent(views, "created");
    expect(views[0]?.shown.every((p) => p.initiative !== null)).toBe(true);
    expectNoErrors(sim);
  });

  it("phases: right after the encounter is created, everyone shows a place", async () => {
    const sim = await phasesWorld();
    const views = watchLikeCarousel(sim);
    await phasesEncounter(sim, ["aria", "brom", "officer"]);
    expectCarouselsCurrent(views, "created");
    expect(views[0]?.shown.every((p) => p.initiative !== null)).toBe(true);
    expectNoErrors(sim);
  });
});
