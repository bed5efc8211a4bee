/**
 * Foundry glue of the `sides` mode (RULES.md §1).
 *
 * **One source of truth for sides: the v13 CombatantGroup documents the module marks.** A side is a
 * CombatantGroup of the encounter that the module created or the GM marked (the group's `side`
 * module flag; its `name`; its colour in another flag). Groups a system or another module made
 * (dnd5e's groups, draw-steel's squads) are never sides. A combatant's side is its `sideId` module
 * flag, not its core `group` field: systems treat a combatant's group as theirs (dnd5e 5.3.3's
 * `Combatant5e._onUpdateOperation` writes each updated member's initiative to its group, which a
 * player may not update, so every player request on a grouped combatant failed). A GM who puts a
 * combatant into a side group with Foundry's own UI moves it there: the active GM moves the
 * membership into the flag and clears `group`. The rules state mirrors them: on every roster reconciliation the active GM's
 * client derives `defineSide` / `setSide` / `removeSide` commands from the documents (`syncSides`)
 * and applies them in the same write as the roster change, so a GM who edits either the groups
 * (Foundry's own UI, a macro) or the tracker's side controls (which write the groups) ends with the
 * same state. Actor traits (Dexterity, Perception, initiative score) are mirrored the same way with
 * `setTraits`, read through the world's formulas. Nothing else writes those commands.
 *
 * Also here: the side initiative roll (a Foundry `Roll` of the roller's dice code, posted to chat),
 * declarations, reactions and slowing down through the rules, and the hesitation countdown, which
 * runs on the active GM's client only and sends `hesitate` when it expires.
 */
import { I18N, MODULE_ID } from "../../constants";
import {
  diceCodeFromPips,
  formatDiceCode,
  MAX_DICE,
  normaliseDiceCode,
  parseDiceCode,
  presetInitiativeScore,
  subtractDiceCodes,
  type DiceCode,
} from "../../core/dice-code";
import type { RuleEvent } from "../../core/engine";
import {
  currentDeclarer,
  isGMSide,
  sideRoller,
  sidesMode,
  sidesToRoll,
  type ReactionKind,
  type SidesState,
} from "./rules/sides";
import {
  applyAsAuthority,
  isAuthority,
  precheck,
  reconcileActorEncounters,
  reconcileAfterUndo,
  reconcileRoster,
  submit,
} from "../../foundry/authority/controller";
import { modeOf, requesterFor, stateOf } from "../../foundry/authority/encounters";
import { isGMUser } from "../../foundry/authority/guard";
import { createSerialQueue } from "../../core/queue";
import { askedRollMode, postRoll, rolledWith, totalOf, type RollMode } from "../../foundry/chat";
import type { RollCheck } from "../contract";
import { notifyRefusal } from "../../foundry/notify";
import { clock, type Cancel } from "../../foundry/clock";
import type { Json } from "../../core/patch";
import type { CommandResult } from "../../core/protocol";
import {
  sidesActionPenalty,
  sidesCountdownMs,
  sidesFormulas,
  sidesMaxReactions,
  sidesTraitUnit,
  sidesWoundPenalty,
  type SidesFormulas,
  type TraitUnit,
} from "./settings";

/** Module flag keys on CombatantGroup documents (sides) and on the Combat (the countdown's controls). */
export const SIDE_FLAGS = {
  /** CombatantGroup: true on a group that is a side (the module made it, or the GM marked it). */
  side: "side",
  /** Combatant: the id of the side (CombatantGroup) it is on. GM-written. */
  sideId: "sideId",
  /** CombatantGroup: the side's colour ("#rrggbb"). */
  colour: "colour",
  /** CombatantGroup: the disposition a default side was made for ("friendly", "hostile", "neutral"). */
  role: "role",
  /** Combat: the GM's controls of the hesitation countdown ({@link ClockControl}). */
  clock: "sidesClock",
  /** Combat: when the current declarer's countdown began ({@link DeclaringStamp}). Active GM-written. */
  declaring: "sidesDeclaring",
} as const;

/** The dispositions default sides are made for. */
export type SideRole = "friendly" | "hostile" | "neutral";

/** Colours of the default sides, and of sides without a colour (by position). */
export const SIDE_COLOURS: Readonly<Record<SideRole, string>> = {
  friendly: "#2f7d4f",
  hostile: "#8c2f39",
  neutral: "#7a6a2a",
};
const PALETTE = ["#2f7d4f", "#8c2f39", "#7a6a2a", "#2f5f9d", "#6b3fa0", "#2a7a7a"];
const COLOUR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

