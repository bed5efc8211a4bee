/**
 * Foundry's turn lifecycle for structured encounters, run once per acting turn.
 *
 * Core decides on turn events by comparing turn indices, which the structured modes do not move the
 * way core does (a slot's turn goes to null between fills, a pass starts back at the top of the
 * order, a declaration points at the declarer). So the module's Combat class keeps core's
 * index-based dispatch out of structured encounters (`_manageTurnEvents`) and the authority runs the
 * lifecycle here instead, from the rules' own acting turn (`ModeDefinition#turnKey`): when a forward
 * step changes it, the turn that ran ends and the new one starts, each once, with the Region turn
 * events of the combatant's token; a new round ends and starts the round between them, with the
 * Region round events of every combatant's token; on v14 each event is announced to the Active Effect
 * registry as core's dispatch would (`effect-expiry.ts`). Undo steps
 * run nothing, as core's previous turn (https://github.com/foundryvtt/foundryvtt/issues/11997).
 */
import { turnKeyCombatant } from "../core/engine";
import { announceCombatEvent, announceTurnEvent } from "./effect-expiry";
import { logError } from "./notify";

/** One written step, as the lifecycle needs it. */
export interface LifecycleStep {
  readonly turnBefore: string | null;
  readonly turnAfter: string | null;
  readonly roundBefore: number;
  readonly roundAfter: number;
  /** An undo step (previous turn or round): nothing runs. */
  readonly rewound: boolean;
  /** The step started the encounter (the system's own start effects run around it: `system-start.ts`). */
  readonly started?: boolean;
  /** `combat.turn` before the step: the index the turn that ends ran at. */
  readonly turnIndexBefore?: number | null;
}

/**
 * What the lifecycle calls on the Combat: its turn and round events, protected in Foundry's types
 * because only core's own dispatch calls them; this is that dispatch for structured encounters.
 */
interface LifecycleCombat {
  readonly turns: readonly Combatant.Implementation[];
  readonly combatants: { get(id: string): Combatant.Implementation | undefined };
  _onEndTurn(combatant: Combatant.Implementation, context: Combat.TurnEventContext): Promise<void>;
  _onStartTurn(combatant: Combatant.Implementation, context: Combat.TurnEventContext): Promise<void>;
  _onEndRound(context: Combat.RoundEventContext): Promise<void>;
  _onStartRound(context: Combat.RoundEventContext): Promise<void>;
}

/** Whether a step runs any of the lifecycle. */
export function runsLifecycle(step: LifecycleStep): boolean {
  if (step.rewound) return false;
  return step.turnBefore !== step.turnAfter || step.roundAfter > step.roundBefore;
}

/** Each encounter's lifecycle runs one step after another, apart from the command queue. */
const chains = new WeakMap<object, Promise<void>>();

/**
 * Run the lifecycle of a written step on this (the active GM's) client, after the steps queued before
 * it. Not awaited by the command queue: a system's turn handler may itself send a command.
 */
export function queueLifecycle(combat: Combat.Implementation, step: LifecycleStep): void {
  if (!runsLifecycle(step)) return;
  const previous = chains.get(combat) ?? Promise.resolve();
  const next = previous.then(() => runLifecycle(combat as unknown as LifecycleCombat, step));
  chains.set(
    combat,
    next.catch((error: unknown) => {
      logError(error);
    }),
  );
}

/**
 * Once the lifecycle of every step queued so far for this encounter has run (a failed one logged):
 * the start waits for its round and turn start before the system's own start goes on.
 */
export function lifecycleSettled(combat: Combat.Implementation): Promise<void> {
  return chains.get(combat) ?? Promise.resolve();
}

/** The turn index of a combatant in `combat.turns`, as core's turn event context names it. */
function indexOf(combat: LifecycleCombat, id: string): number {
  return combat.turns.findIndex((c) => c.id === id);
}

