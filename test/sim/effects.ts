/**
 * v14's timed Active Effects, for the simulated Foundry's v14 flavour: the start record
 * (`EffectStartData`), the duration with its expiry event, the registry that expires effects when a
 * combat event is announced to it, and the action it takes. v13 has none of this (its effects keep
 * `duration.startRound`/`startTurn` and nothing expires them).
 *
 * Each behaviour is tagged with what it does and its source (test/unit/sim-sources.test.ts lists
 * them and fails on a behaviour without one). Where no public page says how core computes a thing, the
 * tag says so and what the sim assumes instead.
 */
import type { Dict } from "./utils.js";

/**
 * @behaviour The core expiry events of an Active Effect.
 * @source https://foundryvtt.com/api/variables/CONST.ACTIVE_EFFECT_EXPIRY_EVENTS.html
 */
export const ACTIVE_EFFECT_EXPIRY_EVENTS = [
  "combatStart",
  "roundStart",
  "turnStart",
  "combatEnd",
  "roundEnd",
  "turnEnd",
] as const;

/** One call of `ActiveEffect.registry.refresh`, as the sim logs it for the tests. */
export interface RefreshRecord {
  readonly event: string;
  readonly combatId: string | null;
  /** turnStart: the context combat's `combatant`; turnEnd: its `previous.combatantId`; else null. */
  readonly combatantId: string | null;
  /** The context's round (the turn's own), else the combat's. */
  readonly round: number | null;
}

/** The parts of the realm the effect machinery reads. */
export interface EffectRealm {
  readonly game: {
    readonly combat: EffectCombat | null;
    readonly combats: { get(id: string): EffectCombat | undefined };
    readonly actors: { readonly contents: readonly EffectActor[] };
    readonly time: { readonly worldTime: number };
  };
  readonly CONFIG: { readonly ActiveEffect: { expiryAction?: "update" | "delete" | null } };
}

/** A Combat as the effect machinery reads it. */
export interface EffectCombat {
  readonly id: string | null;
  readonly round: number;
  readonly turn: number | null;
  readonly started: boolean;
  readonly combatant?: { readonly id: string | null; readonly initiative: number | null } | null;
  readonly previous?: { readonly combatantId?: string | null } | null;
}

/** An effect as the registry reads and writes it. */
export interface EffectDocument {
  readonly _source: Dict;
  readonly id: string | null;
  update(changes: Dict): Promise<unknown>;
  delete(): Promise<unknown>;
  /** The document's own test, which a system may override (`ActiveEffect#isExpiryEvent`). */
  isExpiryEvent(event: string, context: Dict): boolean;
}

interface EffectActor {
  readonly effects: { readonly contents: readonly EffectDocument[] };
}

/** The start record of an effect (https://foundryvtt.com/api/interfaces/foundry.documents.types.EffectStartData.html). */
export interface EffectStart {
  combat: string | null;
  combatant: string | null;
  initiative: number | null;
  round: number | null;
  turn: number | null;
  time: number;
}

/**
 * @behaviour `ActiveEffect.getEffectStart()`: the start record of an effect created now, from the
 * viewed combat: its id, the acting combatant and its initiative, the round, the turn and the world time.
 * @source https://foundryvtt.com/api/interfaces/foundry.documents.types.EffectStartData.html (each
 * field: "The _id of the Combatant whose turn was active when the Effect first started", "The
 * Combatant's initiative roll at the time…"); dnd5e PR #6837 (https://github.com/foundryvtt/dnd5e/pull/6837,
 * module/documents/active-effect.mjs `_preCreate`) calls `this.constructor.getEffectStart()` and
 * keeps the keys the creation data gives; draw-steel PR #1880 (https://github.com/MetaMorphic-Digital/draw-steel/pull/1880):
 * the combatant "was defaulting to the *current* combatant".
 */
export function effectStartNow(realm: EffectRealm): EffectStart {
  const combat = realm.game.combat;
  const combatant = combat?.combatant ?? null;
  return {
    combat: combat?.id ?? null,
    combatant: combatant?.id ?? null,
    initiative: combatant?.initiative ?? null,
    round: combat?.round ?? null,
    turn: combat?.turn ?? null,
    time: realm.game.time.worldTime,
  };
}

/**
 * @behaviour `ActiveEffect#start` as a document reads it: the stored start record, with `combat` the
 * Combat document it names (null when there is none), so that a system compares it with a combat by
 * identity and reads its state.
 * @source dnd5e 6.0's ActiveEffect5e (roth-michael/dnd5e, commit c90fc5e8e81d8e3e1d18f9993be3d14702fc2efc,
 * module/documents/active-effect.mjs, the version with the "since DnD5e 6.0" deprecations):
 * `_preCreate` reads `this.start?.combat?.started`, `isExpiryEvent` tests
 * `combat !== this.start.combat` and `_onUpdate` calls `this.start?.combat ?? game.combat` and then
 * `getCombatantsByActor` on it; the stored data names the id
 * (https://foundryvtt.com/api/interfaces/foundry.documents.types.EffectStartData.html).
 */
