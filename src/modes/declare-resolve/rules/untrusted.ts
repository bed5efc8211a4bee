/** Untrusted data for the `declare-resolve` mode: the checks of values a command carries, and command parsing. */
import {
  isFiniteNumber,
  isId,
  isRecord,
  isText,
  parseByTable,
  required,
  optional,
  BAD,
  ID_FIELD,
  type FieldReader,
  type CommandTable,
  MAX_ID_LENGTH,
  MAX_TEXT_LENGTH,
  isWhole,
} from "../../../core/common";
import {
  MAX_IP,
  MAX_CAUSE_LENGTH,
  type ActionInput,
  MAX_DECLARED_ACTIONS,
  type IPChangeDuration,
  MAX_IP_CHANGE_ROUNDS,
  type DeclareResolveCommand,
} from "./types";

export function isIPValue(value: unknown): value is number {
  return isFiniteNumber(value) && Math.abs(value) <= MAX_IP;
}

export function isCause(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "" && value.length <= MAX_CAUSE_LENGTH;
}

/**
 * A cost that is no number, as `parseCommand` passes it on: negative, so refused as `invalidCost`, and
 * finite, so the parsed command stays plain JSON (a NaN would come back from JSON as null).
 */
const NOT_A_COST = -1;

/**
 * A cost as sent: a finite number as is, a numeric string as its number, anything else
 * {@link NOT_A_COST} (refused as `invalidCost`).
 */
function parseCost(value: unknown): number {
  const cost =
    typeof value === "string" && value.trim() !== "" && value.length <= MAX_ID_LENGTH ? Number(value) : value;
  return isFiniteNumber(cost) ? cost : NOT_A_COST;
}

function parseActionInput(data: unknown): ActionInput | null {
  if (!isRecord(data)) return null;
  const { name, kind, def } = data;
  if (!isText(name) || typeof kind !== "string" || kind.length > MAX_ID_LENGTH) return null;
  const base: ActionInput = { name, kind, cost: parseCost(data.cost) };
  if (def === undefined || def === null) return base;
  return isFiniteNumber(def) ? { ...base, def } : null;
}

function parseActions(data: unknown): ActionInput[] | null {
  // Longer lists than a declaration may hold still parse (up to a bound), to be refused as `tooManyActions`.
  if (!Array.isArray(data) || data.length > MAX_DECLARED_ACTIONS * 5) return null;
  const out: ActionInput[] = [];
  for (const item of data) {
    const action = parseActionInput(item);
    if (action === null) return null;
    out.push(action);
  }
  return out;
}

function parseDuration(data: unknown): IPChangeDuration | null {
  if (!isRecord(data)) return null;
  switch (data.kind) {
    case "round":
    case "untilRemoved":
      return { kind: data.kind };
    case "rounds":
      return isWhole(data.rounds, MAX_IP_CHANGE_ROUNDS, 1) ? { kind: "rounds", rounds: data.rounds } : null;
    default:
      return null;
  }
}

function parseIdList(data: unknown): string[] | null {
  if (!Array.isArray(data) || data.length < 2 || data.length > 1000 || !data.every(isId)) return null;
  return [...data];
}

const NUMBER: FieldReader<number> = required(isFiniteNumber);

/** Each command's fields as untrusted data gives them (the roster commands are common to every mode). */
const COMMANDS: CommandTable<DeclareResolveCommand> = {
  setBudget: { budget: NUMBER },
  recordIP: { combatantId: ID_FIELD, total: NUMBER, modifier: NUMBER },
  addIPChange: {
    combatantId: ID_FIELD,
    changeId: optional(isId),
    cause: (cause) => (typeof cause === "string" && cause.length <= MAX_TEXT_LENGTH ? cause : BAD),
    amount: NUMBER,
    duration: (duration) => parseDuration(duration) ?? BAD,
  },
  removeIPChange: { combatantId: ID_FIELD, changeId: required(isId) },
  orderTied: { combatantIds: (ids) => parseIdList(ids) ?? BAD },
  declare: { combatantId: ID_FIELD, actions: (actions) => parseActions(actions) ?? BAD },
  setConditions: { combatantId: ID_FIELD, bleeding: NUMBER, dazed: NUMBER, stunned: NUMBER },
  start: {},
  nextTurn: {},
  nextRound: {},
  upkeep: {},
};

export function parseCommand(data: unknown): DeclareResolveCommand | null {
  return parseByTable(data, COMMANDS);
}
