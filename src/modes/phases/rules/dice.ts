/** The `phases` mode's dice: die sizes, complexity, doubles and pools (press your luck, RULES.md §5). */

import { type DieSize, DIE_SIZES, FIRST_COMPLEXITY } from "./types";

/** Whether `value` is a die size a skill can have (d4…d12). */
export function isDieSize(value: unknown): value is DieSize {
  return DIE_SIZES.some((size) => size === value);
}

/** The complexity of a skill action after `skillActions` of them this turn. */
export function complexityAfter(skillActions: number): number {
  return FIRST_COMPLEXITY + skillActions;
}

/** Indices of the dice that show a face another die also shows (the doubles), in roll order. */
export function doublesIn(dice: readonly number[]): readonly number[] {
  const counts = new Map<number, number>();
  for (const face of dice) counts.set(face, (counts.get(face) ?? 0) + 1);
  return dice.flatMap((face, i) => ((counts.get(face) ?? 0) > 1 ? [i] : []));
}

/** Whether a roll has doubles (any two equal dice): it fails. */
export function hasDoubles(dice: readonly number[]): boolean {
  return new Set(dice).size !== dice.length;
}

/** Whether `dice` are a fair roll of `count` dice of `dieSize`: that many, each 1…dieSize. */
export function diceMatch(dice: readonly number[], count: number, dieSize: number): boolean {
  return dice.length === count && dice.every((face) => Number.isInteger(face) && face >= 1 && face <= dieSize);
}

/** A dice pool: how many dice of which size, and its Foundry formula ("3d10"). */
export interface DicePool {
  readonly count: number;
  readonly dieSize: DieSize;
  readonly formula: string;
}

/** The pool a skill action of `complexity` rolls with a skill of `dieSize`. */
export function dicePool(complexity: number, dieSize: DieSize): DicePool {
  return { count: complexity, dieSize, formula: `${complexity}d${dieSize}` };
}
