/**
 * A game system's own `Combat#startCombat`, run once a structured encounter has started.
 *
 * Systems put their start effects after `super.startCombat()`: dnd5e 5.3.3 recovers every combatant's
 * "encounter" uses there (foundryvtt/dnd5e, module/documents/combat.mjs at release-5.3.3), as Black
 * Flag does. The module's Combat class sits above the system's and starts a structured encounter
 * through the rules (from the tracker, the API, a macro or `combat.startCombat()`), so the system's
 * method would never run. After the start is written, the authority runs the system's method with
 * core's, which the system reaches through `super`, standing aside for that combat and that call:
 * core's part, the round and turn written, has happened the module's way.
 */

/** Combats for which core's `startCombat` stands aside once (the system's method is running). */
const standAside = new WeakSet<object>();

/** The system's `startCombat` (the module Combat class's parent's), or null when it is core's own. */
let systemStart: ((combat: Combat.Implementation) => Promise<unknown>) | null = null;

type StartCombat = (this: Combat.Implementation) => Promise<Combat.Implementation>;

/** Whether core's `startCombat` has been made to stand aside where asked (once per page). */
let diverted = false;

/**
 * At `init`, with the class the module's Combat class extends: remember the system's `startCombat`,
 * if it has one, and let core's stand aside for a combat the system's method is run for.
 */
export function registerSystemStart(Base: typeof Combat): void {
  const core = foundry.documents.Combat.prototype as unknown as { startCombat: StartCombat };
  if (!diverted) {
    const own = core.startCombat;
    core.startCombat = async function (this: Combat.Implementation) {
      if (!standAside.has(this)) return own.call(this);
      standAside.delete(this);
      return this;
    };
    diverted = true;
  }
  const parent = (Base.prototype as unknown as { startCombat: StartCombat }).startCombat;
  systemStart = parent === core.startCombat ? null : (combat) => parent.call(combat);
}

/** Run the system's start effects for a structured encounter the rules have just started (active GM). */
export async function runSystemStart(combat: Combat.Implementation): Promise<void> {
  if (systemStart === null) return;
  standAside.add(combat);
  try {
    await systemStart(combat);
  } finally {
    standAside.delete(combat);
  }
}
