/** Untrusted data for the sides mode: the checks of values a command carries, and command parsing. */
import { isFiniteNumber, isId, isRecord, parseRosterCommand, parseTyped } from "../../../core/common";
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

function parseIdList(data: unknown, max: number): string[] | null {
  if (!Array.isArray(data) || data.length < 2 || data.length > max) return null;
  const ids = (data as readonly unknown[]).filter(isId);
  return ids.length === data.length && new Set(ids).size === ids.length ? ids : null;
}

function parseActions(data: unknown): DeclaredAction[] | null {
  if (!Array.isArray(data) || data.length > MAX_ACTIONS_LIMIT) return null;
  const actions: DeclaredAction[] = [];
  for (const item of data as readonly unknown[]) {
    // An entry with a kind is a dodge or parry in disguise: those are never declared.
    if (!isRecord(item) || !isActionText(item.text) || "kind" in item) return null;
    actions.push({ text: item.text });
  }
  return actions;
}

export function parseCommand(data: unknown): SidesCommand | null {
  if (!isRecord(data)) return null;
  const d = data;
  const id = d.combatantId;
  const roster = parseRosterCommand(d);
  // Sides keep no defeated flag: `setDefeated` is not one of their commands.
  if (roster !== undefined) return roster?.type === "setDefeated" ? null : roster;
  switch (d.type) {
    case "hesitate":
    case "letPass":
      return isId(id) ? { type: d.type, combatantId: id } : null;
    case "defineSide": {
      const { sideId, name, colour, isGMSide: mark } = d;
      if (!isId(sideId) || !isSideName(name) || !isColour(colour)) return null;
      if (mark === undefined) return { type: "defineSide", sideId, name, colour };
      return mark === null || typeof mark === "boolean"
        ? { type: "defineSide", sideId, name, colour, isGMSide: mark }
        : null;
    }
    case "removeSide":
      return isId(d.sideId) ? { type: "removeSide", sideId: d.sideId } : null;
    case "setSide":
      return isId(id) && isId(d.sideId) ? { type: "setSide", combatantId: id, sideId: d.sideId } : null;
    case "setTraits": {
      const dexterity = normaliseDiceCode(d.dexterity);
      const perception = normaliseDiceCode(d.perception);
      const initiativeScore = normaliseDiceCode(d.initiativeScore);
      if (!isId(id) || dexterity === null || perception === null || initiativeScore === null) return null;
      return { type: "setTraits", combatantId: id, dexterity, perception, initiativeScore };
    }
    case "configure": {
      const actionPenalty = normaliseDiceCode(d.actionPenalty);
      if (!isMaxActions(d.maxActions) || actionPenalty === null) return null;
      if (d.maxReactions === undefined) return { type: "configure", maxActions: d.maxActions, actionPenalty };
      return isMaxActions(d.maxReactions)
        ? { type: "configure", maxActions: d.maxActions, actionPenalty, maxReactions: d.maxReactions }
        : null;
    }
    case "start":
      // The generic tracker may send `surprise: false`; this mode has no surprise round.
      return d.surprise === undefined || d.surprise === false ? { type: "start" } : null;
    case "setRoller":
      if (!isId(d.sideId)) return null;
      if (id === null) return { type: "setRoller", sideId: d.sideId, combatantId: null };
      return isId(id) ? { type: "setRoller", sideId: d.sideId, combatantId: id } : null;
    case "recordSideRoll":
      return isId(d.sideId) && isFiniteNumber(d.total)
        ? { type: "recordSideRoll", sideId: d.sideId, total: d.total, ...parseTyped(d) }
        : null;
    case "orderTiedSides": {
      const sideIds = parseIdList(d.sideIds, MAX_SIDES);
      return sideIds === null ? null : { type: "orderTiedSides", sideIds };
    }
    case "declare": {
      const actions = parseActions(d.actions);
      return isId(id) && actions !== null && typeof d.forcePoint === "boolean"
        ? { type: "declare", combatantId: id, actions, forcePoint: d.forcePoint }
        : null;
    }
    case "orderTied": {
      const combatantIds = parseIdList(d.combatantIds, 1000);
      const pass = d.pass;
      return combatantIds !== null &&
        Number.isInteger(pass) &&
        (pass as number) >= 1 &&
        (pass as number) <= MAX_ACTIONS_LIMIT
        ? { type: "orderTied", pass: pass as number, combatantIds }
        : null;
    }
    case "nextTurn":
    case "nextRound":
      return { type: d.type };
    case "react":
      return isId(id) && isReactionKind(d.kind) ? { type: "react", combatantId: id, kind: d.kind } : null;
    case "slowDown":
      return isId(id) && isId(d.after) ? { type: "slowDown", combatantId: id, after: d.after } : null;
    default:
      return null;
  }
}
