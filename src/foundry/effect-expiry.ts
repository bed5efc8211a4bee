/**
 * Timed Active Effects in structured encounters (v14). The seam for Foundry's effect registry, which
 * v13 does not have.
 *
 * On v14 core expires an effect through its registry, `ActiveEffect.registry.refresh(event, {combat,
 * actors})` (https://foundryvtt.com/api/classes/foundry.helpers.ActiveEffectRegistry.html), when a
 * combat event (https://foundryvtt.com/api/variables/CONST.ACTIVE_EFFECT_EXPIRY_EVENTS.html) is its
 * expiry event and its duration has run out ("expiration occurs when both the end of the duration
 * and the expiry event are reached",
 * https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.EffectDurationData.html). Core
 * announces the turn and round events from its own turn dispatch, which structured encounters leave
 * out (`combat.ts`, `_manageTurnEvents`), and "combatStart" from its `startCombat`, which they start
 * without; so the lifecycle (`turn-lifecycle.ts`) announces them here, once per acting turn and
 * round. "combatEnd" stays core's: ending an encounter deletes it the way core does.
 *
 * What core compares, from public code that runs turns by hand:
 * - "turnStart" expires the effects whose start combatant (`EffectStartData#combatant`) is the
 *   context combat's `combatant`, "turnEnd" those whose start combatant is its
 *   `previous.combatantId`: draw-steel-combat-tools passes a combat with each overridden
 *   (src/squad-turns.mjs), draw-steel PR #1880 ("The registry uses the assigned `combatant`"). Here
 *   the context combat is the encounter itself where it names that combatant (systems compare it with
 *   an effect's start combat by identity, dnd5e 6.0), else a view of it that does
 *   (`announceTurnEvent`); the context's `round` and `turn` are the turn's own (for an end, the place
 *   it ran at before the step), which dnd5e compares with `start.round`/`start.turn` to skip the
 *   turn an effect was applied in.
 * - The duration counts positions: the combat's round and turn index against the recorded
 *   `start.round` and `start.turn` (v13 documents the count as "{rounds}.{turns}",
 *   https://foundryvtt.com/api/interfaces/foundry.documents.types._ActiveEffectDuration.html; crucible
 *   PR #705 nulls `start.turn` "since turn order is non-static between rounds"; foundryvtt#13983 is
 *   open). When a structured order moves the combatant (a delay, a slow-down, a hand-off, a slot
 *   filled out of order, someone joining), its turn index moves and core would count a round too
 *   many or too few. So before announcing a turn event the module moves the start record of each
 *   effect that expires at that event and is timed from that combatant (start round and turn) so that,
 *   where the combat now stands, exactly the rounds since the effect's first round have passed; and
 *   its `start.initiative` to the combatant's initiative now, which the initiative mirror renumbers
 *   (a system comparing the start initiative with the acting combatant's, as pf2e and draw-steel's
 *   D&D-style mode do, sees the combatant's own). The first round is kept in a flag. It writes
 *   only where something differs: in a linear order, nothing at a turn start.
 */
import { FLAGS, MODULE_ID } from "../constants";
import { generation } from "./compat";

/** The combat events core expires effects at. */
export type ExpiryEvent = "combatStart" | "roundStart" | "turnStart" | "turnEnd" | "roundEnd" | "combatEnd";

/** v14's registry, as the module calls it (the Foundry types package has no v14 build). */
interface EffectRegistry {
  refresh(event: string, context?: { combat?: object; actors?: Set<object> }): Promise<void>;
}

/** The registry on v14; null on v13, which has none. */
function registry(): EffectRegistry | null {
  if (generation() < 14) return null;
  const found = (foundry.documents.ActiveEffect as unknown as { registry?: Partial<EffectRegistry> }).registry;
  return typeof found?.refresh === "function" ? (found as EffectRegistry) : null;
}

/**
 * Announce a round or combat event of a structured encounter to the registry (v14; nothing on v13),
 * with the round it belongs to (a round that ended: that round) as core's round context has it.
 */
export async function announceCombatEvent(
  combat: Combat.Implementation,
  event: "combatStart" | "roundStart" | "roundEnd",
  round: number,
): Promise<void> {
  await registry()?.refresh(event, { combat, round, turn: combat.turn ?? 0, skipped: false } as { combat: object });
}

