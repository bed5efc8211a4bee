/**
 * The tracker inside real systems (issue 14 item 3): each fixture in test/sim/systems/ installs what
 * one system does to combat and the tracker (dnd5e 5.3.3's group rows and group initiative, pf2e's
 * tracker subclass and sort, draw-steel's own tracker and footer parts). In each, every mode renders
 * with no error and shows its rows; systems' own CombatantGroups are never taken as sides; a
 * system's group initiative never overwrites the module's order.
 */
import { describe, expect, it, vi } from "vitest";
import { SYSTEM_FIXTURES, DRAW_STEEL_PARTS, type SystemFixture } from "../sim/systems/index.js";
import type { Sim, SimClient, SimCombat } from "../sim/index.js";
import { ticks } from "../sim/utils.js";
import { apiOn, combatOn, encounter, expectNoErrors, idOf, rollAs, world, type ActorKey } from "./world.js";
import { cid, sidesApi, sidesEncounter, sidesOn, sidesWorld } from "./sides-world.js";

/** Each test boots three clients with a DOM: slower than the DOM-less suites on a busy machine. */
const SLOW = 30_000;

const MODES = ["system", "individual", "sides", "slots", "declare-resolve", "phases"] as const;
const KEYS: readonly ActorKey[] = ["aria", "brom", "officer", "trooper1", "trooper2"];

function fixture(id: string): SystemFixture {
  const found = SYSTEM_FIXTURES.find((f) => f.id === id);
  if (found === undefined) throw new Error(`no fixture ${id}`);
  return found;
}

/** A world running the module on top of a system fixture, rendering real tracker elements. */
function systemWorld(f: SystemFixture): Promise<Sim> {
  return world({ systemSetup: f.setup, system: f.system, renderTemplates: true });
}

/** Let every client's scheduled tracker render run. */
async function rendered(sim: Sim): Promise<void> {
  await sim.settle();
  await ticks(3);
  await sim.settle();
  await ticks(3);
}

function trackerOf(client: SimClient): HTMLElement {
  const el = (client.ui.combat as { element: HTMLElement | null }).element;
  if (el === null) throw new Error(`no tracker element on ${client.userId}`);
  return el;
}

/** The combatant ids of the rows a client's tracker shows. */
function rowIds(client: SimClient, selector: string): string[] {
  return Array.from(trackerOf(client).querySelectorAll<HTMLElement>(selector)).map((r) => r.dataset.combatantId ?? "");
}

/** The GM puts the two troopers into a CombatantGroup of the system's own (a dnd5e group, a draw-steel squad). */
async function systemGroup(sim: Sim, combat: SimCombat, initiative?: number): Promise<string> {
  const [group] = (await combat.createEmbeddedDocuments("CombatantGroup", [
    { name: "Troopers", type: "squad", ...(initiative === undefined ? {} : { initiative }) },
  ])) as Array<{ id: string }>;
  const id = group?.id ?? "";
  await combat.updateEmbeddedDocuments("Combatant", [
    { _id: idOf(sim.gm, "trooper1"), group: id },
    { _id: idOf(sim.gm, "trooper2"), group: id },
  ]);
  await sim.settle();
  return id;
}

describe.each(SYSTEM_FIXTURES.map((f) => [f.id, f] as const))("inside %s", (_id, f) => {
  it.each(MODES)(
    "mode %s renders with no error and shows its rows on every client",
    async (mode) => {
      const consoleErrors = vi.spyOn(console, "error");
      const sim = await systemWorld(f);
      const combat = await encounter(sim, KEYS, mode);
      await systemGroup(sim, combat);
      await rendered(sim);
      // A re-render after the first (the module patches its parts in place from then on).
      for (const client of sim.clients) await (client.ui.combat as { render(): Promise<unknown> }).render();
      await rendered(sim);
      // Rolled and started (as far as the mode lets the GM start at once), then rendered again.
      sim.dice.push(...Array.from({ length: 40 }, (_, i) => (i % 6) + 1));
      await combatOn(sim.gm).rollAll();
      await rendered(sim);
      await combatOn(sim.gm).startCombat();
      await rendered(sim);
      expectNoErrors(sim);
      expect(consoleErrors).not.toHaveBeenCalled();
      consoleErrors.mockRestore();
      const ids = KEYS.map((k) => idOf(sim.gm, k)).sort();
      for (const client of sim.clients) {
        if (mode === "system") {
          // The system's own tracker: its rows, no structured list.
          expect(rowIds(client, ".combatant[data-combatant-id]").sort(), client.userId).toEqual(ids);
          expect(trackerOf(client).querySelector(".si-list"), client.userId).toBeNull();
        } else {
          expect(rowIds(client, ".si-row[data-combatant-id]").sort(), client.userId).toEqual(ids);
          expect(trackerOf(client).querySelector(".si-footer"), client.userId).not.toBeNull();
        }
      }
      if (mode === "sides") {
        // The system's group is not a side: every side is one the module made.
        const names = sidesOn(sim.gm).sides.map((s) => s.name);
        expect(names).not.toContain("Troopers");
        expect(names.length).toBeGreaterThan(0);
      }
    },
    SLOW,
  );
});