export function effectStartView(realm: EffectRealm, source: Dict): Dict {
  const start = (source.start ?? {}) as Dict;
  const id = typeof start.combat === "string" ? start.combat : null;
  return { ...start, combat: id === null ? null : (realm.game.combats.get(id) ?? null) };
}

/**
 * @behaviour On creation, an effect's start record is filled from `getEffectStart()` for every key
 * the data leaves out, and a duration with a value but no expiry event expires at "turnStart".
 * @source dnd5e PR #6837 (start keys given in the data win: "Prefer user-defined duration data");
 * https://github.com/foundryvtt/foundryvtt/issues/14117 ("Creating an Active Effect with no value
 * selected in Expiry Event makes it Turn Start").
 */
export function prepareEffectCreation(realm: EffectRealm, data: Dict): Dict {
  const given = (data.start ?? {}) as Partial<EffectStart>;
  const start: EffectStart = { ...effectStartNow(realm), ...given };
  const duration = { ...((data.duration ?? {}) as Dict) };
  if (typeof duration.value === "number" && (duration.expiry === undefined || duration.expiry === null))
    duration.expiry = "turnStart";
  if (duration.expired === undefined) duration.expired = false;
  return { start, duration };
}

/** The v14 duration of an effect (https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.EffectDurationData.html). */
export interface EffectDuration {
  readonly value: number | null;
  readonly units: string;
  readonly expiry: string | null;
  readonly expired: boolean;
  /** What is left, in the effect's units (rounds or turns); Infinity without a value. */
  readonly remaining: number;
}

/**
 * @behaviour The remaining duration of an effect counted in combat rounds or turns: the duration
 * less the combat time since the start, a combat time being the round plus the turn as a decimal
 * ({rounds}.{turns}), read from the effect's start combat. It compares positions (the recorded
 * turn index against the current one), so an order that changes between rounds moves it.
 * @source https://foundryvtt.com/api/interfaces/foundry.documents.types._ActiveEffectDuration.html
 * (v13: "The remaining effect duration, in seconds of world time or as a decimal number with the
 * format {rounds}.{turns}"); v14 keeps a "_combatTime … to determine when to recompute turns-based
 * duration" (https://foundryvtt.com/api/interfaces/foundry.documents.types.ActiveEffectDuration.html)
 * without saying how it counts, so the sim keeps v13's documented format. That the count is
 * positional: https://github.com/foundryvtt/foundryvtt/issues/13983 (open), crucible PR #705
 * (https://github.com/foundryvtt/crucible/pull/705: "start.turn is null, since turn order is
 * non-static between rounds"), dnd5e PR #6837 (shortens a duration when the combatant's
 * `turnNumber` is after the start's turn).
 */
export function effectDuration(realm: EffectRealm, source: Dict): EffectDuration {
  const d = (source.duration ?? {}) as Dict;
  const value = typeof d.value === "number" ? d.value : null;
  const units = typeof d.units === "string" ? d.units : "seconds";
  const expiry = typeof d.expiry === "string" ? d.expiry : null;
  const expired = d.expired === true;
  if (value === null) return { value, units, expiry, expired, remaining: Infinity };
  const start = (source.start ?? {}) as Partial<EffectStart>;
  if (units === "rounds" || units === "turns") {
    const combat = (typeof start.combat === "string" ? realm.game.combats.get(start.combat) : undefined) ?? null;
    if (combat === null || typeof start.round !== "number") return { value, units, expiry, expired, remaining: value };
    // In hundredths of a round (whole numbers: no rounding error at a boundary).
    const time = (round: number, turn: number | null | undefined): number => round * 100 + (turn ?? 0);
    const elapsed = time(combat.round, combat.turn) - time(start.round, start.turn);
    const remaining = (units === "rounds" ? value * 100 : value) - elapsed;
    return { value, units, expiry, expired, remaining: units === "rounds" ? remaining / 100 : remaining };
  }
  const seconds = units === "minutes" ? value * 60 : units === "hours" ? value * 3600 : value;
  return { value, units, expiry, expired, remaining: seconds - (realm.game.time.worldTime - (start.time ?? 0)) };
}