/** The sides state of a combat, or null when it is not a readable `sides` encounter. */
export function sidesState(combat: Combat.Implementation): SidesState | null {
  return stateOf(combat, sidesMode);
}

function moduleFlag(document: { flags: unknown }, key: string): unknown {
  const flags = document.flags as Record<string, Record<string, unknown> | undefined> | undefined;
  return flags?.[MODULE_ID]?.[key];
}

type Group = Combat.Implementation["groups"] extends { contents: (infer G)[] } ? G : never;

/**
 * Whether a CombatantGroup is a side: marked with the `side` flag, or made by an earlier version of
 * the module (which gave its groups a colour or a role flag and no mark).
 */
export function isSideGroup(group: Group): boolean {
  const mark = moduleFlag(group, SIDE_FLAGS.side);
  if (mark !== undefined) return mark === true;
  return (
    typeof moduleFlag(group, SIDE_FLAGS.colour) === "string" || typeof moduleFlag(group, SIDE_FLAGS.role) === "string"
  );
}

/** The encounter's sides: its CombatantGroups that are sides, in their order. */
function groupsOf(combat: Combat.Implementation): Group[] {
  return combat.groups.contents.filter(isSideGroup);
}

/** The id in a combatant's core `group` field, or null. */
function coreGroupOf(combatant: Combatant.Implementation): string | null {
  const id: unknown = (combatant._source as { group?: unknown }).group;
  return typeof id === "string" && id !== "" ? id : null;
}

/**
 * The side a combatant is on among these side ids, or null: its core `group` when that is a side
 * (the GM just moved it there with Foundry's own UI, or it was stored so by an earlier version),
 * else its `sideId` flag.
 */
export function sideIdOf(combatant: Combatant.Implementation, sides: ReadonlySet<string>): string | null {
  const core = coreGroupOf(combatant);
  if (core !== null && sides.has(core)) return core;
  const flag = moduleFlag(combatant, SIDE_FLAGS.sideId);
  return typeof flag === "string" && sides.has(flag) ? flag : null;
}

/** The update that puts a combatant on a side: the flag, and `group` cleared if it named a side. */
function onSide(combatant: Combatant.Implementation, sideId: string, sides: ReadonlySet<string>): object {
  const core = coreGroupOf(combatant);
  return {
    _id: combatant.id ?? "",
    flags: { [MODULE_ID]: { [SIDE_FLAGS.sideId]: sideId } },
    ...(core !== null && sides.has(core) ? { group: null } : {}),
  };
}

function sideIds(combat: Combat.Implementation): Set<string> {
  return new Set(groupsOf(combat).map((g) => g.id ?? ""));
}

/** The side name of a group as the rules store it: its name, or "Side n" (1-based position). */
export function sideNameOf(group: Group, index: number): string {
  const name = (group.name ?? "").trim().slice(0, 100);
  return name !== "" ? name : game.i18n.format(`${I18N}.Tracker.Sides.Unnamed`, { n: String(index + 1) });
}

/** The side colour of a group: its flag when well-formed, else one of the palette by position. */
export function sideColourOf(group: Group, index: number): string {
  const value = moduleFlag(group, SIDE_FLAGS.colour);
  return typeof value === "string" && COLOUR.test(value) ? value : (PALETTE[index % PALETTE.length] ?? "#777777");
}

// ---------------------------------------------------------------------------------------------
// Traits

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

// ---------------------------------------------------------------------------------------------
// Keeping the rules state in line with the documents

/**
 * The commands that bring a sides state in line with the encounter's documents: every group a side
 * (name, colour), every grouped combatant on its group's side, traits as the formulas read them, the
 * world's action penalty; sides whose group is gone are removed once empty.
 */
