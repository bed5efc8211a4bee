/**
 * The `declare-resolve` tracker (issue 12 item 6) as each user sees it: the declaration form, in the
 * declaring row (issue 29), only for whoever may declare now (the declarer's owner and the GM), one
 * button per catalogue action that declares it alone, its running AP total and legality computed
 * before sending; the GM's edits only for the GM; per row IP base → current, the AP bar, the action
 * chips, DEF, "finishing", what the upkeep does, the GM's tie buttons; the extra-attack queue; the
 * upkeep and its live announcement. Rendered with the real templates, every button has a localised
 * accessible name and no key leaks.
 */
import { describe, expect, it } from "vitest";
import type { Sim, SimClient } from "../sim/index.js";
import { ALICE, BOB, combatOn, idOf, serverCombatJson } from "./world.js";
import { commandAs, declareAs, drEncounter, drWorld, rollIPs } from "./declare-resolve-world.js";

interface TrackerApp {
  _prepareContext(options: object): Promise<{ structuredInitiative?: Ctx | null }>;
  render(options?: object): Promise<unknown>;
  parts: Record<string, string>;
}
interface Ctx {
  rows: { name: string; controls: { action: string; groupId?: string }[]; mode: Record<string, unknown> | null }[];
  panel: Record<string, unknown> | null;
}

async function contextOf(client: SimClient): Promise<Ctx> {
  const ctx = (await (client.ui.combat as TrackerApp)._prepareContext({})).structuredInitiative;
  if (!ctx) throw new Error("no context");
  return ctx;
}
async function htmlOf(client: SimClient): Promise<string> {
  const app = client.ui.combat as TrackerApp;
  await app.render();
  return Object.values(app.parts).join("");
}
function row(ctx: Ctx, name: string): Record<string, unknown> {
  const found = ctx.rows.find((r) => r.name === name)?.mode;
  if (!found) throw new Error(`no row ${name}`);
  return found;
}

/** Brom 9, Aria 14, Officer 16, started: Brom declares first. */
async function battle(): Promise<Sim> {
  const sim = await drWorld({ renderTemplates: true });
  await drEncounter(sim, ["aria", "brom", "officer"]);
  await rollIPs(sim, { aria: [5, 5], brom: [3, 3], officer: [6, 6] });
  await combatOn(sim.gm).startCombat();
  await sim.settle();
  return sim;
}

