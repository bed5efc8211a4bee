/**
 * The `declare-resolve` keyboard action and notice. "Declare" puts the focus in the declaration form
 * of the user's character declaring now (its first action button); when it is not theirs to declare,
 * the rules' check of a declaration says why. The notice tells a player when their character declares
 * now, and when it resolves ("your turn").
 */
import type { Requester, TurnView } from "../../core/engine";
import { requesterFor } from "../../foundry/authority/encounters";
import { focusForm, preferredCombatant } from "../../foundry/keys";
import { turnNotice } from "../../foundry/notices";
import type { ModeKey, ModeNotice } from "../contract";
import { DECLARE_RESOLVE_KEYS, DECLARE_RESOLVE_NOTICE } from "./constants";
import { drState } from "./encounter";
import { currentDeclarer } from "./rules/derived";
import type { DeclareResolveState } from "./rules/types";

/** Focus the declaration form (see the file comment). */
function declareKey(combat: Combat.Implementation, root: HTMLElement | null): Promise<unknown> {
  const state = drState(combat);
  const declarer = state === null ? null : currentDeclarer(state);
  const who = requesterFor(combat, game.user);
  // Not the user's to declare: the check of their own character's declaration says why.
  const about =
    declarer !== null && who.owns.includes(declarer) ? declarer : (preferredCombatant(combat, who.owns) ?? "");
  const form = `.si-dr-declare[data-combatant-id="${about}"]`;
  return focusForm(combat, root, {
    type: "declare",
    combatantId: declarer,
    selector: `${form} button, ${form} input, ${form} select`,
    command: { type: "declare", combatantId: about, actions: [] },
  });
}

/** The `declare-resolve` keyboard actions. */
export const DECLARE_RESOLVE_KEY_ACTIONS: readonly ModeKey[] = [{ id: DECLARE_RESOLVE_KEYS.declare, run: declareKey }];

/** "Declare now" while the player's character declares; "your turn" when it resolves. */
export function declareResolveNotice(state: DeclareResolveState, view: TurnView, who: Requester): ModeNotice | null {
  const declarer = currentDeclarer(state);
  if (declarer !== null)
    return who.owns.includes(declarer)
      ? { kind: DECLARE_RESOLVE_NOTICE, combatantId: declarer, occasion: `${String(state.round)}:declare` }
      : null;
  return turnNotice(view, who);
}