export function syncSides(combat: Combat.Implementation, state: SidesState): Json[] {
  const out: Json[] = [];
  const groups = groupsOf(combat);
  const ids = new Set<string>();
  groups.forEach((group, index) => {
    const sideId = group.id ?? "";
    ids.add(sideId);
    const name = sideNameOf(group, index);
    const colour = sideColourOf(group, index);
    const side = state.sides.find((s) => s.id === sideId);
    if (side === undefined || side.name !== name || side.colour !== colour)
      out.push({ type: "defineSide", sideId, name, colour });
  });
  const formulas = sidesFormulas();
  for (const combatant of combat.combatants.contents) {
    const id = combatant.id ?? "";
    const entry = state.combatants.find((c) => c.id === id);
    if (entry === undefined) continue;
    const groupId = sideIdOf(combatant, ids);
    if (groupId !== null && entry.sideId !== groupId) out.push({ type: "setSide", combatantId: id, sideId: groupId });
    const traits = traitsOf(combatant, formulas);
    if (
      traits !== null &&
      (traits.dexterity !== entry.dexterity ||
        traits.perception !== entry.perception ||
        traits.initiativeScore !== entry.initiativeScore)
    )
      out.push({ type: "setTraits", combatantId: id, ...traits });
  }
  const penalty = normaliseDiceCode(sidesActionPenalty()) ?? state.actionPenalty;
  const maxReactions = sidesMaxReactions();
  if (penalty !== state.actionPenalty || maxReactions !== state.maxReactions)
    out.push({ type: "configure", maxActions: state.maxActions, actionPenalty: penalty, maxReactions });
  for (const side of state.sides) if (!ids.has(side.id)) out.push({ type: "removeSide", sideId: side.id });
  return out;
}

/** The default side of a combatant: a PC or a friendly token → PCs' side; neutral → neutral; else hostile. */
export function roleOf(combatant: Combatant.Implementation): SideRole {
  if (combatant.hasPlayerOwner) return "friendly";
  const disposition = combatant.token?.disposition;
  if (disposition === 1) return "friendly";
  if (disposition === 0) return "neutral";
  return "hostile";
}

/** Default-side assignments run one after another per encounter (each sees the groups the last made). */
const assigning = createSerialQueue();

/**
 * On the active GM: put every combatant without a side on its default side, creating the default
 * sides it needs (one create and one update at most). The groups' hooks then mirror them.
 */
export function assignDefaultSides(combat: Combat.Implementation): Promise<void> {
  return assigning(combat.id ?? "", async () => {
    if (!isAuthority() || modeOf(combat) !== sidesMode.id) return;
    const groupIds = sideIds(combat);
    // Members recorded in the core field (Foundry's UI, an earlier version) move to the flag.
    const moved = combat.combatants.contents.flatMap((c) => {
      const core = coreGroupOf(c);
      return core !== null && groupIds.has(core) ? [onSide(c, core, groupIds)] : [];
    });
    const loose = combat.combatants.contents.filter((c) => sideIdOf(c, groupIds) === null);
    if (loose.length === 0) {
      if (moved.length > 0) await combat.updateEmbeddedDocuments("Combatant", moved);
      return;
    }
    const byRole = new Map<SideRole, string>();
    for (const group of groupsOf(combat)) {
      const role = moduleFlag(group, SIDE_FLAGS.role);
      if ((role === "friendly" || role === "hostile" || role === "neutral") && !byRole.has(role))
        byRole.set(role, group.id ?? "");
    }
    const missing = [...new Set(loose.map(roleOf))].filter((role) => !byRole.has(role));
    if (missing.length > 0) {
      const created = await combat.createEmbeddedDocuments(
        "CombatantGroup",
        missing.map((role) => ({
          name: game.i18n.localize(`${I18N}.Tracker.Sides.Default.${role}`),
          flags: {
            [MODULE_ID]: { [SIDE_FLAGS.side]: true, [SIDE_FLAGS.colour]: SIDE_COLOURS[role], [SIDE_FLAGS.role]: role },
          },
        })),
      );
      (created ?? []).forEach((group, i) => {
        const role = missing[i];
        if (role !== undefined) byRole.set(role, group.id);
      });
    }
    for (const id of byRole.values()) groupIds.add(id);
    const updates = loose.flatMap((c) => {
      const side = byRole.get(roleOf(c));
      return side === undefined ? [] : [onSide(c, side, groupIds)];
    });
    const all = [...moved, ...updates];
    if (all.length > 0) await combat.updateEmbeddedDocuments("Combatant", all);
  });
}

// ---------------------------------------------------------------------------------------------
// The GM's side controls (document writes; the mirror follows)

function gmOnly(combat: Combat.Implementation): CommandResult | null {
  if (game.user.isGM) return null;
  notifyRefusal(combat, "notGM");
  return { ok: false, code: "notGM" };
}

