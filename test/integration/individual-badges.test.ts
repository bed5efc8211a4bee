/**
 * Delay and ready on the `individual` tracker (issue 15 item 10). After "Act now" during another
 * combatant's turn, that combatant showed both "Next" and "Acted": its turn was interrupted and
 * resumes, so it is next and not acted, and it acts once. A delayed PC's 16 sat below an NPC's 13 with
 * no hint why: a row whose place comes from a delay or a ready says so ("after Officer").
 */
import { describe, expect, it } from "vitest";
import type { SimClient } from "../sim/index.js";
import { ALICE, apiOn, combatOn, encounter, idOf, rollAs, start, turnsOn, world } from "./world.js";

interface TrackerApp {
  render(options?: object): Promise<unknown>;
  element: HTMLElement | null;
  parts: Record<string, string>;
}
const tracker = (client: SimClient): TrackerApp => client.ui.combat as TrackerApp;

/** Each row's name and badges as the user's tracker renders them. */
async function badges(client: SimClient): Promise<Record<string, string[]>> {
  await tracker(client).render();
  const html = Object.values(tracker(client).parts).join("");
  const out: Record<string, string[]> = {};
  for (const row of html.split('<li class="si-row').slice(1)) {
    const name = /<span class="si-row__name">([^<]*)</.exec(row)?.[1] ?? "?";
    out[name] = [...row.matchAll(/<span class="si-badge[^"]*"[^>]*>([^<]*)/g)].map((m) => (m[1] ?? "").trim());
  }
  return out;
}

/** No row is both up next and done, nor acting now and done. */
function expectNoContradiction(shown: Record<string, string[]>): void {
  for (const [name, list] of Object.entries(shown)) {
    const done = list.includes("Acted");
    expect(done && (list.includes("Next") || list.includes("Acting now")), `${name}: ${list.join(", ")}`).toBe(false);
  }
}

describe("delay and ready on the individual tracker", () => {
  it("act now during another's turn: that one is next, not acted, and acts once; the delayer's row says where it stands", async () => {
    const sim = await world({ renderTemplates: true });
    await encounter(sim, ["aria", "brom", "officer", "trooper1"]);
    await rollAs(sim, { aria: 13, brom: 10, officer: 11, trooper1: 1 }); // Aria 16, Officer 13, Brom 11, Trooper 1
    await start(sim);
    expect(turnsOn(sim.gm).order).toEqual(["Aria", "Officer", "Brom", "Trooper 1"]);
    const alice = sim.client(ALICE);
    const aria = idOf(alice, "aria");
    await apiOn(alice).command(combatOn(alice), { type: "delay", combatantId: aria });
    await sim.settle();
    // The Officer acts, then Brom's turn is called; Aria acts now, before Brom.
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Brom");
    await apiOn(alice).command(combatOn(alice), { type: "endDelay", combatantId: aria });
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Aria");
    for (const client of [sim.gm, alice]) {
      const shown = await badges(client);
      expect(shown.Brom).toContain("Next");
      expect(shown.Brom).not.toContain("Acted");
      expect(shown.Officer).toContain("Acted");
      expect(shown.Aria).toContain("after Officer");
      expectNoContradiction(shown);
    }
    // Brom's turn resumes once, then the Trooper acts; in round 2 the order holds, Aria after the Officer.
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Brom");
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Trooper 1");
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm)).toMatchObject({ round: 2, order: ["Officer", "Aria", "Brom", "Trooper 1"] });
    const later = await badges(sim.client(ALICE));
    expect(later.Aria).toContain("after Officer");
    expect(later.Officer).not.toContain("after Officer");
    expect(later.Brom?.some((b) => b.startsWith("after"))).toBe(false);
    expectNoContradiction(later);
  });

  it("a readied action triggered ahead of another: the interrupted one is next, not acted", async () => {
    const sim = await world({ renderTemplates: true });
    await encounter(sim, ["aria", "brom", "officer", "trooper1"]);
    await rollAs(sim, { aria: 15, brom: 10, officer: 4, trooper1: 1 }); // Aria 18, Brom 11, Officer 6, Trooper 1
    await start(sim);
    const alice = sim.client(ALICE);
    const aria = idOf(alice, "aria");
    await apiOn(alice).command(combatOn(alice), { type: "ready", combatantId: aria, trigger: "the door opens" });
    await sim.settle();
    await combatOn(sim.gm).nextTurn(); // Brom done; the Officer's turn
    await sim.settle();
    await apiOn(alice).command(combatOn(alice), { type: "triggerReady", combatantId: aria });
    await sim.settle();
    const shown = await badges(sim.gm);
    expect(turnsOn(sim.gm).current).toBe("Aria");
    expect(shown.Officer).toContain("Next");
    expect(shown.Officer).not.toContain("Acted");
    expect(shown.Aria).toContain("after Brom");
    expectNoContradiction(shown);
  });
});
