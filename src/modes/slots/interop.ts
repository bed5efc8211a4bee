/** How a `slots` encounter shows to core and other modules. */
import type { ModeInterop } from "../contract";
import type { SlotsState } from "./rules/types";

/**
 * Places, counted down (a check belongs to its slot, not its roller, once the round runs); before
 * the start, who has made its check. A turn written on an open slot fills it.
 */
export const SLOTS_INTEROP: ModeInterop<SlotsState> = {
  initiative: (state, view) =>
    new Map(state.combatants.filter((c) => view.started || c.slotted).map((c) => [c.id, null] as const)),
  jumpTo: (state, combatantId) => {
    const slot = state.slotIndex === null ? undefined : state.slots[state.slotIndex];
    return slot === undefined || slot.filledBy !== null
      ? null
      : { type: "fillSlot", slot: state.slotIndex, combatantId };
  },
};
