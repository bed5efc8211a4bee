/**
 * D6 dice codes ("3D+2", "4D", "2D-1"): the way D6 systems write attributes, skills and penalties.
 *
 * A code is a number of six-sided dice and a pip bonus from −2 to +2 (three pips make a die, so a
 * well-formed code never carries three or more). Codes compare **dice first, then pips**: 4D beats
 * 3D+2, and 3D+2 beats 3D+1. Anything else is malformed and is rejected, never guessed at.
 */

/** A parsed dice code. */
export interface DiceCode {
  /** Number of dice, 0 to {@link MAX_DICE}. */
  readonly dice: number;
  /** Pip bonus, −2 to +2 (never negative on 0D). */
  readonly pips: number;
}

/** The most dice a code may hold. */
export const MAX_DICE = 99;
/** Pips that make one die. */
export const PIPS_PER_DIE = 3;
/** Longest dice-code text accepted from untrusted data. */
export const MAX_DICE_CODE_LENGTH = 16;

const PATTERN = /^(\d{1,2})\s*[dD]\s*(?:([+-])\s*(\d))?$/;

/**
 * Parse a dice code: dice, a `D` (either case), then optionally `+` or `-` and a pip count.
 * Surrounding spaces are ignored. Returns null for anything malformed: no `D`, more than
 * {@link MAX_DICE} dice, three or more pips, a negative total ("0D-1"), or text after the code.
 */
export function parseDiceCode(text: unknown): DiceCode | null {
  if (typeof text !== "string" || text.length > MAX_DICE_CODE_LENGTH) return null;
  const match = PATTERN.exec(text.trim());
  if (match === null) return null;
  const [, diceText, sign, pipText] = match;
  const dice = Number(diceText);
  const size = pipText === undefined ? 0 : Number(pipText);
  if (size >= PIPS_PER_DIE) return null;
  const pips = sign === "-" ? -size : size;
  if (dice === 0 && pips < 0) return null;
  return { dice, pips };
}

/** Whether `value` is a well-formed dice code. */
export function isDiceCode(value: unknown): value is string {
  return parseDiceCode(value) !== null;
}

/** Write a code the canonical way: "3D+2", "4D", "2D-1". */
export function formatDiceCode(code: DiceCode): string {
  if (code.pips === 0) return `${code.dice}D`;
  return `${code.dice}D${code.pips > 0 ? "+" : "-"}${Math.abs(code.pips)}`;
}

/** The canonical text of a dice code, or null when it is malformed ("3d + 2" → "3D+2"). */
export function normaliseDiceCode(text: unknown): string | null {
  const code = parseDiceCode(text);
  return code === null ? null : formatDiceCode(code);
}

/** Negative when `a` is lower, positive when higher, 0 when equal: dice first, then pips. */
export function compareDiceCodes(a: DiceCode, b: DiceCode): number {
  return a.dice - b.dice || a.pips - b.pips;
}

/** A code from a pip count (three pips to a die): 11 pips → 3D+2. `total` must not be negative. */
export function fromPips(total: number): DiceCode {
  return { dice: Math.floor(total / PIPS_PER_DIE), pips: total % PIPS_PER_DIE };
}

/** The pip count of a code (three pips to a die): 3D+2 → 11. */
export function toPips(code: DiceCode): number {
  return code.dice * PIPS_PER_DIE + code.pips;
}

/** The sum of two codes, carried over so the result is well formed (2D+2 plus 0D+2 is 3D+1). */
export function addDiceCodes(a: DiceCode, b: DiceCode): DiceCode {
  return fromPips(toPips(a) + toPips(b));
}

/** `a` less `b`, never below 0D (a wound penalty can take a roll down to nothing, not below). */
export function subtractDiceCodes(a: DiceCode, b: DiceCode): DiceCode {
  return fromPips(Math.max(toPips(a) - toPips(b), 0));
}

/** `code` taken `times` times (a whole number; below 1 gives 0D): "1D" × 2 is "2D", "0D+2" × 2 is "1D+1". */
export function multiplyDiceCode(code: DiceCode, times: number): DiceCode {
  const n = Math.max(Math.floor(times), 0);
  return fromPips(toPips(code) * n);
}

/**
 * The D6 preset's initiative score: the better of Perception and Tactics, where Tactics counts only
 * when it is at least 1D above its attribute (`tacticsAttribute`, Perception unless the system files
 * Tactics under another attribute). Null when Perception is malformed; a malformed or missing Tactics
 * (or attribute) does not count.
 */
export function presetInitiativeScore(
  perception: string,
  tactics: string | null,
  tacticsAttribute: string = perception,
): string | null {
  const per = parseDiceCode(perception);
  if (per === null) return null;
  const tac = parseDiceCode(tactics);
  const attribute = parseDiceCode(tacticsAttribute);
  const counts =
    tac !== null &&
    attribute !== null &&
    compareDiceCodes(tac, addDiceCodes(attribute, { dice: 1, pips: 0 })) >= 0 &&
    compareDiceCodes(tac, per) > 0;
  return formatDiceCode(counts ? tac : per);
}

/**
 * A code from a score in pips as D6 systems store them (OpenD6 Space: 10 → 3D+1), or null when the
 * score is not a whole number from 0 to {@link MAX_DICE} dice.
 */
export function diceCodeFromPips(score: number): DiceCode | null {
  if (!Number.isInteger(score) || score < 0 || score >= (MAX_DICE + 1) * PIPS_PER_DIE) return null;
  return fromPips(score);
}
