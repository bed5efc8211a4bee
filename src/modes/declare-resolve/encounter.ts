/** A `declare-resolve` encounter as its Combat holds it: its rules state. */
import { stateOf } from "../../foundry/authority/encounters";
import { declareResolveMode } from "./rules/mode";
import type { DeclareResolveState } from "./rules/types";

/** The declare-resolve state of a combat, or null when it is not a readable `declare-resolve` encounter. */
export function drState(combat: Combat.Implementation): DeclareResolveState | null {
  return stateOf(combat, declareResolveMode);
}

/** Shows a refusal to this user and returns it (the shared helper, as this mode's glue calls it). */
