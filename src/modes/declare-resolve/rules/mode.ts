/**
 * The `declare-resolve` mode (RULES.md §3, rulebook excerpt 002): the slowest declare first, the
 * fastest resolve first, with action points.
 *
 * - **Initiative Points (IP).** Each combatant rolls once per combat (`recordIP`: the roll happens in
 *   Foundry, the total and the modifier arrive as data). Before the start only the GM may roll again
 *   or correct a roll (the totals it replaced are kept and shown struck through); after it only a
 *   combatant that has not rolled (a joiner) may roll. Temporary IP changes
 *   (`addIPChange`) have a cause, an amount and a duration: this round, N rounds, or until removed;
 *   they revert on their own when their last round ends. The order uses the current IP (base + changes).
 * - **Ties.** One ranking serves both orders: higher current IP is faster; equal IP → the higher
 *   modifier is faster (declares later, resolves earlier); still tied → the GM orders them
 *   (`orderTied`, fastest first). The rules never pick silently: while a tie waits for the GM
 *   ({@link pendingTies}) nobody is current, and starting or moving on is refused (`ipTiePending`).
 * - **A round** has the steps roll (only when someone still needs a roll), declare, resolve (which
 *   the view shows as `extraAttacks` once the extra attacks resolve) and upkeep.
 * - **Declare**, slowest first. Only the combatant whose turn it is declares (its owner, or the GM);
 *   once a round. A declaration is an ordered list of actions `{name, cost, kind, def}`; an empty list
 *   is the explicit "no actions this round". The GM's next turn skips the current declarer (it
 *   declares nothing). Every declaration is in the state, visible to all.
 * - **Action points.** The AP available this round is the budget (default 5) minus what an action
 *   declared last round carried over. The costs must fit the available AP, except a single action
 *   that needs at least all of it: it takes all of it now and carries the rest into the next round
 *   (the rest may not exceed a round's budget: an action finishes the round after it is declared).
 * - **DEF.** Declared DEF changes add up for the whole round ({@link defChange}).
 * - **Resolve**, fastest first, in passes; each combatant's part of a pass is one turn, ended by its
 *   next turn. Pass 0: carried actions finish, at the start of the resolution. Pass 1: each combatant
 *   resolves its declared actions except its second and later attacks. Pass k ≥ 2: every k-th attack.
 *   Combatants with nothing in a pass are skipped.
 * - **Upkeep**: after the resolution the GM confirms the upkeep the rules computed
 *   ({@link upkeepPreview}): bleeding removes that many hits (reported in an `upkeepApplied` event;
 *   bleeding itself stays until the GM changes it), dazed and stunned go down by one (a status ends
 *   at 0). IP changes whose last round this was revert. Then the next round begins.
 *
 * A defeated combatant takes no part: it does not declare or resolve, is in no tie, needs no roll and
 * has no upkeep; its facts are kept for when it comes back.
 *
 * The state keeps per-combatant facts (IP, changes, tie break, its latest declaration); every order,
 * and who is current, is derived. A declaration carries its round, the action carried into that
 * round and how many resolution turns its combatant has had: a new round begins without touching any
 * combatant (an older round's declaration counts as none), so the upkeep writes only what it ticks.
 * One order is shown all round, fastest first: the declaration walks it from the bottom up.
 */
import type { ModeDefinition } from "../../../core/engine";
import { isRosterCommand } from "../../../core/common";
import type { DeclareResolveState, DeclareResolveCommand } from "./types";
import { createDeclareResolve } from "./flow";
import { applyCommand, handlers } from "./commands";
import { view, declareResolveAllowed, declareResolveTurnKey } from "./view";
import { parseCommand } from "./untrusted";

/** Declare slowest first, resolve fastest first, with action points (RULES.md §3). */
export const declareResolveMode: ModeDefinition<DeclareResolveState, DeclareResolveCommand> = {
  id: "declare-resolve",
  create: (roster) => createDeclareResolve(roster),
  apply: applyCommand,
  view,
  allowed: declareResolveAllowed,
  isRosterCommand,
  parseCommand,
  commandTypes: new Set(Object.keys(handlers)),
  turnKey: declareResolveTurnKey,
};
