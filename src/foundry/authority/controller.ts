/**
 * One authority: every structured command is applied by the active GM's client, against the
 * server-attested requesting user. Players (and GMs who are not the active GM) write a request on a
 * document they may write; the active GM's update hook receives it with the author's user id,
 * validates it with the pure rules and applies it in one Combat update.
 */
import { FLAGS, HOOKS, MODULE_ID, QUERIES, REQUEST_TIMEOUT_MS } from "../../constants";
import { turnKeyCombatant, type Requester, type RuleEvent, type TurnView } from "../../core/engine";
import type { Applied } from "../../core/binding";
import type { Json } from "../../core/patch";
import { createSerialQueue } from "../../core/queue";
import {
  refusalDetail,
  type AnyRefusalCode,
  type CommandResult,
  type OutcomeMessage,
  type RefusalDetail,
  type RolledForRequester,
} from "../../core/protocol";
import { encodeRequest, parseStoredRequest, type StoredRequest } from "../../core/store";
import type { EventOrigin, ModeMirror } from "../../modes/contract";
import { historyLimit } from "../settings";
import { notifyRefusal, refusalCodes, shownRefusal, logError } from "../notify";
import { moduleHooks } from "../hooks";
import { bindingOf, isModeSetting, modeModule, type ModeSetting } from "../modes";
import { isStructured, loadBound, loadProblem, moduleOfCombat, requesterFor, rosterOf } from "./encounters";
import { isRolledCommand, proveCommand, rollIdsOf, usedRollsUpdate } from "./proofs";
import { revisionOf, windowsUpdate } from "./purpose";
import { DICE_REQUEST, rollForRequester } from "./dice";
import { mirrorOf } from "../interop";
import { callTurnHook, deletion, timeUpdateOptions, updateData, updateWithMirror } from "../compat";
import { lifecycleSettled, queueLifecycle, type LifecycleStep } from "../turn-lifecycle";
import { startWithSystem } from "../system-start";
import { fieldOf } from "../../core/common";

/** Whether this client is the one that applies commands. */
export function isAuthority(): boolean {
  return game.users.activeGM?.isSelf === true;
}

// ---------------------------------------------------------------------------------------------
// The authority's side

/** Tasks for one encounter run one after another, so each sees the previous one's result. */
const serialise = createSerialQueue();

/**
 * Write an applied command: one Combat update holding the encounter flag diff, round and turn.
 * Fires core's `combatStart`, `combatRound` and `combatTurn` as core does before its own update.
 */
async function write(
  combat: Combat.Implementation,
  applied: Applied & { ok: true },
  usedRolls: readonly string[] = [],
  taken: Json | null = null,
): Promise<void> {
  const { view, before, state } = applied;
  const module = moduleOfCombat(combat);
  const round = view.round;
  const mirror = mirrorOf(combat, module, state, view);
  const turn = turnIndex(mirror.order, view);
  // Undo steps go back even when the restored turn stands later in the order (or in the same round).
  const rewound = applied.events.some((event) => event.type === "rewound");
  const direction: 1 | -1 =
    !rewound && (round > before.round || (round === before.round && view.current !== before.current)) ? 1 : -1;
  const hookData = { round, turn: turn ?? 0 };
  const step = {
    turnBefore: applied.turnBefore,
    turnAfter: applied.turnAfter,
    roundBefore: before.round,
    roundAfter: round,
    rewound,
    started: !before.started && view.started,
    // The place the turn that ends ran at, in the order before the write (core's `previous.turn`).
    turnIndexBefore: placeOf(combat, applied.turnBefore),
  };
  const delta = timeDelta(step);
  if (step.started) Hooks.callAll("combatStart", combat, hookData);
  else if (round !== before.round) callTurnHook("combatRound", combat, hookData, direction, delta);
  else if (view.current !== before.current) callTurnHook("combatTurn", combat, hookData, direction, delta);
  // The mode's record of the step, written with the step itself (every client reads the same one).
  const stepFlags = module?.mirror?.stepFlags?.(combat, state, applied.events) ?? null;
  // A new round, the start or an undo opens every roll's window; a result taken closes its own.
  const reopen = step.started || round !== before.round || rewound;
  const windows = windowsUpdate(combat, revisionOf(combat) + 1, reopen, taken);
  const flags = { ...stepFlags, [FLAGS.encounter]: applied.update, ...usedRollsUpdate(combat, usedRolls), ...windows };
  const data = { round, turn, flags: { [MODULE_ID]: flags } };
  // World time moves with the Combat update, as core's turn and round changes move it: the
  // operation's `worldTime: {delta}` (https://github.com/foundryvtt/foundryvtt/issues/10924).
  // A direction only where the turn or the round moves, as core sends one only from its turn and
  // round changes: a declaration or a roll goes nowhere.
  const moved = step.started || round !== before.round || view.current !== before.current;
  // The initiative mirror follows in the same batch (v14) or the next write (v13), so that each
  // combatant's own update fires (`compat.ts`, `updateWithMirror`).
  await updateWithMirror(combat, updateData(data), timeUpdateOptions(moved ? direction : null, delta), mirror.changes);
  queueLifecycle(combat, step);
}

