/**
 * The permission matrix (issue 3 item 8; RULES.md "What every mode shares"): a player acts only for
 * combatants they own, everything else is the GM's. Every player action × (the owner, another
 * player, the GM): allowed ones take effect; refused ones change nothing on the server, byte for
 * byte, and show the localised message.
 */
import { describe, expect, it } from "vitest";
import type { Sim, SimClient } from "../sim/index.js";
import {
  ALICE,
  BOB,
  GM,
  apiOn,
  combatOn,
  encounter,
  expectNoErrors,
  idOf,
  initiativesOn,
  messagesOn,
  refusalText,
  rollAs,
  start,
  stateOn,
  turnsOn,
  world,
} from "./world.js";

type Setup = "fresh" | "rolled" | "battle" | "ariaReadied" | "ariaDelaying" | "bromActing";

/** Aria (Alice's), Brom (Bob's), the Officer and a Trooper (NPCs), in the state a row needs. */
async function prepare(setup: Setup): Promise<Sim> {
  const sim = await world();
  await encounter(sim, ["aria", "brom", "officer", "trooper1"]);
  if (setup === "fresh") return sim;
  await rollAs(sim, { aria: 15, brom: 10, officer: 4, trooper1: 1 }); // Aria 18, Brom 11, Officer 6, Trooper 1
  if (setup === "rolled") return sim;
  await start(sim);
  const alice = sim.client(ALICE);
  const aria = idOf(alice, "aria");
  if (setup === "ariaReadied")
    await apiOn(alice).command(combatOn(alice), { type: "ready", combatantId: aria, trigger: "x" });
  if (setup === "ariaDelaying") await apiOn(alice).command(combatOn(alice), { type: "delay", combatantId: aria });
  if (setup === "bromActing") await combatOn(sim.gm).nextTurn();
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
  /** What an allowed action did. */
  effect(sim: Sim): void;
}

const aria = (client: SimClient): string => idOf(client, "aria");
const command =
  (type: string, extra: Record<string, unknown> = {}) =>
  (client: SimClient) =>
    apiOn(client).command(combatOn(client), { type, combatantId: aria(client), ...extra });

const ROWS: readonly Row[] = [
  {
    action: "roll own initiative",
    setup: "fresh",
    run: (c) => combatOn(c).rollInitiative([aria(c)]),
    expect: { owner: true, other: ["notOwner"], gm: true },
    effect: (sim) => {
      expect(initiativesOn(sim.gm).Aria).toEqual(expect.any(Number));
    },
  },
  {
    action: "delay",
    setup: "battle",
    run: command("delay"),
    expect: { owner: true, other: ["notOwner"], gm: true },
    effect: (sim) => {
      expect(turnsOn(sim.gm).current).toBe("Brom");
    },
  },
  {
    action: "ready",
    setup: "battle",
    run: command("ready", { trigger: "the door opens" }),
    expect: { owner: true, other: ["notOwner"], gm: true },
    effect: (sim) => {
      expect(stateOn(sim.gm).combatants.find((c) => c.name === "Aria")?.ready).toBe("the door opens");
    },
  },
  {
    action: "triggerReady",
    setup: "ariaReadied",
    run: command("triggerReady"),
    expect: { owner: true, other: ["notOwner"], gm: true },
    effect: (sim) => {
      expect(turnsOn(sim.gm).current).toBe("Aria");
    },
  },
  {
    action: "endDelay",
    setup: "ariaDelaying",
    run: command("endDelay"),
    expect: { owner: true, other: ["notOwner"], gm: true },
    effect: (sim) => {
      expect(turnsOn(sim.gm)).toMatchObject({ order: ["Aria", "Brom", "Officer", "Trooper 1"], current: "Aria" });
    },
  },
  {
    action: "nextTurn",
    setup: "battle",
    run: (c) => combatOn(c).nextTurn(),
    expect: { owner: true, other: ["notOwner", "Aria"], gm: true },
    effect: (sim) => {
      expect(turnsOn(sim.gm).current).toBe("Brom");
    },
  },
  {
    action: "previousTurn",
    setup: "bromActing",
    run: (c) => combatOn(c).previousTurn(),
    expect: { owner: ["notGM"], other: ["notGM"], gm: true },
    effect: (sim) => {
      expect(turnsOn(sim.gm).current).toBe("Aria");
    },
  },
  {
    action: "nextRound",
    setup: "battle",
    run: (c) => combatOn(c).nextRound(),
    expect: { owner: ["notGM"], other: ["notGM"], gm: true },
    effect: (sim) => {
      expect(turnsOn(sim.gm)).toMatchObject({ round: 2, current: "Aria" });
    },
  },
  {
    action: "setAware",
    setup: "rolled",
    run: command("setAware", { aware: true }),
    expect: { owner: ["notGM"], other: ["notGM"], gm: true },
    effect: (sim) => {
      expect(stateOn(sim.gm).combatants.find((c) => c.name === "Aria")?.aware).toBe(true);
    },
  },
  {
    action: "groupCombatants",
    setup: "fresh",
    run: (c) => apiOn(c).groupCombatants(combatOn(c), [idOf(c, "officer"), idOf(c, "trooper1")], "squad"),
    expect: { owner: ["notGM"], other: ["notGM"], gm: true },
    effect: (sim) => {
      expect(stateOn(sim.gm).combatants.filter((c) => c.groupId === "squad")).toHaveLength(2);
    },
  },
  {
    action: "setMode",
    setup: "rolled",
    run: (c) => apiOn(c).setMode(combatOn(c), "system"),
    expect: { owner: ["notGM"], other: ["notGM"], gm: true },
    effect: (sim) => {
      expect(apiOn(sim.gm).modeOf(combatOn(sim.gm))).toBe("system");
    },
  },
  {
    action: "resetEncounter",
    setup: "battle",
    run: (c) => apiOn(c).resetEncounter(combatOn(c)),
    expect: { owner: ["notGM"], other: ["notGM"], gm: true },
    effect: (sim) => {
      expect(turnsOn(sim.gm).round).toBe(0);
      expect(initiativesOn(sim.gm)).toEqual({ Aria: 18, Brom: 11, Officer: 6, "Trooper 1": 1 });
    },
  },
];

const CELLS = ROWS.flatMap((row) =>
  (["owner", "other", "gm"] as const).map((who) => ({ row, who, outcome: row.expect[who] })),
);

describe("permission matrix: every player action × owner / other player / GM", () => {
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
      const shown = messagesOn(client);
      expect(shown.length).toBeGreaterThan(0);
      for (const text of shown) {
        expect(text).toBe(refusalText(code, name));
        expect(text).not.toMatch(/STRUCTURED_INITIATIVE/);
      }
    }
    expectNoErrors(sim);
  });
});
