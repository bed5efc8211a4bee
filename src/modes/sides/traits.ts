/** Actor traits of the `sides` mode (Dexterity, Perception, initiative score, wound penalty), read through the world's formulas. */
import {
  diceCodeFromPips,
  formatDiceCode,
  MAX_DICE,
  normaliseDiceCode,
  parseDiceCode,
  presetInitiativeScore,
  type DiceCode,
} from "../../core/dice-code";
import { sidesTraitUnit, sidesWoundPenalty, type SidesFormulas, type TraitUnit } from "./settings";

/**
 * A trait value read through a formula: a dice code, or a number — of dice ("3" = 3D), or of pips
 * when the world reads traits in pips ("10" = 3D+1, OpenD6 Space's scores) — or a formula without
 * dice that comes to such a number ("@attributes.per.score + 1"); null when unreadable.
 */
export function readTrait(formula: string, data: Record<string, unknown>, unit: TraitUnit = "dice"): string | null {
  if (formula.trim() === "") return null;
  const resolved = Roll.replaceFormulaData(formula, data, { warn: false }).trim();
  if (resolved.includes("@")) return null;
  const code = normaliseDiceCode(resolved);
  if (code !== null) return code;
  const count = /^\d{1,3}$/.test(resolved) ? Number(resolved) : evaluateNumber(resolved);
  if (count === null) return null;
  if (unit === "pips") {
    const pips = diceCodeFromPips(count);
    return pips === null ? null : formatDiceCode(pips);
  }
  return Number.isInteger(count) && count >= 0 && count <= MAX_DICE ? `${count}D` : null;
}

/** The total of a formula without dice (after `@`-paths were replaced), or null. */
function evaluateNumber(formula: string): number | null {
  if (!Roll.validate(formula)) return null;
  try {
    const roll = new Roll(formula);
    if (roll.dice.length > 0) return null;
    roll.evaluateSync();
    const total = roll.total;
    return typeof total === "number" && Number.isFinite(total) ? total : null;
  } catch {
    return null;
  }
}

/** A combatant's wound penalty read through the world's formula, or null (none, unreadable, no actor). */
export function woundPenaltyOf(combatant: Combatant.Implementation): DiceCode | null {
  const actor = combatant.actor;
  if (actor === null) return null;
  const text = readTrait(sidesWoundPenalty(), actor.getRollData(), sidesTraitUnit());
  return text === null ? null : parseDiceCode(text);
}

/** A combatant's traits read through the formulas (unreadable ones count as 0D); null without an actor. */
export function traitsOf(
  combatant: Combatant.Implementation,
  formulas: SidesFormulas,
): { dexterity: string; perception: string; initiativeScore: string } | null {
  const actor = combatant.actor;
  if (actor === null) return null;
  const data = actor.getRollData();
  const unit = sidesTraitUnit();
  const dexterity = readTrait(formulas.dexterity, data, unit) ?? "0D";
  const perception = readTrait(formulas.perception, data, unit) ?? "0D";
  const base = readTrait(formulas.initiative, data, unit) ?? perception;
  const tactics = readTrait(formulas.tactics, data, unit);
  const initiativeScore = tactics === null ? base : (presetInitiativeScore(base, tactics, perception) ?? base);
  return { dexterity, perception, initiativeScore };
}
