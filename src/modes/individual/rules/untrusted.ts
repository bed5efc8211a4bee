/** Untrusted data for the `individual` mode: the command parser and its field checks. */

import {
  absentOr,
  BAD,
  ID_FIELD,
  isFiniteNumber,
  isFlag,
  isId,
  isRecord,
  isText,
  parseByTable,
  required,
  TYPED_FIELD,
  type CommandTable,
  type FieldReader,
} from "../../../core/common";
import type { IndividualCommand, RollOffResult } from "./types";

function parseResults(data: unknown): RollOffResult[] | null {
  if (!Array.isArray(data) || data.length === 0 || data.length > 100) return null;
  const results: RollOffResult[] = [];
  for (const item of data as readonly unknown[]) {
    if (!isRecord(item) || !isId(item.combatantId) || !isFiniteNumber(item.total)) return null;
    results.push({ combatantId: item.combatantId, total: item.total });
  }
  return results;
}

const FINITE: FieldReader<number> = required(isFiniteNumber);

/** Each command's fields as untrusted data gives them (the roster commands are common to every mode). */
const COMMANDS: CommandTable<IndividualCommand> = {
  endDelay: { combatantId: ID_FIELD },
  triggerReady: { combatantId: ID_FIELD },
  setSkipDefeated: { skip: required(isFlag) },
  recordInitiative: { combatantId: ID_FIELD, total: FINITE, modifier: FINITE, typed: TYPED_FIELD },
  setGroup: {
    combatantId: ID_FIELD,
    // No group (null or absent) leaves any group; joining one needs the member's modifier.
    groupId: (value) => (value === null || value === undefined ? null : isId(value) ? value : BAD),
    modifier: (value, d) => (d.groupId === null || d.groupId === undefined ? undefined : FINITE(value, d)),
  },
  recordGroupInitiative: { groupId: ID_FIELD, total: FINITE, typed: TYPED_FIELD },
  recordRollOff: { results: (value) => parseResults(value) ?? BAD },
  setAware: { combatantId: ID_FIELD, aware: required(isFlag) },
  start: { surprise: absentOr(isFlag, false) },
  nextTurn: {},
  nextRound: {},
  delay: {
    combatantId: ID_FIELD,
    after: (value) => (value === undefined || value === null ? null : isId(value) ? value : BAD),
  },
  ready: { combatantId: ID_FIELD, trigger: (value) => (isText(value) && value.trim() !== "" ? value : BAD) },
};

export function parseCommand(data: unknown): IndividualCommand | null {
  return parseByTable(data, COMMANDS);
}
