/** Untrusted data for the sides mode: the checks of values a command carries, and command parsing. */
import {
  absentOr,
  BAD,
  ID_FIELD,
  isFiniteNumber,
  isFlag,
  isId,
  isRecord,
  parseByTable,
  required,
  TYPED_FIELD,
  type CommandTable,
  type FieldReader,
} from "../../../core/common";
import { normaliseDiceCode } from "../../../core/dice-code";
import {
  MAX_SIDE_NAME_LENGTH,
  MAX_ACTION_TEXT_LENGTH,
  MAX_ACTIONS_LIMIT,
  type ReactionKind,
  type DeclaredAction,
  type SidesCommand,
  MAX_SIDES,
} from "./types";

const COLOUR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

export function isColour(value: unknown): value is string {
  return typeof value === "string" && COLOUR.test(value);
}

export function isSideName(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "" && value.length <= MAX_SIDE_NAME_LENGTH;
}

export function isActionText(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_ACTION_TEXT_LENGTH;
}

export function isMaxActions(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_ACTIONS_LIMIT;
}

export function isReactionKind(value: unknown): value is ReactionKind {
  return value === "dodge" || value === "parry";
}

/** A list of at least two distinct ids, at most `max`. */
function idList(max: number): FieldReader<string[]> {
  return (data) => {
    if (!Array.isArray(data) || data.length < 2 || data.length > max) return BAD;
    const ids = (data as readonly unknown[]).filter(isId);
    return ids.length === data.length && new Set(ids).size === ids.length ? ids : BAD;
  };
}

function parseActions(data: unknown): DeclaredAction[] | typeof BAD {
  if (!Array.isArray(data) || data.length > MAX_ACTIONS_LIMIT) return BAD;
  const actions: DeclaredAction[] = [];
  for (const item of data as readonly unknown[]) {
    // An entry with a kind is a dodge or parry in disguise: those are never declared.
    if (!isRecord(item) || !isActionText(item.text) || "kind" in item) return BAD;
    actions.push({ text: item.text });
  }
  return actions;
}

/** A trait's dice code, normalised. */
const DICE_CODE: FieldReader<string> = (value) => normaliseDiceCode(value) ?? BAD;
const MAX_ACTIONS: FieldReader<number> = required(isMaxActions);

/** Each command's fields as untrusted data gives them (the roster commands are common to every mode). */
const COMMANDS: CommandTable<SidesCommand> = {
  hesitate: { combatantId: ID_FIELD },
  letPass: { combatantId: ID_FIELD },
  defineSide: {
    sideId: ID_FIELD,
    name: required(isSideName),
    colour: required(isColour),
    // Absent: left out; null (no mark) or a flag: kept.
    isGMSide: (value) => (value === undefined ? undefined : value === null || isFlag(value) ? value : BAD),
  },
  removeSide: { sideId: ID_FIELD },
  setSide: { combatantId: ID_FIELD, sideId: ID_FIELD },
  setTraits: { combatantId: ID_FIELD, dexterity: DICE_CODE, perception: DICE_CODE, initiativeScore: DICE_CODE },
  configure: { maxActions: MAX_ACTIONS, actionPenalty: DICE_CODE, maxReactions: absentOr(isMaxActions) },
  start: {},
  setRoller: { sideId: ID_FIELD, combatantId: (value) => (value === null || isId(value) ? value : BAD) },
  recordSideRoll: { sideId: ID_FIELD, total: required(isFiniteNumber), typed: TYPED_FIELD },
  orderTiedSides: { sideIds: idList(MAX_SIDES) },
  declare: { combatantId: ID_FIELD, actions: parseActions, forcePoint: required(isFlag) },
  orderTied: { pass: MAX_ACTIONS, combatantIds: idList(1000) },
  nextTurn: {},
  nextRound: {},
  react: { combatantId: ID_FIELD, kind: required(isReactionKind) },
  slowDown: { combatantId: ID_FIELD, after: ID_FIELD },
};

export function parseCommand(data: unknown): SidesCommand | null {
  // The generic tracker may send `surprise: false`; this mode has no surprise round.
  if (isRecord(data) && data.type === "start" && data.surprise !== undefined && data.surprise !== false) return null;
  const command = parseByTable(data, COMMANDS);
  // Sides keep no defeated flag: `setDefeated` is not one of their commands.
  return command?.type === "setDefeated" ? null : command;
}
