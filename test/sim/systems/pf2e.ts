/**
 * A stand-in for what pf2e does to combat and the combat tracker, written for the sim from a reading
 * of the system's public code (github.com/foundryvtt/pf2e, `src/module/apps/sidebar/encounter-tracker.ts`
 * at commits 3947e62 and 0502b5a, and the encounter's `_sortCombatants`); no code is copied. The
 * stored versions are of the pre-v13 tracker; the lookups below are their v13 shape (the list
 * element carries `combat-tracker`, as the sim's core list does). What it emulates:
 *
 * - `EncounterTrackerPF2e`, the system's own tracker subclass: after each render it looks up the
 *   tracker's list and throws "No tracker found" when there is none, then marks each
 *   `li.combatant` row with its combatant's initiative (`data-initiative`, for its drag and drop),
 *   fetching the combatant with `{strict: true}` (a row whose id is not a combatant throws).
 * - `EncounterPF2e#_sortCombatants`: an explicit tie-break (a per-initiative `overridePriority` in the
 *   combatant's pf2e flags, then name), instead of core's.
 */
import type { SimClasses } from "../runtime.js";
import type { Dict } from "../utils.js";

type CombatClass = SimClasses["Combat"];
type Combatant = InstanceType<SimClasses["Combatant"]>;

/** The system as `game.system` names it. */
export const PF2E_SYSTEM = { id: "pf2e", title: "Pathfinder Second Edition", initiative: "1d20" };

/** The priority pf2e keeps for a combatant at an initiative value (lower acts first), or null. */
function overridePriority(combatant: Combatant, initiative: number | null): number | null {
  const flags = combatant._source.flags as Record<string, Record<string, unknown> | undefined> | undefined;
  const table = flags?.pf2e?.overridePriority as Record<string, unknown> | undefined;
  const value = initiative === null ? undefined : table?.[String(initiative)];
  return typeof value === "number" ? value : null;
}

/** Install the stand-in in a realm (as `systemSetup`, before the module's bundle runs). */
export function installPf2e(realm: Dict): void {
  const CONFIG = realm.CONFIG as { Combat: { documentClass: CombatClass }; ui: { combat: unknown } };
  const CombatBase = CONFIG.Combat.documentClass;
  class EncounterPF2e extends CombatBase {
    override _sortCombatants(a: Combatant, b: Combatant): number {
      const ia = a.initiative ?? -Infinity;
      const ib = b.initiative ?? -Infinity;
      if (ia !== ib) return ib - ia;
      const pa = overridePriority(a, a.initiative);
      const pb = overridePriority(b, b.initiative);
      if (pa !== null && pb !== null && pa !== pb) return pa - pb;
      return a.name.localeCompare(b.name);
    }
  }
  const TrackerBase = CONFIG.ui.combat as new (...args: never[]) => {
    element: unknown;
    viewed: InstanceType<CombatClass> | null;
    _onRender(context: Dict, options: Dict): Promise<void>;
  };
  class EncounterTrackerPF2e extends TrackerBase {
    override async _onRender(context: Dict, options: Dict): Promise<void> {
      await super._onRender(context, options);
      const html = this.element as HTMLElement | null;
      const encounter = this.viewed;
      if (html === null || encounter === null) return;
      const tracker = html.querySelector(".combat-tracker");
      if (tracker === null) throw new Error("PF2e System | No tracker found");
      for (const row of Array.from(tracker.querySelectorAll<HTMLElement>("li.combatant"))) {
        const combatant = encounter.combatants.get(row.dataset.combatantId ?? "", { strict: true }) as Combatant;
        row.dataset.initiative = String(combatant.initiative);
      }
    }
  }
  CONFIG.Combat.documentClass = EncounterPF2e;
  CONFIG.ui.combat = EncounterTrackerPF2e;
}
