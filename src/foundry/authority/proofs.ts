/**
 * A result comes from a real roll. A command whose numbers are dice results (a mode's
 * `rolledResults`) names the ChatMessages its rolls were posted in (`rolls`: their ids). On the
 * authority each message must exist, be the requester's own and not have been used for a result
 * before (the ids used are kept on the Combat, which only a GM writes); the mode then checks the
 * messages' rolls against the configured formulas and the command's totals. A player's command with
 * no rolls is a typed number and refused; the GM's is taken and marked typed.
 */
import { deletion } from "../compat";
import { FLAGS, MODULE_ID } from "../../constants";
import type { Requester } from "../../core/engine";
import type { Json } from "../../core/patch";
import { moduleOfCombat } from "./encounters";
import { checkPurpose, purposeOf, tellRolledAgain, type PurposeRefusal } from "./purpose";
import { diceRoller } from "../settings";
import { fieldOf as field } from "../../core/common";

/** How many used message ids an encounter keeps (the oldest go first). */
export const USED_ROLLS_KEPT = 500;
/** The most messages one command may name. */
const MAX_ROLLS = 32;

/** The outcome of checking a command's rolls. */
export type Proven =
  | { readonly ok: true; readonly command: Json; readonly used: readonly string[] }
  | { readonly ok: false; readonly code: "typedResult" | "rollMismatch" | "malformedCommand" | PurposeRefusal };

/** Whether a command's type carries a dice result in this encounter's mode. */
export function isRolledCommand(combat: Combat.Implementation, command: Json): boolean {
  const type = field(command, "type");
  const checks = moduleOfCombat(combat)?.rolledResults;
  return typeof type === "string" && checks !== undefined && Object.hasOwn(checks, type);
}

/** The message ids a command names; [] for none, null when malformed. */
export function rollIdsOf(command: Json): string[] | null {
  const raw = field(command, "rolls");
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > MAX_ROLLS) return null;
  const ids = raw.filter((id): id is string => typeof id === "string" && /^[A-Za-z0-9]{1,64}$/.test(id));
  return ids.length === raw.length && new Set(ids).size === ids.length ? ids : null;
}

/**
 * The message ids already used for a result in this encounter, oldest first. They are stored as
 * `{id: sequence}` so that recording one more adds one key (format 1 kept an array, rewritten whole
 * by every roll: it is still read, and replaced by the first roll recorded after the upgrade).
 */
export function usedRolls(combat: Combat.Implementation): string[] {
  return usedRollEntries(combat.getFlag(MODULE_ID, FLAGS.rollsUsed)).map(([id]) => id);
}

function usedRollEntries(raw: unknown): [string, number][] {
  if (Array.isArray(raw)) return raw.filter((id): id is string => typeof id === "string").map((id, i) => [id, i]);
  if (typeof raw !== "object" || raw === null) return [];
  return Object.entries(raw as Record<string, unknown>)
    .filter((entry): entry is [string, number] => typeof entry[1] === "number" && Number.isFinite(entry[1]))
    .sort((a, b) => a[1] - b[1]);
}

/** A command as the rules take it: `typed` set by the authority, never by the sender. */
function withTyped(command: Json, typed: boolean): Json {
  const { rolls: _rolls, typed: _typed, ...rest } = command as Record<string, Json>;
  return typed ? { ...rest, typed: true } : rest;
}

/**
 * On the authority: check the rolls behind a command (commands that carry no dice result pass
 * unchanged). Returns the command the rules take and the message ids to record as used.
 */
export async function proveCommand(combat: Combat.Implementation, command: Json, who: Requester): Promise<Proven> {
  const type = field(command, "type");
  const check = typeof type === "string" ? moduleOfCombat(combat)?.rolledResults[type] : undefined;
  if (check === undefined || !isRolledCommand(combat, command)) return { ok: true, command, used: [] };
  const ids = rollIdsOf(command);
  if (ids === null) return { ok: false, code: "malformedCommand" };
  if (ids.length === 0)
    return who.isGM ? { ok: true, command: withTyped(command, true), used: [] } : { ok: false, code: "typedResult" };
  const used = new Set(usedRolls(combat));
  const rolls: Roll[] = [];
  const counts: number[] = [];
  for (const [part, id] of ids.entries()) {
    // A message this client does not know (deleted, never posted) proves nothing.
    const message = game.messages.get(id) as ChatMessage.Implementation | undefined;
    if (message === undefined || used.has(id) || !rolledBy(message, who)) return mismatch();
    // A player's roll counts only as the first roll made for its purpose while the state asked for it.
    if (!who.isGM) {
      const purpose = checkPurpose(combat, command, part, id, purposeOf(message), who.userId);
      if (!purpose.ok) {
        if (purpose.code === "notFirstRoll") await tellRolledAgain(combat, command, part, who.userId, purpose.count);
        return { ok: false, code: purpose.code };
      }
      counts[part] = purpose.count;
    }
    rolls.push(...message.rolls);
  }
  const ok = await check(combat, withTyped(command, false), rolls).catch(() => false);
  if (!ok) return mismatch();
  // The first roll counts; the GM still hears of the others made before it was sent.
  for (const [part, count] of counts.entries())
    if (count > 1) await tellRolledAgain(combat, command, part, who.userId, count);
  return { ok: true, command: withTyped(command, false), used: ids };
}

/**
 * Whether a message's rolls are the requester's: its author (as the server attests it) is the
 * requester, or a GM who rolled them for the requester. With the world's dice rolled by the GM's
 * client, a player's own message is not: its faces could have been chosen.
 */
function rolledBy(message: ChatMessage.Implementation, who: Requester): boolean {
  const author = authorOf(message);
  if (who.isGM) return author === who.userId;
  const gm = game.users.contents.some((u) => u.id === author && u.isGM);
  const byGM = author !== null && gm && purposeOf(message)?.user === who.userId;
  return byGM || (diceRoller() === "player" && author === who.userId);
}

/** The id of a message's author (as the server attests it), or null. */
function authorOf(message: ChatMessage.Implementation): string | null {
  const author: unknown = message.author;
  const id = field(author, "id");
  return typeof id === "string" ? id : null;
}

function mismatch(): Proven {
  return { ok: false, code: "rollMismatch" };
}

/** The Combat flag update recording these message ids as used (nothing when there are none). */
export function usedRollsUpdate(combat: Combat.Implementation, ids: readonly string[]): Record<string, unknown> {
  if (ids.length === 0) return {};
  const raw: unknown = combat.getFlag(MODULE_ID, FLAGS.rollsUsed);
  const entries = usedRollEntries(raw);
  let next = (entries[entries.length - 1]?.[1] ?? -1) + 1;
  const added: Record<string, number> = {};
  for (const id of ids) added[id] = next++;
  const kept = [...entries, ...Object.entries(added)];
  const dropped = kept.slice(0, Math.max(0, kept.length - USED_ROLLS_KEPT)).map(([id]) => id);
  // Format 1's array is replaced by the object at once; after that each roll adds its own key.
  if (Array.isArray(raw) || typeof raw !== "object" || raw === null) {
    return { [FLAGS.rollsUsed]: Object.fromEntries(kept.slice(dropped.length)) };
  }
  const update: Record<string, unknown> = { ...added };
  for (const id of dropped) {
    if (id in added) continue;
    const [key, value] = deletion(id);
    update[key] = value;
  }
  return { [FLAGS.rollsUsed]: update };
}
