/**
 * The hesitation countdown of the `sides` mode: it runs on the active GM's client only and sends
 * `hesitate` when it expires. Also here: the GM's controls of it, the step flags that stamp when a
 * declarer's countdown began, and the ticking display in a rendered tracker.
 */
import { MODULE_ID } from "../../constants";
import type { RuleEvent } from "../../core/engine";
import { currentDeclarer } from "./rules/derived";
import type { SidesState } from "./rules/types";
import { applyAsAuthority, isAuthority } from "../../foundry/authority/controller";
import { modeOf, requesterFor } from "../../foundry/authority/encounters";
import { clock, type Cancel } from "../../foundry/clock";
import type { Json } from "../../core/patch";
import type { CommandResult } from "../../core/protocol";
import { sidesCountdownMs } from "./settings";
import { SIDE_FLAGS } from "./constants";
import { gmOnly } from "./controls";
import { moduleFlag, sidesState } from "./encounter";
import { logError } from "../../foundry/notify";

/** The GM's controls of the countdown, stored on the Combat (written only when the GM uses them). */
export interface ClockControl {
  readonly paused: boolean;
  /** Characters the countdown never counts for (a new player). */
  readonly excused: readonly string[];
}

const NO_CONTROL: ClockControl = { paused: false, excused: [] };

/** The countdown controls of an encounter. */
export function clockControlOf(combat: Combat.Implementation): ClockControl {
  const raw = moduleFlag(combat, SIDE_FLAGS.clock);
  if (typeof raw !== "object" || raw === null) return NO_CONTROL;
  const r = raw as Record<string, unknown>;
  const excused = Array.isArray(r.excused) ? (r.excused as unknown[]).filter((x) => typeof x === "string") : [];
  return { paused: r.paused === true, excused };
}

/**
 * When the current declarer's countdown began, as the active GM wrote it with the step that brought
 * the declarer (a declaration, a hesitation, an undo, a correction of the side rolls) or with its
 * resume: every client counts from this one time, so an undo gives a fresh, full countdown.
 */
export interface DeclaringStamp {
  readonly combatantId: string;
  readonly round: number;
  /** Epoch ms on the active GM's clock when the countdown began. */
  readonly at: number;
  /** The GM's extension for this declarer. */
  readonly extraMs: number;
}

/** The stamp of an encounter, or null (none written yet, or unreadable). */
export function declaringStampOf(combat: Combat.Implementation): DeclaringStamp | null {
  const raw = moduleFlag(combat, SIDE_FLAGS.declaring);
  if (typeof raw !== "object" || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.combatantId !== "string" || typeof r.round !== "number" || typeof r.at !== "number") return null;
  if (!Number.isFinite(r.at)) return null;
  const extraMs = typeof r.extraMs === "number" && Number.isFinite(r.extraMs) ? Math.max(0, r.extraMs) : 0;
  return { combatantId: r.combatantId, round: r.round, at: r.at, extraMs };
}

/** A fresh stamp for the current declarer, counted from now (this client's clock: the active GM's). */
function freshStamp(state: SidesState, who: string): DeclaringStamp {
  return { combatantId: who, round: state.round, at: clock.now(), extraMs: 0 };
}

/** Whether the stamp is the current declarer's. */
function stampFits(stamp: DeclaringStamp | null, state: SidesState, who: string): stamp is DeclaringStamp {
  return stamp !== null && stamp.combatantId === who && stamp.round === state.round;
}

/** Events that bring a declarer back to a fresh countdown even when the declarer stays the same. */
const FRESH_COUNTDOWN = new Set(["rewound", "sideRolled", "sidesOrdered"]);

/**
 * The authority's `stepFlags`: a fresh stamp written with any step that makes someone the declarer
 * (the previous declarer declared or hesitated, a new round's declarations began) or brings one
 * back (previous turn, previous round, the GM's correction of a side roll that orders the sides
 * again). Stamped for NPCs too, so a countdown switched on mid-step has a start.
 */
export function sidesStepFlags(
  combat: Combat.Implementation,
  state: SidesState,
  events: readonly RuleEvent[],
): Readonly<Record<string, Json>> | null {
  const who = currentDeclarer(state);
  if (who === null) return null;
  const fresh = !stampFits(declaringStampOf(combat), state, who) || events.some((e) => FRESH_COUNTDOWN.has(e.type));
  return fresh ? { [SIDE_FLAGS.declaring]: { ...freshStamp(state, who) } } : null;
}

/** What the tracker shows of the countdown: for whom, until when, paused or not. */
export interface ClockView {
  readonly combatantId: string;
  /** Whether it counts for this declarer: a player's character (the GM declares NPCs at its pace). */
  readonly counts: boolean;
  /**
   * Epoch ms of the deadline (the active GM's clock, as stamped), or null until the GM's stamp for
   * this declarer arrives.
   */
  readonly deadline: number | null;
  /** The whole countdown for this declarer (the setting plus the GM's extension), in ms. */
  readonly fullMs: number;
  readonly paused: boolean;
  readonly excused: boolean;
}

/**
 * The countdown as the tracker shows it now; null when none runs: switched off, or nobody declares.
 * While an NPC declares it does not count (the rulebook counts to three for the players only), but
 * the GM may still pause it.
 */
export function clockView(combat: Combat.Implementation, state: SidesState): ClockView | null {
  const ms = sidesCountdownMs();
  const who = currentDeclarer(state);
  if (ms === 0 || who === null) return null;
  const control = clockControlOf(combat);
  const stamp = declaringStampOf(combat);
  const fits = stampFits(stamp, state, who);
  const extra = fits ? stamp.extraMs : 0;
  return {
    combatantId: who,
    counts: state.combatants.find((c) => c.id === who)?.isPC === true,
    deadline: fits ? stamp.at + ms + extra : null,
    fullMs: ms + extra,
    paused: control.paused,
    excused: control.excused.includes(who),
  };
}