/** The context of a turn event, as core's (`Combat.TurnEventContext`): the turn's round and index. */
export interface TurnContext {
  readonly round: number;
  readonly turn: number;
  readonly skipped: boolean;
}

/**
 * Announce a combatant's turn start or end to the registry (v14; nothing on v13), after moving the
 * start records timed from this combatant where the order has moved it. The context combat must name
 * the combatant as core's comparison reads it (`combatant` for a start, `previous.combatantId` for an
 * end). The encounter itself does in the usual case, the lifecycle running right after the step; it
 * is passed as it is then, since systems compare it with an effect's start combat by identity (dnd5e
 * 6.0's `isExpiryEvent`: `combat !== this.start.combat`). Where a later step has already moved it on
 * (the lifecycle runs behind the command queue), a view of it that names the combatant is passed
 * instead, as draw-steel-combat-tools does (src/squad-turns.mjs).
 */
export async function announceTurnEvent(
  combat: Combat.Implementation,
  event: "turnStart" | "turnEnd",
  combatant: Combatant.Implementation,
  context: TurnContext,
): Promise<void> {
  const found = registry();
  if (found === null) return;
  await anchorStarts(combat, combatant, event, context.round);
  const names =
    event === "turnStart" ? combat.combatant?.id === combatant.id : combat.previous?.combatantId === combatant.id;
  const named: PropertyDescriptorMap =
    event === "turnStart"
      ? { combatant: { get: () => combatant, configurable: true } }
      : {
          previous: {
            value: { ...combat.previous, combatantId: combatant.id, round: context.round },
            configurable: true,
          },
        };
  const view = names ? combat : (Object.create(combat, named) as object);
  await found.refresh(event, { combat: view, ...context });
}

/** An effect's v14 start record and duration, as stored. */
interface TimedSource {
  readonly start?: {
    readonly combat?: string | null;
    readonly combatant?: string | null;
    readonly initiative?: number | null;
    readonly round?: number | null;
    readonly turn?: number | null;
  };
  readonly duration?: { readonly units?: string; readonly expiry?: string | null; readonly expired?: boolean };
  readonly flags?: Record<string, Record<string, unknown> | undefined>;
}

/** The effects of one actor whose start records move, as updates. */
function anchorUpdates(
  effects: readonly ActiveEffect.Implementation[],
  combat: Combat.Implementation,
  combatant: Combatant.Implementation,
  event: "turnStart" | "turnEnd",
  round: number,
): Record<string, unknown>[] {
  const updates: Record<string, unknown>[] = [];
  for (const effect of effects) {
    const source = effect._source as unknown as TimedSource;
    const start = source.start;
    const duration = source.duration;
    if (start === undefined || duration === undefined || duration.expired === true) continue;
    if (start.combat !== combat.id || start.combatant !== combatant.id || duration.expiry !== event) continue;
    if (duration.units !== "rounds" && duration.units !== "turns") continue;
    if (typeof start.round !== "number") continue;
    const kept = source.flags?.[MODULE_ID]?.[FLAGS.effectStartRound];
    const first = typeof kept === "number" ? kept : start.round;
    // Where the combat stands now, exactly `round - first` rounds have passed since the start.
    const target = { round: first + (combat.round - round), turn: combat.turn ?? 0 };
    const initiative = combatant.initiative ?? null;
    if (start.round === target.round && start.turn === target.turn && (start.initiative ?? null) === initiative)
      continue;
    updates.push({
      _id: effect.id,
      "start.round": target.round,
      "start.turn": target.turn,
      "start.initiative": initiative,
      [`flags.${MODULE_ID}.${FLAGS.effectStartRound}`]: first,
    });
  }
  return updates;
}

/** Move the start records timed from `combatant` that expire at `event`, one write per actor that has any. */
async function anchorStarts(
  combat: Combat.Implementation,
  combatant: Combatant.Implementation,
  event: "turnStart" | "turnEnd",
  round: number,
): Promise<void> {
  const actors = new Set<Actor.Implementation>();
  for (const c of combat.combatants) if (c.actor !== null) actors.add(c.actor);
  for (const actor of actors) {
    const updates = anchorUpdates([...actor.effects], combat, combatant, event, round);
    if (updates.length > 0) await actor.updateEmbeddedDocuments("ActiveEffect", updates);
  }
}
