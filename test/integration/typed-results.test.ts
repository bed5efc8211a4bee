/**
 * Typed results (issue 15 item 3): a player's `recordInitiative` 99, `recordCheck` 99/99 and
 * `recordSideRoll` 1 must come from a real roll. A result names the chat messages it was rolled in;
 * the active GM checks that each is the requester's own, not used before, rolled with the formula the
 * settings give the actor, and shows the command's totals. A typed number from a player is refused;
 * the GM may still type one, and the tracker marks it as typed.
 */
import { describe, expect, it } from "vitest";
import type { Sim, SimClient } from "../sim/index.js";
import type { JsonObject } from "../sim/utils.js";
import {
  ACTORS,
  ALICE,
  apiOn,
  combatOn,
  encounter,
  expectNoErrors,
  idOf,
  messagesOn,
  refusalText,
  serverCombatJson,
  stateOn,
  world,
} from "./world.js";
import { slotsEncounter, slotsOn } from "./slots-world.js";
import { purposeFlags } from "./dice-world.js";
import { cid, rollSideAs, run, sideId, sidesEncounter, sidesOn, sidesWorld } from "./sides-world.js";

const CARA = "actorCara0000001";
/** Cara is Alice's second PC, with Aria's modifier (+3). */
const cara: JsonObject = {
  _id: CARA,
  name: "Cara",
  type: "character",
  ownership: { default: 0, [ALICE]: 3 },
  system: { attributes: { init: { mod: 3 } } },
};

async function individual(options: { renderTemplates?: boolean } = {}): Promise<Sim> {
  const sim = await world({ actors: [...ACTORS, cara], ...options });
  await encounter(sim, ["aria", "officer"]);
  await combatOn(sim.gm).createEmbeddedDocuments("Combatant", [{ actorId: CARA }]);
  await sim.settle();
  return sim;
}

const caraId = (client: SimClient): string => combatOn(client).combatants.find((c) => c.actorId === CARA)?.id ?? "";

/** A roll the client posts to chat by hand (its message id), made for Aria's initiative as the module asks. */
async function chatRoll(sim: Sim, client: SimClient, formula: string, ...faces: number[]): Promise<string> {
  sim.dice.push(...faces);
  const flags = purposeFlags(client, { type: "recordInitiative", combatantId: idOf(client, "aria") });
  const message = (await new client.api.Roll(formula).toMessage({ flags })) as { id: string };
  await sim.settle();
  return message.id;
}

/** A request written on Aria's combatant by hand, past the client's own checks. */
async function forge(sim: Sim, command: JsonObject): Promise<void> {
  const alice = sim.client(ALICE);
  const request = { id: "forgedRequest001", userId: ALICE, combatId: combatOn(alice).id, command };
  await combatOn(alice)
    .combatants.get(idOf(alice, "aria"))
    ?.update({ flags: { "structured-initiative": { request: JSON.stringify(request) } } });
  await sim.settle();
}

/** Run `act` and check that it changed nothing on the server, posted nothing and told Alice `code`. */
async function expectRefused(sim: Sim, code: string, act: () => Promise<unknown>, name = ""): Promise<void> {
  const before = serverCombatJson(sim);
  const chat = sim.server.world.messages.length;
  const shown = messagesOn(sim.client(ALICE)).length;
  await act();
  await sim.settle();
  const stateAfter = JSON.parse(serverCombatJson(sim)) as JsonObject;
  const stateBefore = JSON.parse(before) as JsonObject;
  // A forged request stays on the combatant that carried it; the encounter itself is unchanged.
  expect(stateAfter.flags).toEqual(stateBefore.flags);
  expect(sim.server.world.messages).toHaveLength(chat);
  expect(messagesOn(sim.client(ALICE)).slice(shown)).toEqual([refusalText(code, name)]);
  expectNoErrors(sim);
}

