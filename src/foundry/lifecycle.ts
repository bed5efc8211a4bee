/** What the module does at Foundry's `init` and `ready`. */
import { MODULE_ID, QUERIES } from "../constants";
import { installedModes } from "./modes";
import { createApi } from "./api";
import { countTurnChanges, createCombatantClass, createCombatClass } from "./combat";
import { onAuthorityChange, onOutcomeQuery } from "./authority/controller";
import { rememberAllGuarded } from "./authority/guard";
import { registerKeybindings } from "./keys";
import { rememberNotices } from "./notices";
import { registerSettings } from "./settings";
import { createTrackerClass } from "./tracker/tracker";

/**
 * `init`: register settings and keyboard actions, extend (never replace) the Combat, Combatant and tracker classes that
 * `CONFIG` holds now — a game system's own ones included — and install the query handler and API.
 */
export function onInit(): void {
  registerSettings();
  registerKeybindings();
  CONFIG.Combat.documentClass = createCombatClass(CONFIG.Combat.documentClass) as typeof CONFIG.Combat.documentClass;
  CONFIG.Combatant.documentClass = createCombatantClass(
    CONFIG.Combatant.documentClass,
  ) as typeof CONFIG.Combatant.documentClass;
  countTurnChanges();
  // CONFIG.ui.combat is typed as a bare constructor; Foundry's contract is the CombatTracker class or a subclass.
  const tracker = CONFIG.ui.combat as typeof foundry.applications.sidebar.tabs.CombatTracker;
  CONFIG.ui.combat = createTrackerClass(tracker);
  CONFIG.queries[QUERIES.outcome] = onOutcomeQuery;
  for (const mode of installedModes()) mode.init?.();
  Object.assign(game.modules.get(MODULE_ID), { api: createApi() });
}

/**
 * `ready`: the tracker's first render; the notices each encounter owes the user now are known
 * (not announced: they are not new); a client that starts as the authority brings every
 * structured encounter in line with what changed while no GM applied it.
 */
export function onReady(): void {
  rememberAllGuarded();
  rememberNotices();
  onAuthorityChange(true);
  void ui.combat.render();
}
