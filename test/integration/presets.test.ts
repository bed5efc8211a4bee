/**
 * Presets checked against each game system's public data model (issue 16 item 1). Each world runs
 * the built module with `game.system.id` set to the system, so the settings' registered defaults are
 * that system's presets; its actors are shaped as the system shapes them (file and version cited per
 * case), and the module's own path — roll data → formula → roll → recorded result — must come to the
 * number the system itself would use.
 */
import { describe, expect, it } from "vitest";
import { createSim, type CreateSimOptions, type Sim, type SimClient } from "../sim/index.js";
import type { Dict, JsonObject } from "../sim/utils.js";
import type { SimClasses } from "../sim/runtime.js";
import type { RollClass } from "../sim/roll.js";
import { decodeArrays, type Json } from "../../src/core/patch.js";
import type { SidesState } from "../../src/modes/sides/rules/types.js";
import type { SlotsState } from "../../src/modes/slots/rules/types.js";
import type { DeclareResolveState } from "../../src/modes/declare-resolve/rules/types.js";
import {
  ACTOR,
  ALICE,
  BOB,
  SCENES,
  combatOn,
  encounter,
  expectNoErrors,
  idOf,
  initiativesOn,
  stateOn,
  type ActorKey,
} from "./world.js";

const MODULE = "structured-initiative";

type Shape = Partial<Record<ActorKey, JsonObject>>;

/** A world of one game system: these actors' system data (Aria is Alice's PC, Brom Bob's), this default mode. */
function systemWorld(
  systemId: string,
  mode: string,
  shapes: Shape,
  extra: Omit<CreateSimOptions, "actors" | "scenes" | "system"> = {},
): Promise<Sim> {
  const owners: Partial<Record<ActorKey, string>> = { aria: ALICE, brom: BOB };
  const names: Record<ActorKey, string> = {
    aria: "Aria",
    brom: "Brom",
    officer: "Officer",
    trooper1: "Trooper 1",
    trooper2: "Trooper 2",
    trooper3: "Trooper 3",
  };
  const actors = (Object.keys(shapes) as ActorKey[]).map((key) => {
    const owner = owners[key];
    return {
      _id: ACTOR[key],
      name: names[key],
      type: owner === undefined ? "npc" : "character",
      ownership: owner === undefined ? { default: 0 } : { default: 0, [owner]: 3 },
      system: shapes[key] ?? {},
    };
  });
  return createSim({
    ...extra,
    actors,
    scenes: SCENES,
    system: { id: systemId, title: systemId, initiative: "1d20" },
    // The individual check from the world's formulas: these are the presets the GM is offered when
    // choosing a formula over the system's own roll (test/integration/system-initiative.test.ts).
    settings: { [`${MODULE}.defaultMode`]: mode, [`${MODULE}.initiativeSource`]: "formula", ...(extra.settings ?? {}) },
  });
}

function setting(client: SimClient, key: string): unknown {
  return client.game.settings.get(MODULE, key);
}

function stored(client: SimClient): unknown {
  const flag = combatOn(client).getFlag(MODULE, "encounter") as { state: Json } | undefined;
  if (flag === undefined) throw new Error("no stored encounter");
  return decodeArrays(flag.state);
}

async function roll(sim: Sim, keys: readonly ActorKey[], faces: readonly number[]): Promise<void> {
  sim.dice.push(...faces);
  await combatOn(sim.gm).rollInitiative(keys.map((k) => idOf(sim.gm, k)));
  await sim.settle();
}

