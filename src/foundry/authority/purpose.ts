/**
 * What a roll is for. Every roll the module asks a user for is posted with its purpose, a module flag
 * on its ChatMessage: the encounter, the subject (a combatant, a side or a group), what it is for (the
 * command type), which of the command's rolls it is (`part`), the encounter's stored revision when it
 * was asked for, and the user it is rolled for.
 *
 * On the authority a player's result counts only from a roll that carries the purpose of the command
 * it is sent with, that was made while the state asked for it, and that is the first such roll: the
 * first roll message for a purpose is the one that counts, so rolling five times and sending the best
 * is refused, and the GM is told. A purpose's window opens when the encounter starts a round, is
 * rewound, or takes a result for that purpose (`rollWindows` on the Combat, GM-written); rolls
 * claiming an earlier revision were made before the state asked for them.
 *
 * A purpose flag is written by the client that posts the message, so it proves nothing about the
 * faces; what it proves is which roll came first. The authority remembers each purpose-carrying
 * message as it sees it created (and at which revision), so deleting an unwanted first roll does not
 * make a later one the first.
 */
import { FLAGS, I18N, MODULE_ID } from "../../constants";
import type { Json } from "../../core/patch";
import { deletion } from "../compat";
import { recordOf as record } from "../../core/common";

/** The key of a message's purpose under the module's flags. */
export const PURPOSE_FLAG = "purpose";

/** A roll's purpose as stored on its ChatMessage. */
export interface RollPurpose {
  /** The Combat's id. */
  readonly combat: string;
  /** The combatant, side or group the result is for. */
  readonly subject: string;
  /** The command type the result is sent with. */
  readonly for: string;
  /** Which of the command's rolls this is (0 for the first). */
  readonly part: number;
  /** The encounter's stored revision when the roll was asked for. */
  readonly rev: number;
  /** The user the roll is for. */
  readonly user: string;
}

/** The window key of the combat's rolls that opens at rounds and rewinds. */
const FROM = "from";

/** The stored revision of an encounter (0 when unreadable). */
export function revisionOf(combat: Combat.Implementation): number {
  const rev = record(combat.getFlag(MODULE_ID, FLAGS.encounter))?.rev;
  return typeof rev === "number" && Number.isInteger(rev) ? rev : 0;
}

/** The subject of a command's roll number `part`: a roll-off names one per result, others one for all. */
export function subjectOf(command: Json, part: number): string {
  const c = record(command) ?? {};
  const results = c.results;
  if (Array.isArray(results)) {
    const id = record(results[part])?.combatantId;
    return typeof id === "string" ? id : "";
  }
  const id = c.combatantId ?? c.groupId ?? c.sideId;
  return typeof id === "string" ? id : "";
}

/** The purpose of roll `part` of `command`, asked for now by the current user (or for `user`). */
export function purposeFor(combat: Combat.Implementation, command: Json, part: number, user?: string): RollPurpose {
  const type = record(command)?.type;
  return {
    combat: combat.id ?? "",
    subject: subjectOf(command, part),
    for: typeof type === "string" ? type : "",
    part,
    rev: revisionOf(combat),
    user: user ?? game.user.id,
  };
}

/** The chat message flags that carry a purpose. */
export function purposeFlags(purpose: RollPurpose): Record<string, unknown> {
  return { [MODULE_ID]: { [PURPOSE_FLAG]: { ...purpose } } };
}

/** A message's purpose, narrowed; null when it has none or a malformed one. */
export function purposeOf(message: ChatMessage.Implementation): RollPurpose | null {
  // Read as plain data: the module declares no chat message flags to Foundry's types.
  const flags: unknown = message.flags;
  const scope = record(record(flags)?.[MODULE_ID]);
  const p = record(scope?.[PURPOSE_FLAG]);
  if (p === null) return null;
  const { combat, subject, part, rev, user } = p;
  const what = p.for;
  return typeof combat === "string" &&
    typeof subject === "string" &&
    typeof what === "string" &&
    typeof user === "string" &&
    Number.isInteger(part) &&
    Number.isInteger(rev)
    ? { combat, subject, for: what, part: part as number, rev: rev as number, user }
    : null;
}

/** The key of a purpose's window (the same for every revision). */
function windowKey(purpose: Pick<RollPurpose, "for" | "subject">): string {
  return `${purpose.for}~${purpose.subject}`.replace(/[^A-Za-z0-9~_-]/g, "_");
}

/** The key of a purpose across revisions: the same roll asked for the same user. */
function sameRoll(a: RollPurpose, b: RollPurpose): boolean {
  return a.combat === b.combat && a.subject === b.subject && a.for === b.for && a.part === b.part && a.user === b.user;
}

/** The revision from which rolls for this purpose count (its window opened then). */
export function windowStart(combat: Combat.Implementation, purpose: Pick<RollPurpose, "for" | "subject">): number {
  const windows = record(combat.getFlag(MODULE_ID, FLAGS.rollWindows)) ?? {};
  const from = windows[FROM];
  const done = windows[windowKey(purpose)];
  return Math.max(typeof from === "number" ? from : 0, typeof done === "number" ? done : 0);
}

/**
 * The Combat flag update for a write that takes the encounter to revision `next`: a new round, a
 * start or a rewind opens every window (the keys of results taken are dropped); a result taken for a
 * rolled command closes its purposes' window (`taken`: the command, when it is one).
 */
