/**
 * The `slots` mode's rolls: initiative checks (Cool or Vigilance, chosen by the GM per combatant)
 * rolled with Foundry's `Roll` from the configured formulas, posted to chat with the roll mode and
 * recorded through the rules; the `recordCheck` roll check.
 */
import { I18N, MODULE_ID, SYSTEM_IDS } from "../../constants";
import { SLOTS_SKILL_FLAG } from "./constants";
import { submit } from "../../foundry/authority/controller";
import { shownRefusal } from "../../foundry/notify";
import { initiativeRolling, resolveFormula, rollEach } from "../../foundry/rolls";
import { askedRollMode, rolledWith, totalOf, type RollMode } from "../../foundry/chat";
import { rollFor } from "../../foundry/roll-for";
import type { Json } from "../../core/patch";
import type { ModeInitiative, RollCheck } from "../contract";
import type { CommandResult } from "../../core/protocol";
import { SYSTEM_POOL_FALLBACK, slotsFormulas, slotsSystemPool, type SlotsPreset } from "./settings";
import { clampScore, readSymbols, symbolRollClass, type CheckScores } from "./dice";
import { ffgInitiativePool, hasSkills } from "./rules/pools";
import { slotsState } from "./encounter";

/** The skills a `slots` initiative check can use. */
export const SLOT_SKILLS = ["cool", "vigilance"] as const;
/** One of them. */
export type SlotSkill = (typeof SLOT_SKILLS)[number];

/** The skill a combatant's check uses when the GM has not chosen one. */
export const DEFAULT_SLOT_SKILL: SlotSkill = "cool";

export function isSkill(value: unknown): value is SlotSkill {
  return value === "cool" || value === "vigilance";
}

/** The skill the GM chose for a combatant's check (Cool unless set). */
export function skillOf(combatant: Combatant.Implementation | undefined): SlotSkill {
  const value: unknown = combatant?.getFlag(MODULE_ID, SLOTS_SKILL_FLAG);
  return isSkill(value) ? value : DEFAULT_SLOT_SKILL;
}

/** A Genesys-style pool builder on a combatant: `getInitiativeRoll(skillName, characteristic)`. */
type PoolBuilder = (skillName: string, characteristic: string) => unknown;

/**
 * The system data a combatant's check reads. Star Wars FFG rolls a vehicle's initiative with its
 * Pilot's skills (`_findActorForInitiative` in `modules/combat-ffg.js`: the crew member of the
 * vehicle's `starwarsffg.crew` flag whose role is "Pilot"); a vehicle without one has no skills.
 */
function checkData(actor: Actor.Implementation): unknown {
  // The actor type is the system's own ("vehicle"), which the types package cannot know.
  if (game.system.id !== SYSTEM_IDS.starwarsffg || (actor.type as string) !== "vehicle") return actor.system;
  const crew: unknown = actor.getFlag("starwarsffg" as never, "crew" as never);
  const pilot = Array.isArray(crew)
    ? (crew as unknown[]).find((member) => (member as { role?: unknown } | null)?.role === "Pilot")
    : undefined;
  const pilotId = (pilot as { actor_id?: unknown } | undefined)?.actor_id;
  const pilotActor = typeof pilotId === "string" ? game.actors.get(pilotId) : undefined;
  return pilotActor === undefined ? null : pilotActor.system;
}

/**
 * The formula of the game system's own pool for this check, or null when the world does not use it,
 * the system builds none for the combatant, or it is not a valid roll: Star Wars FFG's pool from the
 * actor's (or its pilot's) data (`./rules/pools.ts`); Genesys's from the combatant's own builder,
 * `getInitiativeRoll("Cool", "presence")`, which reads the actor's skill Items.
 */
