/**
 * The `sides` permission matrix (issue 5): declare, react, slow down and the side roll × (the
 * character's owner, another player, the GM). Allowed ones take effect; refused ones change nothing
 * on the server, byte for byte, and show the localised message.
 */
import { describe, expect, it } from "vitest";
import { sideRoller } from "../../src/modes/sides/rules/derived";
import type { Sim, SimClient } from "../sim/index.js";
import { combatOn, expectNoErrors, messagesOn, refusalText, serverCombat, serverCombatJson } from "./world.js";
import {
  ALICE,
  BOB,
  GM,
  cid,
  expectSidesAgreement,
  rollSideAs,
  run,
  sideId,
  sidesApi,
  sidesEncounter,
  sidesOn,
  sidesWorld,
} from "./sides-world.js";

type Setup = "initiative" | "aceDeclares" | "pass";

/** Heroes (Ace: Alice's, Jaluun: Bob's) against Foes, in the step a row needs. */
async function prepare(setup: Setup): Promise<Sim> {
  const sim = await sidesWorld();
  await sidesEncounter(sim, ["ace", "jaluun", "officer", "trooper1"]);
  await run(sim, sim.gm, { type: "start" });
  if (setup === "initiative") return sim;
  await rollSideAs(sim, "Foes", [1, 1, 1, 1]);
  await rollSideAs(sim, "Heroes", [6, 6, 6]);
  const gm = combatOn(sim.gm);
  const api = sidesApi(sim.gm);
  for (const [key, actions] of [
    ["trooper1", ["Shoot"]],
    ["officer", ["Shoot"]],
    ["jaluun", ["Fire"]],
  ] as const) {
    await api.declare(gm, cid(sim.gm, key), [...actions], false);
    await sim.settle();
  }
  if (setup === "aceDeclares") return sim;
  await api.declare(gm, cid(sim.gm, "ace"), ["Shoot", "Run"], false);
  await sim.settle();
  return sim;
}

type Who = "owner" | "other" | "gm";
const USER: Record<Who, string> = { owner: ALICE, other: BOB, gm: GM };

interface Row {
  readonly action: string;
  readonly setup: Setup;
  run(client: SimClient): Promise<{ ok: boolean; code?: string }>;
  effect(sim: Sim): void;
}

const ROWS: Row[] = [
  {
    action: "declare",
    setup: "aceDeclares",
    run: (c) => sidesApi(c).declare(combatOn(c), cid(c, "ace"), ["Shoot"], true),
    effect: (sim) => {
      expect(sidesOn(sim.gm).declarations.find((d) => d.combatantId === cid(sim.gm, "ace"))).toMatchObject({
        actions: [{ text: "Shoot" }],
        forcePoint: true,
      });
    },
  },
  {
    action: "react",
    setup: "pass",
    run: (c) => sidesApi(c).react(combatOn(c), cid(c, "ace"), "parry"),
    effect: (sim) => {
      expect(sidesOn(sim.gm).declarations.find((d) => d.combatantId === cid(sim.gm, "ace"))?.reactions).toEqual([
        { kind: "parry", pass: 1 },
      ]);
    },
  },
  {
    action: "slowDown",
    setup: "pass",
    run: (c) => sidesApi(c).slowDown(combatOn(c), cid(c, "ace"), cid(c, "officer")),
    effect: (sim) => {
      expect(sidesOn(sim.gm).slowed).toEqual([{ combatantId: cid(sim.gm, "ace"), after: cid(sim.gm, "officer") }]);
    },
  },
  {
    action: "recordSideRoll",
    setup: "initiative",
    run: async (c) => {
      return sidesApi(c).rollSide(combatOn(c), sideId(c, "Heroes"));
    },
    effect: (sim) => {
      expect(sidesOn(sim.gm).rolls.map((r) => r.sideId)).toEqual([sideId(sim.gm, "Heroes")]);
    },
  },
];