describe("a player's typed number is refused in every mode", () => {
  it("individual: recordInitiative 99 is not even sent", async () => {
    const sim = await individual();
    const alice = sim.client(ALICE);
    sim.server.resetStats();
    const command = { type: "recordInitiative", combatantId: idOf(alice, "aria"), total: 99, modifier: 3 };
    await expectRefused(sim, "typedResult", () => apiOn(alice).command(combatOn(alice), command), "Aria");
    expect(sim.server.ops.filter((o) => o.writes > 0)).toEqual([]);
  });

  it("slots: recordCheck 99/99 is not even sent", async () => {
    const sim = await world();
    await slotsEncounter(sim, ["aria", "officer"]);
    const alice = sim.client(ALICE);
    sim.server.resetStats();
    const command = { type: "recordCheck", combatantId: idOf(alice, "aria"), primary: 99, secondary: 99 };
    await expectRefused(sim, "typedResult", () => apiOn(alice).command(combatOn(alice), command), "Aria");
    expect(sim.server.ops.filter((o) => o.writes > 0)).toEqual([]);
    expect(slotsOn(sim.gm).slots).toEqual([]);
  });

  it("sides: recordSideRoll 1 is not even sent; the same written by hand is refused by the GM", async () => {
    const sim = await sidesWorld();
    await sidesEncounter(sim, ["ace", "jaluun", "officer"]);
    await run(sim, sim.gm, { type: "start" });
    const alice = sim.client(ALICE);
    const command = { type: "recordSideRoll", sideId: sideId(alice, "Heroes"), total: 1 };
    sim.server.resetStats();
    await expectRefused(sim, "typedResult", () => apiOn(alice).command(combatOn(alice), command));
    expect(sim.server.ops.filter((o) => o.writes > 0)).toEqual([]);
    const request = { id: "forgedRequest001", userId: ALICE, combatId: combatOn(alice).id, command };
    await expectRefused(sim, "typedResult", async () => {
      await combatOn(alice)
        .combatants.get(cid(alice, "ace"))
        ?.update({ flags: { "structured-initiative": { request: JSON.stringify(request) } } });
    });
    expect(sidesOn(sim.gm).rolls).toEqual([]);
  });
});

describe("individual: the GM checks a player's result against the player's own chat roll", () => {
  const aria = (sim: Sim): string => idOf(sim.gm, "aria");

  it("a typed request written by hand is refused by the GM", async () => {
    const sim = await individual();
    await expectRefused(sim, "typedResult", () =>
      forge(sim, { type: "recordInitiative", combatantId: aria(sim), total: 99, modifier: 3 }),
    );
    expect(stateOn(sim.gm).combatants.find((c) => c.name === "Aria")?.initiative).toBeNull();
  });

  it("a roll whose total is not the command's is refused", async () => {
    const sim = await individual();
    const id = await chatRoll(sim, sim.client(ALICE), "1d20 + 3", 5);
    await expectRefused(sim, "rollMismatch", () =>
      forge(sim, { type: "recordInitiative", combatantId: aria(sim), total: 99, modifier: 3, rolls: [id] }),
    );
  });

  it("a roll of another formula than the configured one is refused, even when the total matches", async () => {
    const sim = await individual();
    const id = await chatRoll(sim, sim.client(ALICE), "1d20 + 20", 20);
    await expectRefused(sim, "rollMismatch", () =>
      forge(sim, { type: "recordInitiative", combatantId: aria(sim), total: 40, modifier: 3, rolls: [id] }),
    );
  });

  it("a modifier other than the actor's is refused", async () => {
    const sim = await individual();
    const id = await chatRoll(sim, sim.client(ALICE), "1d20 + 9", 10);
    await expectRefused(sim, "rollMismatch", () =>
      forge(sim, { type: "recordInitiative", combatantId: aria(sim), total: 19, modifier: 9, rolls: [id] }),
    );
  });

  it("someone else's roll is refused", async () => {
    const sim = await individual();
    const id = await chatRoll(sim, sim.gm, "1d20 + 3", 17);
    await expectRefused(sim, "rollMismatch", () =>
      forge(sim, { type: "recordInitiative", combatantId: aria(sim), total: 20, modifier: 3, rolls: [id] }),
    );
  });

  it("the player's own roll of the configured formula with its total is taken, once", async () => {
    const sim = await individual();
    const alice = sim.client(ALICE);
    const id = await chatRoll(sim, alice, "1d20 + 3", 12);
    const first = { type: "recordInitiative", combatantId: idOf(alice, "aria"), total: 15, modifier: 3, rolls: [id] };
    expect(await apiOn(alice).command(combatOn(alice), first)).toEqual({ ok: true });
    await sim.settle();
    expect(stateOn(sim.gm).combatants.find((c) => c.name === "Aria")).toMatchObject({ initiative: 15 });
    expect(stateOn(sim.gm).combatants.find((c) => c.name === "Aria")?.typed).toBeUndefined();
    // The same message for Alice's other PC (same formula, same total): used already.
    const again = { ...first, combatantId: caraId(alice) };
    await expectRefused(sim, "rollMismatch", () => apiOn(alice).command(combatOn(alice), again));
    expect(stateOn(sim.gm).combatants.find((c) => c.name === "Cara")?.initiative).toBeNull();
  });
});

