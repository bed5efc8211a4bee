/**
 * The shipped macros (`packs/macros/`), run as Foundry runs a script macro (the body of an async
 * function, in the user's own client): each does its action through the module's API, and when it
 * cannot it says why in a localised message: no encounter, an encounter of another mode, no
 * combatant of one's own (or, for the GM, no token selected), or the rules' own refusal (issue 15
 * item 9: *End My Turn* on someone else's turn says "You can only act for combatants you own.").
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Sim, SimClient } from "../sim/index.js";
import { REPO_ROOT } from "../sim/index.js";
import {
  ALICE,
  apiOn,
  BOB,
  combatOn,
  encounter,
  expectNoErrors,
  idOf,
  isNotice,
  messagesOn,
  refusalText,
  rollAs,
  start,
  stateOn,
  tokenOf,
  turnsOn,
  world,
  type ActorKey,
} from "./world.js";
import { cid, d6Token, rollSideAs, run, sidesApi, sidesEncounter, sidesOn, sidesWorld } from "./sides-world.js";
import { rollChecks, slotsEncounter, slotsOn } from "./slots-world.js";
import { commandAs, drEncounter, drWorld, rollIPs } from "./declare-resolve-world.js";
import { declare, phasesEncounter, phasesOn, phasesWorld, send } from "./phases-world.js";

const MACROS = path.resolve(REPO_ROOT, "packs/macros");

function macro(file: string): string {
  const data = JSON.parse(fs.readFileSync(path.join(MACROS, file), "utf8")) as { command: string };
  return data.command;
}

/** Run a script macro's command as Foundry does: the body of an async function, in the user's client. */
async function runMacro(client: SimClient, file: string): Promise<void> {
  await (client.eval(`(async () => {\n${macro(file)}\n})()`) as Promise<unknown>);
}

/** Run a macro in a client, let every client catch up, and return that client's new messages. */
async function said(sim: Sim, client: SimClient, file: string): Promise<string[]> {
  const before = client.notifications.length;
  await runMacro(client, file);
  await sim.settle();
  return client.notifications
    .slice(before)
    .filter((n) => !isNotice(n))
    .map((n) => n.message);
}

const EN = JSON.parse(fs.readFileSync(path.resolve(REPO_ROOT, "lang/en.json"), "utf8")) as {
  STRUCTURED_INITIATIVE: { Macro: Record<string, string>; Mode: Record<string, string> };
};

/** A macro message as en.json words it, placeholders filled in. */
function text(key: string, data: Record<string, string> = {}): string {
  const template = EN.STRUCTURED_INITIATIVE.Macro[key];
  if (template === undefined) throw new Error(`en.json has no macro message "${key}"`);
  return template.replace(/\{(\w+)\}/g, (_, name: string) => data[name] ?? `{${name}}`);
}

/** The modes a macro declares it works in (`const modes = [...]`), or null for every mode. */
function modesOf(file: string): string[] | null {
  const found = /const modes = (\[[^\]]*\]);/.exec(macro(file));
  return found?.[1] === undefined ? null : (JSON.parse(found[1]) as string[]);
}

const ALL_MODES = ["individual", "sides", "slots", "declare-resolve", "phases"];
const FILES = fs.readdirSync(MACROS).filter((f) => f.endsWith(".json"));

/** A client takes control of a token (as a click on it would), releasing the others. */
function control(client: SimClient, tokenId: string): void {
  client.eval(`canvas.tokens.get(${JSON.stringify(tokenId)}).control({ releaseOthers: true })`);
}

