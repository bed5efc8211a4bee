/**
 * The `individual` mode's rolls: initiative checks rolled the way the game system rolls them
 * (`Combatant#getInitiativeRoll`), or from the formulas the GM chose, posted to chat with the roll
 * mode, and recorded through the rules; group checks; the checks of its rolled results.
 */
import { I18N } from "../../constants";
import { groupMembers, groupModifier, rollsNeeded } from "./rules/derived";
import type { IndividualState } from "./rules/types";
import { submit } from "../../foundry/authority/controller";
import { askedRollMode, rolledWith, totalOf, type RollMode } from "../../foundry/chat";
import { rollFor } from "../../foundry/roll-for";
import type { Json } from "../../core/patch";
import type { ModeInitiative, RollCheck } from "../contract";
import { shownRefusal } from "../../foundry/notify";
import { initiativeRolling, resolveFormula, rollEach, rollGroups, type GroupRoll } from "../../foundry/rolls";
import type { CommandResult } from "../../core/protocol";
import { initiativeFormulas, initiativeSource } from "./settings";
import { individualState } from "./encounter";

/**
 * Evaluate a modifier formula (no dice allowed) for a combatant; null when the formula is malformed,
 * names data the actor lacks, or rolls dice.
 */
export async function evaluateModifier(formula: string, data: Record<string, unknown>): Promise<number | null> {
  const resolved = resolveFormula(formula, data);
  if (resolved === null) return null;
  const roll = new Roll(resolved);
  if (roll.dice.length > 0) return null;
  await roll.evaluate();
  const total = roll.total;
  return typeof total === "number" && Number.isFinite(total) ? total : null;
}

export function rollDataOf(combatant: Combatant.Implementation): Record<string, unknown> | null {
  const actor = combatant.actor;
  return actor === null ? null : actor.getRollData();
}

/** The formula of the check `die + modifier` for this combatant's actor, or null when it cannot be built. */
function checkFormula(speaker: Combatant.Implementation, modifier: number): string | null {
  const die = resolveFormula(initiativeFormulas().die, rollDataOf(speaker) ?? {});
  const formula = `${die ?? ""} + ${modifier}`;
  return die === null || !Roll.validate(formula) ? null : formula;
}

/**
 * The game system's own initiative roll for a combatant, unevaluated: `Combatant#getInitiativeRoll()`
 * (https://foundryvtt.com/api/v13/classes/foundry.documents.Combatant.html#getinitiativeroll), which core
 * builds from `CONFIG.Combat.initiative.formula` or the system's manifest formula with the actor's roll
 * data, and a system may override with its own (dnd5e: advantage, exhaustion, its tie-break). Null when
 * the system gives none, or throws for this actor.
 */
function systemRoll(combatant: Combatant.Implementation): Roll | null {
  try {
    const roll: unknown = combatant.getInitiativeRoll();
    return roll instanceof Roll && Roll.validate(roll.formula) ? roll : null;
  } catch {
    return null;
  }
}

/** The results an evaluated roll's dice kept (a dropped die of an advantage roll is not active). */
function keptDice(roll: Roll): number {
  let sum = 0;
  for (const die of roll.dice)
    for (const result of die.results)
      if (result.active !== false && Number.isFinite(result.result)) sum += result.result;
  return sum;
}

/**
 * The modifier of an evaluated system roll: what it adds to its dice (its total less the kept dice),
 * which ranks ties and sets a group's modifier; rounded to a millionth, so that equal modifiers read
 * from different totals (15.14 − 10 and 16.14 − 11) stay equal.
 */
function rollModifier(roll: Roll): number | null {
  const total = totalOf(roll);
  return total === null ? null : Math.round((total - keptDice(roll)) * 1e6) / 1e6;
}

/**
 * A combatant's initiative modifier before any roll (for a group): the world's modifier formula, or the
 * modifier of the system's roll, read by evaluating it at its least (every die at its minimum, which
 * rolls nothing: https://foundryvtt.com/api/v13/classes/foundry.dice.Roll.html#evaluate).
 */