describe("dnd5e (5.3.3, commit 965ad2d): the initiative total and the Dexterity tie-break", () => {
  // module/data/actor/templates/attributes.mjs (prepareInitiative): init.mod is the ability modifier
  // alone, init.total adds the initiative bonus, proficiency and check bonuses.
  // module/data/abstract/actor-data-model.mjs (getRollData): roll data spreads the system data.
  const shapes: Shape = {
    aria: {
      abilities: { dex: { value: 14, mod: 2 } },
      attributes: { init: { ability: "", mod: 2, bonus: "3", total: 5 } },
    },
    brom: {
      abilities: { dex: { value: 12, mod: 1 } },
      attributes: { init: { ability: "", mod: 1, bonus: "4", total: 5 } },
    },
  };

  it("the preset reads @attributes.init.total (not init.mod) and ranks equal totals by Dexterity", async () => {
    const sim = await systemWorld("dnd5e", "individual", shapes);
    expect(setting(sim.gm, "modifierFormula")).toBe("@attributes.init.total + @abilities.dex.value / 100");
    await encounter(sim, ["brom", "aria"]);
    await roll(sim, ["brom", "aria"], [10, 10]);
    const init = initiativesOn(sim.gm);
    // d20 10 + total 5 + Dex / 100: the total, not the ability modifier (which would give 12 and 11).
    expect(init.Aria).toBeCloseTo(15.14, 10);
    expect(init.Brom).toBeCloseTo(15.12, 10);
    expect(stateOn(sim.gm).combatants.find((c) => c.name === "Aria")?.modifier).toBeCloseTo(5.14, 10);
    await combatOn(sim.gm).startCombat();
    await sim.settle();
    // Equal totals: the higher Dexterity acts first (Aria), with no roll-off asked for.
    expect(combatOn(sim.gm).turns.map((c) => c.name)).toEqual(["Aria", "Brom"]);
    expectNoErrors(sim);
  });
});

/**
 * pf2e: `ActorPF2e#getRollData` is `{ actor: this, … }` (foundryvtt/pf2e PR #8526,
 * `src/module/actor/base.ts`); a creature's `system.initiative` is the initiative statistic's trace
 * data (`src/module/actor/character/document.ts`, `ActorInitiative#getTraceData`), whose
 * `totalModifier` is the check modifier (`src/module/system/statistic/statistic.ts`,
 * `getTraceData`); `system.perception` the Perception statistic's.
 */
function installPf2eActor(realm: Dict): void {
  const config = realm.CONFIG as { Actor: { documentClass: SimClasses["Actor"] } };
  const Base = config.Actor.documentClass;
  class ActorPF2e extends Base {
    override getRollData(): Dict {
      return { actor: this };
    }
  }
  config.Actor.documentClass = ActorPF2e;
}

describe("pf2e: roll data is { actor }; the initiative statistic's total modifier, Perception by default", () => {
  const trace = (slug: string, mod: number): JsonObject => ({
    slug,
    label: slug,
    value: mod,
    totalModifier: mod,
    dc: 10 + mod,
  });
  const shapes: Shape = {
    // Initiative from Perception (the default statistic): the two agree.
    aria: {
      initiative: { statistic: "perception", tiebreakPriority: 2, ...trace("perception", 7) },
      perception: trace("perception", 7),
    },
    // Initiative from Stealth: the statistic's total, not Perception's.
    officer: {
      initiative: { statistic: "stealth", tiebreakPriority: 1, ...trace("stealth", 9) },
      perception: trace("perception", 4),
    },
  };

  it("the preset reads @actor.system.initiative.totalModifier and follows the actor's initiative statistic", async () => {
    const sim = await systemWorld("pf2e", "individual", shapes, { systemSetup: installPf2eActor });
    expect(setting(sim.gm, "modifierFormula")).toBe("@actor.system.initiative.totalModifier");
    await encounter(sim, ["aria", "officer"]);
    await roll(sim, ["aria", "officer"], [10, 10]);
    expect(initiativesOn(sim.gm)).toEqual({ Aria: 17, Officer: 19 });
    const perception = (key: ActorKey) =>
      (sim.gm.game.actors.get(ACTOR[key])?.system as { perception: { totalModifier: number } }).perception
        .totalModifier;
    // Aria rolls with Perception (her initiative statistic); the Officer with Stealth, not Perception.
    expect(stateOn(sim.gm).combatants.map((c) => [c.name, c.modifier])).toEqual([
      ["Aria", perception("aria")],
      ["Officer", 9],
    ]);
    expect(perception("officer")).toBe(4);
    expectNoErrors(sim);
  });
});