/** GM: add a side, optionally moving these combatants onto it (a split). */
export async function addSide(
  combat: Combat.Implementation,
  name: string,
  colour: string,
  members: readonly string[] = [],
): Promise<CommandResult> {
  const refused = gmOnly(combat);
  if (refused !== null) return refused;
  if (!COLOUR.test(colour)) return invalid(combat);
  const [group] =
    (await combat.createEmbeddedDocuments("CombatantGroup", [
      {
        name: name.trim().slice(0, 100),
        flags: { [MODULE_ID]: { [SIDE_FLAGS.side]: true, [SIDE_FLAGS.colour]: colour } },
      },
    ])) ?? [];
  const groupId = group?.id ?? null;
  if (groupId === null) return { ok: false, code: "writeFailed" };
  const ids = sideIds(combat);
  const updates = members.flatMap((id) => {
    const combatant = combat.combatants.get(id);
    return combatant === undefined ? [] : [onSide(combatant, groupId, ids)];
  });
  if (updates.length > 0) await combat.updateEmbeddedDocuments("Combatant", updates);
  return { ok: true };
}

/** GM: rename and recolour a side. */
export async function editSide(
  combat: Combat.Implementation,
  sideId: string,
  name: string,
  colour: string,
): Promise<CommandResult> {
  const refused = gmOnly(combat);
  if (refused !== null) return refused;
  const group = combat.groups.get(sideId);
  if (group === undefined || !isSideGroup(group)) return unknownSide(combat);
  if (!COLOUR.test(colour) || name.trim() === "") return invalid(combat);
  await group.update({ name: name.trim().slice(0, 100), flags: { [MODULE_ID]: { [SIDE_FLAGS.colour]: colour } } });
  return { ok: true };
}

/**
 * GM: make one of the encounter's CombatantGroups a side, or stop it being one (`marked` false). A
 * group a system or another module made is not a side until the GM marks it; an unmarked side's
 * members go back to their default sides.
 */
export async function markSide(combat: Combat.Implementation, groupId: string, marked = true): Promise<CommandResult> {
  const refused = gmOnly(combat);
  if (refused !== null) return refused;
  const group = combat.groups.get(groupId);
  if (group === undefined) return unknownSide(combat);
  await group.update({ flags: { [MODULE_ID]: { [SIDE_FLAGS.side]: marked } } });
  return { ok: true };
}

/** GM: move a combatant to another side. */
export async function moveToSide(
  combat: Combat.Implementation,
  combatantId: string,
  sideId: string,
): Promise<CommandResult> {
  const refused = gmOnly(combat);
  if (refused !== null) return refused;
  const combatant = combat.combatants.get(combatantId);
  if (combatant === undefined) {
    notifyRefusal(combat, "unknownCombatant");
    return { ok: false, code: "unknownCombatant" };
  }
  const ids = sideIds(combat);
  if (!ids.has(sideId)) return unknownSide(combat);
  await combat.updateEmbeddedDocuments("Combatant", [onSide(combatant, sideId, ids)]);
  return { ok: true };
}

/** GM: delete an empty side. */
export async function deleteSide(combat: Combat.Implementation, sideId: string): Promise<CommandResult> {
  const refused = gmOnly(combat);
  if (refused !== null) return refused;
  const group = combat.groups.get(sideId);
  if (group === undefined || !isSideGroup(group)) return unknownSide(combat);
  const ids = sideIds(combat);
  if (combat.combatants.contents.some((c) => sideIdOf(c, ids) === sideId)) {
    notifyRefusal(combat, "sideNotEmpty");
    return { ok: false, code: "sideNotEmpty" };
  }
  await group.delete();
  return { ok: true };
}

/** GM: read every combatant's traits again through the formulas (the active GM applies them). */
export async function refreshTraits(combat: Combat.Implementation): Promise<CommandResult> {
  const refused = gmOnly(combat);
  if (refused !== null) return refused;
  if (isAuthority()) await reconcileRoster(combat);
  return { ok: true };
}

function invalid(combat: Combat.Implementation): CommandResult {
  notifyRefusal(combat, "invalidValue");
  return { ok: false, code: "invalidValue" };
}

function unknownSide(combat: Combat.Implementation): CommandResult {
  notifyRefusal(combat, "unknownSide");
  return { ok: false, code: "unknownSide" };
}

// ---------------------------------------------------------------------------------------------
// Side initiative

/** The Foundry formula of a dice code: "4D+2" → "4d6 + 2", "3D-1" → "3d6 - 1", "0D" → "0". */
export function diceFormula(code: DiceCode): string {
  const dice = code.dice > 0 ? `${code.dice}d6` : "0";
  if (code.pips === 0) return dice;
  return `${dice} ${code.pips > 0 ? "+" : "-"} ${Math.abs(code.pips)}`;
}