export function windowsUpdate(
  combat: Combat.Implementation,
  next: number,
  reopen: boolean,
  taken: Json | null,
): Record<string, unknown> {
  const update: Record<string, unknown> = {};
  if (reopen) {
    const windows = record(combat.getFlag(MODULE_ID, FLAGS.rollWindows)) ?? {};
    for (const key of Object.keys(windows)) {
      if (key === FROM) continue;
      const [k, v] = deletion(key);
      update[k] = v;
    }
    update[FROM] = next;
  }
  if (taken !== null) {
    const type = record(taken)?.type;
    const results = record(taken)?.results;
    const parts = Array.isArray(results) ? results.length : 1;
    for (let part = 0; part < parts; part++) {
      const subject = subjectOf(taken, part);
      if (typeof type === "string" && subject !== "") update[windowKey({ for: type, subject })] = next;
    }
  }
  return Object.keys(update).length === 0 ? {} : { [FLAGS.rollWindows]: update };
}

/** A purpose-carrying message as the authority saw it created: its id and the revision then. */
interface Seen {
  readonly id: string;
  readonly purpose: RollPurpose;
  readonly rev: number;
}

/** On the authority: the purpose-carrying messages seen created this session, in the server's order. */
const seen: Seen[] = [];
/** The most remembered (the oldest go first). */
const SEEN_KEPT = 2000;

/**
 * `createChatMessage` (every client; only the authority's memory is read): a message that carries a
 * roll's purpose is remembered with the revision its encounter held when it arrived.
 */
export function rememberRoll(message: ChatMessage.Implementation): void {
  const purpose = purposeOf(message);
  const id: unknown = message.id;
  if (purpose === null || typeof id !== "string") return;
  const combat = game.combats.contents.find((c) => c.id === purpose.combat);
  seen.push({ id, purpose, rev: combat === undefined ? purpose.rev : revisionOf(combat) });
  if (seen.length > SEEN_KEPT) seen.splice(0, seen.length - SEEN_KEPT);
}

/** The revision a message was made at: as the authority saw it arrive, else as it claims. */
function madeAt(id: string, purpose: RollPurpose): number {
  const known = seen.find((s) => s.id === id);
  return known === undefined ? purpose.rev : Math.min(known.rev, purpose.rev);
}

/** Why a player's roll does not count, or null when it does. */
export type PurposeRefusal = "rollWithoutPurpose" | "rollBeforeAsked" | "notFirstRoll";

/** The outcome of checking one message's purpose: refused, or counted (with how many rolls it had). */
export type PurposeCheck =
  | { readonly ok: true; readonly count: number }
  | { readonly ok: false; readonly code: PurposeRefusal; readonly count: number };

/**
 * On the authority: whether message `id` (with `purpose`) counts as roll `part` of `command` for
 * `userId` now. The message must carry the command's purpose; it must have been made after the
 * purpose's window opened (and not claim a revision still to come); and it must be the first roll
 * for that purpose in the window, among the messages in chat and those seen created and since
 * deleted. `count` is how many rolls were made for that purpose in the window.
 */
export function checkPurpose(
  combat: Combat.Implementation,
  command: Json,
  part: number,
  id: string,
  purpose: RollPurpose | null,
  userId: string,
): PurposeCheck {
  const expected = purposeFor(combat, command, part, userId);
  if (purpose === null || !sameRoll(purpose, expected)) return { ok: false, code: "rollWithoutPurpose", count: 0 };
  const start = windowStart(combat, expected);
  const now = revisionOf(combat);
  const inWindow = (entryId: string, p: RollPurpose): boolean => {
    const at = madeAt(entryId, p);
    return at >= start && p.rev <= now;
  };
  if (!inWindow(id, purpose)) return { ok: false, code: "rollBeforeAsked", count: 0 };
  const ids: string[] = [];
  for (const s of seen) if (sameRoll(s.purpose, expected) && inWindow(s.id, s.purpose)) ids.push(s.id);
  for (const message of game.messages.contents) {
    const p = purposeOf(message);
    const mid = message.id;
    if (p !== null && typeof mid === "string" && !ids.includes(mid) && sameRoll(p, expected) && inWindow(mid, p))
      ids.push(mid);
  }
  // Messages seen created come first in the order they arrived; the chat's own order after them.
  const count = Math.max(ids.length, 1);
  return ids[0] === undefined || ids[0] === id ? { ok: true, count } : { ok: false, code: "notFirstRoll", count };
}

/**
 * On the authority: tell the GMs that a player rolled for one purpose more than once ("Bob rolled
 * Brom's initiative 3 times; the first counts"), as a chat message whispered to the GMs.
 */
export async function tellRolledAgain(
  combat: Combat.Implementation,
  command: Json,
  part: number,
  userId: string,
  count: number,
): Promise<void> {
  const user = game.users.contents.find((u) => u.id === userId);
  const subject = subjectOf(command, part);
  const name = combat.combatants.get(subject)?.name ?? subject;
  const type = record(command)?.type;
  const what = game.i18n.format(`${I18N}.Dice.For.${typeof type === "string" ? type : ""}`, { name });
  const rule = new Intl.PluralRules(game.i18n.lang);
  const text = game.i18n.format(`${I18N}.Dice.RolledAgain.${rule.select(count)}`, {
    user: user?.name ?? userId,
    roll: what,
    count: String(count),
  });
  ui.notifications.warn(text);
  const whisper = game.users.contents.filter((u) => u.isGM).map((u) => u.id);
  await ChatMessage.implementation.create({ content: text, whisper });
}