/**
 * worldbuilding (commit 02659bc, `module/actor.js`, `getRollData`; `module/simple.js` registers
 * `macroShorthand`, default on): attributes are `{ dtype, value }`; with the shorthand on, roll data
 * has `@<key>` and no `attributes`; with it off, `@attributes.<key>.value`.
 */
function installWorldbuilding(shorthand: boolean) {
  return (realm: Dict): void => {
    const game = realm.game as {
      settings: { register(ns: string, key: string, data: Dict): void; get(ns: string, key: string): unknown };
    };
    game.settings.register("worldbuilding", "macroShorthand", {
      scope: "world",
      type: Boolean,
      default: shorthand,
      config: true,
    });
    const config = realm.CONFIG as { Actor: { documentClass: SimClasses["Actor"] } };
    const Base = config.Actor.documentClass;
    class SimpleActor extends Base {
      override getRollData(): Dict {
        const data = super.getRollData();
        const attributes = (data.attributes ?? {}) as Record<string, { value?: unknown; dtype?: unknown }>;
        if (game.settings.get("worldbuilding", "macroShorthand") === true) {
          for (const [key, attribute] of Object.entries(attributes)) if (!(key in data)) data[key] = attribute.value;
          delete data.attributes;
        }
        return data;
      }
    }
    config.Actor.documentClass = SimpleActor;
  };
}

describe("worldbuilding: @<key> with the shorthand on, @attributes.<key>.value with it off", () => {
  const shapes: Shape = { aria: { attributes: { init: { dtype: "Number", value: 3, label: "Initiative" } } } };

  it.each([
    [true, "@init"],
    [false, "@attributes.init.value"],
  ])("shorthand %s: the preset is %s and reads the attribute", async (shorthand, formula) => {
    const sim = await systemWorld("worldbuilding", "individual", shapes, {
      systemSetup: installWorldbuilding(shorthand),
    });
    expect(setting(sim.gm, "modifierFormula")).toBe(formula);
    await encounter(sim, ["aria"]);
    await roll(sim, ["aria"], [8]);
    expect(initiativesOn(sim.gm)).toEqual({ Aria: 11 });
    expectNoErrors(sim);
  });
});

describe("generic: the presets of a system without its own", () => {
  it("individual reads @initiative; declare-resolve 2d10 + Speed and Wisdom bonuses", async () => {
    const sim = await systemWorld("sim-system", "individual", {
      aria: { initiative: 4, speedBonus: 3, wisdomBonus: 1 },
    });
    expect(setting(sim.gm, "modifierFormula")).toBe("@initiative");
    await encounter(sim, ["aria"]);
    await roll(sim, ["aria"], [9]);
    expect(initiativesOn(sim.gm)).toEqual({ Aria: 13 });
    expectNoErrors(sim);
  });

  it("declare-resolve: the default IP roll is 2d10 + @speedBonus + @wisdomBonus, its modifier the bonuses", async () => {
    const sim = await systemWorld("sim-system", "declare-resolve", { aria: { speedBonus: 3, wisdomBonus: 1 } });
    expect(setting(sim.gm, "drIPFormula")).toBe("2d10 + @speedBonus + @wisdomBonus");
    await encounter(sim, ["aria"], "declare-resolve");
    await roll(sim, ["aria"], [6, 5]);
    const entry = (stored(sim.gm) as DeclareResolveState).combatants.find((c) => c.name === "Aria") as unknown as Dict;
    // 6 + 5 on the dice, + Speed bonus 3 + Wisdom bonus 1; the tie-break modifier is the bonuses alone.
    expect(entry.ip).toEqual({ total: 15, modifier: 4 });
    expectNoErrors(sim);
  });

  it("phases: the default skill list reads each skill's die size from @skills.<name>", async () => {
    const sim = await systemWorld("sim-system", "phases", { aria: { skills: { melee: "d8", athletics: 6 } } });
    const list = String(setting(sim.gm, "phasesSkills"));
    expect(list).toContain("Melee = @skills.melee");
    expect(list).toContain("Athletics = @skills.athletics");
    await encounter(sim, ["aria"], "phases");
    const api = (
      sim.gm.game.modules.get(MODULE)?.api as {
        phases: { skillsOf(combat: unknown, id: string): { name: string; dieSize: number }[] };
      }
    ).phases;
    // The actor has Melee d8 and Athletics 6; the other default skills name no data and are not offered.
    expect(api.skillsOf(combatOn(sim.gm), idOf(sim.gm, "aria"))).toEqual([
      { name: "Athletics", dieSize: 6 },
      { name: "Melee", dieSize: 8 },
    ]);
    expectNoErrors(sim);
  });
});