export async function modifierFor(combatant: Combatant.Implementation): Promise<number | null> {
  if (initiativeSource() === "formula") {
    const data = rollDataOf(combatant);
    return data === null ? null : evaluateModifier(initiativeFormulas().modifier, data);
  }
  const roll = systemRoll(combatant);
  if (roll === null) return null;
  await roll.evaluate({ minimize: true, allowInteractive: false });
  return rollModifier(roll);
}

/** The roll of `speaker`'s check, unevaluated: the system's own, or `die + modifier` from the settings. */
function checkRoll(speaker: Combatant.Implementation, modifier: number): Roll | null {
  if (initiativeSource() === "system") return systemRoll(speaker);
  const formula = checkFormula(speaker, modifier);
  return formula === null ? null : new Roll(formula);
}

/** A rolled check: its total, its modifier and the chat message it was posted in (the proof a command sends). */
export interface RolledCheck {
  readonly total: number;
  readonly modifier: number;
  readonly messageId: string;
}

/**
 * Roll `speaker`'s check (the system's roll, or `die + modifier` from the settings) as roll `part` of
 * `command`, post it to chat with its purpose and return it, or null if it cannot roll (said to the user).
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
  const roll = checkRoll(speaker, modifier);
  if (roll === null) {
    shownRefusal(combat, { ok: false, code: cannotRoll(), combatantId: speaker.id ?? "" });
    return null;
  }
  const posted = await rollFor(combat, command, part, roll, speaker, flavor, rollMode);
  if (posted === null) return null;
  const rolled = initiativeSource() === "system" ? rollModifier(posted.roll) : modifier;
  const total = totalOf(posted.roll);
  return total === null || rolled === null || posted.messageId === null
    ? null
    : { total, modifier: rolled, messageId: posted.messageId };
}

/**
 * Whether one roll is the check of `speaker` at `modifier` and came to `total`: the formula the
 * settings give (or the system's roll for the actor as it stands now) and the total.
 */
function isCheckRoll(
  roll: Roll | undefined,
  speaker: Combatant.Implementation | undefined,
  modifier: number,
  total: unknown,
): boolean {
  if (roll === undefined || speaker === undefined || totalOf(roll) !== total) return false;
  if (initiativeSource() === "system") {
    const expected = systemRoll(speaker);
    return expected !== null && roll.formula === expected.formula && rollModifier(roll) === modifier;
  }
  const formula = checkFormula(speaker, modifier);
  return formula !== null && rolledWith(roll, formula);
}

/**
 * The member a group's check is rolled for: the first with the group's (lowest) modifier, whose own
 * roll is the check at that modifier.
 */
