/** How a `phases` encounter shows to core and other modules. */
import type { ModeInterop } from "../contract";
import type { PhasesState } from "./rules/types";

/**
 * Everyone shows its place, counted down, from the moment it joins (nobody rolls). A turn written
 * on a hero while nobody acts in phase 2 starts (or, in hand-off order, picks) that hero's turn.
 */
export const PHASES_INTEROP: ModeInterop<PhasesState> = {
  initiative: (_state, view) => new Map(view.order.map((id) => [id, null] as const)),
  jumpTo: (state, combatantId) =>
    state.phase !== "heroes" || state.turn !== null
      ? null
      : { type: state.handOff ? "pickNext" : "startTurn", combatantId },
};