function systemPoolFormula(combatant: Combatant.Implementation | undefined, skill: SlotSkill): string | null {
  const actor = combatant?.actor ?? null;
  if (combatant === undefined || actor === null || !slotsSystemPool()) return null;
  if (game.system.id === SYSTEM_IDS.starwarsffg) {
    const pool = ffgInitiativePool(checkData(actor), SKILL_NAMES[skill]);
    return pool !== null && Roll.validate(pool) ? pool : null;
  }
  const builder = (combatant as unknown as { getInitiativeRoll?: unknown }).getInitiativeRoll;
  if (typeof builder !== "function") return null;
  try {
    const roll: unknown = (builder as PoolBuilder).call(combatant, SKILL_NAMES[skill], SYSTEM_POOL_FALLBACK[skill]);
    const formula: unknown = roll instanceof Roll ? roll.formula : null;
    return typeof formula === "string" && formula.trim() !== "" && Roll.validate(formula) ? formula : null;
  } catch {
    return null;
  }
}

/** The skill names a system's pool builder looks up (as Genesys names its skill Items). */
const SKILL_NAMES = { cool: "Cool", vigilance: "Vigilance" } as const satisfies Record<SlotSkill, string>;

/**
 * The formulas of one check, resolved against the actor, or null when one of them is malformed.
 * With narrative-dice scoring, the game system's own pool builder comes first where the world uses
 * it and the combatant has one.
 */
function formulasFor(
  preset: SlotsPreset,
  skill: SlotSkill,
  data: Record<string, unknown>,
  combatant?: Combatant.Implementation,
): { primary: string; secondary: string | null } | null {
  const pool = preset.scoring === "symbols" ? systemPoolFormula(combatant, skill) : null;
  const primary = pool ?? resolveFormula(preset[skill], data);
  if (primary === null) return null;
  if (preset.scoring === "symbols") return { primary, secondary: null };
  const secondary = resolveFormula(preset.secondary, data);
  return secondary === null ? null : { primary, secondary };
}

/** A check's scores and the chat messages of its rolls (the proof a command sends). */
interface RolledScores extends CheckScores {
  readonly rolls: readonly string[];
}

/** The scores a check's rolls show: the symbols of one narrative roll, or the totals of two. */
function scoresOf(rolls: readonly Roll[], symbols: boolean): CheckScores | null {
  if (symbols) return rolls.length === 1 ? readSymbols(rolls[0]) : null;
  const p = totalOf(rolls[0]);
  const s = totalOf(rolls[1]);
  return rolls.length !== 2 || p === null || s === null ? null : { primary: p, secondary: s };
}

/** Roll one combatant's check, post it to chat, and return its scores (null: nothing could be read). */
async function rollScores(
  combat: Combat.Implementation,
  probe: Json,
  combatant: Combatant.Implementation,
  formulas: { primary: string; secondary: string | null },
  skill: SlotSkill,
  rollMode: RollMode | undefined,
): Promise<RolledScores | null> {
  const name = combatant.name ?? "";
  const skillLabel = game.i18n.localize(`${I18N}.Tracker.Slots.Skill.${skill}`);
  const RollClass = formulas.secondary === null ? symbolRollClass(CONFIG.Dice.rolls, Roll) : Roll;
  const flavor = game.i18n.format(`${I18N}.Chat.SlotsCheck`, { name, skill: skillLabel });
  const primary = await rollFor(combat, probe, 0, new RollClass(formulas.primary), combatant, flavor, rollMode);
  if (primary === null) return null;
  const rolls = [primary.messageId];
  const evaluated: Roll[] = [primary.roll];
  if (formulas.secondary !== null) {
    const tieBreak = game.i18n.format(`${I18N}.Chat.SlotsTieBreak`, { name });
    const secondary = await rollFor(combat, probe, 1, new Roll(formulas.secondary), combatant, tieBreak, rollMode);
    if (secondary === null) return null;
    rolls.push(secondary.messageId);
    evaluated.push(secondary.roll);
  }
  const scores = scoresOf(evaluated, formulas.secondary === null);
  const ids = rolls.filter((id): id is string => id !== null);
  return scores === null || ids.length !== rolls.length ? null : { ...scores, rolls: ids };
}

