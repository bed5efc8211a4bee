/**
 * The `slots` tracker (issue 6 item 6, issue 29) as each user sees it: the slot strip with PC/NPC
 * kinds, who filled or claimed each slot, the current slot; on the row of each eligible PC the player
 * owns, a claim button per open PC slot; a release button on the claimant's row for its owner and
 * the GM; the GM's fill button for the current slot on each eligible combatant's row, whatever their
 * number; and the GM's skill choice before the start. Rendered with the real templates, every button
 * has a localised accessible name and no key leaks.
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
  shownName: string;
  scoresAria: string;
}
interface SlotButton {
  action: string;
  slot: string;
  combatantId: string;
  text: string;
  ariaLabel: string;
  primary: boolean;
}
interface Ctx {
  rows: {
    id: string;
    name: string;
    controls: Control[];
    mode: { toAct: boolean; acted: boolean; skillLabel: string; slotButtons: SlotButton[] } | null;
  }[];
  setupControls: Control[];
  list: { slots: SlotRow[]; status: string } | null;
}

/** The slot buttons on each row that has any, by name: their visible texts. */
function buttonsByRow(ctx: Ctx): Record<string, string[]> {
  return Object.fromEntries(
    ctx.rows
      .filter((r) => (r.mode?.slotButtons.length ?? 0) > 0)
      .map((r) => [r.name, r.mode?.slotButtons.map((b) => b.text) ?? []]),
  );
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

  it("claim buttons on each eligible owned PC's row, one per open PC slot; the GM fills the current slot from each eligible row", async () => {
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
    expect(buttonsByRow(alice)).toEqual({
      Aria: ["Claim slot 1", "Claim slot 3", "Claim slot 5"],
      Cara: ["Claim slot 1", "Claim slot 3", "Claim slot 5"],
    });
    const aria = alice.rows.find((r) => r.name === "Aria")?.mode?.slotButtons ?? [];
    // The current slot's claim is the row's main action; every button says which slot, for whom.
    expect(aria.map((b) => [b.action, b.slot, b.primary, b.ariaLabel])).toEqual([
      ["siSlotClaim", "0", true, "Claim slot 1 for Aria"],
      ["siSlotClaim", "2", false, "Claim slot 3 for Aria"],
      ["siSlotClaim", "4", false, "Claim slot 5 for Aria"],
    ]);
    expect(alice.list?.status).toBe("Slot 1 (PC) is open.");
    const gm = await contextOf(sim.gm);
    expect(buttonsByRow(gm)).toEqual({ Aria: ["Fill slot 1"], Brom: ["Fill slot 1"], Cara: ["Fill slot 1"] });
    expect(gm.rows.find((r) => r.name === "Brom")?.mode?.slotButtons[0]?.ariaLabel).toBe("Fill slot 1 with Brom");
    // Who still has to act is each row's own badge.
    expect(gm.rows.filter((r) => r.mode?.toAct === true).map((r) => r.name)).toEqual([
      "Aria",
      "Brom",
      "Officer",
      "Trooper 1",
      "Cara",
    ]);
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
    expect(a.list?.slots[0]).toMatchObject({ filler: "Brom", current: true, shownName: "Brom" });
    expect(a.list?.slots[2]).toMatchObject({ claimant: "Cara", shownName: "Cara" });
    // Cara holds a claim: she may release it; only Aria can claim the last PC slot.
    expect(buttonsByRow(a)).toEqual({ Aria: ["Claim slot 5"], Cara: ["Release slot 3"] });
    const b = await contextOf(sim.client(BOB));
    expect(buttonsByRow(b)).toEqual({});
    // Brom fills the current slot: acting now, neither "acted" nor "to act".
    expect(b.rows.find((r) => r.name === "Brom")?.mode).toMatchObject({ acted: false, toAct: false });
    expect(buttonsByRow(await contextOf(sim.gm))).toEqual({ Cara: ["Release slot 3"] });
  });

  it("with four eligible NPCs the GM fills the slot as with one: a Fill button on each NPC's row", async () => {
    const sim = await world();
    await slotsEncounter(sim, ["aria", "officer", "trooper1", "trooper2", "trooper3"]);
    await rollChecks(sim, { aria: [1, 1], officer: [4, 4], trooper1: [3, 2], trooper2: [2, 2], trooper3: [2, 1] });
    await combatOn(sim.gm).startCombat();
    await sim.settle();
    const gm = await contextOf(sim.gm);
    expect(gm.list?.status).toBe("Slot 1 (NPC) is open.");
    expect(buttonsByRow(gm)).toEqual({
      Officer: ["Fill slot 1"],
      "Trooper 1": ["Fill slot 1"],
      "Trooper 2": ["Fill slot 1"],
      "Trooper 3": ["Fill slot 1"],
    });
    const officer = gm.rows.find((r) => r.name === "Officer");
    expect(officer?.mode?.slotButtons).toEqual([
      {
        keepKey: "slot-button:Fill:1",
        action: "siSlotFill",
        slot: "0",
        combatantId: officer?.id,
        text: "Fill slot 1",
        ariaLabel: "Fill slot 1 with Officer",
        primary: true,
      },
    ]);
    // Players see no fill control: Alice may only claim the later PC slot for Aria.
    expect(buttonsByRow(await contextOf(sim.client(ALICE)))).toEqual({ Aria: ["Claim slot 5"] });
    // Counts agree with their words: "1 advantage", not "1 advantages" (issue 15 item 13).
    const scores = gm.list?.slots.map((s) => s.scoresAria);
    expect(scores).toEqual([
      "4 successes, 4 advantages",
      "3 successes, 2 advantages",
      "2 successes, 2 advantages",
      "2 successes, 1 advantage",
      "1 success, 1 advantage",
    ]);
  });

  it("renders the slot strip with labelled buttons, text kinds and no untranslated keys", async () => {
    const sim = await battle({ renderTemplates: true });
    await started(sim);
    const app = sim.client(ALICE).ui.combat as TrackerApp;
    await app.render();
    const html = Object.values(app.parts).join("");
    expect(html).toContain('aria-label="Initiative slots"');
    // Each slot once, its kind and scores in its text.
    expect(html.match(/class="si-slot si-slot--/g)).toHaveLength(5);
    expect(html).toContain("PC slot 1, 5 successes, 1 advantage: Open");
    expect(html).toContain("NPC slot 2, 4 successes, 4 advantages");
    expect(html).toContain('aria-current="true"');
    expect(html).toContain('data-si="slot-status">Slot 1 (PC) is open.</p>');
    expect(html).toContain(">Claim slot 3</button>");
    expect(html).toMatch(
      /data-action="siSlotClaim" data-slot="2" data-combatant-id="[^"]+" data-si-key="slot-button:Claim:3" aria-label="Claim slot 3 for Aria"/,
    );
    for (const b of html.match(/<button[^>]*>/g) ?? []) expect(b).toMatch(/aria-label="[^"]+"/);
    expect(html).not.toMatch(/STRUCTURED_INITIATIVE\./);
  });
});
