/**
 * Keyboard actions (issue 16 item 3) in the simulated Foundry: each is registered with
 * `game.keybindings.register` at `init`, rebindable (its defaults are `editable`), and a key press runs
 * the same call as the tracker's button: the same effect, the same refusal message. A key that does not
 * apply (no encounter, a system-default one, another mode's key) says so, and nothing throws.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, type Sim, type SimClient } from "../sim/index.js";
import {
  ALICE,
  BOB,
  apiOn,
  combatOn,
  encounter,
  expectNoErrors,
  idOf,
  refusalText,
  rollAs,
  serverCombatJson,
  start,
  turnsOn,
  world,
} from "./world.js";
import { rollChecks, slotsEncounter, slotsTable } from "./slots-world.js";
import { declare as declareIntent, phasesEncounter, phasesOn, phasesWorld, send } from "./phases-world.js";
import { cid, rollSideAs, run, sidesEncounter, sidesOn, sidesWorld } from "./sides-world.js";

const EN = JSON.parse(fs.readFileSync(path.resolve(REPO_ROOT, "lang/en.json"), "utf8")) as {
  STRUCTURED_INITIATIVE: {
    Keys: Record<string, string | { Name: string; Hint: string }>;
    Mode: Record<string, string>;
  };
};
const KEYS = EN.STRUCTURED_INITIATIVE.Keys;
const nameOf = (id: string): string => (KEYS[id] as { Name: string }).Name;

/** Aria (Alice) 18, Officer 12, Brom (Bob) 6: individual, started; Aria acts. */
async function individualBattle(): Promise<Sim> {
  const sim = await world();
  await encounter(sim, ["aria", "brom", "officer"]);
  await rollAs(sim, { aria: 15, brom: 5, officer: 10 });
  await start(sim);
  return sim;
}

/** A client's warnings (refusals and "does not apply"), without the info notices. */
function warningsOn(client: SimClient): string[] {
  return client.notifications.filter((n) => n.type === "warning").map((n) => n.message);
}

/** The warnings after the first `mark`. */
function since(client: SimClient, mark: number): string[] {
  return warningsOn(client).slice(mark);
}

