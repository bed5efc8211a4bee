/**
 * Initiative as the running game system rolls it (issue 28 item 3), on the flavour the suite runs
 * (`SIM_GENERATION`). The systems' stand-ins are in `test/sim/systems/initiative.ts`, each citing the
 * public code it is shaped on:
 *
 * - `individual` rolls `Combatant#getInitiativeRoll()` by default, so what the system adds reaches the
 *   roll (dnd5e's advantage, exhaustion and tie-break on the initiative ability; draw-steel's
 *   `2d10 + @A`); ties, groups and the number shown still follow the mode (a tie ranks by what the
 *   roll adds to its dice); the GM can choose the world's formula instead;
 * - `slots` rolls Star Wars FFG's own pool (boost, setback and force dice; a vehicle its Pilot's) and
 *   Genesys's, and says so clearly for an actor with no skills (a vehicle without a pilot).
 */
import { describe, expect, it } from "vitest";
import { createSim, type CreateSimOptions, type Sim, type SimClient } from "../sim/index.js";
import type { Dict, JsonObject } from "../sim/utils.js";
import { installDnd5e, DND5E_SYSTEM } from "../sim/systems/dnd5e.js";
import { installDom } from "../sim/systems/dom.js";
import { installDrawSteel, DRAW_STEEL_SYSTEM } from "../sim/systems/draw-steel.js";
import {
  DRAW_STEEL_INITIATIVE,
  installDnd5eInitiative,
  installDrawSteelInitiative,
  installGenesys,
  installStarWarsFFG,
} from "../sim/systems/initiative.js";
import { decodeArrays, type Json } from "../../src/core/patch.js";
import type { SlotsState } from "../../src/modes/slots/rules/types.js";
import {
  ACTOR,
  ALICE,
  BOB,
  GM,
  SCENES,
  apiOn,
  combatOn,
  encounter,
  expectNoErrors,
  idOf,
  messagesOn,
  refusalText,
  stateOn,
  type ActorKey,
} from "./world.js";

const MODULE = "structured-initiative";
const NAMES: Record<ActorKey, string> = {
  aria: "Aria",
  brom: "Brom",
  officer: "Officer",
  trooper1: "Trooper 1",
  trooper2: "Trooper 2",
  trooper3: "Trooper 3",
};
const OWNERS: Partial<Record<ActorKey, string>> = { aria: ALICE, brom: BOB };

interface Cast {
  readonly system: JsonObject;
  readonly type?: string;
  readonly flags?: JsonObject;
}

/** A world of one game system: these actors (Aria is Alice's, Brom Bob's), this default mode. */
function systemWorld(
  system: { id: string; title: string; initiative: string },
  mode: string,
  cast: Partial<Record<ActorKey, Cast>>,
  setup: (realm: Dict) => void,
  settings: Record<string, Json> = {},
): Promise<Sim> {
  const actors = (Object.keys(cast) as ActorKey[]).map((key) => {
    const owner = OWNERS[key];
    const entry = cast[key] ?? { system: {} };
    return {
      _id: ACTOR[key],
      name: NAMES[key],
      type: entry.type ?? (owner === undefined ? "npc" : "character"),
      ownership: owner === undefined ? { default: 0 } : { default: 0, [owner]: 3 },
      system: entry.system,
      flags: entry.flags ?? {},
    };
  });
  const options: CreateSimOptions = {
    actors,
    scenes: SCENES,
    system,
    systemSetup: setup,
    settings: { [`${MODULE}.defaultMode`]: mode, ...settings },
  };
  return createSim(options);
}

interface RolledMessage {
  readonly formula: string;
  readonly total: number;
}

/** The rolls of the chat messages posted since `from`. */
function rollsSince(sim: Sim, from: number): RolledMessage[] {
  return sim.server.world.messages
    .slice(from)
    .flatMap((m) =>
      ((m as { rolls?: unknown[] }).rolls ?? []).map(
        (r) => (typeof r === "string" ? JSON.parse(r) : r) as RolledMessage,
      ),
    );
}