/**
 * Roll one side's initiative: the roller's initiative score as D6 dice, posted to chat with the roll
 * mode, then recorded through the rules. Refused before rolling when the rules would refuse it.
 */
export async function rollSide(
  combat: Combat.Implementation,
  sideId: string,
  rollMode?: RollMode,
): Promise<CommandResult> {
  const state = sidesState(combat);
  if (state === null) {
    notifyRefusal(combat, "corrupted");
    return { ok: false, code: "corrupted" };
  }
  const probe = { type: "recordSideRoll", sideId, total: 0 };
  const early = precheck(combat, probe);
  if (early !== null) {
    if (!early.ok) notifyRefusal(combat, early.code, early.combatantId);
    return early;
  }
  const roller = combat.combatants.get(sideRoller(state, sideId) ?? "");
  const side = state.sides.find((s) => s.id === sideId);
  const roll = new Roll(sideRollFormula(combat, state, sideId));
  await roll.evaluate();
  const flavor = game.i18n.format(`${I18N}.Chat.SideInitiative`, {
    side: side?.name ?? "",
    name: roller?.name ?? "",
  });
  const messageId = await postRoll(roll, roller, flavor, rollMode);
  return submit(combat, { ...probe, total: totalOf(roll) ?? 0, rolls: messageId === null ? [] : [messageId] });
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
  const results: CommandResult[] = [];
  for (const sideId of sideIds) results.push(await rollSide(combat, sideId, rollMode));
  return results;
}

/** Roll every side the current user may roll now (GM sides only for `npcsOnly`). */
export async function rollAllSides(combat: Combat.Implementation, npcsOnly = false): Promise<CommandResult[]> {
  const results: CommandResult[] = [];
  for (const sideId of sidesToRollFor(combat, npcsOnly)) results.push(await rollSide(combat, sideId));
  return results;
}

// ---------------------------------------------------------------------------------------------
// Declarations, reactions, slowing down

/** Declare a character's actions for this round (its owner or the GM; the current declarer only). */
export function declare(
  combat: Combat.Implementation,
  combatantId: string,
  texts: readonly string[],
  forcePoint: boolean,
): Promise<CommandResult> {
  return submit(combat, { type: "declare", combatantId, actions: texts.map((text) => ({ text })), forcePoint });
}

/** Add a dodge or parry (the character's owner or the GM, during the passes). */
export function react(combat: Combat.Implementation, combatantId: string, kind: ReactionKind): Promise<CommandResult> {
  return submit(combat, { type: "react", combatantId, kind });
}

/** Slow down to act right after another character of this pass. */
export function slowDown(combat: Combat.Implementation, combatantId: string, after: string): Promise<CommandResult> {
  return submit(combat, { type: "slowDown", combatantId, after });
}

/** A slowed character lets its moment pass: its action is lost, its penalty stands. */
export function letPass(combat: Combat.Implementation, combatantId: string): Promise<CommandResult> {
  return submit(combat, { type: "letPass", combatantId });
}

// ---------------------------------------------------------------------------------------------
// The hesitation countdown

/** The GM's controls of the countdown, stored on the Combat (written only when the GM uses them). */
export interface ClockControl {
  readonly paused: boolean;
  /** Characters the countdown never counts for (a new player). */
  readonly excused: readonly string[];
}

const NO_CONTROL: ClockControl = { paused: false, excused: [] };

/** The countdown controls of an encounter. */
export function clockControlOf(combat: Combat.Implementation): ClockControl {
  const raw = moduleFlag(combat, SIDE_FLAGS.clock);
  if (typeof raw !== "object" || raw === null) return NO_CONTROL;
  const r = raw as Record<string, unknown>;
  const excused = Array.isArray(r.excused) ? (r.excused as unknown[]).filter((x) => typeof x === "string") : [];
  return { paused: r.paused === true, excused };
}

/**
 * When the current declarer's countdown began, as the active GM wrote it with the step that brought
 * the declarer (a declaration, a hesitation, an undo, a correction of the side rolls) or with its
 * resume: every client counts from this one time, so an undo gives a fresh, full countdown.
 */
export interface DeclaringStamp {
  readonly combatantId: string;
  readonly round: number;
  /** Epoch ms on the active GM's clock when the countdown began. */
  readonly at: number;
  /** The GM's extension for this declarer. */
  readonly extraMs: number;
}