describe("every macro", () => {
  it("ships as a script macro with its key, for at least each mode's common actions", () => {
    expect(FILES.length).toBeGreaterThanOrEqual(12);
    const covered = new Set(FILES.flatMap((f) => modesOf(f) ?? ALL_MODES));
    expect([...covered].sort()).toEqual([...ALL_MODES].sort());
  });

  it.each(FILES)("%s without an encounter says there is none", async (file) => {
    const sim = await world();
    const messages = await said(sim, sim.gm, file);
    expect(messages).toEqual([file === "end-my-turn.json" ? text("NoTurn") : text("NoCombat")]);
    expectNoErrors(sim);
  });

  it.each(FILES.filter((f) => modesOf(f) !== null))(
    "%s in an encounter of another mode names the modes it is for",
    async (file) => {
      const modes = modesOf(file) ?? [];
      const other = ALL_MODES.find((m) => !modes.includes(m)) ?? "individual";
      const sim = await world();
      await encounter(sim, ["aria", "officer"], other);
      const before = JSON.stringify(sim.server.world.combats);
      const label = (m: string): string => EN.STRUCTURED_INITIATIVE.Mode[m] ?? m;
      expect(await said(sim, sim.client(ALICE), file)).toEqual([
        text("WrongMode", { modes: modes.map(label).join(" / "), mode: label(other) }),
      ]);
      // Nothing was written.
      expect(JSON.stringify(sim.server.world.combats)).toBe(before);
      expectNoErrors(sim);
    },
  );
});

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

describe("individual macros", () => {
  async function started(keys: readonly ActorKey[] = ["aria", "brom", "officer"]): Promise<Sim> {
    const sim = await world();
    await encounter(sim, keys);
    const faces: Partial<Record<ActorKey, number>> = { aria: 15, brom: 10, officer: 4 }; // Aria 18, Brom 11, Officer 6
    await rollAs(sim, Object.fromEntries(keys.map((k) => [k, faces[k] ?? 1])));
    await start(sim);
    return sim;
  }

  it("Roll My Initiative rolls the player's own combatant only; the GM's, the selected token's", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom", "officer", "trooper1"]);
    const alice = sim.client(ALICE);
    sim.dice.push(12);
    expect(await said(sim, alice, "roll-my-initiative.json")).toEqual([]);
    const rolled = (): Record<string, number | null> =>
      Object.fromEntries(stateOn(sim.gm).combatants.map((c) => [c.name, c.initiative]));
    expect(rolled()).toEqual({ Aria: 15, Brom: null, Officer: null, "Trooper 1": null });
    // The GM owns everyone: the macro rolls only the selected token's combatant, and asks for one.
    expect(await said(sim, sim.gm, "roll-my-initiative.json")).toEqual([text("SelectToken")]);
    control(sim.gm, tokenOf("officer"));
    sim.dice.push(7);
    expect(await said(sim, sim.gm, "roll-my-initiative.json")).toEqual([]);
    expect(rolled()).toEqual({ Aria: 15, Brom: null, Officer: 9, "Trooper 1": null });
    expectNoErrors(sim);
  });

  it("Roll My Initiative for a player with no combatant in the encounter says so, and rolls nothing", async () => {
    const sim = await world();
    await encounter(sim, ["brom", "officer"]);
    const before = JSON.stringify(sim.server.world.combats);
    expect(await said(sim, sim.client(ALICE), "roll-my-initiative.json")).toEqual([text("NoCombatant")]);
    expect(JSON.stringify(sim.server.world.combats)).toBe(before);
  });

  it("Delay My Turn, then Act Now: the delaying PC steps back in at once", async () => {
    const sim = await started();
    const alice = sim.client(ALICE);
    expect(turnsOn(sim.gm).current).toBe("Aria");
    // Not delaying yet: Act Now says so.
    expect(await said(sim, alice, "act-now.json")).toEqual([text("NotDelaying", { name: "Aria" })]);
    expect(await said(sim, alice, "delay-my-turn.json")).toEqual([]);
    expect(turnsOn(sim.gm).current).toBe("Brom");
    expect(stateOn(sim.gm).delaying.map((d) => d.combatantId)).toEqual([idOf(sim.gm, "aria")]);
    expect(await said(sim, alice, "act-now.json")).toEqual([]);
    expect(turnsOn(sim.gm).current).toBe("Aria");
    expect(stateOn(sim.gm).delaying).toEqual([]);
    expectNoErrors(sim);
  });

  it("Act Now for a player with no combatant says so", async () => {
    const sim = await started(["brom", "officer"]);
    expect(await said(sim, sim.client(ALICE), "act-now.json")).toEqual([text("NoCombatant")]);
  });

  it("Start Combat with Surprise starts a surprise round for the GM; a player is told only the GM may", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom", "officer"]);
    await rollAs(sim, { aria: 15, brom: 10, officer: 4 });
    expect(await said(sim, sim.client(ALICE), "start-with-surprise.json")).toEqual([refusalText("notGM")]);
    // Nobody is aware yet: the rules say why there can be no surprise round.
    expect(await said(sim, sim.gm, "start-with-surprise.json")).toEqual([refusalText("notAware")]);
    expect(combatOn(sim.gm).started).toBe(false);
    await apiOn(sim.gm).command(combatOn(sim.gm), { type: "setAware", combatantId: idOf(sim.gm, "aria"), aware: true });
    await sim.settle();
    expect(await said(sim, sim.gm, "start-with-surprise.json")).toEqual([]);
    expect(combatOn(sim.gm).started).toBe(true);
    expect(stateOn(sim.gm).surpriseBattle).toBe(true);
    expectNoErrors(sim);
  });
});

