/**
 * The `slots` mode's mirror: the encounter's state read from a combat, defeat mirrored both ways, and
 * the world's keep-slot policy passed on to running encounters.
 */
import { slotsMode } from "./rules/mode";
import type { SlotsState } from "./rules/types";
import { applyAsAuthority, isAuthority } from "../../foundry/authority/controller";
import { requesterFor, stateOf } from "../../foundry/authority/encounters";
import { defeatedMirror } from "../../foundry/defeated";
import type { ModeMirror } from "../contract";
import { slotsKeepPolicy } from "./settings";

/** The slots state of a combat, or null when it is not a readable `slots` encounter. */
export function slotsState(combat: Combat.Implementation): SlotsState | null {
  return stateOf(combat, slotsMode);
}

/**
 * The GM changed the world's keep-slot policy: the active GM passes it on to every `slots` encounter
 * (it applies to later defeats and removals).
 */
export async function applyKeepPolicy(): Promise<void> {
  if (!isAuthority()) return;
  const keepSlots = slotsKeepPolicy();
  for (const combat of game.combats.contents) {
    const state = slotsState(combat);
    if (state === null || (state.keepSlots.pc === keepSlots.pc && state.keepSlots.npc === keepSlots.npc)) continue;
    await applyAsAuthority(combat, { type: "setKeepSlots", keepSlots }, requesterFor(combat, game.user), null);
  }
}

/** Defeat, mirrored both ways. */
export const SLOTS_MIRROR: ModeMirror<SlotsState> = defeatedMirror<SlotsState>(
  (state) => new Map(state.combatants.map((c) => [c.id, c.defeated])),
);