interface RowContext {
  name: string;
  mode: { typed?: boolean } | null;
}
async function rowsOf(client: SimClient): Promise<RowContext[]> {
  const app = client.ui.combat as {
    _prepareContext(o: object): Promise<{ structuredInitiative?: { rows: RowContext[] } | null }>;
  };
  return (await app._prepareContext({})).structuredInitiative?.rows ?? [];
}

describe("the GM may type a result; the tracker marks it as typed", () => {
  it("individual: the GM's typed 14 is taken and shown as typed on every client; a rolled one is not", async () => {
    const sim = await individual({ renderTemplates: true });
    const gm = apiOn(sim.gm);
    const command = { type: "recordInitiative", combatantId: idOf(sim.gm, "officer"), total: 14, modifier: 2 };
    expect(await gm.command(combatOn(sim.gm), command)).toEqual({ ok: true });
    sim.dice.push(8);
    await gm.rollInitiative(combatOn(sim.gm), [idOf(sim.gm, "aria")]);
    await sim.settle();
    for (const client of sim.clients) {
      const rows = await rowsOf(client);
      expect(rows.find((r) => r.name === "Officer")?.mode?.typed).toBe(true);
      expect(rows.find((r) => r.name === "Aria")?.mode?.typed).toBe(false);
    }
    // Rendered with the real templates: the badge, with its hint, in the Officer's row only.
    const app = sim.client(ALICE).ui.combat as { render(): Promise<unknown>; parts: Record<string, string> };
    await app.render();
    const markup = Object.values(app.parts).join("");
    const rowOf = (id: string): string =>
      markup.split("<li").find((li) => li.includes(`data-combatant-id="${id}"`) && li.includes("si-badge")) ?? "";
    expect(rowOf(idOf(sim.gm, "officer"))).toContain(">typed</span>");
    expect(rowOf(idOf(sim.gm, "aria"))).not.toContain(">typed</span>");
    expectNoErrors(sim);
  });

  it("slots: the GM's typed check is marked; re-rolling it removes the mark", async () => {
    const sim = await world();
    await slotsEncounter(sim, ["aria", "officer"]);
    const gm = apiOn(sim.gm);
    const officer = idOf(sim.gm, "officer");
    await gm.command(combatOn(sim.gm), { type: "recordCheck", combatantId: officer, primary: 3, secondary: 1 });
    await sim.settle();
    expect((await rowsOf(sim.client(ALICE))).find((r) => r.name === "Officer")?.mode?.typed).toBe(true);
    sim.dice.push(2, 2);
    await gm.rollInitiative(combatOn(sim.gm), [officer]);
    await sim.settle();
    expect((await rowsOf(sim.client(ALICE))).find((r) => r.name === "Officer")?.mode?.typed).toBe(false);
    expectNoErrors(sim);
  });

  it("sides: the GM's typed side roll is marked in the side panel; a rolled one is not", async () => {
    const sim = await sidesWorld({ renderTemplates: true });
    await sidesEncounter(sim, ["ace", "officer"]);
    await run(sim, sim.gm, { type: "start" });
    await run(sim, sim.gm, { type: "recordSideRoll", sideId: sideId(sim.gm, "Foes"), total: 9 });
    await rollSideAs(sim, "Heroes", [1, 1, 1]);
    expect(sidesOn(sim.client(ALICE)).rolls).toEqual([
      { sideId: sideId(sim.gm, "Foes"), total: 9, typed: true },
      { sideId: sideId(sim.gm, "Heroes"), total: 3 },
    ]);
    const app = sim.client(ALICE).ui.combat as { render(): Promise<unknown>; parts: Record<string, string> };
    await app.render();
    const sides = Object.values(app.parts).join("").split('<li class="si-side"').slice(1);
    const typedIn = (name: string): boolean | undefined =>
      sides.find((li) => li.includes(`>${name}<`))?.includes('si-badge--typed" title="The GM entered this result');
    expect(typedIn("Foes")).toBe(true);
    expect(typedIn("Heroes")).toBe(false);
    expectNoErrors(sim);
  });
});
