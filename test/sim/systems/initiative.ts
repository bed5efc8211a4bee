/**
 * Stand-ins for how game systems build their initiative rolls, written for the sim from a reading of
 * each system's public code (version and file named per installer); no code is copied. Each installs
 * into a realm before the module's bundle runs (as `systemSetup`), on top of whatever else the test
 * installs (the tracker stand-ins of `dnd5e.ts` and `draw-steel.ts`).
 */
import type { SimClasses } from "../runtime.js";
import type { Dict } from "../utils.js";
import type { RollClass } from "../roll.js";

type ActorClass = SimClasses["Actor"];
type CombatantClass = SimClasses["Combatant"];

interface Config {
  Actor: { documentClass: ActorClass };
  Combatant: { documentClass: CombatantClass };
  Dice: { terms: Record<string, unknown>; rolls: unknown[]; D20Roll?: unknown };
}

interface Settings {
  register(namespace: string, key: string, data: Dict): void;
  get(namespace: string, key: string): unknown;
}

const record = (value: unknown): Dict => (typeof value === "object" && value !== null ? (value as Dict) : {});

/**
 * dnd5e's initiative roll (foundryvtt/dnd5e: tag release-5.3.3, and version 6.0.0 on its
 * `6.0-deprecations` branch, whose initiative code is the same):
 *
 * - `Combatant5e#getInitiativeRoll(formula)` (`module/documents/combatant.mjs`) returns its actor's
 *   `getInitiativeRoll()`, ignoring the formula;
 * - `Actor5e#getInitiativeRollConfig` (`module/documents/actor/actor.mjs`): the initiative ability is
 *   `attributes.init.ability`, else `CONFIG.DND5E.defaultAbilities.initiative` ("dex"); the parts
 *   (`BasicRoll.constructParts`, `module/dice/basic-roll.mjs`: each given value becomes `@key`, its value
 *   put in the roll data) are `mod` (`init.mod`), `prof` (`init.prof.term` when it has proficiency),
 *   `initiativeBonus` (`init.bonus`), the ability's check bonus and the global ability check bonus;
 *   then the exhaustion reduction (`addRollExhaustion`, modern rules only: `@exhaustion` at
 *   −2 × level, `CONFIG.DND5E.conditionTypes.exhaustion.reduction.rolls` being 2); then, with the
 *   world setting `initiativeDexTiebreaker` on, the initiative ability's score / 100 (so not always
 *   Dexterity); advantage and disadvantage combine `attributes.init.roll.mode` and the ability's
 *   `check.roll.mode` (1 advantage, −1 disadvantage; both cancel: `AdvantageModeField.combineFields`);
 * - `getInitiativeRoll`: `new D20Roll(["1d20", ...parts].join(" + "), data, options)`, whose
 *   `configureModifiers` (`module/dice/d20-roll.mjs`, `D20Die#applyAdvantage`) turns the d20 into two
 *   keeping the higher (the `adv` modifier; the sim's dice know `kh`, so the stand-in writes `2d20kh`,
 *   the same dice) or the lower.
 *
 * Left out: the fixed initiative score setting, halfling luck, roll ranges and the legacy Alert feat.
 */
