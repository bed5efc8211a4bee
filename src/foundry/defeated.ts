/**
 * One truth for "defeated" in the modes whose rules know `setDefeated` (a mode opts in with
 * {@link defeatedMirror} in its module):
 * Foundry's own defeated state (`Combatant#isDefeated`: the combatant's `defeated` field or its
 * actor's defeated status effect) and the rules' `defeated` flag are kept equal, on the active GM's
 * client only.
 *
 * - Foundry → rules: on every roster reconciliation the authority derives `setDefeated` commands
 *   from the combatants (`syncDefeated`); a change of a combatant's `defeated` field or of an
 *   effect carrying the defeated status (an actor's statuses come from its effects) triggers one,
 *   and so does this client becoming the authority (see `onAuthorityChange`).
 * - Rules → Foundry: a `defeatedChanged` event (the `setDefeated` command) is written back as
 *   Foundry's own tracker toggle does: the combatant's `defeated` field and the actor's defeated
 *   status, only where they differ, so the resulting hooks find nothing left to sync.
 * - Undo: Foundry's documents win. A rewind may restore a state from before a combatant was marked
 *   defeated (or revived); the documents then bring it back in line, as `sides` does for its sides.
 */
import type { RuleEvent } from "../core/engine";
import type { EventOrigin, ModeMirror } from "../modes/contract";
import { reconcileActorEncounters } from "./authority/controller";
import { isStructured, loadBound, moduleOfCombat } from "./authority/encounters";
import type { Json } from "../core/patch";
import { logError } from "./notify";

/** Whether an encounter runs a mode whose rules have a defeated flag mirrored from Foundry. */
export function tracksDefeat(combat: Combat.Implementation | null): combat is Combat.Implementation {
  return combat !== null && moduleOfCombat(combat)?.mirror?.defeated !== undefined;
}

/** The rules' defeated flag of each combatant in the encounter's state; null when it cannot be read. */
function defeatedIn(combat: Combat.Implementation): ReadonlyMap<string, boolean> | null {
  const read = moduleOfCombat(combat)?.mirror?.defeated;
  const bound = loadBound(combat);
  return read === undefined || bound === null ? null : read(bound.state);
}

/**
 * The `setDefeated` commands that bring the rules' defeated flags in line with the combatants'
 * `isDefeated`.
 */
function syncDefeated(combat: Combat.Implementation, rules: ReadonlyMap<string, boolean>): Json[] {
  const out: Json[] = [];
  for (const combatant of combat.combatants.contents) {
    const id = combatant.id ?? "";
    const defeated = rules.get(id);
    if (defeated !== undefined && defeated !== combatant.isDefeated)
      out.push({ type: "setDefeated", combatantId: id, defeated: combatant.isDefeated });
  }
  return out;
}

/**
 * Mark a combatant defeated or not as Foundry's own tracker does — the combatant's `defeated` field
 * and its actor's defeated status together — writing only what differs.
 */
export async function writeDefeated(combatant: Combatant.Implementation, defeated: boolean): Promise<void> {
  if (combatant.defeated !== defeated) await combatant.update({ defeated });
  const actor = combatant.actor;
  const status = CONFIG.specialStatusEffects.DEFEATED;
  if (actor !== null && actor.statuses.has(status) !== defeated)
    await actor.toggleStatusEffect(status, { active: defeated, overlay: true });
}

/** Make one combatant's Foundry defeated state what the rules say (a failure is logged). */
async function applyDefeated(combatant: Combatant.Implementation, defeated: boolean): Promise<void> {
  if (combatant.isDefeated === defeated) return;
  try {
    await writeDefeated(combatant, defeated);
  } catch (error) {
    logError(error);
  }
}

/**
 * Side effects of `individual` and `slots` events on the authority: a combatant whose defeated flag
 * changed in the rules is marked (or revived) in Foundry. (After an undo the controller brings the
 * rules back in line with Foundry's documents, for every mode that mirrors them.)
 */