/** The stamp of an encounter, or null (none written yet, or unreadable). */
export function declaringStampOf(combat: Combat.Implementation): DeclaringStamp | null {
  const raw = moduleFlag(combat, SIDE_FLAGS.declaring);
  if (typeof raw !== "object" || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.combatantId !== "string" || typeof r.round !== "number" || typeof r.at !== "number") return null;
  if (!Number.isFinite(r.at)) return null;
  const extraMs = typeof r.extraMs === "number" && Number.isFinite(r.extraMs) ? Math.max(0, r.extraMs) : 0;
  return { combatantId: r.combatantId, round: r.round, at: r.at, extraMs };
}

/** A fresh stamp for the current declarer, counted from now (this client's clock: the active GM's). */
function freshStamp(state: SidesState, who: string): DeclaringStamp {
  return { combatantId: who, round: state.round, at: clock.now(), extraMs: 0 };
}

/** Whether the stamp is the current declarer's. */
function stampFits(stamp: DeclaringStamp | null, state: SidesState, who: string): stamp is DeclaringStamp {
  return stamp !== null && stamp.combatantId === who && stamp.round === state.round;
}

/** Events that bring a declarer back to a fresh countdown even when the declarer stays the same. */
const FRESH_COUNTDOWN = new Set(["rewound", "sideRolled", "sidesOrdered"]);

/**
 * The authority's `stepFlags`: a fresh stamp written with any step that makes someone the declarer
 * (the previous declarer declared or hesitated, a new round's declarations began) or brings one
 * back (previous turn, previous round, the GM's correction of a side roll that orders the sides
 * again). Stamped for NPCs too, so a countdown switched on mid-step has a start.
 */
export function sidesStepFlags(
  combat: Combat.Implementation,
  state: SidesState,
  events: readonly RuleEvent[],
): Readonly<Record<string, Json>> | null {
  const who = currentDeclarer(state);
  if (who === null) return null;
  const fresh = !stampFits(declaringStampOf(combat), state, who) || events.some((e) => FRESH_COUNTDOWN.has(e.type));
  return fresh ? { [SIDE_FLAGS.declaring]: { ...freshStamp(state, who) } } : null;
}

/** What the tracker shows of the countdown: for whom, until when, paused or not. */
export interface ClockView {
  readonly combatantId: string;
  /** Whether it counts for this declarer: a player's character (the GM declares NPCs at its pace). */
  readonly counts: boolean;
  /**
   * Epoch ms of the deadline (the active GM's clock, as stamped), or null until the GM's stamp for
   * this declarer arrives.
   */
  readonly deadline: number | null;
  /** The whole countdown for this declarer (the setting plus the GM's extension), in ms. */
  readonly fullMs: number;
  readonly paused: boolean;
  readonly excused: boolean;
}

/**
 * The countdown as the tracker shows it now; null when none runs: switched off, or nobody declares.
 * While an NPC declares it does not count (the rulebook counts to three for the players only), but
 * the GM may still pause it.
 */
export function clockView(combat: Combat.Implementation, state: SidesState): ClockView | null {
  const ms = sidesCountdownMs();
  const who = currentDeclarer(state);
  if (ms === 0 || who === null) return null;
  const control = clockControlOf(combat);
  const stamp = declaringStampOf(combat);
  const fits = stampFits(stamp, state, who);
  const extra = fits ? stamp.extraMs : 0;
  return {
    combatantId: who,
    counts: state.combatants.find((c) => c.id === who)?.isPC === true,
    deadline: fits ? stamp.at + ms + extra : null,
    fullMs: ms + extra,
    paused: control.paused,
    excused: control.excused.includes(who),
  };
}

const timers = new Map<string, { key: string; deadline: number; cancel: Cancel }>();

/**
 * On the active GM: (re)arm the countdown for the current declarer after any change of the encounter.
 * When it expires it sends `hesitate` through the same serialised path as every request, so a
 * declaration already in flight and the hesitation give exactly one outcome (the first applied).
 * A declarer without a stamp (a state written before stamps, a countdown switched on mid-step) is
 * stamped now, in its own write.
 */
