/** How a `declare-resolve` encounter shows to core and to other modules (ModeInterop). */
import type { ModeInterop } from "../contract";
import { currentIP } from "./rules/points";
import type { DeclareResolveState } from "./rules/types";

/** Other modules see each current IP, highest first, all round (the declarer moves up from the bottom). */
export const DR_INTEROP: ModeInterop<DeclareResolveState> = {
  initiative: (state) =>
    new Map(state.combatants.flatMap((c) => (c.ip === null ? [] : [[c.id, currentIP(c)] as const]))),
};