/**
 * OpenD6 Space (`nonex-ist-od6s` since 3.0.0, `od6s` before; Jan-Ka/foundryvtt-opend6-space commit
 * 0d864bd, 3.0.0): `src/module/data/actor/fields/attributes.ts` (`attributes.<key>.score`, in pips),
 * `src/module/actor/actor-helpers/prepare-actor.ts` (`score = base + mod`; `setInitiative`:
 * `initiative.score` is the initiative attribute's score, Perception by default, plus its mod). No
 * `getRollData` override: roll data is the system data. 2.7.4 (`od6s`, commit 45b0b73) has the same paths.
 */
describe("OpenD6 Space: Perception, Dexterity (Agility) and the initiative score, read in pips", () => {
  const od6s = (agi: number, per: number, initMod = 0): JsonObject => ({
    attributes: {
      agi: { base: agi, mod: 0, score: agi },
      per: { base: per, mod: 0, score: per },
      kno: { base: 9, mod: 0, score: 9 },
    },
    initiative: { formula: "", mod: initMod, score: per + initMod },
    wounds: { value: 1 },
  });
  const shapes: Shape = { aria: od6s(10, 11), brom: od6s(9, 12, 3), officer: od6s(12, 8) };

  it.each(["nonex-ist-od6s", "od6s"])(
    "%s: 10 pips is 3D+1; Dexterity, Perception and the initiative score read from the scores",
    async (id) => {
      const sim = await systemWorld(id, "sides", shapes, { settings: { [`${MODULE}.sidesCountdown`]: 0 } });
      expect(setting(sim.gm, "sidesTraitUnit")).toBe("pips");
      expect(setting(sim.gm, "sidesPerception")).toBe("@attributes.per.score");
      expect(setting(sim.gm, "sidesTactics")).toBe("");
      expect(setting(sim.gm, "sidesWoundPenalty")).toBe("");
      await encounter(sim, ["aria", "brom", "officer"], "sides");
      await sim.settle();
      const traits = Object.fromEntries(
        (stored(sim.gm) as SidesState).combatants.map((c) => [c.name, [c.dexterity, c.perception, c.initiativeScore]]),
      );
      expect(traits).toEqual({
        Aria: ["3D+1", "3D+2", "3D+2"],
        Brom: ["3D", "4D", "5D"],
        Officer: ["4D", "2D+2", "2D+2"],
      });
      expectNoErrors(sim);
    },
  );

  it("a generic world reads the same numbers as dice (3 = 3D), so OpenD6 Space needs the pips reader", async () => {
    const sim = await systemWorld(
      "sim-system",
      "sides",
      { aria: { dexterity: 3, perception: "3D+2" } },
      {
        settings: { [`${MODULE}.sidesCountdown`]: 0 },
      },
    );
    expect(setting(sim.gm, "sidesTraitUnit")).toBe("dice");
    await encounter(sim, ["aria"], "sides");
    await sim.settle();
    const aria = (stored(sim.gm) as SidesState).combatants[0];
    expect([aria?.dexterity, aria?.perception]).toEqual(["3D", "3D+2"]);
  });
});

/**
 * Narrative dice in the sim: the systems register their lettered die terms (StarWarsFFG 2.0.3
 * `modules/swffg-main.js`: "a" ability, "p" proficiency…; Genesys `src/dice/index.ts`), and
 * StarWarsFFG rolls pools with its RollFFG, whose `ffg` holds the net symbol counts. This stand-in
 * RollFFG counts one success per proficiency die and one advantage per ability die, so the scores
 * a check records are the pool's sizes.
 */
