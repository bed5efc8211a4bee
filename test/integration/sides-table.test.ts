/**
 * The `sides` mode at the table (issue 15 items 5, 7 and 8), in the simulated Foundry with the GM,
 * Alice (Ace) and Bob (Jaluun): side rolls are undo steps and the GM corrects them (the old roll
 * struck through in every view); a tie waiting for the GM shows no place in any view; a slowed
 * character lets its moment pass and the action shows as lost.
 */
import { describe, expect, it } from "vitest";
import { passOrder } from "../../src/modes/sides/rules/derived";
import type { Sim, SimClient } from "../sim/index.js";
import { combatOn } from "./world.js";
import {
  ALICE,
  BOB,
  cid,
  expectSidesAgreement,
  rollSideAs,
  run,
  sideId,
  sidesApi,
  sidesEncounter,
  sidesOn,
  sidesWorld,
  type D6Key,
} from "./sides-world.js";

interface TrackerApp {
  render(options?: object): Promise<unknown>;
  parts: Record<string, string>;
}

async function html(client: SimClient): Promise<string> {
  const app = client.ui.combat as TrackerApp;
  await app.render();
  return Object.values(app.parts).join("");
}

async function views(sim: Sim): Promise<string[]> {
  return Promise.all([sim.gm, sim.client(ALICE), sim.client(BOB)].map(html));
}

async function started(keys: readonly D6Key[]): Promise<Sim> {
  const sim = await sidesWorld({ renderTemplates: true });
  await sidesEncounter(sim, keys);
  await run(sim, sim.gm, { type: "start" });
  return sim;
}

const typed = (sim: Sim, name: string, total: number) =>
  run(sim, sim.gm, { type: "recordSideRoll", sideId: sideId(sim.gm, name), total });

function totals(sim: Sim): Record<string, number> {
  const state = sidesOn(sim.gm);
  const out: Record<string, number> = {};
  for (const r of state.rolls) out[state.sides.find((s) => s.id === r.sideId)?.name ?? r.sideId] = r.total;
  return out;
}

describe("side rolls are undo steps; the GM corrects them", () => {
  it("previous turn in the initiative step takes back the last roll only; the combat stays started", async () => {
    const sim = await started(["ace", "officer", "smuggler"]);
    expect(await typed(sim, "Heroes", 9)).toEqual({ ok: true });
    expect(await typed(sim, "Foes", 14)).toEqual({ ok: true });
    expect(await run(sim, sim.gm, { type: "previousTurn" })).toEqual({ ok: true });
    expect([sidesOn(sim.gm).started, sidesOn(sim.gm).step]).toEqual([true, "initiative"]);
    expect(totals(sim)).toEqual({ Heroes: 9 });
    expectSidesAgreement(sim);
  });

  it("Alice rolls once; the GM re-rolls and corrects, each old roll struck through in every view", async () => {
    const sim = await started(["ace", "officer", "smuggler"]);
    const alice = sim.client(ALICE);
    sim.dice.push(2, 2, 2);
    expect(await sidesApi(alice).rollSide(combatOn(alice), sideId(alice, "Heroes"))).toEqual({ ok: true });
    await sim.settle();
    const first = totals(sim).Heroes ?? 0;
    sim.dice.push(1, 1, 1);
    expect(await sidesApi(alice).rollSide(combatOn(alice), sideId(alice, "Heroes"))).toMatchObject({
      ok: false,
      code: "alreadyRolled",
    });
    await sim.settle();
    expect(totals(sim).Heroes).toBe(first);
    // The GM re-rolls, then types the total the table agreed on.
    expect(await rollSideAs(sim, "Heroes", [6, 6, 6])).toEqual({ ok: true });
    const reroll = totals(sim).Heroes ?? 0;
    expect(reroll).not.toBe(first);
    expect(await typed(sim, "Heroes", 11)).toEqual({ ok: true });
    expect(totals(sim).Heroes).toBe(11);
    for (const view of await views(sim)) {
      expect(view).toContain("rolled 11");
      expect(view).toContain(`<s>${String(first)}</s> <s>${String(reroll)}</s>`);
    }
    expect(await html(sim.gm)).toContain("Set the roll of Heroes to the typed total");
    expect(await html(alice)).not.toContain("Set the roll of Heroes");
    expectSidesAgreement(sim);
  });

  it("previous round from round 2 lands at the start of round 1 with all of its side rolls", async () => {
    const sim = await started(["ace", "officer", "smuggler"]);
    await typed(sim, "Heroes", 9);
    await typed(sim, "Foes", 14);
    await typed(sim, "Neutrals", 5);
    const round1 = structuredClone(sidesOn(sim.gm));
    expect(round1.step).toBe("declaration");
    await run(sim, sim.gm, { type: "nextRound" });
    await typed(sim, "Heroes", 3);
    expect(sidesOn(sim.gm).round).toBe(2);
    expect(await run(sim, sim.gm, { type: "previousRound" })).toEqual({ ok: true });
    expect(sidesOn(sim.gm)).toEqual(round1);
    expect(totals(sim)).toEqual({ Heroes: 9, Foes: 14, Neutrals: 5 });
    expectSidesAgreement(sim);
  });
});