describe("sides macros", () => {
  /** A sides round in its first pass: Heroes rolled higher, everyone declared one action. */
  async function inPass(): Promise<Sim> {
    const sim = await sidesWorld();
    await sidesEncounter(sim, ["ace", "jaluun", "officer"]);
    await run(sim, sim.gm, { type: "start" });
    await rollSideAs(sim, "Heroes", [6, 6, 6]);
    await rollSideAs(sim, "Foes", [1, 1, 1, 1]);
    for (const key of ["officer", "jaluun", "ace"] as const) {
      await sidesApi(sim.gm).declare(combatOn(sim.gm), cid(sim.gm, key), ["Shoot"], false);
      await sim.settle();
    }
    expect(sidesOn(sim.gm).step).toBe("pass");
    return sim;
  }
  const reactions = (sim: Sim, key: "ace" | "jaluun"): unknown =>
    sidesOn(sim.gm).declarations.find((d) => d.combatantId === cid(sim.gm, key))?.reactions;

  it("Dodge and Parry: the player's own character reacts, in this pass", async () => {
    const sim = await inPass();
    expect(await said(sim, sim.client(ALICE), "dodge.json")).toEqual([]);
    expect(await said(sim, sim.client(BOB), "parry.json")).toEqual([]);
    expect(reactions(sim, "ace")).toEqual([{ kind: "dodge", pass: 1 }]);
    expect(reactions(sim, "jaluun")).toEqual([{ kind: "parry", pass: 1 }]);
    expectNoErrors(sim);
  });

  it("Dodge by the GM asks for a token; with the Officer's token selected, the Officer dodges", async () => {
    const sim = await inPass();
    expect(await said(sim, sim.gm, "dodge.json")).toEqual([text("SelectToken")]);
    control(sim.gm, d6Token("officer"));
    expect(await said(sim, sim.gm, "dodge.json")).toEqual([]);
    expect(sidesOn(sim.gm).declarations.find((d) => d.combatantId === cid(sim.gm, "officer"))?.reactions).toEqual([
      { kind: "dodge", pass: 1 },
    ]);
  });

  it("Dodge before the passes is refused with the rules' reason, and nothing is written", async () => {
    const sim = await sidesWorld();
    await sidesEncounter(sim, ["ace", "officer"]);
    const before = JSON.stringify(sim.server.world.combats);
    const messages = await said(sim, sim.client(ALICE), "dodge.json");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toBe(refusalText("notStarted"));
    expect(JSON.stringify(sim.server.world.combats)).toBe(before);
  });
});

describe("slots macro", () => {
  it("Claim the Next PC Slot claims the first open PC slot; with nothing left to claim it says so", async () => {
    const sim = await world();
    await slotsEncounter(sim, ["aria", "brom", "officer"]);
    await rollChecks(sim, { aria: [4, 1], brom: [6, 2], officer: [5, 5] });
    await start(sim);
    const alice = sim.client(ALICE);
    // Slots: PC 6·2 (now, open), NPC 5·5, PC 4·1.
    expect(slotsOn(sim.gm).slots.map((s) => [s.kind, s.filledBy, s.claimedBy])).toEqual([
      ["pc", null, null],
      ["npc", null, null],
      ["pc", null, null],
    ]);
    expect(await said(sim, alice, "claim-next-slot.json")).toEqual([]);
    // The first open PC slot is the current one: claiming it fills it, and Aria acts now.
    const aria = idOf(sim.gm, "aria");
    expect(slotsOn(sim.gm).slots.map((s) => s.filledBy ?? s.claimedBy)).toEqual([aria, null, null]);
    expect(combatOn(sim.gm).combatant?.name).toBe("Aria");
    // Aria has her slot this round: none other can be claimed for her.
    const before = JSON.stringify(sim.server.world.combats);
    expect(await said(sim, alice, "claim-next-slot.json")).toEqual([text("NoSlot", { name: "Aria" })]);
    expect(JSON.stringify(sim.server.world.combats)).toBe(before);
    expectNoErrors(sim);
  });
});