/** The index in `combat.turns` of the combatant whose turn a key names (null: none). */
function placeOf(combat: Combat.Implementation, key: string | null): number | null {
  if (key === null) return null;
  const id = turnKeyCombatant(key);
  const index = combat.turns.findIndex((c) => c.id === id);
  return index < 0 ? null : index;
}

/**
 * The world time a step moves, as core's: `CONFIG.time.roundTime` for each new round after the first
 * (starting the combat moves none, https://github.com/foundryvtt/foundryvtt/issues/12015),
 * `CONFIG.time.turnTime` for a turn that ends within a round (https://foundryvtt.com/api/variables/CONFIG.time.html).
 * An undo moves it back: previous round by the rounds it goes back, previous turn by the turn it undoes.
 */
function timeDelta(step: LifecycleStep): number {
  const { roundTime, turnTime } = CONFIG.time;
  const rounds = step.roundAfter - step.roundBefore;
  if (rounds !== 0) {
    const [from, to] = rounds > 0 ? [step.roundBefore, step.roundAfter] : [step.roundAfter, step.roundBefore];
    return Math.sign(rounds) * Math.max(0, to - Math.max(from, 1)) * roundTime;
  }
  if (step.turnBefore === step.turnAfter) return 0;
  if (!step.rewound) return step.turnBefore === null ? 0 : turnTime;
  return step.turnAfter === null ? 0 : -turnTime;
}

/** The index in the turn order of whoever acts in `view`; null for nobody. */
function turnIndex(order: readonly string[], view: TurnView): number | null {
  if (view.current === null) return null;
  const index = order.indexOf(view.current);
  return index < 0 ? null : index;
}

/** Compare two combatant ids by stored order, then name, then id. */
export function compareRanked(
  a: string,
  b: string,
  rank: ReadonlyMap<string, number>,
  nameOf: (id: string) => string,
): number {
  const ra = rank.get(a) ?? Number.POSITIVE_INFINITY;
  const rb = rank.get(b) ?? Number.POSITIVE_INFINITY;
  if (ra !== rb) return ra < rb ? -1 : 1;
  return nameOf(a).localeCompare(nameOf(b)) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Apply a command on the authority's client. Refusals change nothing and are returned (the caller
 * tells the requester). Runs after any command already in progress for this encounter.
 */
export function applyAsAuthority(
  combat: Combat.Implementation,
  command: unknown,
  who: Requester,
  requestId: string | null,
): Promise<CommandResult> {
  // A start runs inside the system's own startCombat, and its round and turn start before the
  // system's effects after `super` (`system-start.ts`); outside the queue, which a system's
  // handlers may use themselves.
  if (startsEncounter(combat, command, who))
    return startWithSystem(combat, async () => {
      const result = await applyQueued(combat, command, who, requestId);
      await lifecycleSettled(combat);
      return result;
    });
  return applyQueued(combat, command, who, requestId);
}

