/**
 * The shipped macros (`packs/macros/`) run in a player's client (issue 15 item 9): *End My Turn* on
 * someone else's turn says why it is refused ("You can only act for combatants you own."), not
 * "It is not Brom's turn." while it is Brom's turn; on the player's own turn it ends the turn.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SimClient } from "../sim/index.js";
import { REPO_ROOT } from "../sim/index.js";
import { ALICE, BOB, combatOn, encounter, messagesOn, rollAs, start, turnsOn, world } from "./world.js";

function macro(file: string): string {
  const data = JSON.parse(fs.readFileSync(path.resolve(REPO_ROOT, "packs/macros", file), "utf8")) as {
    command: string;
  };
  return data.command;
}

/** Run a script macro's command as Foundry does: the body of an async function, in the user's client. */
async function runMacro(client: SimClient, file: string): Promise<void> {
  await (client.eval(`(async () => {\n${macro(file)}\n})()`) as Promise<unknown>);
}

describe("End My Turn", () => {
  it("on another player's PC's turn: refused with the real reason; on one's own turn: the turn ends", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom", "officer", "trooper1"]);
    await rollAs(sim, { aria: 15, brom: 10, officer: 4, trooper1: 1 }); // Aria 18, Brom 11, Officer 6, Trooper 1
    await start(sim);
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Brom");

    const alice = sim.client(ALICE);
    await runMacro(alice, "end-my-turn.json");
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Brom");
    expect(messagesOn(alice)).toEqual(["You can only act for combatants you own."]);

    const bob = sim.client(BOB);
    await runMacro(bob, "end-my-turn.json");
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Officer");
    expect(messagesOn(bob)).toEqual([]);
  });
});