async function runLifecycle(combat: LifecycleCombat, step: LifecycleStep): Promise<void> {
  const turnChanged = step.turnBefore !== step.turnAfter;
  const roundChanged = step.roundAfter > step.roundBefore;
  const ended =
    turnChanged && step.turnBefore !== null ? combat.combatants.get(turnKeyCombatant(step.turnBefore)) : undefined;
  if (ended !== undefined) {
    // The turn that ends, at the place it ran at (as core's previous turn): the step may have moved it.
    const turn = step.turnIndexBefore ?? indexOf(combat, ended.id ?? "");
    const context = { round: step.roundBefore, turn, skipped: false };
    await combat._onEndTurn(ended, context);
    await announceTurnEvent(combat as unknown as Combat.Implementation, "turnEnd", ended, context);
    await regionEvent(combat, ended, "tokenTurnEnd", context);
  }
  if (roundChanged) {
    const context = { round: step.roundAfter, turn: 0, skipped: false };
    if (step.roundBefore > 0) {
      await combat._onEndRound({ ...context, round: step.roundBefore });
      await announceCombatEvent(combat as unknown as Combat.Implementation, "roundEnd", step.roundBefore);
      await regionRoundEvent(combat, "tokenRoundEnd", step.roundBefore);
    }
    await combat._onStartRound(context);
    await announceCombatEvent(combat as unknown as Combat.Implementation, "roundStart", step.roundAfter);
    await regionRoundEvent(combat, "tokenRoundStart", step.roundAfter);
  }
  const started =
    turnChanged && step.turnAfter !== null ? combat.combatants.get(turnKeyCombatant(step.turnAfter)) : undefined;
  if (started !== undefined) {
    const context = { round: step.roundAfter, turn: indexOf(combat, started.id ?? ""), skipped: false };
    await combat._onStartTurn(started, context);
    await announceTurnEvent(combat as unknown as Combat.Implementation, "turnStart", started, context);
    await regionEvent(combat, started, "tokenTurnStart", context);
  }
  // Core's `startCombat`, which a structured encounter starts without, announces the start.
  if (step.started === true)
    await announceCombatEvent(combat as unknown as Combat.Implementation, "combatStart", step.roundAfter);
}

/**
 * The Region turn event of a combatant's token, for each Region the token is in, as draw-steel 0.9
 * does when it ends a turn itself (`RegionDocument#_triggerEvent` over `TokenDocument#regions`,
 * MetaMorphic-Digital/draw-steel src/module/documents/combat.mjs).
 */
async function regionEvent(
  combat: LifecycleCombat,
  combatant: Combatant.Implementation,
  name: "tokenTurnStart" | "tokenTurnEnd",
  context: Combat.TurnEventContext,
): Promise<void> {
  await triggerRegions(combat, combatant, name, context);
}

/** Trigger a Region event for each Region the combatant's token is in, with the event's own data. */
async function triggerRegions(
  combat: LifecycleCombat,
  combatant: Combatant.Implementation,
  name: string,
  context: object,
): Promise<void> {
  const token = combatant.token as unknown as RegionToken | null;
  if (token === null || token.regions === undefined) return;
  const data = { token, combatant, combat, ...context };
  await Promise.allSettled([...token.regions].map((region) => region._triggerEvent(name, data)));
}

/**
 * The Region round event of every combatant's token, for each Region it is in: core's dispatch, which
 * structured encounters leave out, sends them when a round ends and starts
 * (CONST.REGION_EVENTS.TOKEN_ROUND_END/START, https://foundryvtt.com/api/variables/CONST.REGION_EVENTS.html;
 * data https://foundryvtt.com/api/interfaces/foundry.documents.types.RegionTokenRoundEventData.html).
 */
async function regionRoundEvent(
  combat: LifecycleCombat,
  name: "tokenRoundStart" | "tokenRoundEnd",
  round: number,
): Promise<void> {
  for (const combatant of combat.turns) await triggerRegions(combat, combatant, name, { round, skipped: false });
}

/** The part of a TokenDocument and its Regions the Region turn and round events use. */
interface RegionToken {
  readonly regions?: Iterable<{ _triggerEvent(name: string, data: object): Promise<void> }>;
}
