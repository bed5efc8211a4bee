/**
 * What every mode's initiative roll does before and around its dice: for each combatant, the checks
 * that come first (it exists, the user may roll for it, the rules would take the result, it has an
 * actor) with their localised refusals, and the strict reading of a roll formula against the actor's
 * roll data. The mode brings the probe command and the roll itself. A mode that rolls once for a
 * group of combatants (a side) rolls each group through {@link rollGroups}.
 */
import type { Json } from "../core/patch";
import type { CommandResult } from "../core/protocol";
import type { ModeInitiative } from "../modes/contract";
import { precheck, submit } from "./authority/controller";
import { totalOf, type RollMode } from "./chat";
import { shownRefusal } from "./notify";
import { rollFor } from "./roll-for";

/**
 * Replace `@paths` with the actor's roll data; null when a path is missing or the formula is not a
 * valid Foundry formula (`Roll.validate` would read a missing path as 0, so that is caught first).
 */
export function resolveFormula(formula: string, data: Record<string, unknown>): string | null {
  const resolved = Roll.replaceFormulaData(formula, data, { warn: false });
  return resolved.includes("@") || resolved.trim() === "" || !Roll.validate(resolved) ? null : resolved;
}

/**
 * Roll for each of these combatants in turn: an unknown combatant, one the user may not roll for, a
 * roll the rules would refuse now (`probe`, the command with placeholder results) or a combatant
 * without an actor is refused with its message before any die; otherwise `roll` rolls and records.
 */
export async function rollEach(
  combat: Combat.Implementation,
  ids: readonly string[],
  probe: (combatant: Combatant.Implementation) => Json,
  roll: (combatant: Combatant.Implementation, actor: Actor.Implementation) => Promise<CommandResult>,
): Promise<CommandResult[]> {
  const results: CommandResult[] = [];
  for (const id of ids) {
    const combatant = combat.combatants.get(id);
    let early: CommandResult | null;
    if (combatant === undefined) early = { ok: false, code: "unknownCombatant" };
    else if (!game.user.isGM && !combatant.isOwner) early = { ok: false, code: "notOwner", combatantId: id };
    else early = precheck(combat, probe(combatant));
    if (early === null && combatant?.actor === null) early = { ok: false, code: "missingActor", combatantId: id };
    const actor = combatant?.actor ?? null;
    if (early !== null && !early.ok) results.push(shownRefusal(combat, early));
    else if (combatant !== undefined && actor !== null) results.push(await roll(combatant, actor));
  }
  return results;
}

/** A group's one roll: the command that records it (its results placeholders), its dice and its chat message. */
export interface GroupRoll {
  /** The command with a placeholder `total`; the rules' precheck tries it before any die. */
  readonly probe: { readonly type: string; readonly total: number; readonly [key: string]: Json };
  /** The roll to make (not yet evaluated). */
  readonly roll: Roll;
  /** The combatant the roll is posted as (the group's roller). */
  readonly speaker: Combatant.Implementation | undefined;
  /** The chat message's flavour. */
  readonly flavor: string;
}

/**
 * Roll once for each of these groups in turn (a side rolls once for all its members): `rollOf` gives
 * the group's roll, or a refusal found before any die; a roll the rules would refuse now (its probe)
 * is refused too, each with its message. Otherwise the formula is rolled and posted as every mode's
 * roll is (`rollFor`: the roll mode, the GM's client rolling players' dice where the world says so)
 * and recorded with its total and its message.
 */
export async function rollGroups(
  combat: Combat.Implementation,
  groups: readonly string[],
  rollOf: (group: string) => GroupRoll | CommandResult,
  rollMode?: RollMode,
): Promise<CommandResult[]> {
  const results: CommandResult[] = [];
  for (const group of groups) {
    const spec = rollOf(group);
    if ("ok" in spec) {
      results.push(shownRefusal(combat, spec));
      continue;
    }
    const early = precheck(combat, spec.probe);
    if (early !== null) {
      results.push(shownRefusal(combat, early));
      continue;
    }
    const posted = await rollFor(combat, spec.probe, 0, spec.roll, spec.speaker, spec.flavor, rollMode);
    if (posted === null) {
      results.push({ ok: false, code: "malformedCommand" });
      continue;
    }
    const rolls = posted.messageId === null ? [] : [posted.messageId];
    results.push(await submit(combat, { ...spec.probe, total: totalOf(posted.roll) ?? 0, rolls }));
  }
  return results;
}

/**
 * A mode's initiative rolling from its roll of given combatants and the combatants whose roll is
 * still due (`due`): roll all rolls those of them the current user owns, roll NPCs the non-player
 * characters among those.
 */
export function initiativeRolling(
  roll: (
    combat: Combat.Implementation,
    ids: readonly string[],
    options?: Combat.InitiativeOptions,
  ) => Promise<CommandResult[]>,
  due: (combat: Combat.Implementation) => readonly string[],
): ModeInitiative {
  const toRoll = (combat: Combat.Implementation, npcsOnly: boolean): string[] =>
    due(combat).filter((id) => {
      const combatant = combat.combatants.get(id);
      return combatant !== undefined && combatant.isOwner && (!npcsOnly || combatant.isNPC);
    });
  return {
    rollInitiative: roll,
    rollAll: (combat, options) => roll(combat, toRoll(combat, false), options),
    rollNPC: (combat, options) => roll(combat, toRoll(combat, true), options),
  };
}