describe("dnd5e 5.3.3", () => {
  const dnd5e = fixture("dnd5e");

  it(
    "sides: a player's request on her own combatant does not make dnd5e update a CombatantGroup",
    async () => {
      const sim = await sidesWorld({ systemSetup: dnd5e.setup, system: dnd5e.system, renderTemplates: true });
      await sidesEncounter(sim, ["ace", "jaluun", "officer", "trooper1"]);
      await apiOn(sim.gm).command(combatOn(sim.gm), { type: "start" });
      await rendered(sim);
      const alice = sim.client("player0000000001");
      const heroes = sidesOn(sim.gm).sides[0]?.id ?? "";
      sim.dice.push(4, 5, 6);
      // Ace (Alice's) rolls for the heroes: a request written on Ace's combatant.
      expect(await sidesApi(alice).rollSide(combatOn(alice), heroes)).toEqual({ ok: true });
      await rendered(sim);
      expectNoErrors(sim);
      expect(sidesOn(sim.gm).rolls.map((r) => r.sideId)).toEqual([heroes]);
      // No combatant's `group` names a side: sides are not groups dnd5e treats as its own.
      for (const c of combatOn(sim.gm).combatants.contents) expect(c._source.group ?? null, c.name).toBeNull();
      expect(sidesOn(sim.gm).combatants.find((c) => c.id === cid(sim.gm, "ace"))?.sideId).toBe(heroes);
    },
    SLOW,
  );

  it(
    "individual: a system group's initiative never overwrites the module's order",
    async () => {
      const sim = await systemWorld(dnd5e);
      const combat = await encounter(sim, KEYS, "individual");
      const groupId = await systemGroup(sim, combat, 30);
      await rollAs(sim, { aria: 5, brom: 18, officer: 11, trooper1: 2, trooper2: 14 });
      await rendered(sim);
      const view = apiOn(sim.gm).view(combatOn(sim.gm));
      const byId = (id: string): string => combatOn(sim.gm).combatants.get(id)?.name ?? id;
      // Brom 19, Trooper 2 15, Officer 13, Aria 8, Trooper 1 2: the module's rolls, not the group's 30.
      expect(view?.order.map(byId)).toEqual(["Brom", "Trooper 2", "Officer", "Aria", "Trooper 1"]);
      for (const client of sim.clients)
        expect(combatOn(client).turns.map((c) => c.name)).toEqual([
          "Brom",
          "Trooper 2",
          "Officer",
          "Aria",
          "Trooper 1",
        ]);
      expect(combatOn(sim.gm).groups.get(groupId)).toBeDefined();
      expectNoErrors(sim);
    },
    SLOW,
  );
});

