/** How a `sides` encounter shows to core and to other modules (ModeInterop). */
import type { ModeInterop } from "../contract";
import type { SidesState } from "./rules/types";

/**
 * Everyone shows its place in the current step's order, counted down, from the moment it joins (a
 * side rolls, not a combatant, so no one owes a roll of its own).
 */
export const SIDES_INTEROP: ModeInterop<SidesState> = {
  initiative: (_state, view) => new Map(view.order.map((id) => [id, null] as const)),
};
