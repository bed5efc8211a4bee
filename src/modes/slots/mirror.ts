/**
 * The `slots` mode's mirror: defeat mirrored both ways, and the world's keep-slot policy passed on to
 * running encounters.
 */
import type { SlotsState } from "./rules/types";
import { applyAsAuthority, isAuthority } from "../../foundry/authority/controller";
import { requesterFor } from "../../foundry/authority/encounters";
import { slotsState } from "./encounter";
import { defeatedMirror } from "../../foundry/defeated";
import type { ModeMirror } from "../contract";
import { slotsKeepPolicy } from "./settings";

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
export const SLOTS_MIRROR: ModeMirror<SlotsState> = defeatedMirror<SlotsState>();
