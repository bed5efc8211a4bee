/**
 * An `individual` encounter as its documents hold it: its rules state, and the initiative values that
 * can still be read from a stored state that no longer parses.
 */
import { decodeArrays, type Json } from "../../core/patch";
import { stateOf } from "../../foundry/authority/encounters";
import { individualMode } from "./rules/mode";
import type { IndividualState } from "./rules/types";
import { fieldOf } from "../../core/common";

/** The individual state of a combat, or null when it is not an individual encounter. */
export function individualState(combat: Combat.Implementation): IndividualState | null {
  return stateOf(combat, individualMode);
}

/**
 * Initiative values that can still be read for each combatant, from the unreadable state where its
 * combatant entries are intact. `Combatant#initiative` is not read: in a structured encounter it is
 * the interop mirror of the order (`src/foundry/interop.ts`), not a roll.
 */
export function salvageInitiative(combat: Combat.Implementation, stored: unknown): Json[] {
  const found = new Map<string, { total: number; modifier: number }>();
  const entries = stored === undefined ? undefined : decodeArrays(stored as Json);
  const list = fieldOf(entries, "combatants");
  if (Array.isArray(list)) {
    for (const item of list as unknown[]) {
      if (typeof item !== "object" || item === null) continue;
      const { id, initiative, modifier } = item as { id?: unknown; initiative?: unknown; modifier?: unknown };
      if (typeof id === "string" && typeof initiative === "number" && Number.isFinite(initiative)) {
        found.set(id, {
          total: initiative,
          modifier: typeof modifier === "number" && Number.isFinite(modifier) ? modifier : 0,
        });
      }
    }
  }
  return [...found]
    .filter(([id]) => combat.combatants.has(id))
    .map(([combatantId, { total, modifier }]) => ({ type: "recordInitiative", combatantId, total, modifier }));
}
