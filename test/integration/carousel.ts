/**
 * A stand-in for what Carousel Combat Tracker (theripper93/combat-tracker-dock) shows of an
 * encounter, written for the tests from a reading of its public code (`scripts/app/CombatDock.js`,
 * commit 207e569; no code copied): its portraits are the combatants sorted with the Combat's own
 * `_sortCombatants`, called unbound (`sortedCombatants`), each showing its `initiative`. It sorts
 * them again only when
 * - a combatant is updated with `initiative` among the changes (`updateCombatant` → `setupCombatants`),
 * - a combatant is created or deleted (`createCombatant`, `deleteCombatant`),
 * - the Combat is updated with `turn` or `round` among the changes (`updateCombat` → `_onCombatTurn`,
 *   which re-orders the portraits; the module's README names its 200 ms delay, left out here).
 * Any other update leaves what it shows as it was: what a player sees can go stale.
 */
import type { Sim, SimClient, SimCombat } from "../sim/index.js";
import { combatOn } from "./world.js";

/** One portrait: who, and the number it shows. */
export interface Portrait {
  readonly id: string;
  readonly initiative: number | null;
}

/** What the carousel on one client shows now (refreshed only by the hooks above). */
export interface CarouselView {
  readonly client: SimClient;
  shown: Portrait[];
}

function sortedPortraits(combat: SimCombat): Portrait[] {
  const method: unknown = Reflect.get(combat, "_sortCombatants");
  // Called unbound (no `this`), as the carousel passes it to `Array#sort`.
  const sort = (a: unknown, b: unknown): number => Number(Reflect.apply(method as () => number, undefined, [a, b]));
  return [...combat.combatants.contents].sort(sort).map((c) => ({
    id: c.id ?? "?",
    initiative: typeof c.initiative === "number" ? c.initiative : null,
  }));
}

/** Start a carousel on each client of the sim: each refreshes on the hooks the real one listens to. */
export function watchLikeCarousel(sim: Sim): CarouselView[] {
  return sim.clients.map((client) => {
    const view: CarouselView = { client, shown: [] };
    const refresh = (combat: unknown): void => {
      const doc = combat as { parent?: unknown };
      view.shown = sortedPortraits((doc.parent ?? combat) as SimCombat);
    };
    view.shown = client.game.combats.contents[0] === undefined ? [] : sortedPortraits(combatOn(client));
    client.Hooks.on("updateCombatant", (combatant: unknown, changed: unknown) => {
      if (typeof changed === "object" && changed !== null && "initiative" in changed) refresh(combatant);
    });
    client.Hooks.on("createCombatant", refresh);
    client.Hooks.on("deleteCombatant", refresh);
    client.Hooks.on("updateCombat", (combat: unknown, changed: unknown) => {
      if (typeof changed === "object" && changed !== null && ("turn" in changed || "round" in changed))
        view.shown = sortedPortraits(combat as SimCombat);
    });
    return view;
  });
}

/** What each client's carousel should show: `combat.turns` with each combatant's live initiative. */
export function liveOrder(client: SimClient): Portrait[] {
  return combatOn(client).turns.map((c) => ({
    id: c.id ?? "?",
    initiative: typeof c.initiative === "number" ? c.initiative : null,
  }));
}