describe("declare-resolve macros", () => {
  /** Aria (slowest) declares first; Brom next. */
  async function declaring(): Promise<Sim> {
    const sim = await drWorld();
    await drEncounter(sim, ["aria", "brom"]);
    await rollIPs(sim, { aria: [1, 1], brom: [9, 9] });
    await start(sim);
    expect(combatOn(sim.gm).combatant?.name).toBe("Aria");
    return sim;
  }
  const step = (sim: Sim): [number, string, string | null] => {
    const view = apiOn(sim.gm).view(combatOn(sim.gm));
    return [view?.round ?? 0, view?.step ?? "", combatOn(sim.gm).combatant?.name ?? null];
  };

  it("Declare No Actions on one's turn to declare: declared, empty; out of turn: the rules' reason", async () => {
    const sim = await declaring();
    const bob = sim.client(BOB);
    const refused = await said(sim, bob, "declare-no-actions.json");
    expect(refused).toEqual([refusalText("notYourTurn", "Brom")]);
    expect(step(sim)).toEqual([1, "declare", "Aria"]);
    expect(await said(sim, sim.client(ALICE), "declare-no-actions.json")).toEqual([]);
    expect(step(sim)).toEqual([1, "declare", "Brom"]);
    expectNoErrors(sim);
  });

  it("Confirm the Upkeep: a player is told only the GM may; the GM's starts round 2", async () => {
    const sim = await declaring();
    await commandAs(sim, sim.client(ALICE), { type: "declare", combatantId: idOf(sim.gm, "aria"), actions: [] });
    await commandAs(sim, sim.client(BOB), { type: "declare", combatantId: idOf(sim.gm, "brom"), actions: [] });
    expect(step(sim)).toEqual([1, "upkeep", null]);
    expect(await said(sim, sim.client(ALICE), "confirm-upkeep.json")).toEqual([refusalText("notGM")]);
    expect(step(sim)).toEqual([1, "upkeep", null]);
    expect(await said(sim, sim.gm, "confirm-upkeep.json")).toEqual([]);
    expect(step(sim).slice(0, 2)).toEqual([2, "declare"]);
    expectNoErrors(sim);
  });
});

describe("phases macros", () => {
  async function foesDeclared(): Promise<Sim> {
    const sim = await phasesWorld();
    await phasesEncounter(sim, ["aria", "brom", "officer"]);
    await start(sim);
    await declare(sim, "officer", "Charge");
    return sim;
  }

  it("Next Phase: a player is told only the GM may; the GM's moves on to the heroes", async () => {
    const sim = await foesDeclared();
    expect(await said(sim, sim.client(BOB), "next-phase.json")).toEqual([refusalText("notGM")]);
    expect(phasesOn(sim.gm).phase).toBe("foesDeclare");
    expect(await said(sim, sim.gm, "next-phase.json")).toEqual([]);
    expect(phasesOn(sim.gm).phase).toBe("heroes");
    expectNoErrors(sim);
  });

  it("Take My Turn: too early, the rules' reason; in the heroes' phase the player's hero acts", async () => {
    const sim = await foesDeclared();
    const bob = sim.client(BOB);
    expect(await said(sim, bob, "take-my-turn.json")).toEqual([refusalText("wrongStep")]);
    expect(combatOn(sim.gm).combatant?.name).not.toBe("Brom");
    await send(sim, sim.gm, { type: "nextPhase" });
    expect(await said(sim, bob, "take-my-turn.json")).toEqual([]);
    expect(combatOn(sim.gm).combatant?.name).toBe("Brom");
    expect(apiOn(sim.gm).view(combatOn(sim.gm))?.current).toBe(idOf(sim.gm, "brom"));
    expectNoErrors(sim);
  });
});