describe("sides permission matrix", () => {
  for (const row of ROWS) {
    for (const who of ["owner", "other", "gm"] as const) {
      const allowed = who !== "other";
      it(`${row.action} for Ace by ${who}: ${allowed ? "allowed" : "refused (notOwner)"}`, async () => {
        const sim = await prepare(row.setup);
        const client = sim.client(USER[who]);
        const before = serverCombatJson(sim);
        const chatBefore = sim.server.world.messages.length;
        sim.dice.push(3, 3, 3);
        const result = await row.run(client);
        await sim.settle();
        if (allowed) {
          expect(result).toEqual({ ok: true });
          row.effect(sim);
        } else {
          expect(result).toMatchObject({ ok: false, code: "notOwner" });
          expect(serverCombatJson(sim)).toBe(before);
          expect(messagesOn(client)).toContain(refusalText("notOwner", "Ace"));
          expect(sim.server.world.messages).toHaveLength(chatBefore);
        }
        expectSidesAgreement(sim);
        expectNoErrors(sim);
      });
    }
  }
});

describe("hand-written requests get the real reason (issue 27 item 3)", () => {
  /** The stored encounter (state and history), which a refused request leaves byte for byte. */
  const encounterJson = (sim: Sim): string =>
    JSON.stringify((serverCombat(sim).flags as Record<string, Record<string, unknown>>)["structured-initiative"]);

  /** Bob writes a raw request on Jaluun (his), as a console user could. */
  async function bobWrites(sim: Sim, command: Record<string, unknown>): Promise<void> {
    const bob = sim.client(BOB);
    const jaluun = combatOn(bob).combatants.get(cid(bob, "jaluun"));
    const request = JSON.stringify(["handWritten0001", command]);
    await jaluun?.update({ flags: { "structured-initiative": { request } } });
    await sim.settle();
  }

  it("a side roll without a roll for a side Bob does not roll for: he may not roll for it at all", async () => {
    const sim = await prepare("initiative");
    const before = encounterJson(sim);
    const state = sidesOn(sim.gm);
    const foes = sideId(sim.gm, "Foes");
    const roller = state.combatants.find((c) => c.id === sideRoller(state, foes))?.name ?? "?";
    await bobWrites(sim, { type: "recordSideRoll", sideId: foes, total: 30 });
    expect(encounterJson(sim) === before).toBe(true);
    expect(messagesOn(sim.client(BOB))).toEqual([refusalText("notOwner", roller)]);
    expectNoErrors(sim);
  });

  it("his own side's roll without a roll is refused for the missing roll", async () => {
    const sim = await prepare("initiative");
    const heroes = sideId(sim.gm, "Heroes");
    await run(sim, sim.gm, { type: "setRoller", sideId: heroes, combatantId: cid(sim.gm, "jaluun") });
    const before = encounterJson(sim);
    await bobWrites(sim, { type: "recordSideRoll", sideId: heroes, total: 30 });
    expect(encounterJson(sim) === before).toBe(true);
    expect(messagesOn(sim.client(BOB))).toEqual([refusalText("typedResult")]);
    expectNoErrors(sim);
  });

  it("setDefeated, a command of other modes: not part of this mode, written by hand or sent", async () => {
    const sim = await prepare("initiative");
    const before = encounterJson(sim);
    const command = { type: "setDefeated", combatantId: cid(sim.gm, "jaluun"), defeated: true };
    await bobWrites(sim, command);
    expect(encounterJson(sim) === before).toBe(true);
    expect(messagesOn(sim.client(BOB))).toEqual([refusalText("unknownCommand")]);
    expect(await run(sim, sim.client(BOB), command)).toMatchObject({ ok: false, code: "unknownCommand" });
    expect(await run(sim, sim.gm, command)).toMatchObject({ ok: false, code: "unknownCommand" });
    expect(encounterJson(sim) === before).toBe(true);
    expectNoErrors(sim);
  });
});