async function rollFor(client: SimClient, sim: Sim, keys: readonly ActorKey[], faces: readonly number[]) {
  sim.dice.push(...faces);
  await combatOn(client).rollInitiative(keys.map((k) => idOf(client, k)));
  await sim.settle();
}

const byName = (sim: Sim): Record<string, { initiative: number | null; modifier: number | null }> =>
  Object.fromEntries(
    stateOn(sim.gm).combatants.map((c) => [c.name, { initiative: c.initiative, modifier: c.modifier }]),
  );

// ---------------------------------------------------------------------------------------------
// dnd5e

const dnd5e = (realm: Dict): void => {
  installDom(realm);
  installDnd5e(realm);
  installDnd5eInitiative(realm);
};

/** dnd5e-shaped actors (`module/data/actor/templates/attributes.mjs`, the roll data spreads the system data). */
const DND5E_CAST: Partial<Record<ActorKey, Cast>> = {
  // Advantage on initiative; Wisdom is her initiative ability (so the tie-break reads Wisdom).
  aria: {
    system: {
      abilities: { dex: { value: 14, mod: 2 }, wis: { value: 16, mod: 3 } },
      attributes: { init: { ability: "wis", mod: 3, bonus: "2", roll: { mode: 1 } } },
    },
  },
  // Two levels of exhaustion: −4 under the modern rules.
  brom: {
    system: {
      abilities: { dex: { value: 12, mod: 1 } },
      attributes: { init: { ability: "", mod: 1, bonus: "" }, exhaustion: 2 },
    },
  },
  officer: { system: { abilities: { dex: { value: 10, mod: 0 } }, attributes: { init: { ability: "", mod: 0 } } } },
  trooper1: { system: { abilities: { dex: { value: 8, mod: -1 } }, attributes: { init: { ability: "", mod: -1 } } } },
  trooper2: { system: { abilities: { dex: { value: 14, mod: 2 } }, attributes: { init: { ability: "", mod: 2 } } } },
};

async function dnd5eWorld(settings: Record<string, Json> = {}): Promise<Sim> {
  const sim = await systemWorld(DND5E_SYSTEM, "individual", DND5E_CAST, dnd5e, settings);
  // dnd5e's own world setting: ties broken on the initiative ability's score.
  await sim.gm.game.settings.set("dnd5e", "initiativeDexTiebreaker", true);
  await sim.settle();
  return sim;
}