/**
 * Whether a command starts an encounter that has not started, as far as the rules can tell now (the
 * shared `start` command, which the rules would accept).
 */
function startsEncounter(combat: Combat.Implementation, command: unknown, who: Requester): boolean {
  if (fieldOf(command, "type") !== "start") return false;
  const bound = loadBound(combat);
  return bound !== null && !bound.view.started && bound.check(command, who) === null;
}

/** Apply a command in the encounter's queue (`applyAsAuthority`). */
function applyQueued(
  combat: Combat.Implementation,
  command: unknown,
  who: Requester,
  requestId: string | null,
): Promise<CommandResult> {
  return serialise(combat.id ?? "", async () => {
    const bound = loadBound(combat);
    if (bound === null) return refusal(loadProblem(combat) ?? "notStructured");
    // A player's dice request is rolled here for the player (`dice.ts`); it changes no state.
    if (isDiceRequest(command)) return rollForRequester(combat, command as Json, who);
    if (!moduleHooks.call(HOOKS.preCommand, combat, command, who)) return refusal("vetoed");
    // A player's dice result the rules would refuse anyway (another's side, the wrong step) is
    // refused for that reason, which is the real one, before its roll is looked at.
    if (!who.isGM && isRolledCommand(combat, command as Json)) {
      const early = bound.check(command, who);
      if (early !== null && early.code !== "malformedCommand") {
        moduleHooks.callAll(HOOKS.refused, combat, command, early);
        return rulesRefusal(early);
      }
    }
    // A dice result must come from the requester's own roll in chat (`proofs.ts`).
    const proven = await proveCommand(combat, command as Json, who);
    if (!proven.ok) {
      moduleHooks.callAll(HOOKS.refused, combat, command, { code: proven.code });
      return refusal(proven.code, combatantOf(command));
    }
    const applied = bound.apply(proven.command, who, historyLimit(), requestId);
    if (!applied.ok) {
      moduleHooks.callAll(HOOKS.refused, combat, command, applied.refusal);
      return rulesRefusal(applied.refusal);
    }
    try {
      await write(combat, applied, proven.used, isRolledCommand(combat, command as Json) ? proven.command : null);
    } catch (error) {
      logError(error);
      return refusal("writeFailed");
    }
    // A roster change that raced this command is reconciled by its own create/delete hook, queued after it.
    moduleHooks.callAll(HOOKS.command, combat, command, applied.events);
    await afterEvents(combat, applied.events, "command");
    return { ok: true };
  });
}

/**
 * The encounter brought in line with its combatants; with `withSync`, also with the documents its
 * mode mirrors (the module's `mirror.sync`) — only on the roster path, so a command's own events are
 * never replaced.
 */
function reconcile(combat: Combat.Implementation, withSync = false): Applied | null {
  const bound = loadBound(combat);
  if (bound === null) return null;
  const sync = withSync ? moduleOfCombat(combat)?.mirror?.sync : undefined;
  return bound.reconcile(
    rosterOf(combat),
    requesterFor(combat, game.user),
    historyLimit(),
    sync === undefined ? undefined : (state) => sync(combat, state),
  );
}

/** Bring a structured encounter's state in line with its combatants (after a creation or deletion). */
export function reconcileRoster(combat: Combat.Implementation): Promise<void> {
  return serialise(combat.id ?? "", async () => {
    // Queued work of a client that is no longer the authority (another GM took over) is the new
    // authority's: two clients must not write the same encounter.
    if (!isAuthority()) return;
    const applied = reconcile(combat, true);
    if (applied?.ok) {
      await write(combat, applied);
      await afterEvents(combat, applied.events, "reconcile");
    }
  }).catch((error: unknown) => {
    // Callers fire and forget (document hooks): a failed write is logged, never left unhandled.
    logError(error);
  });
}

