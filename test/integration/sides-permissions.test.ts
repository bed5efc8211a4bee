/**
 * The `sides` permission matrix (issue 5): declare, react, slow down and the side roll × (the
 * character's owner, another player, the GM). Allowed ones take effect; refused ones change nothing
 * on the server, byte for byte, and show the localised message.
 */
import { describe, expect, it } from "vitest";
import type { Sim, SimClient } from "../sim/index.js";
import { combatOn, expectNoErrors, messagesOn, refusalText, serverCombatJson } from "./world.js";
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