describe("dnd5e (5.3.3 and 6.0.0 shapes): individual rolls dnd5e's own initiative roll by default", () => {
  it("advantage, exhaustion and the tie-break on the initiative ability reach the roll and the order", async () => {
    const sim = await dnd5eWorld();
    expect(sim.gm.game.settings.get(MODULE, "initiativeSource")).toBe("system");
    await encounter(sim, ["aria", "brom"]);
    const from = sim.server.world.messages.length;
    // Aria's two d20s (4, 15: she keeps 15), then Brom's one (18).
    await rollFor(sim.gm, sim, ["aria", "brom"], [4, 15, 18]);
    expect(rollsSince(sim, from).map((r) => r.formula)).toEqual(["2d20kh + 3 + 2 + 0.16", "1d20 + 1 + -4 + 0.12"]);
    // Aria: 15 + 3 + 2 + Wisdom 16 / 100; Brom: 18 + 1 − 4 + Dexterity 12 / 100.
    const rolled = byName(sim);
    expect(rolled.Aria?.initiative).toBeCloseTo(20.16, 10);
    expect(rolled.Aria?.modifier).toBe(5.16);
    expect(rolled.Brom?.initiative).toBeCloseTo(15.12, 10);
    expect(rolled.Brom?.modifier).toBe(-2.88);
    await combatOn(sim.gm).startCombat();
    await sim.settle();
    expect(combatOn(sim.gm).turns.map((c) => c.name)).toEqual(["Aria", "Brom"]);
    expectNoErrors(sim);
  });

  it("a tie ranks by what the roll adds to its dice, then a roll-off; the shown number is the total", async () => {
    const sim = await dnd5eWorld();
    await sim.gm.game.settings.set("dnd5e", "initiativeDexTiebreaker", false);
    await encounter(sim, ["officer", "trooper1", "trooper2"]);
    // Officer 14 + 0, Trooper 1 15 − 1: both 14 with modifiers 0 and −1; Trooper 2 12 + 2: 14 with +2.
    await rollFor(sim.gm, sim, ["officer", "trooper1", "trooper2"], [14, 15, 12]);
    expect(
      apiOn(sim.gm)
        .view(combatOn(sim.gm))
        ?.order.map((id) => combatOn(sim.gm).combatants.get(id)?.name),
    ).toEqual(["Trooper 2", "Officer", "Trooper 1"]);
    expect(stateOn(sim.gm).combatants.map((c) => [c.name, c.modifier])).toEqual([
      ["Officer", 0],
      ["Trooper 1", -1],
      ["Trooper 2", 2],
    ]);
    expectNoErrors(sim);
  });

  it("a group rolls once, the roll of its member with the lowest modifier, read without rolling", async () => {
    const sim = await dnd5eWorld();
    await encounter(sim, ["officer", "trooper1", "trooper2"]);
    const ids = (["officer", "trooper1", "trooper2"] as const).map((k) => idOf(sim.gm, k));
    // The group check's die, queued first: reading the modifiers must not take it.
    sim.dice.push(11);
    const grouped = await apiOn(sim.gm).groupCombatants(combatOn(sim.gm), ids, "squad");
    await sim.settle();
    expect(grouped.every((r) => r.ok)).toBe(true);
    expect(sim.dice.pending).toBe(1);
    expect(stateOn(sim.gm).combatants.map((c) => [c.name, c.modifier])).toEqual([
      ["Officer", 0.1],
      ["Trooper 1", -0.92],
      ["Trooper 2", 2.14],
    ]);
    const from = sim.server.world.messages.length;
    await rollFor(sim.gm, sim, ["officer"], []);
    // Trooper 1's roll (the lowest modifier), once, whispered to the GM as a group check is.
    expect(rollsSince(sim, from).map((r) => r.formula)).toEqual(["1d20 + -1 + 0.08"]);
    expect(sim.server.world.messages.at(-1)).toMatchObject({ whisper: [GM] });
    expect(Object.values(byName(sim)).map((c) => c.initiative)).toEqual([10.08, 10.08, 10.08]);
    expectNoErrors(sim);
  });

  it("a player's roll is checked on the GM against dnd5e's roll for the actor as it stands, and taken", async () => {
    const sim = await dnd5eWorld();
    await encounter(sim, ["aria", "officer"]);
    const alice = sim.client(ALICE);
    await rollFor(alice, sim, ["aria"], [9, 3]);
    expect(messagesOn(alice)).toEqual([]);
    expect(byName(sim).Aria).toEqual({ initiative: 14.16, modifier: 5.16 });
    expect(stateOn(sim.gm).combatants.find((c) => c.name === "Aria")).not.toHaveProperty("typed");
    expectNoErrors(sim);
  });

  it("the GM may choose the world's formula instead: the preset is a suggestion, dnd5e's advantage is not in it", async () => {
    const sim = await dnd5eWorld({ [`${MODULE}.initiativeSource`]: "formula" });
    expect(sim.gm.game.settings.get(MODULE, "modifierFormula")).toBe(
      "@attributes.init.total + @abilities.dex.value / 100",
    );
    await sim.gm.game.settings.set(MODULE, "modifierFormula", "@attributes.init.mod");
    await encounter(sim, ["aria"]);
    const from = sim.server.world.messages.length;
    await rollFor(sim.gm, sim, ["aria"], [7]);
    expect(rollsSince(sim, from).map((r) => r.formula)).toEqual(["1d20 + 3"]);
    expect(byName(sim).Aria).toEqual({ initiative: 10, modifier: 3 });
    expectNoErrors(sim);
  });

  it.runIf(Number(process.env.SIM_GENERATION ?? 13) >= 14)(
    "6.0.0 on v14: its dialog's top-level messageMode (dnd5e PR #7370) is honoured with no deprecation",
    async () => {
      const sim = await dnd5eWorld();
      await encounter(sim, ["aria"]);
      sim.dice.push(5, 16);
      await combatOn(sim.gm).rollInitiative([idOf(sim.gm, "aria")], { messageMode: "gm" });
      await sim.settle();
      expect(sim.server.world.messages.at(-1)).toMatchObject({ whisper: [GM], blind: false });
      expect(byName(sim).Aria?.initiative).toBeCloseTo(21.16, 10);
      expect(sim.gm.compatWarnings).toEqual([]);
    },
  );
});