/**
 * An actor's documents changed where a mode's sync reads them (traits, statuses): on the authority,
 * every encounter for which `applies` holds and that has a combatant of this actor is reconciled
 * (nothing is written where nothing differs).
 */
export function reconcileActorEncounters(
  actorId: string | null,
  applies: (combat: Combat.Implementation) => boolean,
): void {
  if (actorId === null || !isAuthority()) return;
  for (const combat of game.combats.contents) {
    if (applies(combat) && combat.combatants.contents.some((c) => c.actorId === actorId)) void reconcileRoster(combat);
  }
}

/** Whether a mode mirrors documents (its own through `sync`, or the shared defeated mirror). */
function mirrorsDocuments(mirror: ModeMirror<unknown> | undefined): boolean {
  return mirror?.sync !== undefined || mirror?.defeated !== undefined;
}

/**
 * Whether this client was the authority when last asked: `onAuthorityChange` reports the moment it
 * becomes one.
 */
let wasAuthority = false;
/** Whether `ready` has passed on this client (before it, `ready`'s own call decides). */
let started = false;

/**
 * Called at `ready` (with `atReady`) and when a user connects or leaves: when this client has just
 * become the authority, every structured encounter with combatants is reconciled, so that what
 * changed in the documents while no GM applied it (a defeat marked with no GM online) reaches the
 * rules without waiting for an unrelated roster event. Reconciling writes nothing where nothing
 * differs.
 */
export function onAuthorityChange(atReady = false): void {
  if (atReady) started = true;
  if (!started) return;
  const now = isAuthority();
  const became = now && !wasAuthority;
  wasAuthority = now;
  if (!became) return;
  for (const combat of game.combats.contents) {
    if (isStructured(combat) && combat.combatants.size > 0) void reconcileRoster(combat);
  }
}

async function afterEvents(
  combat: Combat.Implementation,
  events: readonly RuleEvent[],
  origin: EventOrigin,
): Promise<void> {
  if (events.length === 0) return;
  const mirror = moduleOfCombat(combat)?.mirror;
  // An undo puts back the state, not the documents it mirrors (sides, defeated marks): the rules are
  // brought in line with the documents again, queued after the undo's own write.
  if (origin === "command" && mirrorsDocuments(mirror) && events.some((e) => e.type === "rewound"))
    void reconcileRoster(combat);
  const effects = mirror?.effects;
  if (effects === undefined) return;
  try {
    await effects(combat, events, origin);
  } catch (error) {
    logError(error);
  }
}

/**
 * Module update data as Foundry update data: flag diffs are built as plain objects (deletions in
 * the running generation's form, `compat.ts`), which the typed update data accepts as any object of its shape.
 */
function asUpdate(data: object): Combat.UpdateData {
  return data;
}

function refusal(code: AnyRefusalCode, combatantId?: string, detail?: RefusalDetail | null): CommandResult {
  return {
    ok: false,
    code,
    ...(combatantId === undefined ? {} : { combatantId }),
    ...(detail === null || detail === undefined ? {} : { detail }),
  };
}

/** The rules' refusal as a command's result: its code, combatant and detail. */
function rulesRefusal(refused: { readonly code: AnyRefusalCode; readonly combatantId?: string }): CommandResult {
  return refusal(refused.code, refused.combatantId, refusalDetail(refused));
}

/**
 * Put round and turn back to what the stored state says (a player wrote them outside the module's
 * path, which Foundry's permissions allow). Runs on the authority, after any command in progress.
 */
export function restoreTurn(combat: Combat.Implementation): Promise<boolean> {
  return serialise(combat.id ?? "", () => resync(combat));
}

/**
 * Put round, turn and the initiative mirror back to what the stored state says, in one update;
 * whether anything had to be put back. Runs inside the encounter's queue.
 */
async function resync(combat: Combat.Implementation): Promise<boolean> {
  const bound = loadBound(combat);
  if (bound === null) return false;
  const module = moduleOfCombat(combat);
  const { view, state } = bound;
  const { order, changes } = mirrorOf(combat, module, state, view);
  const turn = turnIndex(order, view);
  if (combat.round === view.round && combat.turn === turn && changes.length === 0) return false;
  await updateWithMirror(combat, { round: view.round, turn }, {}, changes);
  return true;
}

