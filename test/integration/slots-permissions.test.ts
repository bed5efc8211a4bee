/**
 * The `slots` permission matrix (issue 6): claim, release, fill, next turn and the rest × the PC's
 * owner, another player, the GM. Allowed ones take effect; refused ones change nothing on the server,
 * byte for byte, write nothing, roll nothing and show the localised message.
 */
import { describe, expect, it } from "vitest";
import type { Sim, SimClient } from "../sim/index.js";
import {
  ALICE,
  BOB,
  GM,
  apiOn,
  combatOn,
  expectNoErrors,
  idOf,
  messagesOn,
  refusalText,
  turnsOn,
  world,
} from "./world.js";
import { expectSlotsInvariants, rollChecks, slotsEncounter, slotsOn, slotsTable } from "./slots-world.js";

type Setup = "fresh" | "started" | "ariaClaimed" | "ariaActing" | "npcUp";

/**
 * Aria (Alice's) 3/2, Brom (Bob's) 5/1, Officer 4/4, Trooper 1 3/2 → slots PC 5/1, NPC 4/4, PC 3/2,
 * NPC 3/2; "started": slot 0 (PC) is current and open.
 */
async function prepare(setup: Setup): Promise<Sim> {
  const sim = await world();
  await slotsEncounter(sim, ["aria", "brom", "officer", "trooper1"]);
  if (setup === "fresh") return sim;
  await rollChecks(sim, { aria: [3, 2], brom: [5, 1], officer: [4, 4], trooper1: [3, 2] });
  await combatOn(sim.gm).startCombat();
  await sim.settle();
  const gm = apiOn(sim.gm);
  const combat = combatOn(sim.gm);
  if (setup === "ariaClaimed")
    await gm.command(combat, { type: "claimSlot", slot: 2, combatantId: idOf(sim.gm, "aria") });
  if (setup === "ariaActing")
    await gm.command(combat, { type: "fillSlot", slot: 0, combatantId: idOf(sim.gm, "aria") });
  if (setup === "npcUp") {
    await gm.command(combat, { type: "fillSlot", slot: 0, combatantId: idOf(sim.gm, "brom") });
    await sim.settle();
    await combat.nextTurn();
  }
  await sim.settle();
  return sim;
}

type Who = "owner" | "other" | "gm";
const USER: Record<Who, string> = { owner: ALICE, other: BOB, gm: GM };

interface Row {
  readonly action: string;
  readonly setup: Setup;
  run(client: SimClient): Promise<unknown>;
  /** true: allowed; otherwise the refusal code and the combatant its message names. */
  readonly expect: Record<Who, true | readonly [string, string?]>;
  effect(sim: Sim): void;
}

const aria = (client: SimClient): string => idOf(client, "aria");
const send = (client: SimClient, command: Record<string, unknown>) => apiOn(client).command(combatOn(client), command);

