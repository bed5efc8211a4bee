/**
 * Narrowing of stored `sides` state. The state comes back from document flags, which a bug, a macro
 * or a bad migration can corrupt: anything that is not a well-formed, internally consistent state is
 * rejected (null), so the glue can say so and offer a reset instead of running on garbage.
 */
import {
  isFiniteNumber,
  isId,
  isRecord,
  isText,
  isTypedMark,
  isNullable,
  isIdList,
  isWhole,
} from "../../../core/common";
import { normaliseDiceCode } from "../../../core/dice-code";
import {
  MAX_ACTION_TEXT_LENGTH,
  DEFAULT_MAX_REACTIONS,
  MAX_ACTIONS_LIMIT,
  MAX_EARLIER_ROLLS,
  MAX_SIDE_NAME_LENGTH,
  MAX_SIDES,
  type Declaration,
  type LostAction,
  type Side,
  type SideRoll,
  type SidesCombatant,
  type SidesState,
  type SlowedEntry,
} from "./sides";

const STEPS: readonly unknown[] = ["setup", "initiative", "declaration", "pass"];

function isIdLists(value: unknown): value is readonly (readonly string[])[] {
  return Array.isArray(value) && value.every(isIdList);
}

/** A stored trait must already be in canonical form ("3D+2", not "3d + 2"). */
function isCanonicalCode(value: unknown): value is string {
  return typeof value === "string" && normaliseDiceCode(value) === value;
}

function isCombatant(value: unknown): value is SidesCombatant {
  if (!isRecord(value)) return false;
  return (
    isId(value.id) &&
    isText(value.name) &&
    typeof value.isPC === "boolean" &&
    isNullable(value.sideId, isId) &&
    isNullable(value.dexterity, isCanonicalCode) &&
    isNullable(value.perception, isCanonicalCode) &&
    isNullable(value.initiativeScore, isCanonicalCode)
  );
}

function isSide(value: unknown): value is Side {
  if (!isRecord(value)) return false;
  return (
    isId(value.id) &&
    typeof value.name === "string" &&
    value.name.trim() !== "" &&
    value.name.length <= MAX_SIDE_NAME_LENGTH &&
    typeof value.colour === "string" &&
    /^#(?:[0-9a-fA-F]{3}){1,2}$/.test(value.colour) &&
    (value.gmSide === null || typeof value.gmSide === "boolean") &&
    isNullable(value.roller, isId)
  );
}

function isRoll(value: unknown): value is SideRoll {
  const { earlier } = isRecord(value) ? value : {};
  return (
    isRecord(value) &&
    isId(value.sideId) &&
    isFiniteNumber(value.total) &&
    isTypedMark(value) &&
    (earlier === undefined ||
      (Array.isArray(earlier) && earlier.length <= MAX_EARLIER_ROLLS && earlier.every(isFiniteNumber)))
  );
}

function isDeclaration(value: unknown): value is Declaration {
  if (!isRecord(value)) return false;
  const { actions, reactions } = value;
  return (
    isId(value.combatantId) &&
    Array.isArray(actions) &&
    actions.length <= MAX_ACTIONS_LIMIT &&
    actions.every(
      (a: unknown) => isRecord(a) && typeof a.text === "string" && a.text.length <= MAX_ACTION_TEXT_LENGTH,
    ) &&
    typeof value.forcePoint === "boolean" &&
    typeof value.hesitated === "boolean" &&
    Array.isArray(reactions) &&
    reactions.every(
      (r: unknown) =>
        isRecord(r) && (r.kind === "dodge" || r.kind === "parry") && isWhole(r.pass, MAX_ACTIONS_LIMIT, 1),
    )
  );
}

function isSlowed(value: unknown): value is SlowedEntry {
  return isRecord(value) && isId(value.combatantId) && isNullable(value.after, isId);
}

function isLost(value: unknown): value is LostAction {
  return isRecord(value) && isId(value.combatantId) && isWhole(value.pass, MAX_ACTIONS_LIMIT, 1);
}

function unique(ids: readonly string[]): boolean {
  return new Set(ids).size === ids.length;
}

