/**
 * The `sides` keyboard action and notice. "Declare" puts the focus in the declaration form of the
 * user's character declaring now (the form the tracker shows on its row); when it is not theirs to
 * declare, the rules' check of a declaration says why. The notice tells a player when their character
 * declares now, and when its action comes up in a pass ("your turn").
 */
import type { Requester, TurnView } from "../../core/engine";
import { requesterFor } from "../../foundry/authority/encounters";
import { focusForm, preferredCombatant } from "../../foundry/keys";
import { turnNotice } from "../../foundry/notices";
import type { ModeKey, ModeNotice } from "../contract";
import { SIDES_KEYS, SIDES_NOTICE } from "./constants";
import { sidesState } from "./encounter";
import { currentDeclarer } from "./rules/derived";
import type { SidesState } from "./rules/types";

/** Focus the declaration form (see the file comment). */
function declareKey(combat: Combat.Implementation, root: HTMLElement | null): Promise<unknown> {
  const state = sidesState(combat);
  const declarer = state === null ? null : currentDeclarer(state);
  const who = requesterFor(combat, game.user);
  // Not the user's to declare: the check of their own character's declaration says why.
  const about =
    declarer !== null && who.owns.includes(declarer) ? declarer : (preferredCombatant(combat, who.owns) ?? "");
  return focusForm(combat, root, {
    type: "declare",
    combatantId: declarer,
    selector: `textarea[name="structured-initiative-actions"][data-combatant-id="${about}"]`,
    command: { type: "declare", combatantId: about, actions: [], forcePoint: false },
  });
}

/** The `sides` keyboard actions. */
export const SIDES_KEY_ACTIONS: readonly ModeKey[] = [{ id: SIDES_KEYS.declare, run: declareKey }];

/** "Declare now" while the player's character declares; "your turn" when its action comes up. */
export function sidesNotice(state: SidesState, view: TurnView, who: Requester): ModeNotice | null {
  const declarer = currentDeclarer(state);
  if (declarer !== null)
    return who.owns.includes(declarer)
      ? { kind: SIDES_NOTICE, combatantId: declarer, occasion: `${String(state.round)}:declaration` }
      : null;
  return turnNotice(view, who);
}
