/**
 * GM-only Combatant data (issue 15 items 1 and 2): Foundry lets a player update some fields of a
 * combatant they own (the sim's `PLAYER_COMBATANT_KEYS`: `initiative`, `flags`, `system`), but only
 * the GM changes sides (`group` in `sides`, which the sim's server already refuses a player),
 * chooses a check's skill (`slotsSkill` in `slots`) or writes any other module flag but the player's
 * request. The matrix
 * takes its keys from the one declared list (each registered mode's `gmOnlyCombatantKeys`) plus a
 * module flag nobody declared: a player's write is put back by the active GM, the player is told,
 * and nothing else changes on the server.
 */
import { describe, expect, it, vi } from "vitest";
import { MODES } from "../../src/modes/registry";
import type { Sim, SimClient, SimCombatant } from "../sim/index.js";
import { PLAYER_COMBATANT_KEYS } from "../sim/server.js";
import { getProperty } from "../sim/utils.js";
import {
  ALICE,
  combatOn,
  encounter,
  expectNoErrors,
  idOf,
  messagesOn,
  refusalText,
  serverCombatJson,
  world,
} from "./world.js";

// The modes' glue reads Foundry's `Hooks` when its files load; only their declared lists are read here.
vi.hoisted(() => Object.assign(globalThis, { Hooks: {} }));

const UNDECLARED = "flags.structured-initiative.notDeclaredAnywhere";

const CELLS = MODES.flatMap((mode) =>
  [...mode.gmOnlyCombatantKeys, UNDECLARED].flatMap((path) =>
    // A flag is tried with a value the GM wrote and with none; a field always has one.
    (path.startsWith("flags.") ? [true, false] : [true]).map((gmWrote) => ({ mode: mode.id, path, gmWrote })),
  ),
);

function ariaOn(client: SimClient): SimCombatant {
  const combatant = combatOn(client).combatants.get(idOf(client, "aria"));
  if (combatant === undefined) throw new Error("no Aria");
  return combatant;
}

/** A value for `path` unlike Aria's: the Officer's when it differs (another side), else a new string. */
function otherValue(sim: Sim, path: string): unknown {
  const combat = combatOn(sim.gm);
  const officer = combat.combatants.get(idOf(sim.gm, "officer"));
  const theirs: unknown = officer === undefined ? undefined : getProperty(officer._source, path);
  const mine: unknown = getProperty(ariaOn(sim.gm)._source, path);
  return theirs !== undefined && theirs !== null && theirs !== mine ? theirs : "written-by-a-player";
}

describe("GM-only combatant keys: a player's write is put back and the player told", () => {
  it("every registered mode declares its list, and the matrix has a cell for each key", () => {
    expect(CELLS.map((c) => `${c.mode} ${c.path}`)).toEqual(
      expect.arrayContaining(["sides group", "slots flags.structured-initiative.slotsSkill"]),
    );
  });

  it.each(CELLS.map((c) => [c.mode, c.path, c.gmWrote ? "a GM value" : "no GM value", c] as const))(
    "%s: %s (%s)",
    async (_mode, _path, _label, { mode, path, gmWrote }) => {
      const sim = await world();
      await encounter(sim, ["aria", "brom", "officer"], mode);
      if (gmWrote && path.startsWith("flags.")) {
        await ariaOn(sim.gm).update({ [path]: "written-by-the-gm" });
        await sim.settle();
      }
      const before = serverCombatJson(sim);
      const chat = sim.server.world.messages.length;
      const alice = sim.client(ALICE);
      const write = ariaOn(alice).update({ [path]: otherValue(sim, path) });
      // A field outside the keys Foundry lets a player write on an owned combatant (`group`) is
      // refused by the server itself; a module flag is written and put back by the active GM.
      const refusedByFoundry = !PLAYER_COMBATANT_KEYS.has(path.split(".")[0] ?? "");
      if (refusedByFoundry) await expect(write).rejects.toThrow(/lacks permission/);
      else await write;
      await sim.settle();
      expect(serverCombatJson(sim)).toBe(before);
      expect(sim.server.world.messages).toHaveLength(chat);
      expect(messagesOn(alice)).toEqual(refusedByFoundry ? [] : [refusalText("gmOnlyField", "Aria")]);
      for (const client of sim.clients)
        expect(JSON.stringify(ariaOn(client)._source)).toBe(JSON.stringify(ariaOn(sim.gm)._source));
      expectNoErrors(sim);
    },
  );

  it("a GM's write to the same keys stands, and a player's own request is not put back", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "officer"], "slots");
    await ariaOn(sim.gm).update({ "flags.structured-initiative.slotsSkill": "vigilance" });
    await sim.settle();
    expect(ariaOn(sim.client(ALICE)).getFlag("structured-initiative", "slotsSkill")).toBe("vigilance");
    expect(messagesOn(sim.gm)).toEqual([]);
    expectNoErrors(sim);
  });

  it("a player who creates a combatant with module flags gets them put back", async () => {
    const sim = await world();
    await encounter(sim, ["officer"], "slots");
    const alice = sim.client(ALICE);
    const path = "flags.structured-initiative.slotsSkill";
    await combatOn(alice).createEmbeddedDocuments("Combatant", [
      { actorId: "actorAria0000001", flags: { "structured-initiative": { slotsSkill: "vigilance" } } },
    ]);
    await sim.settle();
    const created = combatOn(sim.gm).combatants.find((c) => c.name === "Aria");
    expect(created === undefined ? "missing" : getProperty(created._source, path)).toBeUndefined();
    expect(messagesOn(alice)).toEqual([refusalText("gmOnlyField", "Aria")]);
    expectNoErrors(sim);
  });
});