export function armClock(combat: Combat.Implementation): void {
  const id = combat.id ?? "";
  const running = timers.get(id);
  const stop = (): void => {
    running?.cancel();
    timers.delete(id);
  };
  const state = isAuthority() && modeOf(combat) === "sides" ? sidesState(combat) : null;
  const view = state === null ? null : clockView(combat, state);
  if (state === null || view === null || !view.counts || view.paused || view.excused) {
    stop();
    return;
  }
  if (view.deadline === null) {
    stop();
    void writeStamp(combat, freshStamp(state, view.combatantId));
    return;
  }
  const deadline = view.deadline;
  const key = `${state.round}:${view.combatantId}`;
  if (running?.key === key && running.deadline === deadline) return;
  stop();
  const cancel = clock.after(deadline - clock.now(), () => {
    timers.delete(id);
    void applyAsAuthority(
      combat,
      { type: "hesitate", combatantId: view.combatantId },
      requesterFor(combat, game.user),
      null,
    );
  });
  timers.set(id, { key, deadline, cancel });
}

/** The encounter ended (active GM): its hesitation countdown stops (it would act on a deleted encounter). */
export function sidesEnd(combat: Combat.Implementation): Promise<void> {
  const id = combat.id ?? "";
  timers.get(id)?.cancel();
  timers.delete(id);
  return Promise.resolve();
}

async function writeClock(
  combat: Combat.Implementation,
  change: Partial<ClockControl>,
  stamp: DeclaringStamp | null = null,
): Promise<CommandResult> {
  const refused = gmOnly(combat);
  if (refused !== null) return refused;
  const next = { ...clockControlOf(combat), ...change };
  const flags = { [SIDE_FLAGS.clock]: next, ...(stamp === null ? {} : { [SIDE_FLAGS.declaring]: stamp }) };
  await combat.update({ flags: { [MODULE_ID]: flags } } as unknown as Combat.UpdateData);
  return { ok: true };
}

function writeStamp(combat: Combat.Implementation, stamp: DeclaringStamp): Promise<void> {
  const data = { flags: { [MODULE_ID]: { [SIDE_FLAGS.declaring]: stamp } } };
  return combat.update(data as unknown as Combat.UpdateData).then(
    () => undefined,
    (error: unknown) => {
      console.error(`${MODULE_ID} |`, error);
    },
  );
}

/**
 * GM: pause (or resume) the countdown, at any time of the declaration step (an NPC declaring too).
 * Resuming gives the current declarer a fresh, full countdown from now.
 */
export function pauseClock(combat: Combat.Implementation, paused: boolean): Promise<CommandResult> {
  const state = sidesState(combat);
  const who = state === null ? null : currentDeclarer(state);
  const stamp = paused || state === null || who === null ? null : freshStamp(state, who);
  return writeClock(combat, { paused }, stamp);
}

/** GM: give the current declarer more time (until the next step that brings a declarer). */
export function extendClock(combat: Combat.Implementation, seconds: number): Promise<CommandResult> {
  const state = sidesState(combat);
  const who = state === null ? null : currentDeclarer(state);
  if (state === null || who === null) return writeClock(combat, {});
  const stamp = declaringStampOf(combat);
  const base = stampFits(stamp, state, who) ? stamp : freshStamp(state, who);
  return writeClock(combat, {}, { ...base, extraMs: base.extraMs + Math.max(0, seconds) * 1000 });
}

/** GM: excuse a character from the countdown (or count for it again). */
export function excuse(combat: Combat.Implementation, combatantId: string, excused: boolean): Promise<CommandResult> {
  const list = clockControlOf(combat).excused.filter((id) => id !== combatantId);
  return writeClock(combat, { excused: excused ? [...list, combatantId] : list });
}

// ---------------------------------------------------------------------------------------------
// Hook listeners (the module's `mirror.hooks`, attached in src/index.ts)

function sidesCombat(combat: Combat.Implementation | null): combat is Combat.Implementation {
  return combat !== null && modeOf(combat) === sidesMode.id;
}

/** `createCombatant`: new combatants get their default side (active GM). */
export function onSidesCombatantCreated(combatant: Combatant.Implementation): void {
  const combat = combatant.parent;
  if (sidesCombat(combat) && isAuthority()) void assignDefaultSides(combat);
}

/**
 * `updateCombatant`: a GM's side change (the `sideId` flag, or the `group` field set to a side with
 * Foundry's own UI) is mirrored (active GM). A player's is not: only the GM changes sides, and the
 * shared guard puts it back (module flags and `gmOnlyCombatantKeys`).
 */
