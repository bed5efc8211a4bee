/**
 * Foundry glue of the `individual` mode: initiative checks rolled with Foundry's `Roll` from the
 * configured formulas, posted to chat with the roll mode, and recorded through the rules; group
 * checks; flat-footed shown as an optional status effect.
 */
import { I18N } from "../../constants";
import { FLAT_FOOTED_STATUS } from "./constants";
import type { RuleEvent } from "../../core/engine";
import { groupMembers, groupModifier, individualMode, rollsNeeded, type IndividualState } from "./rules/individual";
import { precheck, submit } from "../../foundry/authority/controller";
import { stateOf } from "../../foundry/authority/encounters";
import { askedRollMode, rolledWith, totalOf, type RollMode } from "../../foundry/chat";
import { rollFor } from "../../foundry/roll-for";
import type { Json } from "../../core/patch";
import type { RollCheck } from "../contract";
import { notifyRefusal } from "../../foundry/notify";
import type { CommandResult } from "../../core/protocol";
import { flatFootedAsStatus, initiativeFormulas } from "./settings";

/** The individual state of a combat, or null when it is not an individual encounter. */
export function individualState(combat: Combat.Implementation): IndividualState | null {
  return stateOf(combat, individualMode);
}

/**
 * Replace `@paths` with the actor's roll data; null when the actor lacks one of them. (Foundry's
 * `Roll.validate` reads a missing path as 0, so an unresolved path must be caught here.)
 */
function resolveFormula(formula: string, data: Record<string, unknown>): string | null {
  const resolved = Roll.replaceFormulaData(formula, data, { warn: false });
  return resolved.includes("@") ? null : resolved;
}

/**
 * Evaluate a modifier formula (no dice allowed) for a combatant; null when the formula is malformed,
 * names data the actor lacks, or rolls dice.
 */
export async function evaluateModifier(formula: string, data: Record<string, unknown>): Promise<number | null> {
  const resolved = resolveFormula(formula, data);
  if (resolved === null || !Roll.validate(resolved)) return null;
  const roll = new Roll(resolved);
  if (roll.dice.length > 0) return null;
  await roll.evaluate();
  const total = roll.total;
  return typeof total === "number" && Number.isFinite(total) ? total : null;
}

function rollDataOf(combatant: Combatant.Implementation): Record<string, unknown> | null {
  const actor = combatant.actor;
  return actor === null ? null : actor.getRollData();
}

/** The formula of the check `die + modifier` for this combatant's actor, or null when it cannot be built. */
function checkFormula(speaker: Combatant.Implementation, modifier: number): string | null {
  const die = resolveFormula(initiativeFormulas().die, rollDataOf(speaker) ?? {});
  const formula = `${die ?? ""} + ${modifier}`;
  return die === null || !Roll.validate(formula) ? null : formula;
}

/** A rolled check: its total and the chat message it was posted in (the proof a command sends). */
export interface RolledCheck {
  readonly total: number;
  readonly messageId: string;
}

/**
 * Roll the check `die + modifier` as roll `part` of `command`, post it to chat with its purpose and
 * return it, or null if it cannot roll.
 */
export async function rollCheck(
  combat: Combat.Implementation,
  speaker: Combatant.Implementation,
  modifier: number,
  flavor: string,
  rollMode: RollMode | undefined,
  command: Json,
  part = 0,
): Promise<RolledCheck | null> {
  const formula = checkFormula(speaker, modifier);
  if (formula === null) {
    notifyRefusal(combat, "invalidFormula");
    return null;
  }
  const posted = await rollFor(combat, command, part, new Roll(formula), speaker, flavor, rollMode);
  const total = totalOf(posted?.roll);
  return total === null || posted?.messageId == null ? null : { total, messageId: posted.messageId };
}

/** Whether one roll is the check of `speaker` at `modifier` and came to `total`. */
function isCheckRoll(
  roll: Roll | undefined,
  speaker: Combatant.Implementation | undefined,
  modifier: number,
  total: unknown,
): boolean {
  const formula = speaker === undefined ? null : checkFormula(speaker, modifier);
  return roll !== undefined && formula !== null && rolledWith(roll, formula) && totalOf(roll) === total;
}

/**
 * The checks of the individual mode's rolled results (`rolledResults`): the initiative check with the
 * modifier the settings give the actor now, a group's check at its lowest modifier, each roll-off.
 */