/**
 * On the authority: the round or turn was written outside the module's path (a GM's or another
 * module's `combat.update({turn})`, such as a carousel's "set as current combatant"; a player's write,
 * which Foundry's permissions allow). `named` is the combatant the written turn pointed at. Where the
 * mode has a jump-to command for it (`ModeInterop.jumpTo`), it is applied as the writer's command;
 * otherwise, or when the rules refuse it, round and turn are put back and the writer is told.
 */
export async function onTurnWritten(
  combat: Combat.Implementation,
  author: User.Implementation,
  named: string | null,
  roundChanged: boolean,
): Promise<void> {
  const bound = loadBound(combat);
  if (bound === null) return;
  const module = moduleOfCombat(combat);
  const jump = roundChanged || named === null ? null : (module?.interop?.jumpTo?.(bound.state, named) ?? null);
  if (jump !== null && named !== bound.view.current) {
    const result = await applyAsAuthority(combat, jump, requesterFor(combat, author), null);
    if (result.ok) return;
  }
  // Nothing to put back: the write already agreed (or a later write put it right).
  if (!(await restoreTurn(combat))) return;
  await tell(author, combat, refusal("interopTurnReverted", named ?? undefined));
}

/**
 * On the authority: a combatant's initiative was written outside the mirror (core's roll or reset
 * buttons, another module). The mirror is put back and the writer told; the rules never read it.
 */
export async function onInitiativeWritten(
  combat: Combat.Implementation,
  author: User.Implementation | undefined,
  combatantId: string,
): Promise<void> {
  if (!(await restoreTurn(combat)) || author === undefined) return;
  await tell(author, combat, refusal("interopInitiativeReverted", combatantId));
}

/**
 * Tell a player that the authority put back what they wrote on a combatant (`guard.ts`): GM-only
 * data (`gmOnlyField`) or the initiative the module keeps in step with its order
 * (`interopInitiativeReverted`).
 */
export function tellPutBack(
  author: User.Implementation,
  combat: Combat.Implementation,
  code: "gmOnlyField" | "interopInitiativeReverted",
  combatantId: string,
): Promise<void> {
  return tell(author, combat, refusal(code, combatantId));
}

/**
 * Tell a user that something they did was refused or put back: a notice on this client, or the
 * outcome query to theirs (`requestId`: the request it answers; a fresh id for a write put back).
 */
async function tell(
  author: User.Implementation,
  combat: Combat.Implementation,
  result: CommandResult,
  requestId: string = foundry.utils.randomID(),
): Promise<void> {
  // An applied command is answered by the Combat update itself; a roll made for the player is sent.
  if (result.ok && result.rolled === undefined) return;
  const message: OutcomeMessage = result.ok
    ? { requestId, combatId: combat.id ?? "", ok: true, ...(result.rolled ? { rolled: result.rolled } : {}) }
    : {
        requestId,
        combatId: combat.id ?? "",
        ok: false,
        code: result.code,
        ...(result.combatantId ? { combatantId: result.combatantId } : {}),
        ...(result.detail ? { detail: result.detail } : {}),
      };
  if (author.isSelf) {
    await onOutcomeQuery(message).catch(() => undefined);
    return;
  }
  if (!author.active) return;
  // A query's sender needs the QUERY_USER permission (https://github.com/foundryvtt/foundryvtt/issues/11235):
  // a GM whose role lacks it is told instead (the player's request then times out).
  if (!game.user.can("QUERY_USER")) {
    if (!result.ok) notifyRefusal(combat, "cannotTell", undefined, { user: author.name });
  } else await author.query(QUERIES.outcome, message, { timeout: REQUEST_TIMEOUT_MS }).catch(() => undefined);
}

/**
 * Rebuild a structured encounter's state (GM): every combatant stays, initiative values that can be
 * read are kept, the encounter returns to "not started". The way out of corrupted flags.
 */