describe("dnd5e 5.3.3: a group's initiative, set or rolled, never changes the module's order", () => {
  const dnd5e = fixture("dnd5e");
  const STRUCTURED = MODES.filter((m) => m !== "system");

  /** Each client's turn order, and whether every combatant shows its own (mirrored) initiative. */
  function shown(sim: Sim): Array<{ turns: string[]; own: boolean }> {
    return sim.clients.map((client) => {
      const combat = combatOn(client);
      return {
        turns: combat.turns.map((c) => c.name),
        own: combat.combatants.contents.every((c) => c.initiative === (c._source.initiative ?? null)),
      };
    });
  }

  it.each(STRUCTURED)(
    "%s",
    async (mode) => {
      const sim = await systemWorld(dnd5e);
      const combat = await encounter(sim, KEYS, mode);
      // The troopers are in a dnd5e group whose initiative is set from the start.
      const groupId = await systemGroup(sim, combat, 30);
      sim.dice.push(...Array.from({ length: 40 }, (_, i) => (i % 6) + 1));
      await combatOn(sim.gm).rollAll();
      await rendered(sim);
      await combatOn(sim.gm).startCombat();
      await rendered(sim);
      const order = apiOn(sim.gm).view(combatOn(sim.gm))?.order;
      const before = shown(sim);
      expect(before.every((b) => b.own)).toBe(true);
      const group = (client: SimClient) => combatOn(client).groups.get(groupId);
      // Set: the GM writes the group's initiative.
      await group(sim.gm)?.update({ initiative: 99 });
      await rendered(sim);
      for (const client of sim.clients) expect(group(client)?.initiative, client.userId).toBe(99);
      expect(shown(sim)).toEqual(before);
      // Rolled: a member's initiative written outside the module, which dnd5e copies to the group; the
      // module puts the member's mirrored initiative back with the member's own update, which dnd5e
      // copies to the group again.
      const trooper = (client: SimClient) => combatOn(client).combatants.get(idOf(sim.gm, "trooper1"));
      const mirrored = trooper(sim.gm)?.initiative;
      const copied: unknown[] = [];
      sim.gm.Hooks.on("updateCombatantGroup", (_group: unknown, changed: unknown) => {
        if (typeof changed === "object" && changed !== null && "initiative" in changed) copied.push(changed.initiative);
      });
      await trooper(sim.gm)?.update({ initiative: 55 });
      await rendered(sim);
      expect(copied).toEqual([55, mirrored]);
      for (const client of sim.clients) {
        expect(trooper(client)?.initiative, client.userId).toBe(mirrored);
        expect(group(client)?.initiative, client.userId).toBe(mirrored);
      }
      expect(shown(sim)).toEqual(before);
      expect(apiOn(sim.gm).view(combatOn(sim.gm))?.order).toEqual(order);
      expectNoErrors(sim);
    },
    SLOW,
  );
});

describe("draw-steel", () => {
  const ds = fixture("draw-steel");

  it(
    "a structured encounter replaces draw-steel's own list and footer; system default keeps them",
    async () => {
      const sim = await systemWorld(ds);
      const combat = await encounter(sim, KEYS, "individual");
      await rendered(sim);
      const parts = (client: SimClient): string[] =>
        Array.from(trackerOf(client).querySelectorAll<HTMLElement>(":scope > [data-application-part]")).map(
          (p) => p.dataset.applicationPart ?? "",
        );
      for (const client of sim.clients) {
        expect(trackerOf(client).querySelector(".ds-tracker"), client.userId).toBeNull();
        expect(trackerOf(client).querySelector(".ds-footer"), client.userId).toBeNull();
        expect(parts(client)[0]).toBe("header");
      }
      await apiOn(sim.gm).setMode(combat, "system");
      await rendered(sim);
      for (const client of sim.clients) {
        expect(trackerOf(client).querySelector(".ds-tracker"), client.userId).not.toBeNull();
        expect(trackerOf(client).querySelector(".si-list"), client.userId).toBeNull();
        expect(parts(client)).toContain(DRAW_STEEL_PARTS.tracker);
      }
      expectNoErrors(sim);
    },
    SLOW,
  );
});

describe("pf2e", () => {
  const pf2e = fixture("pf2e");

  it(
    "system default sorts with pf2e's tie-break; a structured encounter keeps the module's order",
    async () => {
      const sim = await systemWorld(pf2e);
      const combat = await encounter(sim, ["officer", "trooper1"], "system");
      const priorities = async (officer: number, trooper: number): Promise<void> => {
        await combat.updateEmbeddedDocuments("Combatant", [
          { _id: idOf(sim.gm, "officer"), initiative: 12, flags: { pf2e: { overridePriority: { 12: officer } } } },
          { _id: idOf(sim.gm, "trooper1"), initiative: 12, flags: { pf2e: { overridePriority: { 12: trooper } } } },
        ]);
        await rendered(sim);
      };
      await priorities(2, 1);
      // Core's sort would put Officer (by name) first; pf2e's priority puts Trooper 1 first.
      expect(combatOn(sim.gm).turns.map((c) => c.name)).toEqual(["Trooper 1", "Officer"]);
      // Its tracker marked its rows.
      expect(trackerOf(sim.gm).querySelector("li.combatant[data-initiative='12']")).not.toBeNull();
      // Structured: the module's order (Officer rolls higher), whatever pf2e's priorities say.
      await apiOn(sim.gm).setMode(combat, "individual");
      await sim.settle();
      await rollAs(sim, { officer: 15, trooper1: 3 });
      await priorities(2, 1);
      for (const client of sim.clients)
        expect(combatOn(client).turns.map((c) => c.name)).toEqual(["Officer", "Trooper 1"]);
      expectNoErrors(sim);
    },
    SLOW,
  );
});