/**
 * @behaviour Whether an announced event is the effect's expiry event: the event must be the effect's
 * `duration.expiry`; "turnStart" only when the context combat's `combatant` is the effect's start
 * combatant, "turnEnd" only when its `previous.combatantId` is; a round or combat event of the
 * effect's start combat.
 * @source draw-steel-combat-tools src/squad-turns.mjs (https://github.com/TheGenieOfTheCode/draw-steel-combat-tools,
 * commit c3a61b8164c7fc6c733e22db082435923bfd562e): to expire a squad member's effects it refreshes
 * "turnStart" with a combat whose `combatant` is that member and "turnEnd" with one whose
 * `previous.combatantId` is; draw-steel PR #1880 ("The registry uses the assigned `combatant` of
 * the AE"); crucible PR #705 ("the combatant whose last turn it was");
 * https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.EffectDurationData.html
 * ("expiration occurs when both the end of the duration and the expiry event are reached").
 */
export function isExpiryEvent(source: Dict, event: string, context: { combat?: EffectCombat | null }): boolean {
  const d = (source.duration ?? {}) as Dict;
  if (d.expiry !== event) return false;
  const start = (source.start ?? {}) as Partial<EffectStart>;
  const combat = context.combat ?? null;
  if (combat === null) return false;
  if (typeof start.combat === "string" && start.combat !== combat.id) return false;
  if (event === "turnStart") return (combat.combatant?.id ?? null) === start.combatant;
  if (event === "turnEnd") return (combat.previous?.combatantId ?? null) === start.combatant;
  return true;
}

/**
 * @behaviour `ActiveEffect.registry`: `refresh(event, {combat, actors})` goes through the effects of
 * the world's actors (only those of `actors` when given) and, for each effect whose expiry event this
 * is (asked of the effect, `effect.isExpiryEvent(event, context)`, which a system may override) and
 * whose duration has run out (an effect with an expiry event but no duration value: at the event),
 * takes `CONFIG.ActiveEffect.expiryAction`: "update" (the default) sets `duration.expired`, "delete"
 * deletes it, null does nothing.
 * @source https://foundryvtt.com/api/classes/foundry.helpers.ActiveEffectRegistry.html (refresh,
 * its context `{actors?, combat?}`); https://foundryvtt.com/api/v14/variables/CONFIG.ActiveEffect.html
 * (expiryAction "update" | "delete" | null: "An update action will set the value of
 * ActiveEffectDuration#expired"); https://foundryvtt.com/api/v14/classes/foundry.documents.ActiveEffect.html
 * (`ActiveEffect.registry`); the default "update": https://github.com/foundryvtt/dnd5e/issues/6995
 * (expired effects "marked as unavailable instead of deleted"). Asked of the effect: dnd5e 6.0
 * overrides `isExpiryEvent(event, context)` and defers to `super` (roth-michael/dnd5e c90fc5e8,
 * module/documents/active-effect.mjs), crucible PR #705 (https://github.com/foundryvtt/crucible/pull/705:
 * "Add `CrucibleActiveEffect#isExpiryEvent`, deferring to the core implementation"). No duration
 * value with an expiry event: https://github.com/foundryvtt/foundryvtt/issues/13667 (stwlam: such an
 * effect "is treated as running indefinitely unless/until the event is reached"); dnd5e 6.0's
 * `_preCreate` nulls `duration.value` for its own expiries "so it's always triggered".
 */
export function createEffectRegistry(realm: EffectRealm, log: RefreshRecord[]) {
  return {
    initialized: true,
    async refresh(
      event: string,
      context: { combat?: EffectCombat | null; actors?: Set<EffectActor>; round?: number } = {},
    ) {
      const combat = context.combat ?? null;
      const combatantId =
        event === "turnStart"
          ? (combat?.combatant?.id ?? null)
          : event === "turnEnd"
            ? (combat?.previous?.combatantId ?? null)
            : null;
      const round = typeof context.round === "number" ? context.round : (combat?.round ?? null);
      log.push({ event, combatId: combat?.id ?? null, combatantId, round });
      const action =
        realm.CONFIG.ActiveEffect.expiryAction === undefined ? "update" : realm.CONFIG.ActiveEffect.expiryAction;
      const actors = context.actors === undefined ? realm.game.actors.contents : [...context.actors];
      for (const actor of actors) {
        for (const effect of [...actor.effects.contents]) {
          const source = effect._source;
          if ((source.duration as Dict | undefined)?.expired === true) continue;
          if (!effect.isExpiryEvent(event, context)) continue;
          const duration = effectDuration(realm, source);
          if (duration.value !== null && duration.remaining > 0) continue;
          if (action === "delete") await effect.delete();
          else if (action === "update") await effect.update({ "duration.expired": true });
        }
      }
    },
  };
}
