/** How an `individual` encounter shows to core and other modules. */
import type { ModeInterop } from "../contract";
import type { IndividualState } from "./rules/types";

/** Other modules see each check's total (a tie or a moved place a little off it, to keep the order). */
export const INDIVIDUAL_INTEROP: ModeInterop<IndividualState> = {
  initiative: (state) =>
    new Map(state.combatants.flatMap((c) => (c.initiative === null ? [] : [[c.id, c.initiative] as const]))),
};
