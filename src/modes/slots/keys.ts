/**
 * The `slots` keyboard action and notice. "Claim the next PC slot" claims, for one of the user's
 * characters (the one whose token they control, else the first), the first PC slot the rules let them
 * claim, through the same call as the slot's Claim button; with none, it sends the claim the key means
 * (the next open PC slot) so that the rules say why not. The notice tells a player when the slot up
 * now is an open PC slot one of their characters may take.
 */
import type { Requester, TurnView } from "../../core/engine";
import { loadBound, requesterFor } from "../../foundry/authority/encounters";
import { preferredCombatant } from "../../foundry/keys";
import { notifyRefusal } from "../../foundry/notify";
import { turnNotice } from "../../foundry/notices";
import type { ModeKey, ModeNotice } from "../contract";
import { claimSlot } from "./actions";
import { SLOTS_KEYS, SLOTS_NOTICE } from "./constants";
import { currentSlot } from "./rules/derived";
import { slotsMode } from "./rules/mode";
import { type SlotsAllowedAction, type SlotsState } from "./rules/types";
import { slotsState } from "./encounter";

/**
 * The slot the key means when the rules allow no claim: the next PC slot not yet filled, from the
 * current one on; else the current slot (the rules then say why neither can be claimed).
 */
function meantSlot(state: SlotsState): number {
  const from = currentSlot(state) ?? 0;
  const next = state.slots.findIndex((s, i) => i >= from && s.kind === "pc" && s.filledBy === null);
  return next >= 0 ? next : from;
}

/** Claim the next PC slot (see the file comment). */
async function claimNext(combat: Combat.Implementation): Promise<unknown> {
  const state = slotsState(combat);
  const who = requesterFor(combat, game.user);
  const bound = loadBound(combat);
  if (state === null || bound === null) return claimSlot(combat, -1, "");
  const claims = (bound.allowed(who) as readonly SlotsAllowedAction[]).filter(
    (a) => a.type === "claimSlot" && a.slot !== undefined && a.combatantId !== undefined,
  );
  const first = Math.min(...claims.map((a) => a.slot ?? Infinity));
  const atFirst = claims.filter((a) => a.slot === first).map((a) => a.combatantId ?? "");
  const chosen = preferredCombatant(combat, atFirst);
  if (chosen !== null) return claimSlot(combat, first, chosen);
  // Nothing to claim: the claim the key means, for the rules to refuse with their reason.
  const mine = state.combatants.filter((c) => c.isPC && who.owns.includes(c.id)).map((c) => c.id);
  const id = preferredCombatant(combat, mine);
  if (id === null) {
    notifyRefusal(combat, "noOwnedCombatant");
    return { ok: false, code: "noOwnedCombatant" };
  }
  return claimSlot(combat, meantSlot(state), id);
}

/** The `slots` keyboard actions. */
export const SLOTS_KEY_ACTIONS: readonly ModeKey[] = [{ id: SLOTS_KEYS.claimSlot, run: (combat) => claimNext(combat) }];

/**
 * "Your turn" when the slot up now is filled by the player's character; "you may claim now" when it
 * is an open PC slot one of their characters may take.
 */
export function slotsNotice(state: SlotsState, view: TurnView, who: Requester): ModeNotice | null {
  const turn = turnNotice(view, who);
  if (turn !== null) return turn;
  const index = currentSlot(state);
  const slot = index === null ? undefined : state.slots[index];
  if (index === null || slot === undefined || slot.kind !== "pc" || slot.filledBy !== null) return null;
  const canClaim = who.owns.some(
    (combatantId) => slotsMode.apply(state, { type: "claimSlot", slot: index, combatantId }, who).ok,
  );
  return canClaim
    ? { kind: SLOTS_NOTICE, combatantId: null, occasion: `${String(state.round)}:${String(index)}` }
    : null;
}