export async function resetEncounter(combat: Combat.Implementation): Promise<CommandResult> {
  if (!game.user.isGM) return shownRefusal(combat, refusal("notGM"));
  const module = moduleOfCombat(combat);
  const binding = module === null ? null : bindingOf(module.id);
  if (module === null || binding === null) return shownRefusal(combat, refusal("notStructured"));
  // Data a newer version of the module stored is never overwritten (a downgrade must lose nothing).
  if (loadProblem(combat) === "newerFormat") return shownRefusal(combat, refusal("newerFormat"));
  const who = requesterFor(combat, game.user);
  const raw: unknown = combat.getFlag(MODULE_ID, FLAGS.encounter);
  const unreadable = fieldOf(raw, "state");
  const commands = module.salvage?.(combat, unreadable) ?? [];
  const stored = binding.createWith(rosterOf(combat), [...commands, ...seedCommands(combat)], who);
  return serialise(combat.id ?? "", async () => {
    await combat.update(asUpdate({ round: 0, turn: null, flags: { [MODULE_ID]: dropState() } }));
    await combat.update(asUpdate({ flags: { [MODULE_ID]: { [FLAGS.encounter]: stored } } }));
    await resync(combat);
    return { ok: true } as const;
  });
}

/**
 * What a fresh state (the GM's reset, a mode change) takes from the combatants besides the roster:
 * Foundry's defeated state, for the modes whose rules know `setDefeated` (the others skip it).
 */
function seedCommands(combat: Combat.Implementation): Json[] {
  return combat.combatants.contents
    .filter((c) => c.isDefeated)
    .map((c) => ({ type: "setDefeated", combatantId: c.id ?? "", defeated: true }));
}

/**
 * The flag update that deletes the stored encounter (deleting the old object first leaves no stale
 * history key after a reset) and the roll windows (the revision starts again: the windows of the
 * rolls asked before start again with it).
 */
function dropState(): Record<string, unknown> {
  const [gone, marker] = deletion(FLAGS.encounter);
  const [windowsGone, windowsMarker] = deletion(FLAGS.rollWindows);
  return { [gone]: marker, [windowsGone]: windowsMarker };
}

/** Write a fresh encounter state for a structured encounter (creation, or the GM's reset). */
export async function writeFreshState(combat: Combat.Implementation, mode: ModeSetting): Promise<void> {
  const binding = bindingOf(mode);
  const stored = binding?.createWith(rosterOf(combat), seedCommands(combat), requesterFor(combat, game.user)) ?? null;
  await combat.update(asUpdate({ flags: { [MODULE_ID]: { [FLAGS.mode]: mode, ...dropState() } } }));
  if (stored !== null) {
    await combat.update(asUpdate({ round: 0, turn: null, flags: { [MODULE_ID]: { [FLAGS.encounter]: stored } } }));
    await serialise(combat.id ?? "", () => resync(combat));
  }
}

/**
 * Change the mode of an encounter (GM, before the combat starts): a fresh state of the new mode,
 * the mode's preparation, then the `modeChanged` hook. Refused (and shown) for a player, an unknown
 * mode, an encounter that has started and one a newer version of the module stored.
 */
