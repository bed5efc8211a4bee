/**
 * The `individual` mode (RULES.md §2): every combatant makes one initiative check at the start of
 * the battle and all act from the highest result to the lowest, in that same order every round.
 *
 * - Ties: the higher initiative modifier acts first; still tied → a roll-off between exactly those
 *   tied. Roll-off results are kept (compared in the sequence they were made), so a roll-off that
 *   ties again is followed by another one between those still tied.
 * - Group checks: the GM rolls one check for a named group of NPCs; the group ranks with the lowest
 *   modifier of its members and its members act one after the other.
 * - Joining: a combatant added after the start has no turn until it rolls; it is then inserted at the
 *   place its result gives in the stored order, and acts this round if that place is still to come.
 * - Surprise round: only combatants marked aware act in round 1; every combatant present at the
 *   start is flat-footed until its first regular (non-surprise) turn begins.
 * - Delay and ready move a combatant; the order is stored state, so the new place holds.
 *
 * Invariants of a started state:
 * - `order` holds each placed combatant once. A combatant that is delaying is *not* in `order` (it is
 *   in `delaying`); a joiner that has not rolled, or whose place waits on a roll-off, is in neither.
 * - `current`, when not null, is in `order`. Combatants in `acted` that stand after `current` in
 *   `order` are the ones whose turn was interrupted (by a delayer or a readied action): when the turn
 *   comes back to them it resumes, and is not a new turn.
 */

import type { ModeDefinition } from "../../../core/engine";
import { isRosterCommand } from "../../../core/common";
import type { IndividualCommand, IndividualState } from "./types";
import { create } from "./flow";
import { applyCommand, handlers } from "./commands";
import { allowed, individualTurnKey, view } from "./view";
import { parseCommand } from "./untrusted";

/** Individual initiative (RULES.md §2): d20 checks, ties, group checks, joining, surprise, delay and ready. */
export const individualMode: ModeDefinition<IndividualState, IndividualCommand> = {
  id: "individual",
  create,
  apply: applyCommand,
  view,
  allowed,
  isRosterCommand,
  parseCommand,
  commandTypes: new Set(Object.keys(handlers)),
  turnKey: individualTurnKey,
};