export const INDIVIDUAL_ROLL_CHECKS: Readonly<Record<string, RollCheck>> = {
  async recordInitiative(combat, command, rolls) {
    const { combatantId, total, modifier } = command as { combatantId?: unknown; total?: unknown; modifier?: unknown };
    const combatant = typeof combatantId === "string" ? combat.combatants.get(combatantId) : undefined;
    const data = combatant === undefined ? null : rollDataOf(combatant);
    if (data === null || rolls.length !== 1) return false;
    const expected = await evaluateModifier(initiativeFormulas().modifier, data);
    return expected !== null && expected === modifier && isCheckRoll(rolls[0], combatant, expected, total);
  },
  recordGroupInitiative(combat, command, rolls) {
    const { groupId, total } = command as { groupId?: unknown; total?: unknown };
    const state = individualState(combat);
    if (state === null || typeof groupId !== "string" || rolls.length !== 1) return Promise.resolve(false);
    const modifier = groupModifier(state, groupId);
    const speaker = groupMembers(state, groupId)
      .map((id) => combat.combatants.get(id))
      .find((c) => c !== undefined);
    return Promise.resolve(modifier !== null && isCheckRoll(rolls[0], speaker, modifier, total));
  },
  recordRollOff(combat, command, rolls) {
    const results = (command as { results?: unknown }).results;
    const state = individualState(combat);
    if (state === null || !Array.isArray(results) || results.length !== rolls.length) return Promise.resolve(false);
    return Promise.resolve(
      (results as unknown[]).every((result, i) => {
        const { combatantId, total } = (result ?? {}) as { combatantId?: unknown; total?: unknown };
        const entry = state.combatants.find((c) => c.id === combatantId);
        const speaker = entry === undefined ? undefined : combat.combatants.get(entry.id);
        return isCheckRoll(rolls[i], speaker, entry?.modifier ?? 0, total);
      }),
    );
  },
};

/**
 * Roll initiative for these combatants. A member of a group makes the group's one check (GM only),
 * at the lowest modifier of the group; others roll their own check.
 */
export async function rollStructuredInitiative(
  combat: Combat.Implementation,
  ids: readonly string[],
  options?: Combat.InitiativeOptions,
): Promise<CommandResult[]> {
  const state = individualState(combat);
  if (state === null) {
    notifyRefusal(combat, "corrupted");
    return [{ ok: false, code: "corrupted" }];
  }
  const rollMode = askedRollMode(options);
  const results: CommandResult[] = [];
  const groupsDone = new Set<string>();
  for (const id of ids) {
    const combatant = combat.combatants.get(id);
    const entry = state.combatants.find((c) => c.id === id);
    if (combatant === undefined || entry === undefined) {
      notifyRefusal(combat, "unknownCombatant");
      results.push({ ok: false, code: "unknownCombatant" });
      continue;
    }
    if (entry.groupId !== null) {
      if (groupsDone.has(entry.groupId)) continue;
      groupsDone.add(entry.groupId);
      results.push(await rollGroup(combat, state, entry.groupId, rollMode));
      continue;
    }
    results.push(await rollOne(combat, combatant, rollMode));
  }
  return results;
}

async function rollOne(
  combat: Combat.Implementation,
  combatant: Combatant.Implementation,
  rollMode: RollMode | undefined,
): Promise<CommandResult> {
  const id = combatant.id ?? "";
  if (!game.user.isGM && !combatant.isOwner) return refused(combat, "notOwner", id);
  const data = rollDataOf(combatant);
  if (data === null) return refused(combat, "missingActor", id);
  const modifier = await evaluateModifier(initiativeFormulas().modifier, data);
  if (modifier === null) return refused(combat, "invalidFormula", id);
  const command = { type: "recordInitiative", combatantId: id, total: 0, modifier };
  const early = precheck(combat, command);
  if (early !== null) return shownResult(combat, early);
  const flavor = game.i18n.format(`${I18N}.Chat.Initiative`, { name: combatant.name ?? "" });
  const rolled = await rollCheck(combat, combatant, modifier, flavor, rollMode, command);
  if (rolled === null) return { ok: false, code: "invalidFormula" };
  return submit(combat, { ...command, total: rolled.total, rolls: [rolled.messageId] });
}

