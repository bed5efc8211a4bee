/**
 * The `slots` tracker (issue 6 item 6) as each user sees it: the slot list with PC/NPC kinds, who
 * filled or claimed each slot, who has not acted, the current slot; a claim button per eligible PC the
 * player owns on each open PC slot, a release button for the player's own claims, the GM's assign
 * buttons on the current slot and the GM's skill choice before the start. Rendered with the real
 * templates, every button has a localised accessible name and no key leaks.
 */
import { describe, expect, it } from "vitest";
import type { Sim, SimClient } from "../sim/index.js";
import type { JsonObject } from "../sim/utils.js";
import { ACTORS, ALICE, BOB, SCENE, apiOn, combatOn, idOf, world } from "./world.js";
import { rollChecks, slotsEncounter } from "./slots-world.js";

interface Control {
  action: string;
  combatantId: string;
  ariaLabel: string;
  slot?: string;
  text?: string;
  pressed?: boolean;
}
interface SlotRow {
  number: string;
  isPC: boolean;
  kindAria: string;
  current: boolean;
  filler: string;
  claimant: string;
  controls: Control[];
  assign: { slot: string; label: string; buttonLabel: string; options: { id: string; name: string }[] } | null;
  scoresAria: string;
}
interface Ctx {
  rows: {
    id: string;
    name: string;
    controls: Control[];
    mode: { toAct: boolean; acted: boolean; skillLabel: string } | null;
  }[];
  setupControls: Control[];
  list: { slots: SlotRow[]; status: string; toAct: string } | null;
}
interface TrackerApp {
  _prepareContext(options: object): Promise<{ structuredInitiative?: Ctx | null }>;
  render(options?: object): Promise<unknown>;
  parts: Record<string, string>;
}

const CARA = "actorCara0000001";

async function contextOf(client: SimClient): Promise<Ctx> {
  const ctx = (await (client.ui.combat as TrackerApp)._prepareContext({})).structuredInitiative;
  if (!ctx) throw new Error("no context");
  return ctx;
}

/** Alice owns Aria and Cara; Bob owns Brom; the Officer and Trooper 1 are NPCs. */
async function battle(options: { renderTemplates?: boolean } = {}): Promise<Sim> {
  const cara: JsonObject = {
    _id: CARA,
    name: "Cara",
    type: "character",
    ownership: { default: 0, [ALICE]: 3 },
    system: { attributes: { init: { mod: 0 } } },
  };
  const sim = await world({ actors: [...ACTORS, cara], ...options });
  await slotsEncounter(sim, ["aria", "brom", "officer", "trooper1"]);
  await combatOn(sim.gm).createEmbeddedDocuments("Combatant", [{ actorId: CARA, sceneId: SCENE }]);
  await sim.settle();
  return sim;
}

const caraId = (client: SimClient): string => combatOn(client).combatants.find((c) => c.actorId === CARA)?.id ?? "";

async function started(sim: Sim): Promise<void> {
  await rollChecks(sim, { aria: [3, 2], brom: [5, 1], officer: [4, 4], trooper1: [3, 2] });
  sim.dice.push(1, 0);
  await combatOn(sim.gm).rollInitiative([caraId(sim.gm)]);
  await sim.settle();
  await combatOn(sim.gm).startCombat();
  await sim.settle();
}