export function onSidesCombatantUpdated(
  combatant: Combatant.Implementation,
  changed: object,
  _options: unknown,
  userId: string,
): void {
  const combat = combatant.parent;
  if (!sidesCombat(combat) || !isAuthority() || !isGMUser(userId)) return;
  const flags = (changed as { flags?: Record<string, Record<string, unknown> | undefined> }).flags;
  const sideChanged = flags?.[MODULE_ID] !== undefined && SIDE_FLAGS.sideId in flags[MODULE_ID];
  // A side group set with Foundry's own UI moves to the flag first; the mirror follows either way.
  if ("group" in changed) void assignDefaultSides(combat).then(() => reconcileRoster(combat));
  else if (sideChanged) void reconcileRoster(combat);
}

/** `create/update/deleteCombatantGroup`: a side added, renamed, recoloured or removed is mirrored. */
export function onSidesGroupChanged(group: { readonly parent: Combat.Implementation | null }): void {
  const combat = group.parent;
  if (sidesCombat(combat) && isAuthority()) void reconcileRoster(combat);
}

/** `updateActor`: traits read from a changed actor are mirrored into the sides encounters it fights in. */
export function onSidesActorUpdated(actor: { readonly id: string | null }): void {
  reconcileActorEncounters(actor.id, sidesCombat);
}

/** `updateCombat`: the countdown follows the current declarer and the GM's controls (active GM). */
export function onSidesCombatUpdated(combat: Combat.Implementation): void {
  if (sidesCombat(combat)) armClock(combat);
}

/** Side effects of sides events on the authority: an undo restores the mirror of the documents. */
export function sidesEffects(combat: Combat.Implementation, events: readonly RuleEvent[]): Promise<void> {
  reconcileAfterUndo(combat, events);
  return Promise.resolve();
}

/** On the active GM, after an encounter became a `sides` encounter: default sides, then the mirror. */
export async function prepareSides(combat: Combat.Implementation): Promise<void> {
  if (!isAuthority() || modeOf(combat) !== sidesMode.id) return;
  await assignDefaultSides(combat);
  await reconcileRoster(combat);
}

/** The `sides` part of the module API (`api.sides`). */
export interface SidesApi {
  rollSide: typeof rollSide;
  rollAllSides: typeof rollAllSides;
  declare: typeof declare;
  react: typeof react;
  slowDown: typeof slowDown;
  letPass: typeof letPass;
  correctSideRoll: typeof correctSideRoll;
  addSide: typeof addSide;
  markSide: typeof markSide;
  editSide: typeof editSide;
  moveToSide: typeof moveToSide;
  deleteSide: typeof deleteSide;
  refreshTraits: typeof refreshTraits;
  pauseClock: typeof pauseClock;
  extendClock: typeof extendClock;
  excuse: typeof excuse;
}

/** The `sides` API functions. */
export const SIDES_API: SidesApi = {
  rollSide,
  rollAllSides,
  declare,
  react,
  slowDown,
  letPass,
  correctSideRoll,
  addSide,
  markSide,
  editSide,
  moveToSide,
  deleteSide,
  refreshTraits,
  pauseClock,
  extendClock,
  excuse,
};

const ticking = new WeakSet<HTMLElement>();

/**
 * Count the hesitation countdown down in a rendered tracker: once a quarter second, every
 * `[data-si-deadline]` element shows the whole seconds left (text only). Stops by itself when the
 * tracker no longer shows a countdown.
 */
export function tickCountdowns(root: HTMLElement): void {
  if (ticking.has(root) || root.querySelector("[data-si-deadline]") === null) return;
  ticking.add(root);
  const view = root.ownerDocument.defaultView;
  if (view === null) return;
  const timer = view.setInterval(() => {
    const shown = [...root.querySelectorAll<HTMLElement>("[data-si-deadline]")];
    if (shown.length === 0 || !root.isConnected) {
      view.clearInterval(timer);
      ticking.delete(root);
      return;
    }
    for (const element of shown) {
      const deadline = Number(element.dataset.siDeadline);
      if (!Number.isFinite(deadline) || deadline === 0) continue;
      // The GM's clock may run ahead of this one: never more than the whole countdown.
      const full = Number(element.dataset.siFull);
      const left = Math.max(0, deadline - clock.now());
      const seconds = String(Math.ceil((Number.isFinite(full) && full > 0 ? Math.min(full, left) : left) / 1000));
      if (element.textContent !== seconds) element.textContent = seconds;
    }
  }, 250);
}