export function installDnd5eInitiative(
  realm: Dict,
  { rulesVersion = "modern" }: { rulesVersion?: "modern" | "legacy" } = {},
): void {
  const CONFIG = realm.CONFIG as Config;
  const settings = (realm.game as { settings: Settings }).settings;
  settings.register("dnd5e", "initiativeDexTiebreaker", {
    scope: "world",
    config: false,
    default: false,
    type: Boolean,
  });
  const Roll = realm.Roll as RollClass;
  class D20Roll extends Roll {
    constructor(formula: string, data: Dict = {}, options: Dict = {}) {
      const advantage = options.advantage === true && options.disadvantage !== true;
      const disadvantage = options.disadvantage === true && options.advantage !== true;
      const d20 = advantage ? "2d20kh" : disadvantage ? "2d20kl" : "1d20";
      super(formula.replace(/^1d20/u, d20), data, options);
    }
  }
  CONFIG.Dice.D20Roll = D20Roll;
  CONFIG.Dice.rolls.push(D20Roll);

  const ActorBase = CONFIG.Actor.documentClass;
  class Actor5e extends ActorBase {
    getInitiativeRoll(): InstanceType<typeof D20Roll> {
      const system = record(this.system);
      const attributes = record(system.attributes);
      const init = record(attributes.init);
      const abilityId = typeof init.ability === "string" && init.ability !== "" ? init.ability : "dex";
      const ability = record(record(system.abilities)[abilityId]);
      const data: Dict = this.getRollData();
      const given: Dict = {
        mod: init.mod,
        prof: record(init.prof).hasProficiency === true ? record(init.prof).term : null,
        initiativeBonus: init.bonus,
        [`${abilityId}AbilityCheckBonus`]: record(ability.bonuses).check,
        abilityCheckBonus: record(record(system.bonuses).abilities).check,
      };
      const parts: string[] = [];
      for (const [key, value] of Object.entries(given)) {
        if (!value && value !== 0) continue;
        parts.push(`@${key}`);
        data[key] = value;
      }
      const exhaustion = Number(attributes.exhaustion ?? 0);
      if (rulesVersion === "modern" && exhaustion > 0) {
        parts.push("@exhaustion");
        data.exhaustion = -2 * exhaustion;
      }
      if (settings.get("dnd5e", "initiativeDexTiebreaker") === true && typeof ability.value === "number")
        parts.push(String(ability.value / 100));
      const modes = [record(record(init.roll)).mode, record(record(ability.check).roll).mode];
      const advantage = modes.includes(1);
      const disadvantage = modes.includes(-1);
      return new D20Roll(["1d20", ...parts].join(" + "), data, { advantage, disadvantage });
    }
  }
  CONFIG.Actor.documentClass = Actor5e;

  const CombatantBase = CONFIG.Combatant.documentClass;
  class Combatant5eInitiative extends CombatantBase {
    override getInitiativeRoll(formula?: string | null) {
      const actor = this.actor as Actor5e | null;
      if (actor === null) return new D20Roll(formula ?? "1d20", {});
      return actor.getInitiativeRoll();
    }
  }
  CONFIG.Combatant.documentClass = Combatant5eInitiative;
}

/**
 * draw-steel's initiative (MetaMorphic-Digital/draw-steel, system.json 1.0.0 at commit 68856d45): the
 * manifest's `"initiative": "2d10 + @A"`, which core's `Combatant#getInitiativeRoll` rolls with the
 * actor's roll data; `DrawSteelActor#getRollData` (`src/module/documents/actor.mjs`) is a shallow copy
 * of the system data to which `CreatureModel#modifyRollData` (`src/module/data/actor/creature.mjs`)
 * adds each characteristic's value under its roll key (`A` for Agility, `M` Might, `R` Reason, `I`
 * Intuition, `P` Presence) and the highest as `chr`. There is no `@initiative`.
 */
export const DRAW_STEEL_INITIATIVE = "2d10 + @A";

const DRAW_STEEL_KEYS: Record<string, string> = {
  might: "M",
  agility: "A",
  reason: "R",
  intuition: "I",
  presence: "P",
};

export function installDrawSteelInitiative(realm: Dict): void {
  const CONFIG = realm.CONFIG as Config;
  const ActorBase = CONFIG.Actor.documentClass;
  class DrawSteelActor extends ActorBase {
    override getRollData(): Dict {
      const data: Dict = { ...record(this.system) };
      let highest = -5;
      for (const [key, value] of Object.entries(record(record(this.system).characteristics))) {
        const rollKey = DRAW_STEEL_KEYS[key];
        const score = record(value).value;
        if (rollKey === undefined || typeof score !== "number") continue;
        data[rollKey] = score;
        highest = Math.max(highest, score);
      }
      data.chr = highest;
      return data;
    }
  }
  CONFIG.Actor.documentClass = DrawSteelActor;
}

/**
 * The narrative dice of Star Wars FFG (2.0.3, `modules/swffg-main.js`: the terms `p` proficiency, `a`
 * ability, `b` boost, `s` setback, `f` force… in `CONFIG.Dice.terms`, and `RollFFG` first in
 * `CONFIG.Dice.rolls`) and of Genesys (`src/dice/index.ts`: the same letters, capital in its formulas).
 * The stand-in `RollFFG` scores each die by its kind, not its face, so a check's scores are the pool's
 * make-up: one success per proficiency die, one advantage per ability or boost die, one threat per
 * setback die; force dice add neither (they roll light and dark pips).
 */
