/**
 * Combatant data only the GM writes. Foundry lets a player update any field of a Combatant whose
 * actor they own; the module reads some of them as the GM's: every module flag but the player's own
 * request, the fields a mode names (`gmOnlyCombatantKeys` in its module, e.g. a side's `group`) and,
 * in a structured encounter, `initiative` (the mirror of the mode's order, which the active GM
 * writes: a player's value is put back even where it keeps the order, issue 27 item 4).
 * Every client remembers the last values a GM wrote (GMs only ever write them); the active GM puts
 * back what a player wrote and tells that player. Nothing else is done with a player's write.
 */
import { FLAGS, MODULE_ID } from "../../constants";
import { tellPutBack } from "./controller";
import { moduleOfCombat } from "./encounters";
import { changedKey, deletePath, namesKey } from "../compat";
import { logError } from "../notify";

/** The path of the player's request (the one module flag a player writes). */
const REQUEST_PATH = `flags.${MODULE_ID}.${FLAGS.request}`;
const FLAG_PREFIX = `flags.${MODULE_ID}.`;

/** The last GM-written values of each combatant's guarded paths (absent: unset). */
const remembered = new WeakMap<object, Map<string, unknown>>();

function userOf(userId: string): User.Implementation | undefined {
  return game.users.contents.find((u) => u.id === userId);
}

/** Whether a user id names a GM (an unknown user is not one). */
export function isGMUser(userId: string): boolean {
  return userOf(userId)?.isGM ?? false;
}

/** The initiative, which a structured encounter mirrors from its order. */
const INITIATIVE_PATH = "initiative";

/** The GM-only fields of a structured encounter: the initiative and those its mode names (module flags are all guarded besides). */
function declaredPaths(combat: Combat.Implementation | null): readonly string[] {
  const module = combat === null ? null : moduleOfCombat(combat);
  return module === null ? [] : [INITIATIVE_PATH, ...module.gmOnlyCombatantKeys];
}

function moduleFlags(source: object): Record<string, unknown> {
  const flags = (source as { flags?: Record<string, unknown> }).flags?.[MODULE_ID];
  return typeof flags === "object" && flags !== null ? (flags as Record<string, unknown>) : {};
}

function valueAt(source: object, path: string): unknown {
  let node: unknown = source;
  for (const part of path.split(".")) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** Whether `changed` (an update's diff) touches a path, including a deletion of its last key. */
function touches(changed: object, path: string): boolean {
  const parts = path.split(".");
  let node: unknown = changed;
  for (const [i, part] of parts.entries()) {
    if (typeof node !== "object" || node === null) return false;
    const record = node as Record<string, unknown>;
    if (i === parts.length - 1) return namesKey(record, part);
    node = record[part];
  }
  return false;
}

/** Every guarded path of a combatant's source (or an update's diff): module flags but the request, declared fields. */
function guardedPaths(source: object, combat: Combat.Implementation | null): string[] {
  const flags = Object.keys(moduleFlags(source)).map((key) => FLAG_PREFIX + changedKey(key));
  return [...new Set([...flags.filter((p) => p !== REQUEST_PATH), ...declaredPaths(combat)])];
}

/** Remember a combatant's guarded values as they stand now (a GM wrote them). */
export function rememberGuarded(combatant: Combatant.Implementation): void {
  const source = combatant._source as object;
  const values = new Map<string, unknown>();
  for (const path of guardedPaths(source, combatant.parent)) {
    const value = valueAt(source, path);
    if (value !== undefined) values.set(path, foundry.utils.deepClone(value));
  }
  remembered.set(combatant, values);
}

/** Remember the guarded values of every combatant this client knows (at `ready`). */
export function rememberAllGuarded(): void {
  for (const combat of game.combats.contents) for (const c of combat.combatants.contents) rememberGuarded(c);
}

/**
 * A combatant was created or updated: a GM's write is remembered; a player's write to a guarded
 * path is put back by the active GM (`authority`), who tells the player. Returns whether anything
 * a player wrote was put back.
 */
export function guardCombatant(
  combatant: Combatant.Implementation,
  changed: object,
  userId: string,
  authority: boolean,
): boolean {
  if (isGMUser(userId)) {
    rememberGuarded(combatant);
    return false;
  }
  const combat = combatant.parent;
  const before = remembered.get(combatant) ?? new Map<string, unknown>();
  const source = combatant._source as object;
  const written = guardedPaths(changed, combat).filter((path) => touches(changed, path));
  const reverted = written.filter(
    (path) => !foundry.utils.objectsEqual({ v: valueAt(source, path) }, { v: before.get(path) }),
  );
  if (reverted.length === 0 || !authority) return reverted.length > 0;
  const update: Record<string, unknown> = {};
  const deleted = new Set<string>();
  for (const path of reverted) {
    const old = before.get(path);
    if (old !== undefined) update[path] = old;
    else if (path.startsWith(FLAG_PREFIX)) deleted.add(path.slice(FLAG_PREFIX.length));
    else update[path] = null;
  }
  // Flags the GM never wrote are deleted; the module's scope goes too when nothing else is left in it.
  const left = Object.keys(moduleFlags(source)).filter((key) => !deleted.has(key));
  if (deleted.size > 0 && left.length === 0) Object.assign(update, deletePath(`flags.${MODULE_ID}`));
  else for (const key of deleted) Object.assign(update, deletePath(`${FLAG_PREFIX}${key}`));
  const code = reverted.every((path) => path === INITIATIVE_PATH) ? "interopInitiativeReverted" : "gmOnlyField";
  void putBack(combatant, update, userId, code);
  return true;
}

async function putBack(
  combatant: Combatant.Implementation,
  update: Record<string, unknown>,
  userId: string,
  code: "gmOnlyField" | "interopInitiativeReverted",
): Promise<void> {
  try {
    await combatant.update(update);
  } catch (error) {
    logError(error);
  }
  const author = userOf(userId);
  const combat = combatant.parent;
  if (author === undefined || combat === null) return;
  await tellPutBack(author, combat, code, combatant.id ?? "");
}
