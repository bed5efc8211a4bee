/** Untrusted data for the `slots` mode: the command parser and its field checks. */

import {
  type FieldReader,
  required,
  type CommandTable,
  isRecord,
  isFlag,
  BAD,
  ID_FIELD,
  TYPED_FIELD,
  optional,
  isId,
  parseByTable,
} from "../../../core/common";
import { MAX_SLOT_INDEX, type SlotsCommand } from "./types";
import { isScore } from "./ranking";

function isSlotIndex(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_SLOT_INDEX;
}

const SCORE: FieldReader<number> = required(isScore);
const SLOT: FieldReader<number> = required(isSlotIndex);

/** Each command's fields as untrusted data gives them (the roster commands are common to every mode). */
const COMMANDS: CommandTable<SlotsCommand> = {
  setKeepSlots: {
    keepSlots: (keep) => (isRecord(keep) && isFlag(keep.pc) && isFlag(keep.npc) ? { pc: keep.pc, npc: keep.npc } : BAD),
  },
  recordCheck: { combatantId: ID_FIELD, primary: SCORE, secondary: SCORE, typed: TYPED_FIELD, skill: optional(isId) },
  claimSlot: { slot: SLOT, combatantId: ID_FIELD },
  fillSlot: { slot: SLOT, combatantId: ID_FIELD },
  releaseClaim: { slot: SLOT },
  start: {},
  nextTurn: {},
  nextRound: {},
};

export function parseCommand(data: unknown): SlotsCommand | null {
  return parseByTable(data, COMMANDS);
}
