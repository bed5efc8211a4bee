/**
 * The `sides` mode (RULES.md §1, rulebook excerpt 000): side initiative, a declaration step and
 * action passes, the D6 way.
 *
 * Every round has three steps:
 * 1. **Initiative.** Each side with members makes one roll, made by its roller: the member with the
 *    best initiative score (ties: the first to join), unless the GM picked another member. Sides then
 *    declare in **ascending** order of their rolls. On a tie a GM side (all members NPCs, or marked so)
 *    declares before a PC side; a tie between two sides of the same kind waits for the GM to order it.
 * 2. **Declaration.** Sides in that order; inside a side, characters by Perception, **lowest** first
 *    (ties: joining order). Only the character whose turn it is declares: 0 to `maxActions` actions,
 *    each a short text, and Force Point use. A declaration is locked once made. A character that does
 *    not declare in time **hesitates** (`hesitate`, sent by the glue's countdown): no actions this round.
 * 3. **Passes.** Pass k holds every character with at least k declared actions, by Dexterity
 *    **highest** first, then Perception highest first, then the GM's order (joining order until the GM
 *    orders the tie, which stays exposed). Reactions (dodge, parry) may be added at any time during
 *    the passes: each counts as an action and raises the penalty of the actions still to come. A
 *    character may slow down to act right after a named character of the pass; a slowed action that
 *    is not taken before the pass ends is lost, and still counts for the penalty.
 *
 * The round ends when no declared action remains: the `nextTurn` that ends the last action (or the
 * declaration that leaves nobody with an action) begins the next round's initiative step at once.
 * The hesitation countdown is the glue's: the rules keep no clock, they only take `hesitate`.
 *
 * The declaration order and the pass order are derived, never stored (a stored list of the whole
 * cast rewrites every index whenever it is made again, and its undo snapshot carries the old one):
 * - the declaration order (`declarationOrder`): the stored side order, and inside each side its
 *   members by Perception, lowest first (ties: joining order);
 * - the pass order (`passOrder`): who acted (`done`, in the order they did), then the slowed
 *   characters whose moment has come (`due`), then the rest of the pass's natural order (its actors
 *   by `compareActors`), without the slowed ones.
 * Both use the facts a combatant had when the step began: a side, trait or roster change in the
 * running step keeps the combatant's earlier facts in `held` until the next pass (or round) begins,
 * so the orders of the running step do not move (a joiner is held with no side: it takes part from
 * the next round).
 *
 * Invariants of a started state:
 * - `done`, `due`, `slowed` and `held` name present combatants, each at most once.
 * - During a pass, `due` holds slowed characters that have not acted; the current actor is the
 *   first of `due`, else the first of the natural order that neither acted nor slowed down. A slowed
 *   character waiting for its moment is in `slowed` and neither in `done` nor in `due`.
 */
import type { ModeDefinition } from "../../../core/engine";
import { isRosterCommand } from "../../../core/common";
import type { SidesState, SidesCommand } from "./types";
import { create } from "./flow";
import { applyCommand, handlers } from "./commands";
import { view, allowed, sidesTurnKey } from "./view";
import { parseCommand } from "./untrusted";

/** Side initiative (RULES.md §1): sides roll, characters declare, then act in passes. */
export const sidesMode: ModeDefinition<SidesState, SidesCommand> = {
  id: "sides",
  create,
  apply: applyCommand,
  view,
  allowed,
  isRosterCommand,
  parseCommand,
  commandTypes: new Set(Object.keys(handlers)),
  turnKey: sidesTurnKey,
  // Previous round keeps the round's side rolls: it lands where the declaration step began.
  roundStart: (state) => state.started && state.step !== "initiative",
};