export function installNarrativeDice(realm: Dict, { withRollFFG }: { withRollFFG: boolean }): void {
  const CONFIG = realm.CONFIG as Config;
  // Term classes as the systems register them, reduced to their names and faces.
  CONFIG.Dice.terms.p = Object.assign(function ProficiencyDie(): void {}, { FACES: 12 });
  CONFIG.Dice.terms.a = Object.assign(function AbilityDie(): void {}, { FACES: 8 });
  CONFIG.Dice.terms.b = Object.assign(function BoostDie(): void {}, { FACES: 6 });
  CONFIG.Dice.terms.s = Object.assign(function SetbackDie(): void {}, { FACES: 6 });
  CONFIG.Dice.terms.f = Object.assign(function ForceDie(): void {}, { FACES: 12 });
  if (!withRollFFG) return;
  const Roll = realm.Roll as RollClass;
  class RollFFG extends Roll {
    get ffg(): { success: number; failure: number; advantage: number; threat: number } {
      const dice = (letter: string): number =>
        this.dice.filter((d) => d.denomination?.toLowerCase() === letter).reduce((n, d) => n + d.number, 0);
      return { success: dice("p"), failure: 0, advantage: dice("a") + dice("b"), threat: dice("s") };
    }
  }
  CONFIG.Dice.rolls.unshift(RollFFG);
}

/**
 * Star Wars FFG's actors (2.0.3 `template.json`): a character has `characteristics.<Name>.value` and
 * `skills.<Name>.rank`; talents and effects add `boost`, `setback` and `force` to a skill
 * (`modules/helpers/modifiers.js`, "Skill Boost", "Skill Setback", "Force Boost"). A vehicle has no
 * characteristics or skills; its crew is the `starwarsffg.crew` flag (`[{actor_id, role}]`), read by
 * `_findActorForInitiative` (`modules/combat-ffg.js`). Only the dice are installed: the module builds
 * the pool from these data itself.
 */
export function installStarWarsFFG(realm: Dict): void {
  installNarrativeDice(realm, { withRollFFG: true });
}

/**
 * Genesys (Mezryss/FVTT-Genesys, commit 70bb86d, `src/combat/GenesysCombatant.ts`): the combatant
 * builds its pool itself, `getInitiativeRoll(skillName = "Unskilled", characteristic = "brawn")`, from
 * the skill Item of that name (its characteristic and rank) and `system.characteristics.<name>` (a
 * number): the lesser in proficiency dice, the difference in ability dice. The stand-in reads the skill
 * ranks from `ranks` (by actor name) in place of the actor's Items. A vehicle
 * (`src/actor/data/VehicleDataModel.ts`) has no characteristics, so the builder throws reading them,
 * as the system's does.
 */
export function installGenesys(realm: Dict, ranks: Record<string, Record<string, number>>): void {
  installNarrativeDice(realm, { withRollFFG: false });
  const CONFIG = realm.CONFIG as Config;
  const Roll = realm.Roll as RollClass;
  const Base = CONFIG.Combatant.documentClass;
  class GenesysCombatant extends Base {
    // Genesys's signature (skill name, characteristic) in place of core's (formula).
    override getInitiativeRoll(skillName: string | null = "Unskilled", characteristic = "brawn") {
      const actor = this.actor as { name: string; system: { characteristics?: Record<string, number> } } | null;
      const characteristics = actor?.system.characteristics;
      if (characteristics === undefined) throw new TypeError("Cannot read properties of undefined");
      const value = characteristics[characteristic] ?? 0;
      const rank = ranks[actor?.name ?? ""]?.[(skillName ?? "").toLowerCase()] ?? 0;
      const yellow = Math.min(value, rank);
      return new Roll(`${String(yellow)}dp+${String(Math.max(value, rank) - yellow)}da`);
    }
  }
  CONFIG.Combatant.documentClass = GenesysCombatant;
}