/** Narrow untrusted data to a sides state, or null when it is malformed or inconsistent. */
export function parseSidesState(data: unknown): SidesState | null {
  if (!isRecord(data)) return null;
  const d = data;
  const shapeOk =
    Array.isArray(d.combatants) &&
    d.combatants.every(isCombatant) &&
    Array.isArray(d.sides) &&
    d.sides.length <= MAX_SIDES &&
    d.sides.every(isSide) &&
    isWhole(d.maxActions, MAX_ACTIONS_LIMIT, 1) &&
    (d.maxReactions === undefined || isWhole(d.maxReactions, MAX_ACTIONS_LIMIT, 1)) &&
    isCanonicalCode(d.actionPenalty) &&
    typeof d.started === "boolean" &&
    isWhole(d.round, Number.MAX_SAFE_INTEGER, 0) &&
    STEPS.includes(d.step) &&
    isWhole(d.pass, MAX_ACTIONS_LIMIT, 0) &&
    Array.isArray(d.rolls) &&
    d.rolls.every(isRoll) &&
    isIdLists(d.sideTieOrders) &&
    isIdList(d.sideOrder) &&
    isIdList(d.declarationOrder) &&
    Array.isArray(d.declarations) &&
    d.declarations.every(isDeclaration) &&
    isIdList(d.passOrder) &&
    isIdList(d.done) &&
    Array.isArray(d.slowed) &&
    d.slowed.every(isSlowed) &&
    Array.isArray(d.lost) &&
    d.lost.every(isLost) &&
    isIdLists(d.tieOrders);
  if (!shapeOk) return null;
  // Encounters stored before the reaction limit existed get the default one.
  const state = (d.maxReactions === undefined
    ? { ...d, maxReactions: DEFAULT_MAX_REACTIONS }
    : d) as unknown as SidesState;
  return consistent(state) ? state : null;
}

function consistent(state: SidesState): boolean {
  const known = new Set(state.combatants.map((c) => c.id));
  const sideIds = new Set(state.sides.map((side) => side.id));
  if (known.size !== state.combatants.length || sideIds.size !== state.sides.length) return false;
  // Every reference names a known combatant or side.
  if (!state.combatants.every((c) => c.sideId === null || sideIds.has(c.sideId))) return false;
  if (!state.sides.every((side) => side.roller === null || known.has(side.roller))) return false;
  const sideRefs = [...state.rolls.map((r) => r.sideId), ...state.sideOrder, ...state.sideTieOrders.flat()];
  if (!sideRefs.every((id) => sideIds.has(id))) return false;
  const slowedIds = state.slowed.map((entry) => entry.combatantId);
  const declared = state.declarations.map((x) => x.combatantId);
  const refs = [
    ...state.declarationOrder,
    ...declared,
    ...state.passOrder,
    ...state.done,
    ...slowedIds,
    ...state.slowed.flatMap((entry) => (entry.after === null ? [] : [entry.after])),
    ...state.lost.map((entry) => entry.combatantId),
    ...state.tieOrders.flat(),
  ];
  if (!refs.every((id) => known.has(id))) return false;
  // Each list holds each id once; one roll per side.
  const lists = [state.sideOrder, state.declarationOrder, declared, state.passOrder, state.done, slowedIds];
  if (!lists.every(unique) || !unique(state.rolls.map((r) => r.sideId))) return false;
  return stepConsistent(state, slowedIds);
}

function stepConsistent(state: SidesState, slowedIds: readonly string[]): boolean {
  if (!state.started) return state.step === "setup" && state.round === 0 && state.pass === 0;
  if (state.step === "setup" || state.round < 1) return false;
  if ((state.step === "pass") !== state.pass >= 1) return false;
  // Only characters in the declaration order declare; the pass holds those with enough actions.
  if (!state.declarations.every((x) => state.declarationOrder.includes(x.combatantId))) return false;
  const actors = [...state.passOrder, ...slowedIds];
  const enough = (id: string): boolean =>
    state.declarations.some((x) => x.combatantId === id && !x.hesitated && x.actions.length >= state.pass);
  if (!actors.every(enough)) return false;
  // `done` is a prefix of the pass order.
  if (!state.done.every((id, i) => state.passOrder[i] === id)) return false;
  return true;
}