async function defeatedEffects(
  combat: Combat.Implementation,
  events: readonly RuleEvent[],
  origin: EventOrigin,
): Promise<void> {
  // A reconciliation's `setDefeated` came from the documents: writing the rules back into them
  // could only overwrite a change made since (a revive right after a defeat, say).
  if (!tracksDefeat(combat) || origin !== "command") return;
  const ids = new Set(events.flatMap((e) => (e.type === "defeatedChanged" && e.combatantId ? [e.combatantId] : [])));
  if (ids.size === 0) return;
  const rules = defeatedIn(combat);
  if (rules === null) return;
  for (const id of ids) {
    const combatant = combat.combatants.get(id);
    const defeated = rules.get(id);
    if (combatant !== undefined && defeated !== undefined) await applyDefeated(combatant, defeated);
  }
}

/** Whether an effect carries the defeated status (`CONFIG.specialStatusEffects.DEFEATED`). */
function carriesDefeat(effect: ActiveEffect.Implementation): boolean {
  return effect.statuses.has(CONFIG.specialStatusEffects.DEFEATED);
}

/**
 * An actor's defeated status may have changed (set from the token HUD, Foundry's tracker or a
 * system): the encounters it fights in are brought in line (nothing is written where nothing
 * differs). The effect belongs to the actor, or to one of its items; adding or removing an item
 * that carries such an effect is not watched (the next reconciliation picks it up).
 */
function defeatedEffectChanged(effect: ActiveEffect.Implementation): void {
  const parent = effect.parent;
  if (parent === null) return;
  const actor = parent.documentName === "Actor" ? parent : parent.parent;
  reconcileActorEncounters(actor?.id ?? null, tracksDefeat);
  showDefeatChange(actor?.id ?? null);
}

/**
 * Every client: a row shows `Combatant#isDefeated`, which the actor's defeated status sets as well
 * as the combatant's field, and an actor's effect is not a change of the encounter. When the actor
 * fights in the structured encounter the tracker shows, the tracker (and its pop-out) renders again,
 * so a row never stays shown defeated after a revive (nor alive after a defeat) that only the
 * status carried — as when `writeDefeated` clears the field first and the status after.
 */
function showDefeatChange(actorId: string | null): void {
  const tracker = ui.combat as foundry.applications.sidebar.tabs.CombatTracker | undefined;
  const combat = tracker?.viewed ?? null;
  if (tracker === undefined || actorId === null || combat === null || !isStructured(combat)) return;
  if (!combat.combatants.contents.some((c) => c.actorId === actorId)) return;
  for (const app of [tracker, tracker.popout]) if (app?.rendered === true) void app.render();
}

/** `createActiveEffect`, `deleteActiveEffect`: only an effect that carries the defeated status matters. */
export function onDefeatedEffectCreatedOrDeleted(effect: ActiveEffect.Implementation): void {
  if (carriesDefeat(effect)) defeatedEffectChanged(effect);
}

/**
 * `updateActiveEffect`: only a change of an effect's statuses or of whether it applies (`disabled`)
 * can change the actor's defeated status, not the duration ticks systems write every turn. A
 * `disabled` change matters when the effect carries the defeated status; a `statuses` change always
 * may, since `changed` holds the new statuses only and one that dropped the defeated status looks
 * like any other.
 */
export function onDefeatedEffectUpdated(effect: ActiveEffect.Implementation, changed: object): void {
  if ("statuses" in changed || ("disabled" in changed && carriesDefeat(effect))) defeatedEffectChanged(effect);
}

/** A combatant as the rules keep its defeat. */
interface DefeatedFlag {
  readonly id: string;
  readonly defeated: boolean;
}

/**
 * The shared defeated mirror for a mode whose rules keep a defeated flag on each combatant: the
 * mode's module uses it as (part of) its `mirror`. `effects` also runs the mode's own.
 */
export function defeatedMirror<S extends { readonly combatants: readonly DefeatedFlag[] }>(
  own?: (combat: Combat.Implementation, events: readonly RuleEvent[], origin: EventOrigin) => Promise<void>,
): ModeMirror<S> {
  const read = (state: S): ReadonlyMap<string, boolean> => new Map(state.combatants.map((c) => [c.id, c.defeated]));
  return {
    defeated: read,
    sync: (combat, state) => syncDefeated(combat, read(state)),
    effects: async (combat, events, origin) => {
      if (own !== undefined) await own(combat, events, origin);
      await defeatedEffects(combat, events, origin);
    },
  };
}
