/** The module's combat tracker, derived from the tracker class `CONFIG.ui.combat` holds at `init`. */
export function createTrackerClass(Base: typeof foundry.applications.sidebar.tabs.CombatTracker) {
  /** The combat tracker: the system's own for system-default encounters (parts replaced in the tracker issue). */
  class SICombatTracker extends Base {}
  return SICombatTracker;
}