/** The server's encounter, with the ids of requests (random per request) blanked. */
function stored(sim: Sim): string {
  return serverCombatJson(sim)
    .replace(/("request":"\[\\")[A-Za-z0-9]{16}/g, "$1#")
    .replace(/("applied":")[A-Za-z0-9]{16}/g, "$1#");
}

describe("the keyboard actions are registered the Foundry way", () => {
  it("each id once, named and hinted from en.json, with its default bindings; next turn is the GM's", async () => {
    const sim = await world();
    const actions = sim.gm.game.keybindings.actions;
    const ours = [...actions.keys()].filter((k) => k.startsWith("structured-initiative."));
    expect(ours).toEqual([
      "structured-initiative.endTurn",
      "structured-initiative.nextTurn",
      "structured-initiative.declare",
      "structured-initiative.claimSlot",
      "structured-initiative.takeTurn",
    ]);
    for (const key of ours) {
      const config = actions.get(key);
      const id = key.split(".")[1] ?? "";
      expect(sim.gm.game.i18n.localize(String(config?.name))).toBe(nameOf(id));
      expect(sim.gm.game.i18n.has(String(config?.hint))).toBe(true);
      expect(typeof config?.onDown).toBe("function");
    }
    expect(sim.gm.game.keybindings.get("structured-initiative", "endTurn")).toEqual([
      { key: "KeyE", modifiers: ["Shift"] },
    ]);
    expect(sim.gm.game.keybindings.get("structured-initiative", "nextTurn")).toEqual([
      { key: "KeyN", modifiers: ["Shift"] },
    ]);
    expect(actions.get("structured-initiative.nextTurn")?.restricted).toBe(true);
    expect(actions.get("structured-initiative.endTurn")?.restricted).toBe(false);
    // The mode keys wait for the user to bind them.
    for (const id of ["claimSlot", "declare", "takeTurn"])
      expect(sim.gm.game.keybindings.get("structured-initiative", id)).toEqual([]);
  });
});

describe("end my turn and next turn", () => {
  it("a player's key ends their turn exactly as the tracker's End turn button does", async () => {
    const byKey = await individualBattle();
    const byButton = await individualBattle();
    expect(turnsOn(byKey.gm).current).toBe("Aria");
    expect(await byKey.client(ALICE).pressKey("endTurn")).toBe(true);
    await byButton.client(ALICE).runAction("siNextTurn");
    await byButton.settle();
    expect(turnsOn(byKey.gm).current).toBe("Officer");
    expect(stored(byKey)).toBe(stored(byButton));
    expect(warningsOn(byKey.client(ALICE))).toEqual(warningsOn(byButton.client(ALICE)));
    expectNoErrors(byKey);
  });

  it("not your turn: the button's refusal message, and nothing changes", async () => {
    const sim = await individualBattle();
    const bob = sim.client(BOB);
    const before = serverCombatJson(sim);
    await bob.pressKey("endTurn");
    const byKey = warningsOn(bob);
    // Aria is not Bob's: the rules' answer to his end-turn request, whichever way he sent it.
    expect(byKey).toEqual([refusalText("notOwner")]);
    await bob.runAction("siNextTurn");
    await sim.settle();
    expect(warningsOn(bob).slice(byKey.length)).toEqual(byKey);
    expect(serverCombatJson(sim)).toBe(before);
    expectNoErrors(sim);
  });

  it("next turn is restricted to the GM: a player's press does nothing, the GM's moves the turn on", async () => {
    const sim = await individualBattle();
    const before = serverCombatJson(sim);
    expect(await sim.client(ALICE).pressKey("nextTurn")).toBe(false);
    expect(serverCombatJson(sim)).toBe(before);
    expect(await sim.gm.pressKey("nextTurn")).toBe(true);
    expect(turnsOn(sim.gm).current).toBe("Officer");
    expectNoErrors(sim);
  });

  it("no encounter, a system-default encounter, another mode's key: a clear message, never an error", async () => {
    const sim = await world();
    const alice = sim.client(ALICE);
    await alice.pressKey("endTurn");
    expect(warningsOn(alice)).toEqual([KEYS.NoCombat]);
    await encounter(sim, ["aria", "officer"], "system");
    await alice.pressKey("endTurn");
    expect(since(alice, 1)).toEqual([refusalText("notStructured")]);
    await apiOn(sim.gm).setMode(combatOn(sim.gm), "individual");
    await sim.settle();
    await alice.pressKey("claimSlot");
    expect(since(alice, 2)).toEqual([
      (KEYS.NotInMode as string)
        .replace("{action}", nameOf("claimSlot"))
        .replace("{mode}", EN.STRUCTURED_INITIATIVE.Mode.individual ?? ""),
    ]);
    expectNoErrors(sim);
  });
});

describe("claim the next PC slot (slots)", () => {
  /** PC 5/1, NPC 4/4, PC 3/2, NPC 3/2; started: the first PC slot is up. */
  async function slotsBattle(): Promise<Sim> {
    const sim = await world();
    await slotsEncounter(sim, ["aria", "brom", "officer", "trooper1"]);
    await rollChecks(sim, { aria: [3, 2], brom: [5, 1], officer: [4, 4], trooper1: [3, 2] });
    await combatOn(sim.gm).startCombat();
    await sim.settle();
    return sim;
  }

  it("claims the PC slot up now for the player's character, as its Claim button does", async () => {
    const byKey = await slotsBattle();
    const byButton = await slotsBattle();
    await byKey.client(ALICE).pressKey("claimSlot");
    const alice = byButton.client(ALICE);
    await alice.runAction("siSlotClaim", { slot: "0", combatantId: idOf(alice, "aria") });
    await byButton.settle();
    expect(slotsTable(byKey.gm)[0]).toBe(">pc:5/1 fill=Aria claim=-");
    expect(stored(byKey)).toBe(stored(byButton));
    expectNoErrors(byKey);
  });

  it("with the NPC slot up, claims the next PC slot ahead; once claimed, the rules say why not again", async () => {
    const sim = await slotsBattle();
    await apiOn(sim.gm).command(combatOn(sim.gm), {
      type: "fillSlot",
      slot: 0,
      combatantId: idOf(sim.gm, "brom"),
    });
    await sim.settle();
    await sim.gm.pressKey("nextTurn");
    expect(slotsTable(sim.gm)[1]).toBe(">npc:4/4 fill=- claim=-");
    const alice = sim.client(ALICE);
    await alice.pressKey("claimSlot");
    expect(slotsTable(sim.gm)[2]).toBe(" pc:3/2 fill=- claim=Aria");
    expect(warningsOn(alice)).toEqual([]);
    // Bob's Brom has acted and the next PC slot is Aria's: the rules' reason is his message.
    const bob = sim.client(BOB);
    const before = serverCombatJson(sim);
    await bob.pressKey("claimSlot");
    expect(warningsOn(bob)).toEqual([refusalText("slotClaimed", "Aria")]);
    expect(serverCombatJson(sim)).toBe(before);
    expectNoErrors(sim);
  });
});

describe("take turn (phases)", () => {
  it("in the heroes' phase starts the player's hero's turn, as Take turn does; before it, the rules' reason", async () => {
    const sim = await phasesWorld();
    await phasesEncounter(sim, ["aria", "brom", "officer"]);
    await send(sim, sim.gm, { type: "start", surprise: false });
    await declareIntent(sim, "officer", "Blaster at Aria", ["aria"]);
    const alice = sim.client(ALICE);
    const before = serverCombatJson(sim);
    await alice.pressKey("takeTurn");
    expect(warningsOn(alice)).toEqual([refusalText("wrongStep")]);
    expect(serverCombatJson(sim)).toBe(before);
    await send(sim, sim.gm, { type: "nextPhase" });
    await alice.pressKey("takeTurn");
    expect(phasesOn(sim.gm).turn?.combatantId).toBe(idOf(sim.gm, "aria"));
    expect(turnsOn(sim.gm).current).toBe("Aria");
    expectNoErrors(sim);
  });
});

describe("declare (sides)", () => {
  it("the declarer's owner gets no message (the form takes the focus); anyone else, the rules' reason", async () => {
    const sim = await sidesWorld();
    await sidesEncounter(sim, ["ace", "jaluun", "officer"]);
    await run(sim, sim.gm, { type: "start" });
    await rollSideAs(sim, "Heroes", [1, 1, 1]);
    await rollSideAs(sim, "Foes", [6, 6, 6, 6]);
    // Heroes rolled lower: they declare first, lowest Perception first: Jaluun (Bob).
    expect(sidesOn(sim.gm).step).toBe("declaration");
    const before = serverCombatJson(sim);
    const bob = sim.client(BOB);
    const alice = sim.client(ALICE);
    await bob.pressKey("declare");
    expect(warningsOn(bob)).toEqual([]);
    await alice.pressKey("declare");
    expect(warningsOn(alice)).toEqual([refusalText("notYourTurn", "Ace")]);
    // Pressing declare sends nothing: the declaration is still the player's to write.
    expect(serverCombatJson(sim)).toBe(before);
    expect(sidesOn(sim.gm).declarations.map((d) => d.combatantId)).not.toContain(cid(sim.gm, "jaluun"));
    expectNoErrors(sim);
  });
});
