/** Derived helpers of the `declare-resolve` mode: who is current, the one order all round, and the tracker's row of each combatant. */
import { findById } from "../../../core/common";
import type {
  DeclareResolveState,
  DeclareResolveStep,
  IPChange,
  Declaration,
  CarriedAction,
  Conditions,
} from "./types";
import {
  tiePending,
  participants,
  declarationOf,
  sortedBySpeed,
  type APView,
  pendingTies,
  takesPart,
  resolvedOf,
  currentIP,
  apView,
  defChange,
  carriedInOf,
  resolveOrder,
} from "./points";
import { allTurns, type ResolutionTurn, nextTurnOf, resolutionTurns, isFinishing } from "./resolution";

/** Who declares now (the slowest taking part who has not declared), or null outside the declare step or while a tie waits. */
export function currentDeclarer(state: DeclareResolveState): string | null {
  if (state.phase !== "declare" || tiePending(state)) return null;
  const waiting = participants(state).filter((c) => declarationOf(state, c) === null);
  return sortedBySpeed(state, waiting).pop()?.id ?? null;
}

/** Who resolves now, or null outside the resolution or while a tie waits. */
export function currentResolver(state: DeclareResolveState): string | null {
  if (state.phase !== "resolve" || tiePending(state)) return null;
  return allTurns(state).find((t) => !t.done)?.turn.combatantId ?? null;
}

/** The turn being resolved now, or null. */
export function currentTurn(state: DeclareResolveState): ResolutionTurn | null {
  const id = currentResolver(state);
  const c = id === null ? undefined : findById(state.combatants, id);
  return c === undefined ? null : (nextTurnOf(state, c) ?? null);
}

export function currentOf(state: DeclareResolveState): string | null {
  return currentDeclarer(state) ?? currentResolver(state);
}

/** The step the view shows: the stored phase, with the resolution's later passes shown as `extraAttacks`. */
export function currentStep(state: DeclareResolveState): DeclareResolveStep {
  if (state.phase !== "resolve") return state.phase;
  const pass = allTurns(state).find((t) => !t.done)?.turn.pass ?? 1;
  return pass >= 2 ? "extraAttacks" : "resolve";
}

export const started = (state: DeclareResolveState): boolean => state.phase !== "setup";
/**
 * The tracker order, the same all round: fastest first (the declaration walks it from the bottom
 * up), then the rest, in joining order. Core's turn order follows it (the initiative mirror), so one
 * order all round means a new step moves no one in it.
 */
export function viewOrder(state: DeclareResolveState): string[] {
  const head = resolveOrder(state);
  const rest = state.combatants.filter((c) => !head.includes(c.id)).map((c) => c.id);
  return [...head, ...rest];
}

/** Everything the tracker shows on a combatant's row. */
export interface CombatantRow {
  readonly combatantId: string;
  /** Base IP (the roll), or null. */
  readonly baseIP: number | null;
  /** The IP totals the roll replaced (the GM's re-rolls and corrections), oldest first. */
  readonly replacedIP: readonly number[];
  /** Base + changes, or null. */
  readonly currentIP: number | null;
  readonly modifier: number | null;
  readonly ipChanges: readonly IPChange[];
  readonly ap: APView;
  /** DEF change this round. */
  readonly def: number;
  readonly declaration: Declaration | null;
  readonly carriedIn: CarriedAction | null;
  /** Its carried action still has to finish. */
  readonly finishing: boolean;
  readonly conditions: Conditions;
  readonly defeated: boolean;
  /** Declares now or resolves now. */
  readonly current: boolean;
  /** In a tie that waits for the GM. */
  readonly tied: boolean;
  /** Resolution turns still to come this round. */
  readonly turnsLeft: number;
}

/** The tracker's rows, in the view's order. */
export function combatantRows(state: DeclareResolveState): readonly CombatantRow[] {
  const current = currentOf(state);
  const tied = new Set(pendingTies(state).flat());
  const started = state.phase !== "setup";
  return viewOrder(state).flatMap((id) => {
    const c = findById(state.combatants, id);
    if (c === undefined) return [];
    const left =
      started && takesPart(c) && state.phase !== "upkeep" ? resolutionTurns(state, c).length - resolvedOf(state, c) : 0;
    return [
      {
        combatantId: id,
        baseIP: c.ip?.total ?? null,
        replacedIP: c.ip?.replaced ?? [],
        currentIP: currentIP(c),
        modifier: c.ip?.modifier ?? null,
        ipChanges: c.ipChanges,
        ap: apView(state, c),
        def: defChange(state, c),
        declaration: declarationOf(state, c),
        carriedIn: carriedInOf(state, c),
        finishing: isFinishing(state, c),
        conditions: c.conditions,
        defeated: c.defeated,
        current: current === id,
        tied: tied.has(id),
        turnsLeft: Math.max(0, left),
      },
    ];
  });
}