describe("the declare-resolve tracker", () => {
  it("the declaration form is Bob's and the GM's while Brom declares; Alice sees none; only the GM edits", async () => {
    const sim = await battle();
    const alice = await contextOf(sim.client(ALICE));
    const bob = await contextOf(sim.client(BOB));
    const gm = await contextOf(sim.gm);
    // The form is in the declaring row (Brom's), nowhere else.
    for (const ctx of [alice, bob, gm])
      for (const name of ["Aria", "Officer"]) expect(row(ctx, name).declare, name).toBeNull();
    expect(row(alice, "Brom").declare).toBeNull();
    expect(row(bob, "Brom").declare).toMatchObject({ heading: "Declare the actions of Brom", legal: true });
    expect(row(gm, "Brom").declare).not.toBeNull();
    expect(row(alice, "Aria").edit).toBeNull();
    expect(row(gm, "Aria").edit).not.toBeNull();
    // Rolled and started: nobody rerolls.
    for (const ctx of [alice, bob, gm]) for (const r of ctx.rows) expect(r.controls).toEqual([]);
    const html = await htmlOf(sim.client(ALICE));
    expect(html).not.toContain("si-dr-declare");
    expect(html).not.toContain("si-dr-edit");
    expect(html).not.toMatch(/STRUCTURED_INITIATIVE\./);
    // The GM's edits are filled on use: each row has the disclosure, its fields come when it opens.
    const gmHtml = await htmlOf(sim.gm);
    expect(gmHtml.match(/<details class="si-dr-edit"/g)).toHaveLength(3);
    expect(gmHtml).not.toContain('data-field="bleeding"');
  });

  it("the running total and legality of the draft are shown before sending", async () => {
    const sim = await battle();
    const bob = sim.client(BOB);
    const html = await htmlOf(bob);
    expect(html).toContain("0 AP of 5 AP available.");
    expect(html).toContain("No actions picked: declaring now means no actions this round.");
    for (const b of html.match(/<button[^>]*>/g) ?? []) expect(b).toMatch(/aria-label="[^"]+"/);
    expect(html).not.toMatch(/STRUCTURED_INITIATIVE\./);
  });

  it("in Polish, the default catalogue actions are shown by their Polish names and stored by their English ones", async () => {
    const sim = await drWorld({ renderTemplates: true, lang: "pl", langPath: "lang/pl.json" });
    await drEncounter(sim, ["aria", "brom", "officer"]);
    await rollIPs(sim, { aria: [5, 5], brom: [3, 3], officer: [6, 6] });
    await combatOn(sim.gm).startCombat();
    await sim.settle();
    const form = row(await contextOf(sim.client(BOB)), "Brom").declare as { picks: { text: string }[] };
    expect(form.picks.map((p) => p.text)).toEqual(["Unik · 2 PA", "Atak wręcz · 4 PA", "Potężny atak · 7 PA"]);
    expect(await declareAs(sim, sim.client(BOB), "brom", [{ catalogue: "Dodge" }])).toMatchObject({ ok: true });
    const chips = row(await contextOf(sim.client(ALICE)), "Brom").actions as { name: string }[];
    expect(chips.map((c) => c.name)).toEqual(["Unik"]);
    // Stored as the catalogue names it: the world's data does not depend on who declared.
    expect(serverCombatJson(sim)).toContain('"name":"Dodge"');
    expect(serverCombatJson(sim)).not.toContain("Unik");
    expect(await htmlOf(sim.client(ALICE))).not.toMatch(/STRUCTURED_INITIATIVE\.|Dodge/);
  });

  it("the catalogue buttons show each action's DEF change, and none for an action without one (issue 27 item 4)", async () => {
    const entries = [
      { name: "Dodge", cost: 2, kind: "defence", def: 0 },
      { name: "Parry", cost: 1, kind: "defence", def: 3 },
      { name: "Reckless Swing", cost: 4, kind: "attack", def: -2 },
    ];
    const sim = await drWorld({
      renderTemplates: true,
      settings: { "structured-initiative.drCatalogue": JSON.stringify({ entries }) },
    });
    await drEncounter(sim, ["aria", "brom", "officer"]);
    await rollIPs(sim, { aria: [5, 5], brom: [3, 3], officer: [6, 6] });
    await combatOn(sim.gm).startCombat();
    await sim.settle();
    for (const client of [sim.client(BOB), sim.gm]) {
      const form = row(await contextOf(client), "Brom").declare as {
        picks: { text: string; ariaLabel: string; declareLabel: string }[];
      };
      expect(form.picks.map((p) => p.text)).toEqual([
        "Dodge · 2 AP",
        "Parry · 1 AP · DEF +3",
        "Reckless Swing · 4 AP · DEF -2",
      ]);
      expect(form.picks[1]?.ariaLabel).toBe("Add Parry · 1 AP · DEF +3 to the declaration of Brom");
      expect(form.picks[1]?.declareLabel).toBe("Declare Parry · 1 AP · DEF +3 alone for Brom");
      // The same texts on the buttons that declare an action alone (one click) and on those that add it.
      const html = await htmlOf(client);
      for (const action of ["siDrDeclareEntry", "siDrPick"]) {
        const buttons = html.match(new RegExp(`<button[^>]*data-action="${action}"[^>]*>[^<]*<`, "g")) ?? [];
        expect(buttons.map((b) => b.replace(/^.*>|<$/g, ""))).toEqual([
          "Dodge · 2 AP",
          "Parry · 1 AP · DEF +3",
          "Reckless Swing · 4 AP · DEF -2",
        ]);
      }
    }
  });

  it("rows show IP base → current, the AP bar, chips with costs, DEF, carried AP and finishing", async () => {
    const sim = await battle();
    await commandAs(sim, sim.gm, {
      type: "addIPChange",
      combatantId: idOf(sim.gm, "brom"),
      cause: "Haste",
      amount: 2,
      duration: { kind: "untilRemoved" },
    });
    await declareAs(sim, sim.client(BOB), "brom", [{ name: "Brace", cost: 1, kind: "defence", def: 2 }]);
    await declareAs(sim, sim.client(ALICE), "aria", [{ catalogue: "Power Attack" }]);
    const jab = { name: "Jab", cost: 1, kind: "attack" };
    await declareAs(sim, sim.gm, "officer", [jab, jab]);
    const ctx = await contextOf(sim.client(ALICE));
    expect(row(ctx, "Brom")).toMatchObject({ ip: "IP 9 → 11", def: "DEF +2" });
    expect(row(ctx, "Brom").apCells).toEqual([
      { state: "declared" },
      { state: "free" },
      { state: "free" },
      { state: "free" },
      { state: "free" },
    ]);
    expect(row(ctx, "Aria")).toMatchObject({ carriesOut: "Carries 2 AP into the next round" });
    expect((row(ctx, "Officer").actions as { cost: string; extra: boolean }[]).map((a) => [a.cost, a.extra])).toEqual([
      ["1 AP", false],
      ["1 AP", true],
    ]);
    expect(ctx.panel?.extraQueue).toEqual([
      // Its key keeps the entry across renders while it does not change.
      {
        keepKey: expect.any(String) as unknown,
        name: "Officer",
        actions: "Jab (1 AP)",
        now: false,
        passText: "2nd attack",
      },
    ]);
    // Round 2: Aria's carried Power Attack is finishing, her bar shows the 2 AP it takes.
    for (let i = 0; i < 6 && combatOn(sim.gm).round === 1; i++) {
      await combatOn(sim.gm).nextTurn();
      await sim.settle();
    }
    const next = await contextOf(sim.client(BOB));
    expect(row(next, "Aria")).toMatchObject({ finishing: "Finishing: Power Attack (2 AP)" });
    expect((row(next, "Aria").apCells as { state: string }[]).map((c) => c.state)).toEqual([
      "carried",
      "carried",
      "free",
      "free",
      "free",
    ]);
  });

  it("the upkeep is listed in each row it changes and announced in the live region; the confirm button is the GM's", async () => {
    const sim = await battle();
    await commandAs(sim, sim.gm, {
      type: "setConditions",
      combatantId: idOf(sim.gm, "brom"),
      bleeding: 1,
      dazed: 0,
      stunned: 2,
    });
    for (const key of ["brom", "aria", "officer"] as const) {
      const client = key === "brom" ? sim.client(BOB) : key === "aria" ? sim.client(ALICE) : sim.gm;
      await declareAs(sim, client, key, []);
    }
    const alice = await contextOf(sim.client(ALICE));
    expect(alice.panel).toMatchObject({
      isUpkeep: true,
      upkeep: ["Brom: loses 1 hit to bleeding; stunned 2 → 1"],
      upkeepControl: null,
    });
    expect(alice.panel?.live).toBe(
      "Upkeep of round 1: the GM confirms it to begin the next round. Brom: loses 1 hit to bleeding; stunned 2 → 1",
    );
    expect(row(alice, "Brom").upkeep).toBe("loses 1 hit to bleeding; stunned 2 → 1");
    expect(row(alice, "Aria").upkeep).toBe("");
    expect((await contextOf(sim.gm)).panel?.upkeepControl).toMatchObject({ action: "siDrUpkeep" });
    const html = await htmlOf(sim.client(ALICE));
    expect(html).toMatch(/role="status" aria-live="polite" data-si="dr-live">Upkeep of round 1/);
  });

  it("a tie waits for the GM, who sees a button in each tied row; players see the rows marked tied and are told", async () => {
    const sim = await drWorld({ renderTemplates: true });
    await drEncounter(sim, ["aria", "officer"]);
    // 14 + 4 each: equal IP and equal modifier.
    await rollIPs(sim, { aria: [5, 5], officer: [5, 5] });
    const gm = await contextOf(sim.gm);
    const ties = (name: string): { action: string; groupId?: string }[] =>
      (gm.rows.find((r) => r.name === name)?.controls ?? []).filter((c) => c.action === "siDrOrderTied");
    // Each tied row's button puts its combatant first, the whole tie in its group id.
    expect(ties("Aria").map((c) => c.groupId)).toEqual([`${idOf(sim.gm, "aria")},${idOf(sim.gm, "officer")}`]);
    expect(ties("Officer").map((c) => c.groupId)).toEqual([`${idOf(sim.gm, "officer")},${idOf(sim.gm, "aria")}`]);
    const alice = await contextOf(sim.client(ALICE));
    for (const name of ["Aria", "Officer"]) {
      expect(row(alice, name).tied).toBe(true);
      expect(alice.rows.find((r) => r.name === name)?.controls.map((c) => c.action)).not.toContain("siDrOrderTied");
    }
    expect(alice.panel?.live).toBe("Combatants are tied on initiative points: the GM puts them in order.");
  });
});

describe("the declarer's badge (issue 27 item 4)", () => {
  it('says "Declaring" during the declarations and "Acting now" during the resolution, in every view', async () => {
    const sim = await battle();
    const badge = async (client: SimClient): Promise<string[]> =>
      (await htmlOf(client)).match(/si-badge--now">[^<]*</g)?.map((b) => b.slice(15, -1)) ?? [];
    for (const client of [sim.gm, sim.client(ALICE), sim.client(BOB)])
      expect(await badge(client)).toEqual(["Declaring"]);
    for (const [key, who] of [
      ["brom", BOB],
      ["aria", ALICE],
    ] as const)
      await declareAs(sim, sim.client(who), key, []);
    await declareAs(sim, sim.gm, "officer", [{ name: "Jab", cost: 1, kind: "attack" }]);
    for (const client of [sim.gm, sim.client(ALICE), sim.client(BOB)])
      expect(await badge(client)).toEqual(["Acting now"]);
  });
});
