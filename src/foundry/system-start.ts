/**
 * A game system's own `Combat#startCombat`, run around a structured encounter's start, so that its
 * start effects and core's round and turn start run in the order they run without the module.
 *
 * Systems put their start effects on either side of `super.startCombat()`:
 * - after it: dnd5e 5.3.3 recovers every combatant's "encounter" uses once core's start is written
 *   (foundryvtt/dnd5e, module/documents/combat.mjs at release-5.3.3), as Black Flag does;
 * - before it: draw-steel 1.0.0 runs each actor's combat start and sets the Malice pool, then calls
 *   core's, whose first round start adds that round's Malice to the pool
 *   (MetaMorphic-Digital/draw-steel 68856d45, src/module/documents/combat.mjs `startCombat` and
 *   `_onStartRound`; src/module/data/settings/malice.mjs `startCombat` sets the value, `_onStartRound`
 *   adds to it).
 *
 * The module's Combat class sits above the system's and starts a structured encounter through the
 * rules (from the tracker, the API, a macro or `combat.startCombat()`). So on the authority the start
 * runs *inside* the system's method: the system's method is called, and core's `startCombat`, which
 * it reaches through `super`, makes the rules' start for that combat and that call instead of its own
 * (writing round 1 and running the round's and the first turn's start, `turn-lifecycle.ts`), then
 * returns to the system's method. Whatever the system does before `super` runs before round 1
 * begins; whatever it does after runs after the first turn has started, as without the module.
 */
import { MODULE_ID } from "../constants";

/** Per combat, the rules' start core's `startCombat` makes instead of its own (the system's method is running). */
const diverted = new WeakMap<object, () => Promise<void>>();

/** The system's `startCombat` (the module Combat class's parent's), or null when it is core's own. */
let systemStart: ((combat: Combat.Implementation) => Promise<unknown>) | null = null;

type StartCombat = (this: Combat.Implementation) => Promise<Combat.Implementation>;

/** Whether core's `startCombat` has been made to give way where asked (once per page). */
let patched = false;

/**
 * At `init`, with the class the module's Combat class extends: remember the system's `startCombat`,
 * if it has one, and let core's make the rules' start for a combat the system's method is run for.
 */
export function registerSystemStart(Base: typeof Combat): void {
  const core = foundry.documents.Combat.prototype as unknown as { startCombat: StartCombat };
  if (!patched) {
    const own = core.startCombat;
    core.startCombat = async function (this: Combat.Implementation) {
      const start = diverted.get(this);
      if (start === undefined) return own.call(this);
      diverted.delete(this);
      await start();
      return this;
    };
    patched = true;
  }
  const parent = (Base.prototype as unknown as { startCombat: StartCombat }).startCombat;
  systemStart = parent === core.startCombat ? null : (combat) => parent.call(combat);
}

/**
 * On the authority: make a structured encounter's start (`start`: apply the rules' start, write it and
 * run its round and turn start) inside the system's own `startCombat`, where the system has one. When
 * the system's method never reaches core's (it fails first, or leaves `super` out), the start is made
 * after it all the same: the GM asked for it. Resolves with what `start` resolved with.
 */
export async function startWithSystem<T>(combat: Combat.Implementation, start: () => Promise<T>): Promise<T> {
  if (systemStart === null) return start();
  let started: Promise<T> | null = null;
  const once = (): Promise<T> => (started ??= start());
  diverted.set(combat, async () => {
    await once();
  });
  try {
    await systemStart(combat);
  } catch (error) {
    console.error(`${MODULE_ID} | the game system's startCombat failed`, error);
  } finally {
    diverted.delete(combat);
  }
  return once();
}
