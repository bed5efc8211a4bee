/** A `slots` encounter as its Combat holds it: its rules state. */
import { stateOf } from "../../foundry/authority/encounters";
import { slotsMode } from "./rules/mode";
import type { SlotsState } from "./rules/types";

/** The slots state of a combat, or null when it is not a readable `slots` encounter. */
export function slotsState(combat: Combat.Implementation): SlotsState | null {
  return stateOf(combat, slotsMode);
}
