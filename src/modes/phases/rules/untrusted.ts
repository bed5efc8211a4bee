/** Untrusted data for the `phases` mode: the command parser and its field checks. */

import {
  isId,
  type FieldReader,
  BAD,
  type CommandTable,
  ID_FIELD,
  required,
  absentOr,
  isFlag,
  isText,
  optional,
  parseByTable,
} from "../../../core/common";
import { MAX_POINTS, MAX_TARGETS, type IntentKind, type PhasesCommand, MAX_DICE } from "./types";

export function isPoints(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_POINTS;
}

/** A list of at most `MAX_TARGETS` well-formed ids (intent targets, sent or stored). */
export function isTargetList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.length <= MAX_TARGETS && value.every(isId);
}

function isFace(value: unknown): value is number {
  return Number.isInteger(value) && Math.abs(value as number) <= 1000;
}

function isKind(value: unknown): value is IntentKind {
  return value === "attack" || value === "other";
}

/** A list of at most `MAX_TARGETS` well-formed ids, copied. */
const TARGETS: FieldReader<readonly string[]> = (value) => (isTargetList(value) ? [...value] : BAD);

/** Each command's fields as untrusted data gives them (the roster commands are common to every mode). */
const COMMANDS: CommandTable<PhasesCommand> = {
  startTurn: { combatantId: ID_FIELD },
  pickNext: { combatantId: ID_FIELD },
  endTurn: { combatantId: ID_FIELD },
  setPoolCap: { cap: required(isPoints) },
  setCollapse: { points: required(isPoints) },
  // Combat#startCombat (core's "Begin combat") sends no surprise: the foes caught nobody unaware.
  start: { surprise: absentOr(isFlag, false) },
  declareIntent: { foeId: ID_FIELD, text: required(isText), kind: required(isKind), targets: TARGETS },
  spendCollapse: { foeId: ID_FIELD, text: required(isText), targets: TARGETS },
  setHandOff: { on: required(isFlag) },
  skillRoll: {
    combatantId: ID_FIELD,
    dieSize: (value) => (Number.isInteger(value) ? (value as number) : BAD),
    dice: (value) => (Array.isArray(value) && value.length <= MAX_DICE && value.every(isFace) ? [...value] : BAD),
    skill: optional(isId),
    gainsAdvantage: absentOr(isFlag),
    defendsIntent: optional(isId),
    move: absentOr(isFlag),
  },
  freeAction: {
    combatantId: ID_FIELD,
    kind: (value) => (value === "move" || value === "item" ? value : BAD),
    note: optional(isText),
  },
  resolveFailure: {
    choice: (value) => (value === "collapse" || value === "effect" ? value : BAD),
    text: (value, d) => (d.choice === "collapse" ? undefined : isText(value) ? value : BAD),
  },
  spendAdvantage: { note: required(isText), combatantId: optional(isId) },
  markOutOfReach: {
    intentId: ID_FIELD,
    outOfReach: (value) => {
      // Absent or null: marked out of reach.
      const outOfReach = value ?? true;
      return isFlag(outOfReach) ? outOfReach : BAD;
    },
  },
  nextPhase: {},
  nextTurn: {},
  nextRound: {},
};

export function parseCommand(data: unknown): PhasesCommand | null {
  return parseByTable(data, COMMANDS);
}