describe("tied sides wait for the GM in every view", () => {
  it("no place is shown for two GM sides on the same roll until the GM orders them", async () => {
    const sim = await started(["ace", "officer", "smuggler"]);
    await typed(sim, "Heroes", 12);
    await typed(sim, "Foes", 7);
    await typed(sim, "Neutrals", 7);
    expect(sidesOn(sim.gm).step).toBe("initiative");
    const [gm = "", alice = "", bob = ""] = await views(sim);
    for (const view of [gm, alice, bob]) {
      // Each side's chip: its place in the declaring order and its roll; the tied ones have no place.
      expect(view).toContain("Heroes #3 (12)");
      expect(view).toContain("Foes #– (7)");
      expect(view).toContain("Neutrals #– (7)");
      expect(view).not.toMatch(/#[12] \(/);
      expect(view.match(/tied: waiting for the GM/g)).toHaveLength(2);
    }
    expect(gm).toContain("Tied sides: who declares first?");
    expect(alice).toContain("Tied sides: waiting for the GM to say who declares first");
    expect(bob).toContain("Foes, Neutrals");
    await run(sim, sim.gm, { type: "orderTiedSides", sideIds: [sideId(sim.gm, "Neutrals"), sideId(sim.gm, "Foes")] });
    for (const view of await views(sim)) {
      expect(view).toContain("Neutrals #1 (7)");
      expect(view).toContain("Foes #2 (7)");
      expect(view).not.toContain("tied: waiting for the GM");
    }
    expectSidesAgreement(sim);
  });
});

describe("a slowed action not taken is lost", () => {
  it("Alice lets Ace's moment pass: the action is lost on every tracker and the penalty stands", async () => {
    const sim = await started(["ace", "jaluun", "officer"]);
    await typed(sim, "Heroes", 10);
    await typed(sim, "Foes", 5);
    const gm = combatOn(sim.gm);
    const alice = sim.client(ALICE);
    const bob = sim.client(BOB);
    await sidesApi(sim.gm).declare(gm, cid(sim.gm, "officer"), ["Shoot"], false);
    await sim.settle();
    await sidesApi(bob).declare(combatOn(bob), cid(bob, "jaluun"), ["Run"], false);
    await sim.settle();
    await sidesApi(alice).declare(combatOn(alice), cid(alice, "ace"), ["Cover Jaluun", "Shoot"], false);
    await sim.settle();
    expect(passOrder(sidesOn(sim.gm))[0]).toBe(cid(sim.gm, "ace"));
    await sidesApi(alice).slowDown(combatOn(alice), cid(alice, "ace"), cid(alice, "jaluun"));
    await sim.settle();
    await run(sim, bob, { type: "nextTurn" });
    // Ace's moment: Alice sees "Let it pass" on her row; Bob does not.
    expect(await html(alice)).toContain("Ace lets the moment pass");
    expect(await html(bob)).not.toContain("Ace lets the moment pass");
    expect(await sidesApi(bob).letPass(combatOn(bob), cid(bob, "ace"))).toMatchObject({ ok: false, code: "notOwner" });
    expect(await sidesApi(alice).letPass(combatOn(alice), cid(alice, "ace"))).toEqual({ ok: true });
    await sim.settle();
    expect(sidesOn(sim.gm).lost).toEqual([{ combatantId: cid(sim.gm, "ace"), pass: 1 }]);
    for (const view of await views(sim)) {
      expect(view).toContain("si-sides-action--lost");
      expect(view).toContain("1 action lost");
      expect(view).toContain("Penalty −1D");
      expect(view).toMatch(/<span>Ace<\/span> <span class="si-sides-pass__state">\(lost\)/);
    }
    expectSidesAgreement(sim);
  });
});