function installNarrativeDice(withRollFFG: boolean) {
  return (realm: Dict): void => {
    const config = realm.CONFIG as { Dice: { terms: Record<string, unknown>; rolls: unknown[] } };
    // Term classes as the systems register them, reduced to their faces.
    const ProficiencyDie = Object.assign(function ProficiencyDie(): void {}, { FACES: 12 });
    const AbilityDie = Object.assign(function AbilityDie(): void {}, { FACES: 8 });
    config.Dice.terms.p = ProficiencyDie;
    config.Dice.terms.a = AbilityDie;
    if (!withRollFFG) return;
    const Base = realm.Roll as new (formula: string) => { dice: { denomination?: string; number: number }[] };
    class RollFFG extends Base {
      get ffg(): { success: number; failure: number; advantage: number; threat: number } {
        const count = (letter: string): number =>
          this.dice.filter((d) => d.denomination === letter).reduce((n, d) => n + d.number, 0);
        return { success: count("p"), failure: 0, advantage: count("a"), threat: 0 };
      }
    }
    config.Dice.rolls.push(RollFFG);
  };
}

describe("starwarsffg (2.0.3, commit 75c9ac3): Cool and Vigilance pools as the system builds them", () => {
  // template.json: skills.<Name>.rank, characteristics.<Name>.value. modules/combat-ffg.js
  // (_getInitiativeRoll): Cool with Presence, Vigilance with Willpower; the pool starts as the
  // characteristic's ability dice and is upgraded once per rank (modules/dice/pool.js, upgrade).
  const shapes: Shape = {
    aria: {
      characteristics: { Presence: { value: 3 }, Willpower: { value: 1 } },
      skills: { Cool: { rank: 2, characteristic: "Presence" }, Vigilance: { rank: 3, characteristic: "Willpower" } },
    },
    officer: {
      characteristics: { Presence: { value: 2 }, Willpower: { value: 2 } },
      skills: { Cool: { rank: 2, characteristic: "Presence" }, Vigilance: { rank: 0, characteristic: "Willpower" } },
    },
  };

  it("Cool: rank 2, Presence 3 → 2 proficiency + 1 ability; rank 2, Presence 2 → 2 proficiency", async () => {
    const sim = await systemWorld("starwarsffg", "slots", shapes, { systemSetup: installNarrativeDice(true) });
    expect(setting(sim.gm, "slotsScoring")).toBe("symbols");
    await encounter(sim, ["aria", "officer"], "slots");
    await roll(sim, ["aria", "officer"], [1, 1, 1, 1, 1]);
    const scores = (stored(sim.gm) as SlotsState).combatants.map((c) => [c.name, c.check]);
    expect(scores).toEqual([
      ["Aria", { primary: 2, secondary: 1, skill: "cool" }],
      ["Officer", { primary: 2, secondary: 0, skill: "cool" }],
    ]);
    expectNoErrors(sim);
  });

  it("Vigilance: rank 3, Willpower 1 → 1 proficiency + 2 ability (the lesser upgrades)", async () => {
    const sim = await systemWorld("starwarsffg", "slots", shapes, { systemSetup: installNarrativeDice(true) });
    await encounter(sim, ["aria"], "slots");
    const api = sim.gm.game.modules.get(MODULE)?.api as {
      setSlotsSkill(combat: unknown, id: string, skill: string): Promise<{ ok: boolean }>;
    };
    await api.setSlotsSkill(combatOn(sim.gm), idOf(sim.gm, "aria"), "vigilance");
    await sim.settle();
    await roll(sim, ["aria"], [1, 1, 1]);
    expect((stored(sim.gm) as SlotsState).combatants[0]?.check).toEqual({
      primary: 1,
      secondary: 2,
      skill: "vigilance",
    });
    expectNoErrors(sim);
  });
});