/**
 * The check of a `recordCheck` (`rolledResults`): the rolls are the combatant's check with the skill
 * the GM chose, from the configured formulas resolved for its actor, and show the command's scores.
 */
export const checkSlotsRolls: RollCheck = (combat, command, rolls) => {
  const { combatantId, primary, secondary, skill } = command as Record<string, unknown>;
  const combatant = typeof combatantId === "string" ? combat.combatants.get(combatantId) : undefined;
  const actor = combatant?.actor ?? null;
  if (combatant === undefined || actor === null || (skill !== undefined && skill !== skillOf(combatant)))
    return Promise.resolve(false);
  const formulas = formulasFor(slotsFormulas(), skillOf(combatant), actor.getRollData(), combatant);
  const expected =
    formulas === null ? [] : [formulas.primary, ...(formulas.secondary === null ? [] : [formulas.secondary])];
  const scores = formulas === null ? null : scoresOf(rolls, formulas.secondary === null);
  return Promise.resolve(
    scores !== null &&
      expected.length === rolls.length &&
      expected.every((formula, i) => rolls[i] !== undefined && rolledWith(rolls[i], formula)) &&
      clampScore(scores.primary) === primary &&
      clampScore(scores.secondary) === secondary,
  );
};

/**
 * Roll the `slots` initiative check of these combatants: each with the skill the GM chose, from the
 * configured formulas, posted to chat honouring the roll mode, then recorded through the rules. A
 * check the rules would refuse, or a malformed formula, rolls nothing and says why.
 */
export async function rollSlotsChecks(
  combat: Combat.Implementation,
  ids: readonly string[],
  options?: Combat.InitiativeOptions,
): Promise<CommandResult[]> {
  if (slotsState(combat) === null) return [shownRefusal(combat, { ok: false, code: "corrupted" })];
  const rollMode = askedRollMode(options);
  const preset = slotsFormulas();
  const probeOf = (combatant: Combatant.Implementation) => ({
    type: "recordCheck",
    combatantId: combatant.id ?? "",
    primary: 0,
    secondary: 0,
    skill: skillOf(combatant),
  });
  return rollEach(combat, ids, probeOf, async (combatant, actor) => {
    const probe = probeOf(combatant);
    // A narrative-dice check reads skills or characteristics; an actor with neither (a vehicle
    // without a pilot) is said so, rather than "invalid formula". Without narrative dice at all,
    // the formula is what is wrong, and says so below.
    const narrative =
      symbolRollClass<unknown>(CONFIG.Dice.rolls, null) !== null ||
      game.system.id === SYSTEM_IDS.starwarsffg ||
      game.system.id === SYSTEM_IDS.genesys;
    if (preset.scoring === "symbols" && narrative && !hasSkills(checkData(actor)))
      return shownRefusal(combat, { ok: false, code: "noSkills", combatantId: probe.combatantId });
    const formulas = formulasFor(preset, probe.skill, actor.getRollData(), combatant);
    const scores =
      formulas === null ? null : await rollScores(combat, probe, combatant, formulas, probe.skill, rollMode);
    if (scores === null)
      return shownRefusal(combat, { ok: false, code: "invalidFormula", combatantId: probe.combatantId });
    return submit(combat, {
      ...probe,
      primary: clampScore(scores.primary),
      secondary: clampScore(scores.secondary),
      rolls: [...scores.rolls],
    });
  });
}

/** Rolling initiative rolls the `slots` checks of those combatants (roll all: those still without a check). */
export const SLOTS_INITIATIVE: ModeInitiative = initiativeRolling(rollSlotsChecks, (combat) =>
  (slotsState(combat)?.combatants ?? []).filter((c) => c.check === null && !c.defeated).map((c) => c.id),
);

/** The checks of rolled results, by command type. */
export const SLOTS_ROLL_CHECKS: Readonly<Record<string, RollCheck>> = { recordCheck: checkSlotsRolls };
