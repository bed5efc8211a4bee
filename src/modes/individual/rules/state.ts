/**
 * Narrowing of stored `individual` state. The state comes back from document flags, which a bug,
 * a macro or a bad migration can corrupt: anything that is not a well-formed, internally consistent
 * state is rejected (null), so the glue can say so and offer a reset instead of running on garbage.
 */
import { isFiniteNumber, isId, isRecord, isText, isTypedMark, isNullable, isIdList } from "../../../core/common";
import type { DelayEntry, IndividualCombatant, IndividualState, RollOffResult } from "./individual";

function isCombatant(value: unknown): value is IndividualCombatant {
  if (!isRecord(value)) return false;
  return (
    isId(value.id) &&
    isText(value.name) &&
    typeof value.isPC === "boolean" &&
    isNullable(value.initiative, isFiniteNumber) &&
    isNullable(value.modifier, isFiniteNumber) &&
    isNullable(value.groupId, isId) &&
    typeof value.aware === "boolean" &&
    typeof value.defeated === "boolean" &&
    isNullable(value.ready, isText) &&
    isTypedMark(value)
  );
}

function isRollOff(value: unknown): value is readonly RollOffResult[] {
  return (
    Array.isArray(value) && value.every((r: unknown) => isRecord(r) && isId(r.combatantId) && isFiniteNumber(r.total))
  );
}

function isDelay(value: unknown): value is DelayEntry {
  return isRecord(value) && isId(value.combatantId) && isNullable(value.after, isId);
}

/** Narrow untrusted data to an individual state, or null when it is malformed or inconsistent. */
export function parseIndividualState(data: unknown): IndividualState | null {
  if (!isRecord(data)) return null;
  const d = data;
  const shapeOk =
    Array.isArray(d.combatants) &&
    d.combatants.every(isCombatant) &&
    Array.isArray(d.rollOffs) &&
    d.rollOffs.every(isRollOff) &&
    typeof d.skipDefeated === "boolean" &&
    typeof d.started === "boolean" &&
    Number.isInteger(d.round) &&
    (d.round as number) >= 0 &&
    typeof d.surpriseBattle === "boolean" &&
    typeof d.surpriseRound === "boolean" &&
    isIdList(d.order) &&
    isNullable(d.current, isId) &&
    isIdList(d.acted) &&
    isIdList(d.waited) &&
    Array.isArray(d.delaying) &&
    d.delaying.every(isDelay) &&
    isIdList(d.flatFooted) &&
    (d.moved === undefined || isIdList(d.moved));
  if (!shapeOk) return null;
  // Encounters stored before `moved` existed: nobody's place is marked as moved.
  const state = (d.moved === undefined ? { ...d, moved: [] } : d) as unknown as IndividualState;
  // Consistency: ids unique, every referenced id is a known combatant, current is placed.
  const known = new Set(state.combatants.map((c) => c.id));
  if (known.size !== state.combatants.length) return null;
  if (new Set(state.order).size !== state.order.length) return null;
  const referenced = [
    ...state.order,
    ...state.acted,
    ...state.waited,
    ...state.flatFooted,
    ...state.moved,
    ...state.delaying.map((entry) => entry.combatantId),
  ];
  if (!referenced.every((id) => known.has(id))) return null;
  if (state.current !== null && !state.order.includes(state.current)) return null;
  if (state.delaying.some((entry) => state.order.includes(entry.combatantId))) return null;
  return state;
}