/**
 * Genesys (Mezryss/FVTT-Genesys commit 70bb86d): skills are Items, so roll data cannot build the pool;
 * `GenesysCombatant#getInitiativeRoll(skillName, characteristic)` (`src/combat/GenesysCombatant.ts`)
 * finds the skill Item by name, takes the lesser of rank and characteristic (`system.characteristics.<name>`,
 * a number) in proficiency dice and the difference in ability dice. The stand-in reads the skill
 * ranks from a table in place of the actor's Items.
 */
function installGenesys(ranks: Record<string, Record<string, number>>) {
  return (realm: Dict): void => {
    installNarrativeDice(false)(realm);
    const config = realm.CONFIG as { Combatant: { documentClass: SimClasses["Combatant"] } };
    const RollClass = realm.Roll as RollClass;
    const Base = config.Combatant.documentClass;
    class GenesysCombatant extends Base {
      // Genesys's signature (skill name, characteristic) in place of core's (formula).
      override getInitiativeRoll(skillName: string | null = "Unskilled", characteristic = "brawn") {
        const actor = this.actor as { name: string; system: { characteristics: Record<string, number> } } | null;
        const value = actor?.system.characteristics[characteristic] ?? 0;
        const rank = ranks[actor?.name ?? ""]?.[(skillName ?? "").toLowerCase()] ?? 0;
        const yellow = Math.min(value, rank);
        return new RollClass(`${yellow}dp+${Math.max(value, rank) - yellow}da`);
      }
    }
    config.Combatant.documentClass = GenesysCombatant;
  };
}

describe("genesys: the system's own pool builder when present, the characteristic alone otherwise", () => {
  const shapes: Shape = {
    aria: { characteristics: { presence: 2, willpower: 3, brawn: 2, agility: 2, intellect: 2, cunning: 2 } },
  };

  it("with the builder: Cool rank 3, Presence 2 → the pool the combatant builds (2 proficiency + 1 ability)", async () => {
    const sim = await systemWorld("genesys", "slots", shapes, { systemSetup: installGenesys({ Aria: { cool: 3 } }) });
    expect(setting(sim.gm, "slotsSystemPool")).toBe(true);
    await encounter(sim, ["aria"], "slots");
    await roll(sim, ["aria"], [1, 1, 1]);
    const message = sim.server.world.messages.at(-1) as { rolls?: unknown[] } | undefined;
    const rolled = (message?.rolls ?? []).map(
      (r) => (typeof r === "string" ? JSON.parse(r) : r) as { formula: string },
    );
    expect(rolled.map((r) => r.formula)).toEqual(["2dp + 1da"]);
    expectNoErrors(sim);
  });

  it("with the builder but the setting off: the formula, not the builder", async () => {
    const sim = await systemWorld("genesys", "slots", shapes, {
      systemSetup: installGenesys({ Aria: { cool: 3 } }),
      settings: { [`${MODULE}.slotsSystemPool`]: false },
    });
    await encounter(sim, ["aria"], "slots");
    await roll(sim, ["aria"], [1, 1]);
    const message = sim.server.world.messages.at(-1) as { rolls?: unknown[] } | undefined;
    const rolled = (message?.rolls ?? []).map(
      (r) => (typeof r === "string" ? JSON.parse(r) : r) as { formula: string },
    );
    expect(rolled.map((r) => r.formula)).toEqual(["2da"]);
  });

  it("without one: the preset formula, Presence alone (an unskilled check: 2 ability dice)", async () => {
    const sim = await systemWorld("genesys", "slots", shapes, { systemSetup: installNarrativeDice(false) });
    expect(setting(sim.gm, "slotsCoolFormula")).toBe("(@characteristics.presence)da");
    await encounter(sim, ["aria"], "slots");
    await roll(sim, ["aria"], [1, 1]);
    const message = sim.server.world.messages.at(-1) as { rolls?: unknown[] } | undefined;
    const rolled = (message?.rolls ?? []).map(
      (r) => (typeof r === "string" ? JSON.parse(r) : r) as { formula: string },
    );
    expect(rolled.map((r) => r.formula)).toEqual(["2da"]);
    expectNoErrors(sim);
  });
});
