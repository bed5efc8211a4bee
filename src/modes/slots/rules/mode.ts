/**
 * The `slots` mode (RULES.md §4, rulebook excerpt 003): initiative slots, as in Edge of the Empire
 * and Genesys.
 *
 * - Every combatant makes one initiative check (successes are the primary score, advantages the
 *   secondary). The results are ranked: primary high → low, then secondary high → low; a PC and an
 *   NPC still tied → the PC ranks higher. Other ties (same kind, same scores) stay in the order the
 *   slots were made and are shown as tied ({@link tiedSlots}).
 * - Each result becomes a PC slot or an NPC slot; **the names are then dropped**: a slot stores its
 *   kind and scores, never who rolled it.
 * - Each round, turns go down the slot list. A PC slot is filled by any PC who has not acted this
 *   round (claimed by a player who owns it, or assigned by the GM); an NPC slot by the GM with any NPC
 *   who has not acted. A combatant acts at most once a round; a slot is filled at most once a round.
 * - A player may claim any later open PC slot of this round ahead of time for one PC it owns; the
 *   claimant fills the slot when the slot comes up. A claim can be released until then.
 *
 * Choices the rules leave open (docs/modes/slots.md explains them):
 * - A slot nobody can fill (no live combatant of its kind who has rolled and not acted) is skipped.
 *   The GM may also end an open slot with next turn: the slot passes unfilled.
 * - Next turn on the last slot starts the next round.
 * - A slot that joins above the current slot (a joiner's check) is passed this round; it is used
 *   from the next round. The joiner may still fill a later slot of its kind this round.
 * - A defeated or removed combatant's slot (the slot with its kind and scores) is removed or kept by
 *   `keepSlots`. A slot still to come is removed at once; a slot that has passed, or that someone
 *   else is filling now, is marked `leaving` and goes when its turn ends or the round ends.
 *
 * Invariants of a started state:
 * - `slotIndex` is null (no slot is current: the round has run out) or the index of the current slot.
 *   Slots before it have passed; only they and the current slot can be filled or leaving.
 * - Claims are only on PC slots after the current one, by live PCs that have rolled and not acted,
 *   one claim per PC. A claimed slot is filled by its claimant as soon as it becomes current.
 * - `acted` lists who filled a slot this round, in the order they did; every filler is in it.
 */

import type { ModeDefinition } from "../../../core/engine";
import { isRosterCommand } from "../../../core/common";
import type { SlotsState, SlotsCommand } from "./types";
import { create } from "./flow";
import { applyCommand, handlers } from "./commands";
import { view, slotsAllowed, slotsTurnKey } from "./view";
import { parseCommand } from "./untrusted";

export const slotsMode: ModeDefinition<SlotsState, SlotsCommand> = {
  id: "slots",
  create,
  apply: applyCommand,
  view,
  allowed: slotsAllowed,
  isRosterCommand,
  parseCommand,
  commandTypes: new Set(Object.keys(handlers)),
  turnKey: slotsTurnKey,
};
