/**
 * The `sides` initiative (ModeInitiative and the rolled-results check): a side's roll, made with a
 * Foundry `Roll` of its roller's dice code, rolled, posted and recorded through the shared
 * `rollGroups` (`src/foundry/rolls.ts`) once per side.
 */
import { I18N } from "../../constants";
import { parseDiceCode, subtractDiceCodes, type DiceCode } from "../../core/dice-code";
import { isGMSide, sideRoller, sidesToRoll } from "./rules/derived";
import type { SidesState } from "./rules/types";
import { submit } from "../../foundry/authority/controller";
import { askedRollMode, rolledWith, totalOf, type RollMode } from "../../foundry/chat";
import { rollGroups, type GroupRoll } from "../../foundry/rolls";
import type { RollCheck } from "../contract";
import type { CommandResult } from "../../core/protocol";
import { woundPenaltyOf } from "./traits";
import { invalid } from "./controls";
import { sidesState } from "./encounter";
import type { ModeInitiative } from "../contract";

/** The Foundry formula of a dice code: "4D+2" → "4d6 + 2", "3D-1" → "3d6 - 1", "0D" → "0". */
export function diceFormula(code: DiceCode): string {
  const dice = code.dice > 0 ? `${code.dice}d6` : "0";
  if (code.pips === 0) return dice;
  return `${dice} ${code.pips > 0 ? "+" : "-"} ${Math.abs(code.pips)}`;
}

/**
 * A side's roll: the roller's initiative score as D6 dice, posted to chat as the roller's with the
 * side's name; a corrupted encounter is refused.
 */
function sideRollOf(combat: Combat.Implementation, sideId: string): GroupRoll | CommandResult {
  const state = sidesState(combat);
  if (state === null) return { ok: false, code: "corrupted" };
  const roller = combat.combatants.get(sideRoller(state, sideId) ?? "");
  const side = state.sides.find((s) => s.id === sideId);
  return {
    probe: { type: "recordSideRoll", sideId, total: 0 },
    roll: new Roll(sideRollFormula(combat, state, sideId)),
    speaker: roller,
    flavor: game.i18n.format(`${I18N}.Chat.SideInitiative`, { side: side?.name ?? "", name: roller?.name ?? "" }),
  };
}

/** Roll these sides' initiative in turn (`rollGroups`: refused before rolling when the rules would refuse it). */
function rollSides(
  combat: Combat.Implementation,
  sideIds: readonly string[],
  rollMode?: RollMode,
): Promise<CommandResult[]> {
  return rollGroups(combat, sideIds, (sideId) => sideRollOf(combat, sideId), rollMode);
}

/** Roll one side's initiative, recorded through the rules (see {@link rollSides}). */
export async function rollSide(
  combat: Combat.Implementation,
  sideId: string,
  rollMode?: RollMode,
): Promise<CommandResult> {
  const [result] = await rollSides(combat, [sideId], rollMode);
  return result ?? { ok: false, code: "malformedCommand" };
}

/** The formula of a side's roll: its roller's initiative score as D6 dice, less the roller's wound penalty. */
function sideRollFormula(combat: Combat.Implementation, state: SidesState, sideId: string): string {
  const rollerId = sideRoller(state, sideId) ?? "";
  const roller = combat.combatants.get(rollerId);
  const entry = state.combatants.find((c) => c.id === rollerId);
  const score = parseDiceCode(entry?.initiativeScore ?? null) ?? { dice: 0, pips: 0 };
  // Wound penalties apply to the side's roll (RULES.md §1); Character and Force Points cannot be spent on it.
  const wound = roller === undefined ? null : woundPenaltyOf(roller);
  return diceFormula(wound === null ? score : subtractDiceCodes(score, wound));
}

/** The check of a `recordSideRoll` (`rolledResults`): one roll of the side's formula, showing its total. */
export const checkSideRoll: RollCheck = (combat, command, rolls) => {
  const { sideId, total } = command as { sideId?: unknown; total?: unknown };
  const state = sidesState(combat);
  const roll = rolls[0];
  return Promise.resolve(
    state !== null &&
      typeof sideId === "string" &&
      rolls.length === 1 &&
      roll !== undefined &&
      rolledWith(roll, sideRollFormula(combat, state, sideId)) &&
      totalOf(roll) === total,
  );
};

/**
 * The GM's correction of a side's roll this round: the typed total replaces it (the old one stays,
 * struck through). A total that is not a whole number is refused with a message.
 */
export function correctSideRoll(combat: Combat.Implementation, sideId: string, total: number): Promise<CommandResult> {
  if (!Number.isInteger(total)) return Promise.resolve(invalid(combat));
  return submit(combat, { type: "recordSideRoll", sideId, total });
}

/** Sides still to roll whose roller the current user owns (only GM sides for `npcsOnly`). */
export function sidesToRollFor(combat: Combat.Implementation, npcsOnly: boolean): string[] {
  const state = sidesState(combat);
  if (state === null) return [];
  return sidesToRoll(state).filter((sideId) => {
    const roller = combat.combatants.get(sideRoller(state, sideId) ?? "");
    return roller !== undefined && roller.isOwner && (!npcsOnly || isGMSide(state, sideId));
  });
}

/** Roll for the sides of these combatants (each side once), as Combat#rollInitiative does. */
export async function rollSidesOf(
  combat: Combat.Implementation,
  combatantIds: readonly string[],
  options?: Combat.InitiativeOptions,
): Promise<CommandResult[]> {
  const state = sidesState(combat);
  if (state === null) return [];
  const rollMode = askedRollMode(options);
  const sideIds = [
    ...new Set(combatantIds.map((id) => state.combatants.find((c) => c.id === id)?.sideId ?? null)),
  ].filter((id): id is string => id !== null);
  return rollSides(combat, sideIds, rollMode);
}

/**
 * Roll every side the current user may roll now (GM sides only for `npcsOnly`), seen as the options
 * ask (`Combat#rollAll` / `rollNPC` pass them on, as core does to `rollInitiative`).
 */
export async function rollAllSides(
  combat: Combat.Implementation,
  npcsOnly = false,
  options?: Combat.InitiativeOptions,
): Promise<CommandResult[]> {
  return rollSides(combat, sidesToRollFor(combat, npcsOnly), askedRollMode(options));
}

/** How a `sides` encounter rolls: a side rolls once, for any of its members; NPCs: the GM sides. */
export const SIDES_INITIATIVE: ModeInitiative = {
  rollInitiative: (combat, ids, options) => rollSidesOf(combat, ids, options),
  rollAll: (combat, options) => rollAllSides(combat, false, options),
  rollNPC: (combat, options) => rollAllSides(combat, true, options),
};
