/** A `phases` encounter as its Combat holds it: its rules state. */
import { stateOf } from "../../foundry/authority/encounters";
import { phasesMode } from "./rules/mode";
import type { PhasesState } from "./rules/types";

/** The phases state of a combat, or null when it is not a readable `phases` encounter. */
export function phasesState(combat: Combat.Implementation): PhasesState | null {
  return stateOf(combat, phasesMode);
}
