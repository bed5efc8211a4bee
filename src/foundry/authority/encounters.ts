/**
 * Which mode an encounter runs and its loaded state, read once per stored revision. The stored flag
 * is parsed, narrowed by its mode's parser and bound to its rules at most once for each revision the
 * Combat holds; the controller, the tracker, the Combat class and the API all read this one cache.
 * The mode's own glue receives its typed state through {@link stateOf}.
 */
import { FLAGS, MODULE_ID, SYSTEM_DEFAULT } from "../../constants";
import type { BoundEncounter } from "../../core/binding";
import type { Command, ModeDefinition, Requester, RosterEntry } from "../../core/engine";
import type { Json } from "../../core/patch";
import { isNewerFormat, parseStoredEncounter } from "../../core/store";
import type { AnyModeModule } from "../../modes/contract";
import { bindingOf, isModeSetting, modeModule, type ModeSetting } from "../modes";
import { fieldOf } from "../../core/common";

/** The mode of an encounter: its flag, or the system's own behaviour when unset or corrupted. */
export function modeOf(combat: Combat.Implementation): ModeSetting {
  const value: unknown = combat.getFlag(MODULE_ID, FLAGS.mode);
  return isModeSetting(value) ? value : SYSTEM_DEFAULT;
}

/** Whether the module runs this encounter (a registered structured mode). */
export function isStructured(combat: Combat.Implementation): boolean {
  return modeOf(combat) !== SYSTEM_DEFAULT;
}

interface Loaded {
  readonly raw: unknown;
  readonly rev: unknown;
  readonly mode: string;
  readonly bound: BoundEncounter | null;
  /** False once an update touched the Combat's flags: the next load reads the flag again. */
  readonly current: boolean;
}

/**
 * Per Combat, the last load: reused while the flag holds the same revision and no update touched
 * it; after an update, the previous revision for the next load (which reuses what the authority
 * wrote from it, `BoundEncounter#written`, while the flag holds exactly that).
 */
const loaded = new WeakMap<object, Loaded>();

/** How many times a stored encounter was parsed on this client (the benchmark reports it). */
let parses = 0;

/** The number of stored-encounter parses so far on this client. */
export function parseCount(): number {
  return parses;
}

/**
 * Load an encounter's stored state, once per stored revision; null for system-default encounters
 * or corrupted flags.
 */
export function loadBound(combat: Combat.Implementation): BoundEncounter | null {
  const mode = modeOf(combat);
  if (mode === SYSTEM_DEFAULT) return null;
  const raw: unknown = combat.getFlag(MODULE_ID, FLAGS.encounter);
  const rev = fieldOf(raw, "rev");
  const hit = loaded.get(combat);
  if (hit?.current === true && hit.raw === raw && hit.rev === rev && hit.mode === mode) return hit.bound;
  parses += 1;
  const stored = parseStoredEncounter(raw);
  const previous = hit?.mode === mode ? hit.bound : null;
  const bound = stored === null ? null : (bindingOf(mode)?.load(stored, raw, previous) ?? null);
  loaded.set(combat, { raw, rev, mode, bound, current: true });
  return bound;
}

/**
 * Forget an encounter's loaded state: its flags changed. Called first thing in the Combat's own
 * update handling, before anything sorts its turns, so a revision number that a reset made start
 * again can never return an older state. The forgotten load stays only as the previous revision
 * of the next load, which reuses its write only where the flag holds exactly that write.
 */
export function forgetLoaded(combat: Combat.Implementation): void {
  const hit = loaded.get(combat);
  if (hit !== undefined) loaded.set(combat, { ...hit, current: false });
}

/** Whether a structured encounter's stored state cannot be read (a newer format included). */
export function isCorrupted(combat: Combat.Implementation): boolean {
  return isStructured(combat) && loadBound(combat) === null;
}

/**
 * Why a structured encounter cannot be run: its stored state is unreadable ("corrupted"), or it was
 * stored by a newer version of the module ("newerFormat", which nothing may overwrite); null when it
 * loads, or for system-default encounters.
 */
export function loadProblem(combat: Combat.Implementation): "corrupted" | "newerFormat" | null {
  if (!isStructured(combat) || loadBound(combat) !== null) return null;
  return isNewerFormat(combat.getFlag(MODULE_ID, FLAGS.encounter)) ? "newerFormat" : "corrupted";
}

/** The module of an encounter's mode; null for system-default encounters. */
export function moduleOfCombat(combat: Combat.Implementation): AnyModeModule | null {
  const mode = modeOf(combat);
  return mode === SYSTEM_DEFAULT ? null : modeModule(mode);
}

/**
 * A mode's typed state of an encounter, or null when the encounter runs another mode or its state
 * cannot be read. Each mode's glue reads its state through this.
 */
export function stateOf<S extends Json>(combat: Combat.Implementation, rules: ModeDefinition<S, Command>): S | null {
  const bound = loadBound(combat);
  // The binding of `rules.id` was built from that mode's own state parser: its state is an S.
  return bound !== null && bound.mode === rules.id ? (bound.state as S) : null;
}

/** The rules' view of a combatant. */
export function rosterEntry(combatant: Combatant.Implementation): RosterEntry {
  return { id: combatant.id ?? "", name: combatant.name ?? "", isPC: combatant.hasPlayerOwner };
}

/** The live roster of an encounter. */
export function rosterOf(combat: Combat.Implementation): RosterEntry[] {
  return combat.combatants.contents.map(rosterEntry);
}

/** Who a user is for the rules: GM or not, and which of this encounter's combatants they own. */
export function requesterFor(combat: Combat.Implementation, user: User.Implementation): Requester {
  const owns = combat.combatants.contents
    .filter((c) => user.isGM || c.testUserPermission(user, "OWNER"))
    .map((c) => c.id ?? "");
  return { userId: user.id ?? "", isGM: user.isGM, owns };
}
