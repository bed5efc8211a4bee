/**
 * A stand-in for what draw-steel does to the combat tracker, written for the sim from a reading of
 * the system's public code (github.com/MetaMorphic-Digital/draw-steel, system.json version 1.0.0,
 * which needs Foundry 14.356; `src/module/applications/sidebar/tabs/combat-tracker.mjs`); no code is
 * copied. What it emulates:
 *
 * - `DrawSteelCombatTracker.PARTS` keeps core's `header`, `tracker` and `footer` and adds its own
 *   `dsTracker` and `dsFooter`; `_configureRenderParts` deletes core's `tracker` and `footer` in the
 *   system's default initiative mode (`game.combats.isDefaultInitiativeMode`), else its own two.
 *   So in the default mode the parent's parts are `header`, `dsTracker`, `dsFooter`: no part is
 *   named `tracker` or `footer`.
 * - `_preparePartContext` prepares `dsTracker` and `dsFooter` with core's tracker and combat context.
 * - Its own CombatantGroups (squads, `DrawSteelCombatantGroup`, type "squad"), which the tests create.
 *
 * The two templates (test/sim/systems/templates/draw-steel-*.hbs) are written for the sim.
 */
import type { Dict } from "../utils.js";

type Fn = (...args: unknown[]) => unknown;

/**
 * The system as `game.system` names it, with the initiative formula of its system.json (1.0.0).
 * @behaviour draw-steel's system initiative formula.
 * @source MetaMorphic-Digital/draw-steel system.json at 68856d456db33004e8a50ad46bc8504fbd336dd9 ("initiative": "2d10 + @A").
 */
export const DRAW_STEEL_SYSTEM = { id: "draw-steel", title: "Draw Steel", initiative: "2d10 + @A" };

/** The part ids draw-steel adds in its default initiative mode. */
export const DRAW_STEEL_PARTS = { tracker: "dsTracker", footer: "dsFooter" } as const;

/** Install the stand-in in a realm (as `systemSetup`, before the module's bundle runs). */
export function installDrawSteel(realm: Dict): void {
  const CONFIG = realm.CONFIG as { ui: { combat: unknown } };
  const game = realm.game as { combats: object };
  // draw-steel's CombatEncounters subclass says which initiative mode the world uses; the default.
  Object.defineProperty(game.combats, "isDefaultInitiativeMode", { get: () => true, configurable: true });
  const TrackerBase = CONFIG.ui.combat as new (...args: never[]) => {
    _configureRenderParts(options: Dict): Record<string, unknown>;
    _preparePartContext(partId: string, context: Dict, options: Dict): Promise<Dict>;
  };
  const basePARTS = (TrackerBase as unknown as { PARTS: Record<string, unknown> }).PARTS;
  class DrawSteelCombatTracker extends TrackerBase {
    static PARTS = {
      header: basePARTS.header,
      tracker: basePARTS.tracker,
      footer: basePARTS.footer,
      [DRAW_STEEL_PARTS.tracker]: { template: "test/sim/systems/templates/draw-steel-tracker.hbs", scrollable: [""] },
      [DRAW_STEEL_PARTS.footer]: { template: "test/sim/systems/templates/draw-steel-footer.hbs" },
    };
    override _configureRenderParts(options: Dict): Record<string, unknown> {
      const parts = super._configureRenderParts(options);
      if ((game.combats as { isDefaultInitiativeMode?: boolean }).isDefaultInitiativeMode === true) {
        delete parts.tracker;
        delete parts.footer;
      } else {
        delete parts.dsTracker;
        delete parts.dsFooter;
      }
      return parts;
    }
    override async _preparePartContext(partId: string, context: Dict, options: Dict): Promise<Dict> {
      await super._preparePartContext(partId, context, options);
      // Core's context preparation, where the sim's tracker has it.
      const self = this as unknown as Record<string, unknown>;
      const prepare = partId === DRAW_STEEL_PARTS.tracker ? self._prepareTrackerContext : self._prepareCombatContext;
      if (partId in DRAW_STEEL_PARTS_BY_ID && typeof prepare === "function")
        await (prepare as Fn).call(this, context, options);
      return context;
    }
  }
  CONFIG.ui.combat = DrawSteelCombatTracker;
}

const DRAW_STEEL_PARTS_BY_ID: Record<string, true> = {
  [DRAW_STEEL_PARTS.tracker]: true,
  [DRAW_STEEL_PARTS.footer]: true,
};
