/**
 * The `phases` keyboard action and notice. "Take turn" starts the turn of one of the user's heroes
 * (the one whose token they control, else the first the rules let them start) through the same call as
 * its Take turn button (in hand-off order, the Pick button's); with none, it sends the start the key
 * means so that the rules say why not. The notice tells a player, in free order, that the heroes'
 * phase has begun and one of their heroes may act; a running turn of theirs is "your turn".
 */
import type { Requester, TurnView } from "../../core/engine";
import { requesterFor } from "../../foundry/authority/encounters";
import { preferredCombatant } from "../../foundry/keys";
import { notifyRefusal } from "../../foundry/notify";
import { turnNotice } from "../../foundry/notices";
import type { ModeKey, ModeNotice } from "../contract";
import { pickNext, takeTurn } from "./actions";
import { PHASES_KEYS, PHASES_NOTICE } from "./constants";
import { phasesState } from "./encounter";
import { startableHeroes } from "./rules/view";
import type { PhasesState } from "./rules/types";

/** Take a turn (see the file comment). */
async function takeTurnKey(combat: Combat.Implementation): Promise<unknown> {
  const state = phasesState(combat);
  if (state === null) return takeTurn(combat, "");
  const who = requesterFor(combat, game.user);
  const chosen = preferredCombatant(
    combat,
    startableHeroes(state, who).filter((id) => who.owns.includes(id)),
  );
  if (chosen !== null) return state.handOff ? pickNext(combat, chosen) : takeTurn(combat, chosen);
  // Nothing to start: the start the key means, for the rules to refuse with their reason.
  const mine = state.combatants.filter((c) => c.isPC && who.owns.includes(c.id));
  const id = preferredCombatant(
    combat,
    [...mine.filter((c) => !c.acted), ...mine.filter((c) => c.acted)].map((c) => c.id),
  );
  if (id === null) {
    notifyRefusal(combat, "noOwnedCombatant");
    return { ok: false, code: "noOwnedCombatant" };
  }
  return takeTurn(combat, id);
}

/** The `phases` keyboard actions. */
export const PHASES_KEY_ACTIONS: readonly ModeKey[] = [
  { id: PHASES_KEYS.takeTurn, run: (combat) => takeTurnKey(combat) },
];

/**
 * "Your turn" while the player's hero acts; in free order, "the heroes act" once the heroes' phase is
 * on and nobody acts while one of their heroes may start its turn, told once a round.
 */
export function phasesNotice(state: PhasesState, view: TurnView, who: Requester): ModeNotice | null {
  const turn = turnNotice(view, who);
  if (turn !== null) return turn;
  if (state.phase !== "heroes" || state.handOff || state.turn !== null) return null;
  const ready = startableHeroes(state, who).some((id) => who.owns.includes(id));
  // Once a round: not again after another hero's turn (or one of the player's own) ends.
  return ready
    ? { kind: PHASES_NOTICE, combatantId: null, occasion: `${String(state.round)}:heroes`, once: true }
    : null;
}