export async function changeMode(combat: Combat.Implementation, mode: string): Promise<CommandResult> {
  if (!game.user.isGM) return shownRefusal(combat, refusal("notGM"));
  if (!isModeSetting(mode)) return shownRefusal(combat, refusal("unknownMode"));
  if (combat.started || combat.round > 0) return shownRefusal(combat, refusal("modeLocked"));
  if (loadProblem(combat) === "newerFormat") return shownRefusal(combat, refusal("newerFormat"));
  await writeFreshState(combat, mode);
  await modeModule(mode)?.prepare?.(combat);
  moduleHooks.callAll(HOOKS.modeChanged, combat, mode);
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// The requester's side

interface Pending {
  resolve(result: CommandResult): void;
  timer: ReturnType<typeof setTimeout>;
  /** The encounter the request is for. */
  combatId: string;
}
const pending = new Map<string, Pending>();

/**
 * Run a command for the current user: applied here when this client is the authority, otherwise
 * checked locally and sent as a request. Refusals are shown as localised notifications.
 */
export async function submit(combat: Combat.Implementation, command: Json): Promise<CommandResult> {
  const user = game.user;
  const who = requesterFor(combat, user);
  if (isAuthority()) return shownRefusal(combat, await applyAsAuthority(combat, command, who, null));
  const early = precheck(combat, command);
  if (early !== null) return shownRefusal(combat, early);
  // A player's dice result names the chat messages it was rolled in; a typed number is not sent.
  if (isRolledCommand(combat, command) && rollIdsOf(command)?.length === 0)
    return shownRefusal(combat, refusal("typedResult", combatantOf(command)));
  return shownRefusal(combat, await send(combat, who, command));
}

/**
 * Ask the active GM's client to roll for the current user (a dice request, `dice.ts`): sent as a
 * request like a command, answered with the roll; refusals are shown.
 */
export async function requestDice(combat: Combat.Implementation, request: Json): Promise<CommandResult> {
  const who = requesterFor(combat, game.user);
  if (isAuthority()) return shownRefusal(combat, await applyAsAuthority(combat, request, who, null));
  if (game.users.activeGM === null) return shownRefusal(combat, refusal("noGM"));
  return shownRefusal(combat, await send(combat, who, request));
}

/** Write a request on the carrier and wait for the authority's answer (or the timeout). */
async function send(combat: Combat.Implementation, who: Requester, command: Json): Promise<CommandResult> {
  const target = carrier(combat, who, command);
  if (target === null) return refusal("noOwnedCombatant");
  const request: StoredRequest = { id: foundry.utils.randomID(), command };
  const result = new Promise<CommandResult>((resolve) => {
    const timer = setTimeout(() => {
      pending.delete(request.id);
      resolve(refusal("timeout"));
    }, REQUEST_TIMEOUT_MS);
    pending.set(request.id, { resolve, timer, combatId: combat.id ?? "" });
  });
  try {
    if (target.kind === "combat") {
      const data = { flags: { [MODULE_ID]: { [FLAGS.request]: encodeRequest(request) } } };
      await target.document.update(asUpdate(data));
    } else {
      const raw = encodeRequest(request, target.document.id);
      await target.document.update({ flags: { [MODULE_ID]: { [FLAGS.request]: raw } } });
    }
  } catch (error) {
    logError(error);
    settle(request.id, refusal("writeFailed"));
  }
  return result;
}

/** Whether a command is a dice request (rolled by the authority, never given to the rules). */
function isDiceRequest(command: unknown): boolean {
  return fieldOf(command, "type") === DICE_REQUEST;
}

/** A roll sent with an outcome, narrowed; null when there is none. */
function rolledOf(value: unknown): RolledForRequester | null {
  if (typeof value !== "object" || value === null) return null;
  const { roll, messageId } = value as { roll?: unknown; messageId?: unknown };
  return typeof roll === "object" && roll !== null && typeof messageId === "string"
    ? { roll: roll as Record<string, unknown>, messageId }
    : null;
}

/**
 * The refusal a command would meet now, as far as this client can tell (no GM online, unreadable
 * state, the rules' own checks); null when it may be sent. Nothing is shown. Callers that must do
 * something first (roll dice, post to chat) ask this before doing it.
 */
export function precheck(combat: Combat.Implementation, command: Json): CommandResult | null {
  const who = requesterFor(combat, game.user);
  if (!isAuthority() && game.users.activeGM === null) return refusal("noGM");
  const bound = loadBound(combat);
  if (bound === null) return refusal(loadProblem(combat) ?? "notStructured");
  const early = bound.check(command, who);
  if (early !== null) return rulesRefusal(early);
  if (!isAuthority() && carrier(combat, who, command) === null) return refusal("noOwnedCombatant");
  return null;
}

/** The document a request is written on: the Combat for a GM, a combatant the player owns otherwise. */
function carrier(
  combat: Combat.Implementation,
  who: Requester,
  command: Json,
):
  | { readonly kind: "combat"; readonly document: Combat.Implementation }
  | { readonly kind: "combatant"; readonly document: Combatant.Implementation }
  | null {
  if (who.isGM) return { kind: "combat", document: combat };
  const named = fieldOf(command, "combatantId");
  const id = typeof named === "string" && who.owns.includes(named) ? named : who.owns[0];
  const combatant = id === undefined ? undefined : combat.combatants.get(id);
  return combatant === undefined ? null : { kind: "combatant", document: combatant };
}

/** The combatant a command names, if any (for a refusal's message). */
function combatantOf(command: unknown): string | undefined {
  const id = fieldOf(command, "combatantId");
  return typeof id === "string" ? id : undefined;
}

/**
 * The encounter ended (it was deleted): this client's requests for it still waiting for the GM's
 * answer end now, refused with `encounterEnded`, instead of timing out.
 */
export function dropRequestsOf(combatId: string): void {
  for (const [id, entry] of [...pending]) if (entry.combatId === combatId) settle(id, refusal("encounterEnded"));
}

function settle(requestId: string, result: CommandResult): void {
  const entry = pending.get(requestId);
  if (entry === undefined) return;
  clearTimeout(entry.timer);
  pending.delete(requestId);
  entry.resolve(result);
}

/**
 * The v13 query handler: the authority tells a requester that its request was refused. A refusal
 * of a request this client is not waiting for (written by a macro or by hand) is shown too.
 */
export function onOutcomeQuery(data: unknown): Promise<boolean> {
  if (typeof data !== "object" || data === null) return Promise.resolve(false);
  const message = data as Partial<OutcomeMessage>;
  if (typeof message.requestId !== "string") return Promise.resolve(false);
  const code = refusalCodes().find((c) => c === message.code) ?? "malformedCommand";
  const combatantId = typeof message.combatantId === "string" ? message.combatantId : undefined;
  const detail = refusalDetail(message.detail) ?? undefined;
  const rolled = rolledOf(message.rolled);
  if (pending.has(message.requestId))
    settle(
      message.requestId,
      message.ok === true
        ? rolled === null
          ? { ok: true }
          : { ok: true, rolled }
        : refusal(code, combatantId, detail),
    );
  else if (message.ok !== true) {
    const combat = typeof message.combatId === "string" ? game.combats.get(message.combatId) : undefined;
    notifyRefusal(combat ?? null, code, combatantId, detail);
  }
  return Promise.resolve(true);
}

/** On every client: a Combat update that marks a request applied resolves that request. */
export function onCombatApplied(combat: Combat.Implementation): void {
  // Only the request id is read (the state is parsed once per revision by `loadBound`).
  const raw: unknown = combat.getFlag(MODULE_ID, FLAGS.encounter);
  const applied = fieldOf(raw, "applied");
  if (typeof applied === "string") settle(applied, { ok: true });
}

/**
 * On the authority: a request written on a document (`carrierId`: the combatant it is written on,
 * null for the Combat). `userId` is the author as the server attests it; a request that claims
 * another user is refused.
 */
export async function handleRequest(
  combat: Combat.Implementation,
  raw: unknown,
  userId: string,
  carrierId: string | null,
): Promise<void> {
  const request = parseStoredRequest(raw, carrierId);
  const author = game.users.contents.find((u) => u.id === userId);
  if (request === null || author === undefined) return;
  let result: CommandResult;
  // Only the older form names an author and an encounter; today's is the attested author's, here.
  if (request.userId !== undefined && request.userId !== userId) result = refusal("wrongUser");
  else if (request.combatId !== undefined && request.combatId !== combat.id) result = refusal("malformedCommand");
  else result = await applyAsAuthority(combat, request.command, requesterFor(combat, author), request.id);
  await tell(author, combat, result, request.id);
}
