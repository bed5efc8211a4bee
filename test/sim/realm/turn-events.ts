/**
 * What a turn change sets off outside the encounter: core's Region turn and round events (run by
 * the active GM with the turn events) and each client's token turn marker.
 */
import type { SimHooks } from "./hooks.js";
import type { Dict } from "../utils.js";
import type { Combat, Combatant } from "./types.js";

/**
 * Core's Region turn events for a combatant's token, on the active GM with the turn events
 * (CONST.REGION_EVENTS.TOKEN_TURN_START/END, https://foundryvtt.com/api/variables/CONST.REGION_EVENTS.html;
 * event data https://foundryvtt.com/api/interfaces/foundry.documents.types.RegionTokenTurnEventData.html).
 */
export async function regionTurnEvent(combatant: Combatant, name: string, context: Dict): Promise<void> {
  const token = combatant.token;
  if (!token) return;
  for (const region of token.regions ?? []) {
    await region._triggerEvent(name, { token, combatant, combat: combatant.combat, ...context });
  }
}

/**
 * Core's Region round events, for every combatant's token, on the active GM with the round events
 * (CONST.REGION_EVENTS.TOKEN_ROUND_START/END, "Triggered when a Token starts/ends the Combat round in
 * a Region", https://foundryvtt.com/api/variables/CONST.REGION_EVENTS.html; event data {combat,
 * combatant, round, skipped, token}:
 * https://foundryvtt.com/api/interfaces/foundry.documents.types.RegionTokenRoundEventData.html). The
 * order among combatants is not documented: the sim goes down `combat.turns`.
 */
export async function regionRoundEvent(combat: Combat, name: string, round: number): Promise<void> {
  for (const combatant of combat.turns) {
    const token = combatant.token;
    for (const region of token?.regions ?? [])
      await region._triggerEvent(name, { token, combatant, combat, round, skipped: false });
  }
}

/**
 * Each client's token turn marker follows the acting combatant
 * (https://foundryvtt.com/api/v14/classes/foundry.canvas.placeables.tokens.TokenTurnMarker.html): the
 * token that loses it and the one that gains it refresh, seen as the `refreshToken` hook with
 * `refreshTurnMarker` (https://foundryvtt.com/api/functions/hookEvents.refreshObject.html).
 */
export function refreshTurnMarkers(
  Hooks: SimHooks,
  priorId: string | null,
  currentId: string | null,
  combat: Combat,
): void {
  if (priorId === currentId) return;
  for (const id of [priorId, currentId]) {
    const object = id === null ? null : (combat.combatants.get(id)?.token?.object ?? null);
    if (object) Hooks.callAll("refreshToken", object, { refreshTurnMarker: true });
  }
}