const ROWS: readonly Row[] = [
  {
    action: "roll the check",
    setup: "fresh",
    run: (c) => combatOn(c).rollInitiative([aria(c)]),
    expect: { owner: true, other: ["notOwner", "Aria"], gm: true },
    effect: (sim) => {
      expect(slotsOn(sim.gm).slots).toHaveLength(1);
    },
  },
  {
    action: "choose the check's skill",
    setup: "fresh",
    run: (c) => apiOn(c).setSlotsSkill(combatOn(c), aria(c), "vigilance"),
    expect: { owner: ["notGM"], other: ["notGM"], gm: true },
    effect: (sim) => {
      expect(combatOn(sim.gm).combatants.get(aria(sim.gm))?.getFlag("structured-initiative", "slotsSkill")).toBe(
        "vigilance",
      );
    },
  },
  {
    action: "claim a later PC slot",
    setup: "started",
    run: (c) => send(c, { type: "claimSlot", slot: 2, combatantId: aria(c) }),
    expect: { owner: true, other: ["notOwner", "Aria"], gm: true },
    effect: (sim) => {
      expect(slotsTable(sim.gm)[2]).toBe(" pc:3/2 fill=- claim=Aria");
    },
  },
  {
    action: "claim the current PC slot",
    setup: "started",
    run: (c) => send(c, { type: "claimSlot", slot: 0, combatantId: aria(c) }),
    expect: { owner: true, other: ["notOwner", "Aria"], gm: true },
    effect: (sim) => {
      expect(turnsOn(sim.gm).current).toBe("Aria");
    },
  },
  {
    action: "release a claim",
    setup: "ariaClaimed",
    run: (c) => send(c, { type: "releaseClaim", slot: 2 }),
    expect: { owner: true, other: ["notOwner", "Aria"], gm: true },
    effect: (sim) => {
      expect(slotsTable(sim.gm)[2]).toBe(" pc:3/2 fill=- claim=-");
    },
  },
  {
    action: "fill the current PC slot",
    setup: "started",
    run: (c) => send(c, { type: "fillSlot", slot: 0, combatantId: aria(c) }),
    expect: { owner: true, other: ["notOwner", "Aria"], gm: true },
    effect: (sim) => {
      expect(turnsOn(sim.gm).current).toBe("Aria");
    },
  },
  {
    action: "fill the current NPC slot",
    setup: "npcUp",
    run: (c) => send(c, { type: "fillSlot", slot: 1, combatantId: idOf(c, "officer") }),
    expect: { owner: ["notGM"], other: ["notGM"], gm: true },
    effect: (sim) => {
      expect(turnsOn(sim.gm).current).toBe("Officer");
    },
  },
  {
    action: "next turn (end Aria's turn)",
    setup: "ariaActing",
    run: (c) => combatOn(c).nextTurn(),
    expect: { owner: true, other: ["notOwner", "Aria"], gm: true },
    effect: (sim) => {
      expect(slotsOn(sim.gm).slotIndex).toBe(1);
    },
  },
  {
    action: "next turn on an open slot",
    setup: "started",
    run: (c) => combatOn(c).nextTurn(),
    expect: { owner: ["notYourTurnOpen"], other: ["notYourTurnOpen"], gm: true },
    effect: (sim) => {
      expect(slotsOn(sim.gm).slotIndex).toBe(1);
    },
  },
  {
    action: "next round",
    setup: "ariaActing",
    run: (c) => combatOn(c).nextRound(),
    expect: { owner: ["notGM"], other: ["notGM"], gm: true },
    effect: (sim) => {
      expect(turnsOn(sim.gm)).toMatchObject({ round: 2, current: null });
    },
  },
  {
    action: "previous turn",
    setup: "ariaActing",
    run: (c) => combatOn(c).previousTurn(),
    expect: { owner: ["notGM"], other: ["notGM"], gm: true },
    effect: (sim) => {
      expect(turnsOn(sim.gm).current).toBeNull();
    },
  },
  {
    action: "mark defeated",
    setup: "started",
    run: (c) => send(c, { type: "setDefeated", combatantId: aria(c), defeated: true }),
    expect: { owner: ["notGM"], other: ["notGM"], gm: true },
    effect: (sim) => {
      expect(slotsOn(sim.gm).combatants.find((x) => x.name === "Aria")?.defeated).toBe(true);
    },
  },
];

const CELLS = ROWS.flatMap((row) =>
  (["owner", "other", "gm"] as const).map((who) => ({ row, who, outcome: row.expect[who] })),
);

describe("slots permission matrix: claim, release, fill, next turn … × owner / other player / GM", () => {
  it.each(
    CELLS.map(
      (cell) =>
        [cell.row.action, cell.who, cell.outcome === true ? "applied" : `refused (${cell.outcome[0]})`, cell] as const,
    ),
  )("%s by the %s: %s", async (_action, _who, _label, { row, who, outcome }) => {
    const sim = await prepare(row.setup);
    const client = sim.client(USER[who]);
    sim.server.resetStats();
    const before = JSON.stringify(sim.server.world.combats);
    const chat = sim.server.world.messages.length;
    const dice = sim.dice.pending;
    await row.run(client);
    await sim.settle();
    if (outcome === true) {
      row.effect(sim);
      expect(messagesOn(client)).toEqual([]);
    } else {
      const [code, name] = outcome;
      expect(JSON.stringify(sim.server.world.combats)).toBe(before);
      expect(sim.server.ops.filter((o) => o.writes > 0)).toEqual([]);
      expect(sim.dice.pending).toBe(dice);
      expect(sim.server.world.messages.length).toBe(chat);
      const shown = messagesOn(client);
      expect(shown.length).toBeGreaterThan(0);
      for (const text of shown) {
        expect(text).toBe(refusalText(code, name));
        expect(text).not.toMatch(/STRUCTURED_INITIATIVE|\{name\}/);
      }
    }
    if (row.setup !== "fresh") expectSlotsInvariants(sim);
    expectNoErrors(sim);
  });
});