function groupSpeaker(combat: Combat.Implementation, state: IndividualState, groupId: string) {
  const modifier = groupModifier(state, groupId);
  const members = groupMembers(state, groupId);
  const lowest =
    initiativeSource() === "system"
      ? members.find((id) => state.combatants.find((c) => c.id === id)?.modifier === modifier)
      : members[0];
  return lowest === undefined ? undefined : combat.combatants.get(lowest);
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
    if (data === null || rolls.length !== 1 || typeof modifier !== "number") return false;
    // The system's roll carries its modifier; the world's modifier formula is read for the actor now.
    const expected =
      initiativeSource() === "system" ? modifier : await evaluateModifier(initiativeFormulas().modifier, data);
    return expected !== null && expected === modifier && isCheckRoll(rolls[0], combatant, expected, total);
  },
  recordGroupInitiative(combat, command, rolls) {
    const { groupId, total } = command as { groupId?: unknown; total?: unknown };
    const state = individualState(combat);
    if (state === null || typeof groupId !== "string" || rolls.length !== 1) return Promise.resolve(false);
    const modifier = groupModifier(state, groupId);
    const speaker = groupSpeaker(combat, state, groupId);
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

/** Why a check cannot be rolled: the system gives no roll, or the world's formula does not resolve. */
export function cannotRoll(): "noSystemRoll" | "invalidFormula" {
  return initiativeSource() === "system" ? "noSystemRoll" : "invalidFormula";
}

/**
 * Roll initiative for these combatants. A member of a group makes the group's one check (GM only),
 * at the lowest modifier of the group; others roll their own check, through the shared `rollEach`
 * (unknown, not the user's, refused by the rules now, or without an actor: said before any die).
 */
export async function rollStructuredInitiative(
  combat: Combat.Implementation,
  ids: readonly string[],
  options?: Combat.InitiativeOptions,
): Promise<CommandResult[]> {
  const state = individualState(combat);
  if (state === null) return [shownRefusal(combat, { ok: false, code: "corrupted" })];
  const rollMode = askedRollMode(options);
  const results: CommandResult[] = [];
  const groupsDone = new Set<string>();
  for (const id of ids) {
    const groupId = state.combatants.find((c) => c.id === id)?.groupId ?? null;
    if (!combat.combatants.has(id) || !state.combatants.some((c) => c.id === id)) {
      results.push(shownRefusal(combat, { ok: false, code: "unknownCombatant" }));
    } else if (groupId === null) {
      results.push(
        ...(await rollEach(combat, [id], probeOf, (combatant, actor) => rollOne(combat, combatant, actor, rollMode))),
      );
    } else if (!groupsDone.has(groupId)) {
      groupsDone.add(groupId);
      results.push(
        ...(await rollGroups(combat, [groupId], (group) => groupRollOf(combat, state, group), rollMode ?? "private")),
      );
    }
  }
  return results;
}

/** A combatant's `recordInitiative` with placeholder results, for the rules' check before any die. */
function probeOf(combatant: Combatant.Implementation) {
  return { type: "recordInitiative", combatantId: combatant.id ?? "", total: 0, modifier: 0 };
}

/** Roll one combatant's check (its actor, the rules and the user's rights were checked by `rollEach`). */
async function rollOne(
  combat: Combat.Implementation,
  combatant: Combatant.Implementation,
  actor: Actor.Implementation,
  rollMode: RollMode | undefined,
): Promise<CommandResult> {
  const id = combatant.id ?? "";
  const data = actor.getRollData();
  // The world's modifier is read first; the system's roll brings its own.
  const system = initiativeSource() === "system";
  const modifier = system ? 0 : await evaluateModifier(initiativeFormulas().modifier, data);
  if (modifier === null) return shownRefusal(combat, { ok: false, code: "invalidFormula", combatantId: id });
  const command = { ...probeOf(combatant), modifier };
  const flavor = game.i18n.format(`${I18N}.Chat.Initiative`, { name: combatant.name ?? "" });
  const rolled = await rollCheck(combat, combatant, modifier, flavor, rollMode, command);
  if (rolled === null) return { ok: false, code: cannotRoll(), combatantId: id };
  return submit(combat, { ...command, total: rolled.total, modifier: rolled.modifier, rolls: [rolled.messageId] });
}

/**
 * A group's one check (GM only), rolled through `rollGroups`: the check of its first member at the
 * group's (lowest) modifier, posted privately unless the roll mode says otherwise.
 */
function groupRollOf(
  combat: Combat.Implementation,
  state: IndividualState,
  groupId: string,
): GroupRoll | CommandResult {
  if (!game.user.isGM) return { ok: false, code: "notGM" };
  const modifier = groupModifier(state, groupId);
  const speaker = groupSpeaker(combat, state, groupId);
  if (modifier === null || speaker === undefined) return { ok: false, code: "emptyGroup" };
  const roll = checkRoll(speaker, modifier);
  if (roll === null) return { ok: false, code: cannotRoll(), combatantId: speaker.id ?? "" };
  return {
    probe: { type: "recordGroupInitiative", groupId, total: 0 },
    roll,
    speaker,
    flavor: game.i18n.format(`${I18N}.Chat.GroupInitiative`, { name: groupId }),
  };
}

/**
 * Rolling initiative rolls the `individual` checks of those combatants (a group once); roll all rolls
 * the checks still needed, one member standing for each group that has not rolled.
 */
export const INDIVIDUAL_INITIATIVE: ModeInitiative = initiativeRolling(rollStructuredInitiative, (combat) => {
  const state = individualState(combat);
  if (state === null) return [];
  const needed = rollsNeeded(state);
  return [...needed.combatants, ...needed.groups.map((groupId) => groupMembers(state, groupId)[0] ?? "")];
});