describe("the slots tracker", () => {
  it("before the start: the GM sees the skill choice per combatant; a player only the roll of their own", async () => {
    const sim = await battle();
    const gm = await contextOf(sim.gm);
    const officer = gm.rows.find((r) => r.name === "Officer");
    expect(officer?.controls.map((c) => [c.action, c.pressed])).toEqual([
      ["siRoll", false],
      ["siSlotCool", true],
      ["siSlotVigilance", false],
    ]);
    expect(officer?.mode?.skillLabel).toBe("STRUCTURED_INITIATIVE.Tracker.Slots.Skill.cool");
    await apiOn(sim.gm).setSlotsSkill(combatOn(sim.gm), idOf(sim.gm, "officer"), "vigilance");
    await sim.settle();
    const after = (await contextOf(sim.gm)).rows.find((r) => r.name === "Officer");
    expect(after?.controls.map((c) => c.pressed)).toEqual([false, false, true]);
    const alice = await contextOf(sim.client(ALICE));
    expect(alice.rows.flatMap((r) => r.controls.map((c) => `${r.name}:${c.action}`))).toEqual([
      "Aria:siRoll",
      "Cara:siRoll",
    ]);
    expect(alice.list?.slots).toEqual([]);
  });

  it("a claim button per eligible owned PC on each open PC slot; the GM assigns the current slot", async () => {
    const sim = await battle();
    await started(sim);
    // Slots: PC 5/1, NPC 4/4, PC 3/2, NPC 3/2, PC 1/0.
    const alice = await contextOf(sim.client(ALICE));
    const list = alice.list?.slots ?? [];
    expect(list.map((s) => [s.number, s.isPC, s.current])).toEqual([
      ["1", true, true],
      ["2", false, false],
      ["3", true, false],
      ["4", false, false],
      ["5", true, false],
    ]);
    expect(list[0]?.kindAria).toBe("PC slot 1");
    expect(list[1]?.kindAria).toBe("NPC slot 2");
    for (const i of [0, 2, 4])
      expect(list[i]?.controls.map((c) => [c.action, c.text])).toEqual([
        ["siSlotClaim", "Claim for Aria"],
        ["siSlotClaim", "Claim for Cara"],
      ]);
    expect(list[1]?.controls).toEqual([]);
    expect(alice.list?.status).toBe(
      "Slot 1 (PC) is open: a player claims it for a PC who has not acted, or the GM assigns one.",
    );
    const gm = await contextOf(sim.gm);
    expect(gm.list?.slots[0]?.controls.map((c) => c.text)).toEqual(["Assign Aria", "Assign Brom", "Assign Cara"]);
    expect(gm.list?.slots[2]?.controls).toEqual([]);
    expect(gm.list?.toAct).toBe("Aria, Brom, Officer, Trooper 1, Cara");
  });

  it("claims show who holds a slot, with release for the claimant's owner and the GM only", async () => {
    const sim = await battle();
    await started(sim);
    const alice = sim.client(ALICE);
    await apiOn(alice).command(combatOn(alice), { type: "claimSlot", slot: 2, combatantId: caraId(alice) });
    await sim.settle();
    await apiOn(sim.client(BOB)).command(combatOn(sim.client(BOB)), {
      type: "claimSlot",
      slot: 0,
      combatantId: idOf(sim.gm, "brom"),
    });
    await sim.settle();
    const a = await contextOf(alice);
    expect(a.list?.slots[0]).toMatchObject({ filler: "Brom", current: true, controls: [] });
    expect(a.list?.slots[2]).toMatchObject({ claimant: "Cara" });
    expect(a.list?.slots[2]?.controls.map((c) => c.text)).toEqual(["Release Cara"]);
    // Cara holds a claim: only Aria can claim the last PC slot.
    expect(a.list?.slots[4]?.controls.map((c) => c.text)).toEqual(["Claim for Aria"]);
    const b = await contextOf(sim.client(BOB));
    expect(b.list?.slots[2]?.controls).toEqual([]);
    // Brom fills the current slot: acting now, neither "acted" nor "to act".
    expect(b.rows.find((r) => r.name === "Brom")?.mode).toMatchObject({ acted: false, toAct: false });
    expect((await contextOf(sim.gm)).list?.slots[2]?.controls.map((c) => c.text)).toEqual(["Release Cara"]);
  });

  it("with more than three eligible combatants the GM assigns with a select and one button", async () => {
    const sim = await world();
    await slotsEncounter(sim, ["aria", "officer", "trooper1", "trooper2", "trooper3"]);
    await rollChecks(sim, { aria: [1, 1], officer: [4, 4], trooper1: [3, 2], trooper2: [2, 2], trooper3: [2, 1] });
    await combatOn(sim.gm).startCombat();
    await sim.settle();
    const slot = (await contextOf(sim.gm)).list?.slots[0];
    expect(slot?.controls).toEqual([]);
    expect(slot?.assign?.label).toBe("Combatant to assign to slot 1");
    // The button says what it does, not what the select is (issue 15 item 13).
    expect(slot?.assign?.buttonLabel).toBe("Assign the chosen combatant to slot 1");
    expect(slot?.assign?.options.map((o) => o.name)).toEqual(["Officer", "Trooper 1", "Trooper 2", "Trooper 3"]);
    // Players see no assign control.
    expect((await contextOf(sim.client(ALICE))).list?.slots[0]?.assign).toBeNull();
    // Counts agree with their words: "1 advantage", not "1 advantages" (issue 15 item 13).
    const scores = (await contextOf(sim.gm)).list?.slots.map((s) => s.scoresAria);
    expect(scores).toEqual([
      "4 successes, 4 advantages",
      "3 successes, 2 advantages",
      "2 successes, 2 advantages",
      "2 successes, 1 advantage",
      "1 success, 1 advantage",
    ]);
  });

  it("renders the slot list with labelled buttons, text kinds and no untranslated keys", async () => {
    const sim = await battle({ renderTemplates: true });
    await started(sim);
    const app = sim.client(ALICE).ui.combat as TrackerApp;
    await app.render();
    const html = Object.values(app.parts).join("");
    expect(html).toContain("Initiative slots");
    expect(html).toContain('aria-label="PC slot 1"');
    expect(html).toContain('aria-label="NPC slot 2"');
    expect(html).toContain('aria-current="true"');
    expect(html).toContain("Claim for Cara");
    expect(html).toMatch(
      /data-action="siSlotClaim" data-slot="2" data-combatant-id="[^"]+" aria-label="Claim this slot for Aria"/,
    );
    for (const b of html.match(/<button[^>]*>/g) ?? []) expect(b).toMatch(/aria-label="[^"]+"/);
    expect(html).not.toMatch(/STRUCTURED_INITIATIVE\./);
  });
});
