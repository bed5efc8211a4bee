/**
 * Query permissions (issue 14 item 7): the active GM tells a player that something they did was
 * refused or put back through the outcome query (`CONFIG.queries`, `User#query`), which its sender
 * may send only with the `QUERY_USER` permission (https://github.com/foundryvtt/foundryvtt/issues/11235).
 * A GM whose role lacks it is shown, on its own client, that the player could not be told, and no
 * query is sent.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_USERS, ROLES, type Sim } from "../sim/index.js";
import {
  ALICE,
  SETTINGS,
  combatOn,
  encounter,
  expectNoErrors,
  idOf,
  messagesOn,
  refusalText,
  rollAs,
  start,
  world,
} from "./world.js";

/** Aria, Brom and the Officer rolled; started. */
async function battle(sim: Sim): Promise<void> {
  await encounter(sim, ["aria", "brom", "officer"]);
  await rollAs(sim, { aria: 15, brom: 10, officer: 4 });
  await start(sim);
}

/** Alice writes her own combatant's initiative outside the module (a key Foundry lets her write). */
async function aliceWritesInitiative(sim: Sim): Promise<number | null> {
  const alice = sim.client(ALICE);
  const aria = combatOn(alice).combatants.get(idOf(alice, "aria"));
  const before = aria?.initiative ?? null;
  sim.server.resetStats();
  await aria?.update({ initiative: 99 });
  await sim.settle();
  return before;
}

const queries = (sim: Sim): string[][] =>
  sim.server.ops
    .filter((o) => o.action === "query")
    .map((o) => [o.userId, o.documentName, ...(o.refused ? ["refused"] : [])]);

describe("the outcome query and QUERY_USER", () => {
  it("a Gamemaster may query: the player whose write was put back is told on their own client", async () => {
    const sim = await world();
    await battle(sim);
    const before = await aliceWritesInitiative(sim);
    expect(combatOn(sim.gm).combatants.get(idOf(sim.gm, "aria"))?.initiative).toBe(before);
    expect(messagesOn(sim.client(ALICE))).toEqual([refusalText("interopInitiativeReverted", "Aria")]);
    expect(queries(sim)).toEqual([[sim.gm.userId, "structured-initiative.outcome"]]);
    expectNoErrors(sim);
  });

  it("an Assistant GM whose role lacks QUERY_USER puts the write back, sends no query and is told the player was not", async () => {
    const users = DEFAULT_USERS.map((u) => (u.role === ROLES.GAMEMASTER ? { ...u, role: ROLES.ASSISTANT } : u));
    const settings = { ...SETTINGS, "core.permissions": { QUERY_USER: [ROLES.GAMEMASTER] } };
    const sim = await world({ users, settings });
    await battle(sim);
    const before = await aliceWritesInitiative(sim);
    expect(combatOn(sim.gm).combatants.get(idOf(sim.gm, "aria"))?.initiative).toBe(before);
    expect(queries(sim)).toEqual([]);
    const told = refusalText("cannotTell").replaceAll("{user}", "Alice");
    expect(messagesOn(sim.gm)).toEqual([told]);
    expect(messagesOn(sim.client(ALICE))).toEqual([]);
    expectNoErrors(sim);
  });

  it("the sim refuses a player's query (QUERY_USER is a GM's by default) unless the world grants it", async () => {
    const sim = await world();
    const gmUser = sim.client(ALICE).game.users.activeGM;
    await expect(gmUser?.query("structured-initiative.outcome", {})).rejects.toThrow(/lacks permission to query/);
    expect(sim.client(ALICE).game.user?.can("QUERY_USER")).toBe(false);
    const granted = await world({
      settings: { ...SETTINGS, "core.permissions": { QUERY_USER: [ROLES.PLAYER, ROLES.GAMEMASTER] } },
    });
    expect(granted.client(ALICE).game.user?.can("QUERY_USER")).toBe(true);
    // The outcome handler answers `false` for data that is no outcome message.
    await expect(granted.client(ALICE).game.users.activeGM?.query("structured-initiative.outcome", {})).resolves.toBe(
      false,
    );
  });
});