// ---------------------------------------------------------------------------------------------
// draw-steel

describe("draw-steel (1.0.0): its manifest's 2d10 + @A, where the generic @initiative never resolved", () => {
  const drawSteel = (realm: Dict): void => {
    installDom(realm);
    installDrawSteel(realm);
    installDrawSteelInitiative(realm);
  };
  const cast: Partial<Record<ActorKey, Cast>> = {
    aria: { system: { characteristics: { might: { value: 1 }, agility: { value: 2 } } } },
    officer: { system: { characteristics: { might: { value: 2 }, agility: { value: -1 } } } },
  };

  it("each check is the system's roll with the actor's Agility; nothing is refused", async () => {
    const sim = await systemWorld(
      { ...DRAW_STEEL_SYSTEM, initiative: DRAW_STEEL_INITIATIVE },
      "individual",
      cast,
      drawSteel,
    );
    await encounter(sim, ["aria", "officer"]);
    const from = sim.server.world.messages.length;
    await rollFor(sim.gm, sim, ["aria", "officer"], [3, 4, 9, 8]);
    expect(rollsSince(sim, from).map((r) => r.formula)).toEqual(["2d10 + 2", "2d10 + -1"]);
    expect(byName(sim)).toEqual({ Aria: { initiative: 9, modifier: 2 }, Officer: { initiative: 16, modifier: -1 } });
    expect(messagesOn(sim.gm)).toEqual([]);
    expectNoErrors(sim);
  });

  it("with the generic formula chosen instead, the roll is refused with the formula's message", async () => {
    const sim = await systemWorld(
      { ...DRAW_STEEL_SYSTEM, initiative: DRAW_STEEL_INITIATIVE },
      "individual",
      cast,
      drawSteel,
      { [`${MODULE}.initiativeSource`]: "formula" },
    );
    await encounter(sim, ["aria"]);
    await rollFor(sim.gm, sim, ["aria"], [3]);
    expect(messagesOn(sim.gm)).toEqual([refusalText("invalidFormula")]);
    expect(byName(sim).Aria?.initiative).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Star Wars FFG and Genesys in slots

function slotsOn(client: SimClient): SlotsState {
  const stored = combatOn(client).getFlag(MODULE, "encounter") as { state: Json } | undefined;
  if (stored === undefined) throw new Error("no stored encounter");
  return decodeArrays(stored.state) as unknown as SlotsState;
}

describe("starwarsffg (2.0.3): slots rolls the system's own pool", () => {
  const character = (presence: number, cool: JsonObject): Cast => ({
    system: {
      characteristics: { Presence: { value: presence }, Willpower: { value: 2 } },
      skills: { Cool: { rank: 0, characteristic: "Presence", ...cool }, Vigilance: { rank: 1 } },
    },
  });
  const cast: Partial<Record<ActorKey, Cast>> = {
    // Cool rank 2, Presence 3, with a boost, a setback and a force die from her talents.
    aria: character(3, { rank: 2, boost: 1, setback: 1, force: 1 }),
    brom: character(2, { rank: 1 }),
    // A vehicle piloted by Brom, and one with no crew.
    officer: {
      type: "vehicle",
      system: { stats: { speed: { value: 3 } } },
      flags: { starwarsffg: { crew: [{ actor_id: ACTOR.brom, role: "Pilot" }] } },
    },
    trooper1: { type: "vehicle", system: { stats: { speed: { value: 2 } } } },
  };
  const swffg = (realm: Dict): void => {
    installStarWarsFFG(realm);
  };
  const world = (): Promise<Sim> =>
    systemWorld({ id: "starwarsffg", title: "Star Wars FFG", initiative: "Vigilance" }, "slots", cast, swffg);

  it("boost, setback and force dice join the pool; a vehicle rolls its Pilot's; a player's roll is taken", async () => {
    const sim = await world();
    expect(sim.gm.game.settings.get(MODULE, "slotsSystemPool")).toBe(true);
    await encounter(sim, ["aria", "brom", "officer"], "slots");
    const from = sim.server.world.messages.length;
    await rollFor(sim.client(ALICE), sim, ["aria"], [1, 1, 1, 1, 1, 1]);
    await rollFor(sim.gm, sim, ["officer"], [1, 1]);
    expect(rollsSince(sim, from).map((r) => r.formula)).toEqual(["2dp + 1da + 1db + 1ds + 1df", "1dp + 1da"]);
    const checks = Object.fromEntries(slotsOn(sim.gm).combatants.map((c) => [c.name, c.check]));
    // Aria: 2 successes; 1 + 1 advantage less 1 threat. The vehicle: its Pilot's Cool (rank 1, Presence 2).
    expect(checks.Aria).toEqual({ primary: 2, secondary: 1, skill: "cool" });
    expect(checks.Officer).toEqual({ primary: 1, secondary: 1, skill: "cool" });
    expect(messagesOn(sim.client(ALICE))).toEqual([]);
    expectNoErrors(sim);
  });

  it("a vehicle without a pilot is refused with its own message and rolls nothing", async () => {
    const sim = await world();
    await encounter(sim, ["trooper1"], "slots");
    const from = sim.server.world.messages.length;
    await rollFor(sim.gm, sim, ["trooper1"], []);
    expect(sim.server.world.messages.length).toBe(from);
    expect(messagesOn(sim.gm)).toEqual([refusalText("noSkills", "Trooper 1")]);
    expect(slotsOn(sim.gm).combatants[0]?.check).toBeNull();
    expectNoErrors(sim);
  });
});

describe("genesys: the combatant's own pool builder, and a vehicle it cannot build one for", () => {
  const cast: Partial<Record<ActorKey, Cast>> = {
    aria: { system: { characteristics: { presence: 2, willpower: 3, brawn: 2 } } },
    trooper1: { type: "vehicle", system: { silhouette: 3, speed: 2, handling: 1 } },
  };
  const genesys = (realm: Dict): void => {
    installGenesys(realm, { Aria: { cool: 3 } });
  };

  // The sim's dice carry no Genesys symbol labels, so a character's scores are not read here
  // (presets.test.ts checks its pool); the vehicle's refusal comes before any die.
  it("a character rolls the built pool; a vehicle is refused with the no-skills message", async () => {
    const sim = await systemWorld({ id: "genesys", title: "Genesys", initiative: "1" }, "slots", cast, genesys);
    await encounter(sim, ["aria", "trooper1"], "slots");
    const from = sim.server.world.messages.length;
    await rollFor(sim.gm, sim, ["aria"], [1, 1, 1]);
    expect(rollsSince(sim, from).map((r) => r.formula)).toEqual(["2dp + 1da"]);
    sim.gm.notifications.length = 0;
    await rollFor(sim.gm, sim, ["trooper1"], []);
    expect(sim.server.world.messages.length).toBe(from + 1);
    expect(messagesOn(sim.gm)).toEqual([refusalText("noSkills", "Trooper 1")]);
    expectNoErrors(sim);
  });
});