async function rollGroup(
  combat: Combat.Implementation,
  state: IndividualState,
  groupId: string,
  rollMode: RollMode | undefined,
): Promise<CommandResult> {
  if (!game.user.isGM) return refused(combat, "notGM");
  const modifier = groupModifier(state, groupId);
  const speaker = groupMembers(state, groupId)
    .map((id) => combat.combatants.get(id))
    .find((c) => c !== undefined);
  if (modifier === null || speaker === undefined) return refused(combat, "emptyGroup");
  const probe = { type: "recordGroupInitiative", groupId, total: 0 };
  const early = precheck(combat, probe);
  if (early !== null) return shownResult(combat, early);
  const flavor = game.i18n.format(`${I18N}.Chat.GroupInitiative`, { name: groupId });
  const rolled = await rollCheck(combat, speaker, modifier, flavor, rollMode ?? "private", probe);
  if (rolled === null) return { ok: false, code: "invalidFormula" };
  return submit(combat, { type: "recordGroupInitiative", groupId, total: rolled.total, rolls: [rolled.messageId] });
}

/**
 * Put these NPCs into one initiative group (GM). Each member's modifier is read through the
 * modifier formula, since the group rolls with the lowest of them.
 */
export async function groupCombatants(
  combat: Combat.Implementation,
  ids: readonly string[],
  groupId: string,
): Promise<CommandResult[]> {
  const results: CommandResult[] = [];
  for (const id of ids) {
    const combatant = combat.combatants.get(id);
    if (combatant === undefined) {
      results.push(refused(combat, "unknownCombatant"));
      continue;
    }
    const data = rollDataOf(combatant);
    if (data === null) {
      results.push(refused(combat, "missingActor", id));
      continue;
    }
    const modifier = await evaluateModifier(initiativeFormulas().modifier, data);
    if (modifier === null) {
      results.push(refused(combat, "invalidFormula", id));
      continue;
    }
    results.push(await submit(combat, { type: "setGroup", combatantId: id, groupId, modifier }));
  }
  return results;
}

function shownResult(combat: Combat.Implementation, result: CommandResult): CommandResult {
  if (!result.ok) notifyRefusal(combat, result.code, result.combatantId);
  return result;
}

/**
 * The combatants "roll all" (or "roll NPCs") should roll for: the current user's combatants whose
 * check is still needed, one member standing for each group that has not rolled.
 */
export function combatantsToRoll(combat: Combat.Implementation, npcsOnly: boolean): string[] {
  const state = individualState(combat);
  if (state === null) return [];
  const needed = rollsNeeded(state);
  const ids = [...needed.combatants, ...needed.groups.map((groupId) => groupMembers(state, groupId)[0] ?? "")];
  return ids.filter((id) => {
    const combatant = combat.combatants.get(id);
    return combatant !== undefined && combatant.isOwner && (!npcsOnly || combatant.isNPC);
  });
}

function refused(
  combat: Combat.Implementation,
  code: "notOwner" | "notGM" | "missingActor" | "invalidFormula" | "emptyGroup" | "unknownCombatant",
  combatantId?: string,
): CommandResult {
  notifyRefusal(combat, code, combatantId);
  return combatantId === undefined ? { ok: false, code } : { ok: false, code, combatantId };
}

/**
 * The encounter ended (active GM): the flat-footed status the module put on combatants still
 * flat-footed comes off their actors (a status set by anything else is left alone).
 */
export async function individualEnd(combat: Combat.Implementation): Promise<void> {
  const state = individualState(combat);
  if (state === null || !flatFootedAsStatus()) return;
  for (const id of state.flatFooted) {
    const actor = combat.combatants.get(id)?.actor;
    if (actor?.statuses.has(FLAT_FOOTED_STATUS) === true)
      await actor.toggleStatusEffect(FLAT_FOOTED_STATUS, { active: false });
  }
}

/**
 * Side effects of the individual mode's events on the authority: the flat-footed status effect,
 * when the world setting applies it.
 */
export async function individualEffects(combat: Combat.Implementation, events: readonly RuleEvent[]): Promise<void> {
  if (!flatFootedAsStatus()) return;
  const state = individualState(combat);
  if (state === null) return;
  for (const event of events) {
    const on = event.type === "combatStarted" && state.surpriseBattle;
    const off = event.type === "flatFootedEnded" || event.type === "combatantRemoved";
    if (!on && !off) continue;
    const targets = on ? state.flatFooted : event.combatantId === undefined ? [] : [event.combatantId];
    for (const id of targets) {
      const actor = combat.combatants.get(id)?.actor;
      if (actor) await actor.toggleStatusEffect(FLAT_FOOTED_STATUS, { active: on });
    }
  }
}