const timers = new Map<string, { key: string; deadline: number; cancel: Cancel }>();

/**
 * On the active GM: (re)arm the countdown for the current declarer after any change of the encounter.
 * When it expires it sends `hesitate` through the same serialised path as every request, so a
 * declaration already in flight and the hesitation give exactly one outcome (the first applied).
 * A declarer without a stamp (a state written before stamps, a countdown switched on mid-step) is
 * stamped now, in its own write.
 */
export function armClock(combat: Combat.Implementation): void {
  const id = combat.id ?? "";
  const running = timers.get(id);
  const stop = (): void => {
    running?.cancel();
    timers.delete(id);
  };
  const state = isAuthority() && modeOf(combat) === "sides" ? sidesState(combat) : null;
  const view = state === null ? null : clockView(combat, state);
  if (state === null || view === null || !view.counts || view.paused || view.excused) {
    stop();
    return;
  }
  if (view.deadline === null) {
    stop();
    void writeStamp(combat, freshStamp(state, view.combatantId));
    return;
  }
  const deadline = view.deadline;
  const key = `${state.round}:${view.combatantId}`;
  if (running?.key === key && running.deadline === deadline) return;
  stop();
  const cancel = clock.after(deadline - clock.now(), () => {
    timers.delete(id);
    void applyAsAuthority(
      combat,
      { type: "hesitate", combatantId: view.combatantId },
      requesterFor(combat, game.user),
      null,
    );
  });
  timers.set(id, { key, deadline, cancel });
}

/** The encounter ended (active GM): its hesitation countdown stops (it would act on a deleted encounter). */
export function sidesEnd(combat: Combat.Implementation): Promise<void> {
  const id = combat.id ?? "";
  timers.get(id)?.cancel();
  timers.delete(id);
  return Promise.resolve();
}

async function writeClock(
  combat: Combat.Implementation,
  change: Partial<ClockControl>,
  stamp: DeclaringStamp | null = null,
): Promise<CommandResult> {
  const refused = gmOnly(combat);
  if (refused !== null) return refused;
  const next = { ...clockControlOf(combat), ...change };
  const flags = { [SIDE_FLAGS.clock]: next, ...(stamp === null ? {} : { [SIDE_FLAGS.declaring]: stamp }) };
  await combat.update({ flags: { [MODULE_ID]: flags } } as unknown as Combat.UpdateData);
  return { ok: true };
}

function writeStamp(combat: Combat.Implementation, stamp: DeclaringStamp): Promise<void> {
  const data = { flags: { [MODULE_ID]: { [SIDE_FLAGS.declaring]: stamp } } };
  return combat.update(data as unknown as Combat.UpdateData).then(
    () => undefined,
    (error: unknown) => {
      logError(error);
    },
  );
}

/**
 * GM: pause (or resume) the countdown, at any time of the declaration step (an NPC declaring too).
 * Resuming gives the current declarer a fresh, full countdown from now.
 */
export function pauseClock(combat: Combat.Implementation, paused: boolean): Promise<CommandResult> {
  const state = sidesState(combat);
  const who = state === null ? null : currentDeclarer(state);
  const stamp = paused || state === null || who === null ? null : freshStamp(state, who);
  return writeClock(combat, { paused }, stamp);
}

/** GM: give the current declarer more time (until the next step that brings a declarer). */
export function extendClock(combat: Combat.Implementation, seconds: number): Promise<CommandResult> {
  const state = sidesState(combat);
  const who = state === null ? null : currentDeclarer(state);
  if (state === null || who === null) return writeClock(combat, {});
  const stamp = declaringStampOf(combat);
  const base = stampFits(stamp, state, who) ? stamp : freshStamp(state, who);
  return writeClock(combat, {}, { ...base, extraMs: base.extraMs + Math.max(0, seconds) * 1000 });
}

/** GM: excuse a character from the countdown (or count for it again). */
export function excuse(combat: Combat.Implementation, combatantId: string, excused: boolean): Promise<CommandResult> {
  const list = clockControlOf(combat).excused.filter((id) => id !== combatantId);
  return writeClock(combat, { excused: excused ? [...list, combatantId] : list });
}

const ticking = new WeakSet<HTMLElement>();

/**
 * Count the hesitation countdown down in a rendered tracker: once a quarter second, every
 * `[data-si-deadline]` element shows the whole seconds left (text only). Stops by itself when the
 * tracker no longer shows a countdown.
 */
export function tickCountdowns(root: HTMLElement): void {
  if (ticking.has(root) || root.querySelector("[data-si-deadline]") === null) return;
  ticking.add(root);
  const view = root.ownerDocument.defaultView;
  if (view === null) return;
  const timer = view.setInterval(() => {
    const shown = [...root.querySelectorAll<HTMLElement>("[data-si-deadline]")];
    if (shown.length === 0 || !root.isConnected) {
      view.clearInterval(timer);
      ticking.delete(root);
      return;
    }
    for (const element of shown) {
      const deadline = Number(element.dataset.siDeadline);
      if (!Number.isFinite(deadline) || deadline === 0) continue;
      // The GM's clock may run ahead of this one: never more than the whole countdown.
      const full = Number(element.dataset.siFull);
      const left = Math.max(0, deadline - clock.now());
      const seconds = String(Math.ceil((Number.isFinite(full) && full > 0 ? Math.min(full, left) : left) / 1000));
      if (element.textContent !== seconds) element.textContent = seconds;
    }
  }, 250);
}
