/**
 * The `phases` mode (RULES.md §5, rulebook excerpt 004): foes declare, heroes act in the order they
 * choose, foes resolve.
 *
 * A round has three phases:
 * 1. **Foes declare** (`foesDeclare`). The GM records one intent per foe: a short text, a kind
 *    (attack or other) and, for an attack, its target or targets among the PCs. A foe with no intent
 *    does nothing this round. The GM may spend a **Collapse point** on an extra attack for a foe.
 * 2. **Heroes act** (`heroes`). Each PC takes one turn, in any order: while nobody is acting, a
 *    player starts the turn of a PC it owns that has not acted (the GM may start anyone's). In
 *    **hand-off** order ("the players cannot agree", set per round by the GM) the GM picks the first
 *    PC and, at the end of each turn, the owner of the PC that just finished picks the next. A PC
 *    finishes its whole turn before the next begins; when every live PC has acted, phase 2 ends.
 *    If the foes caught every PC unaware (`start {surprise: true}`), round 1 skips phase 2.
 *    - **Press your luck.** The first skill action of a turn has complexity 2, each further one adds
 *      1. Complexity *n* rolls *n* dice of the skill's die size (d4…d12). Any two equal dice
 *      (doubles) fail the roll: the turn ends at once and waits for the GM's choice: a failure effect
 *      (free text) or +1 Collapse point. After a success the hero may act again or end the turn.
 *    - **Free actions** do not raise the complexity: the one free move per turn, an item that needs
 *      no roll. A second move needs a skill roll; a move made with a skill roll while the free move
 *      is unused (stealth, a jump) is a skill action and uses up the free move.
 *    - **Active defense.** A skill roll may be aimed at one declared foe attack (on the hero itself or
 *      an ally); success marks the attack foiled.
 *    - **Advantages.** A successful roll marked "gains an advantage" adds 1 to a shared pool, capped
 *      by `poolCap` (the ship's Livability Rating). Anyone may spend one, with a note.
 * 3. **Foes resolve** (`foesResolve`). The GM steps through the foes that have intents, in roster
 *    order (`nextTurn`): each moves, then its intents resolve. A foiled attack resolves as "foiled, no
 *    effect"; the GM may mark an intent out of reach. After the last foe the next round starts at
 *    phase 1, with the intents and the heroes' turns cleared.
 *
 * Choices the rules leave open (docs/modes/phases.md explains them):
 * - Phase 1: the GM records intents in any order. `view().current` is the first live foe in roster
 *   order that has no intent yet (the one the tracker asks about); null once every foe has one.
 * - Phase 2: `current` is the acting hero, also while its failed roll waits for the GM's answer (the
 *   turn has ended, but no other turn may start until the GM answers); `next` is null (free order).
 * - Phase 3: `current` is the first live foe in roster order with an intent still to resolve.
 *   A defeated foe's intents do not resolve (it is no longer in the fight).
 * - A gain of an Advantage past the cap refuses the whole roll (`poolFull`), whatever the dice: the
 *   pool is known before rolling, so the tracker withholds the mark and nothing rolled is lost.
 * - Lowering `poolCap` below the pool discards the excess (reported as `advantagesLost`).
 * - The turn a defeat or a removal ends does not end phase 2 by itself: the GM moves on with
 *   `nextPhase`. Ending a turn (`endTurn`, or the GM's answer to a failure) does, when it was the last.
 * - The pools live in the encounter's state, so they empty when the combat ends.
 *
 * Invariants of a started state:
 * - Only PCs have `acted`; a running turn (`turn`) is only in phase 2 and is the turn of a PC that
 *   has acted. At most one turn runs at a time.
 * - Each foe has at most one intent of its own per round (`collapse: false`); extra attacks bought
 *   with Collapse points are `collapse: true`. Targets are PCs. Resolved intents only in phase 3.
 * - `0 ≤ pool ≤ poolCap`.
 */

import type { ModeDefinition } from "../../../core/engine";
import { isRosterCommand } from "../../../core/common";
import type { PhasesState, PhasesCommand } from "./types";
import { createPhases } from "./flow";
import { applyCommand, handlers } from "./commands";
import { view, phasesAllowed, phasesTurnKey } from "./view";
import { parseCommand } from "./untrusted";

/** Foes declare, heroes act in any order with press-your-luck turns, foes resolve (RULES.md §5). */
export const phasesMode: ModeDefinition<PhasesState, PhasesCommand> = {
  id: "phases",
  create: (roster) => createPhases(roster),
  apply: applyCommand,
  view,
  allowed: phasesAllowed,
  isRosterCommand,
  parseCommand,
  commandTypes: new Set(Object.keys(handlers)),
  turnKey: phasesTurnKey,
};
