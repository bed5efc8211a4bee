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
import { migrate, type Migration } from "../../../core/migrations";
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

/**
 * The numbered migrations of a stored state (`core/migrations.ts`), oldest first; each has its
 * fixture in `test/fixtures/migrations/individual/`.
 */
export const individualMigrations: readonly Migration[] = [
  // Version 1: whose place comes from a delay or a ready is kept (moved); older states have nobody moved.
  {
    version: 1,
    up: (old) => (old.moved === undefined ? { ...old, moved: [] } : old),
  },
];

const isShaped = shapeOf<IndividualState>({
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
  moved: isIdList,
});

/** Narrow untrusted data to an individual state, or null when it is malformed or inconsistent. */
export function parseIndividualState(data: unknown): IndividualState | null {
  const state = migrate(data, individualMigrations);
  if (!isShaped(state)) return null;
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
