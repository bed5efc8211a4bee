/**
 * How a structured encounter shows to core and to other modules (issue 16, item 2). Carousel Combat
 * Tracker, turn markers and "next up" modules read `Combatant#initiative`, `combat.turns` and
 * `combat.combatant`; this keeps them in line with the mode's order.
 *
 * - **The initiative mirror.** Each of the authority's writes carries, in the same `Combat#update`, the
 *   `Combatant#initiative` values (as `combatants: [{_id, initiative}]`, merged by id) that make core's
 *   sort (initiative descending, then name, then id) give the mode's order. The mode names who shows
 *   a number and which (`ModeInterop.initiative`); the plan is `src/core/initiative-mirror.ts`.
 * - **The turn order** every client sorts `combat.turns` by is the same: the ranked combatants in the
 *   mode's order, then the rest by name, then id.
 */
import type { TurnView } from "../core/engine";
import type { BoundEncounter } from "../core/binding";
import { mirroredOrder, planInitiativeMirror, type MirrorChange, type RankedEntry } from "../core/initiative-mirror";
import type { AnyModeModule } from "../modes/contract";

/** The ranked combatants of a state, in the view's order, with the numbers the mode would show. */
export function rankedOf(module: Pick<AnyModeModule, "interop"> | null, state: unknown, view: TurnView): RankedEntry[] {
  const shown = module?.interop?.initiative?.(state, view) ?? null;
  if (shown === null) return view.started ? view.order.map((id) => ({ id, hint: null })) : [];
  return view.order.filter((id) => shown.has(id)).map((id) => ({ id, hint: shown.get(id) ?? null }));
}

/** The ids of the combat's combatants, in collection order. */
function combatantIds(combat: Combat.Implementation): string[] {
  return combat.combatants.contents.map((c) => c.id ?? "");
}

/** The order of `combat.turns` for these ranked combatants: what core's sort of the mirrored initiative gives. */
function orderOf(combat: Combat.Implementation, ranked: readonly RankedEntry[]): string[] {
  const ids = ranked.map((entry) => entry.id);
  return mirroredOrder(ids, combatantIds(combat), (id) => combat.combatants.get(id)?.name ?? "");
}

/** The order of `combat.turns` for a loaded encounter. */
export function turnOrderOf(
  combat: Combat.Implementation,
  module: AnyModeModule | null,
  bound: BoundEncounter,
): string[] {
  return orderOf(combat, rankedOf(module, bound.state, bound.view));
}

/**
 * For a state the authority writes: the order of `combat.turns` it gives, and the initiative writes
 * that bring the combatants in line with it (nothing where nothing differs), from one ranking.
 */
export function mirrorOf(
  combat: Combat.Implementation,
  module: AnyModeModule | null,
  state: unknown,
  view: TurnView,
): { readonly order: string[]; readonly changes: MirrorChange[] } {
  const ranked = rankedOf(module, state, view);
  const live = new Map<string, number | null>(
    combat.combatants.contents.map((c) => [c.id ?? "", typeof c.initiative === "number" ? c.initiative : null]),
  );
  return { order: orderOf(combat, ranked), changes: planInitiativeMirror(ranked, combatantIds(combat), live) };
}
