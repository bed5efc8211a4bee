/**
 * Players' notices: "your turn", and what a mode adds (a slot they may claim now, a declaration due
 * now). Each client works out its own user's notice from the stored encounter after every update of
 * an active structured encounter, and shows it once per change: an info notification, the tracker's
 * live region for screen readers, and a sound when the user's client setting asks for one. Never for a
 * GM, never on a re-render or an update that leaves the user's notice as it was (an undo that does not
 * bring their turn back).
 */
import { I18N, MODULE_ID, NOTICE_SOUND, SETTINGS } from "../constants";
import type { Requester, TurnView } from "../core/engine";
import type { ModeNotice } from "../modes/contract";
import { loadBound, moduleOfCombat, requesterFor } from "./authority/encounters";
import { speak } from "./tracker/live";

/** The notice kind every mode shares. */
export const TURN_NOTICE = "Turn";

/** "Your turn" when the combatant acting now is one of the user's; the shared notice. */
export function turnNotice(view: TurnView, who: Requester): ModeNotice | null {
  const current = view.current;
  if (!view.started || current === null || !who.owns.includes(current)) return null;
  return { kind: TURN_NOTICE, combatantId: current, occasion: `${String(view.round)}:${view.step}` };
}

/** The notice the user is owed now in this encounter, or null (always null for a GM). */
export function noticeFor(combat: Combat.Implementation, user: User.Implementation): ModeNotice | null {
  if (user.isGM || !combat.active) return null;
  const bound = loadBound(combat);
  if (bound === null || !bound.view.started) return null;
  const who = requesterFor(combat, user);
  const mode = moduleOfCombat(combat);
  const notice = mode?.notice === undefined ? turnNotice(bound.view, who) : mode.notice(bound.state, bound.view, who);
  // Only ever about the user's own combatant.
  if (notice !== null && notice.combatantId !== null && !who.owns.includes(notice.combatantId)) return null;
  return notice;
}

/** What identifies a notice: the same key again is the same occasion, shown once. */
function keyOf(notice: ModeNotice | null): string {
  return notice === null ? "" : `${notice.kind}|${notice.combatantId ?? ""}|${notice.occasion}`;
}

/** Per encounter id, the key of the notice the user was last owed ("" none). */
const owed = new Map<string, string>();

/** Per encounter id, the keys of the `once` notices already told (or known at `ready`). */
const told = new Map<string, Set<string>>();

/** Whether a `once` notice was told before in this encounter; marks it told. */
function toldBefore(id: string, notice: ModeNotice, key: string): boolean {
  if (notice.once !== true) return false;
  const keys = told.get(id) ?? new Set<string>();
  told.set(id, keys);
  if (keys.has(key)) return true;
  keys.add(key);
  return false;
}

/** Whether the user's client plays a sound with a notice. */
export function noticeSoundOn(): boolean {
  return game.settings.get(MODULE_ID, SETTINGS.noticeSound);
}

/** The part of `foundry.audio.AudioHelper` a notice uses (https://foundryvtt.com/api/classes/foundry.audio.AudioHelper.html#play). */
interface AudioPlayer {
  play(data: { src: string; volume?: number; autoplay?: boolean; loop?: boolean }, socketOptions?: boolean): unknown;
}

/** Show a notice: notification, live region, and the sound when the setting is on. */
function show(combat: Combat.Implementation, notice: ModeNotice): void {
  const name = notice.combatantId === null ? "" : (combat.combatants.get(notice.combatantId)?.name ?? "");
  const text = game.i18n.format(`${I18N}.Notice.${notice.kind}`, { name });
  ui.notifications.info(text);
  speak(text);
  if (!noticeSoundOn()) return;
  const audio = (foundry as unknown as { audio?: { AudioHelper?: Partial<AudioPlayer> } }).audio?.AudioHelper;
  // This client only (the second argument: no broadcast), at the interface's usual level.
  if (typeof audio?.play === "function")
    void Promise.resolve(audio.play({ src: NOTICE_SOUND, volume: 0.8, autoplay: true, loop: false }, false)).catch(
      () => undefined,
    );
}

/** Work out the user's notice in this encounter and show it when it is new. */
export function checkNotice(combat: Combat.Implementation): void {
  const id = combat.id ?? "";
  const notice = noticeFor(combat, game.user);
  const key = keyOf(notice);
  const before = owed.get(id) ?? "";
  owed.set(id, key);
  if (notice !== null && key !== before && !toldBefore(id, notice, key)) show(combat, notice);
}

/** `ready`: what each encounter owes the user as the client starts is known, not announced. */
export function rememberNotices(): void {
  for (const combat of game.combats.contents) {
    const notice = noticeFor(combat, game.user);
    owed.set(combat.id, keyOf(notice));
    if (notice !== null) toldBefore(combat.id, notice, keyOf(notice));
  }
}

/** `updateCombat` (every client): the encounter's state may owe the user a new notice. */
export function onNoticeCombatUpdate(combat: Combat.Implementation): void {
  checkNotice(combat);
}

/** `deleteCombat`: forget the encounter. */
export function onNoticeCombatDelete(combat: Combat.Implementation): void {
  owed.delete(combat.id ?? "");
  told.delete(combat.id ?? "");
}
