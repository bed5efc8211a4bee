/**
 * Narrowing of stored `individual` state. The state comes back from document flags, which a bug,
 * a macro or a bad migration can corrupt: anything that is not a well-formed, internally consistent
 * state is rejected (null), so the glue can say so and offer a reset instead of running on garbage.
 */
import {
  isFiniteNumber,
  isFlag,
  isId,
  isIdList,
  isText,
  isTypedField,
  isWhole,
  listOf,
  orNull,
  shapeOf,
} from "../../../core/common";
import type { IndividualCombatant, IndividualState } from "./types";

const isCombatant = shapeOf<IndividualCombatant>({
  id: isId,
  name: isText,
  isPC: isFlag,
  initiative: orNull(isFiniteNumber),
  modifier: orNull(isFiniteNumber),
  groupId: orNull(isId),
  aware: isFlag,
  defeated: isFlag,
  ready: orNull(isText),
  typed: isTypedField,
});

/** A state as stored: encounters stored before `moved` existed have none. */
type StoredState = Omit<IndividualState, "moved"> & { readonly moved?: IndividualState["moved"] };

const isShaped = shapeOf<StoredState>({
  combatants: listOf(isCombatant),
  rollOffs: listOf(listOf(shapeOf({ combatantId: isId, total: isFiniteNumber }))),
  skipDefeated: isFlag,
  started: isFlag,
  round: (value) => isWhole(value, Infinity),
  surpriseBattle: isFlag,
  surpriseRound: isFlag,
  order: isIdList,
  current: orNull(isId),
  acted: isIdList,
  waited: isIdList,
  delaying: listOf(shapeOf({ combatantId: isId, after: orNull(isId) })),
  flatFooted: isIdList,
  moved: (value) => value === undefined || isIdList(value),
});

/** Narrow untrusted data to an individual state, or null when it is malformed or inconsistent. */
export function parseIndividualState(data: unknown): IndividualState | null {
  if (!isShaped(data)) return null;
  // Encounters stored before `moved` existed: nobody's place is marked as moved.
  // (A state that has `moved` is returned as it is: it is one.)
  const state: IndividualState = data.moved === undefined ? { ...data, moved: [] } : (data as IndividualState);
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
