/**
 * Everything the structured tracker's templates show, computed from the stored encounter and the
 * viewing user. Templates only loop, branch on booleans and localise; every decision is made here.
 * The controls a user sees are exactly the actions the rules allow that user now.
 */
import { CSS_ROOT, I18N, SYSTEM_DEFAULT } from "../../constants";
import type { TurnView } from "../../core/engine";
import type { ModeOutput } from "../../modes/contract";
import { loadBound, loadProblem, moduleOfCombat, modeOf, requesterFor } from "../authority/encounters";
import { modeIds } from "../modes";
import { Allowed, type ControlContext, type Localiser } from "../../core/ui";
import { controlFactory } from "./controls";

const T = `${I18N}.Tracker`;

/** One combatant row. */
export interface RowContext {
  readonly id: string;
  readonly name: string;
  /** The image, or "" (no image shown). */
  readonly img: string;
  /** The initiative, or "" (a dash shown). */
  readonly initiative: string;
  readonly isCurrent: boolean;
  /** The i18n key of the current row's badge. */
  readonly currentLabel: string;
  readonly isNext: boolean;
  readonly owned: boolean;
  readonly hidden: boolean;
  readonly defeated: boolean;
  /** Done this round (greyed out; never the current or next row). */
  readonly acted: boolean;
  /** Waiting out of the order (a delay). */
  readonly waiting: boolean;
  readonly controls: readonly ControlContext[];
  /** The data of the mode's row partials. */
  readonly mode: object | null;
}

/**
 * One row of a render (`shown-rows.ts`): what its template read (as JSON), and whether it stands
 * for the live row. `html` is what the list's template shows for it: its HTML when the row was
 * rendered on its own, else "" (a stand-in, or a row the list's template renders). `made` gives its
 * HTML in every case, made when first asked (a stand-in's is its live row's).
 */
export interface RowShown {
  readonly id: string;
  readonly key: string;
  readonly same: boolean;
  readonly html: string;
  readonly made: () => string;
}

/** A choice in the mode select. */
export interface ModeOptionContext {
  readonly value: string;
  readonly label: string;
  readonly selected: boolean;
}

/** The whole structured tracker context, under `structuredInitiative` in the render context. */
export interface TrackerContext {
  readonly rootClass: string;
  readonly mode: string;
  readonly modeLabel: string;
  readonly corrupted: boolean;
  /** Stored by a newer version of the module: shown, never reset. */
  readonly newerFormat: boolean;
  readonly started: boolean;
  readonly round: number;
  readonly stepLabel: string;
  /** The step pill's text where the mode names the step itself (localised: "Pass 2"), else "". */
  readonly stepText: string;
  readonly isGM: boolean;
  /** A player with no GM connected: controls would fail, the strip says so. */
  readonly noGM: boolean;
  readonly currentName: string;
  readonly hasCurrent: boolean;
  readonly nextName: string;
  readonly hasNext: boolean;
  /** The sentence the aria-live region announces when the turn changes. */
  readonly announcement: string;
  /** Changes exactly when the turn or round changes, or, while nobody acts, what is said. */
  readonly announceKey: string;
  readonly modeChoice: readonly ModeOptionContext[];
  readonly canChooseMode: boolean;
  readonly setupControls: readonly ControlContext[];
  readonly turnControls: readonly ControlContext[];
  readonly resetControl: ControlContext | null;
  readonly rows: readonly RowContext[];
  readonly empty: boolean;
  /** The partial that renders a row's mode-specific badges ("" for none). */
  readonly rowPartial: string;
  /** The partial that renders a row's mode-specific body: forms and lists ("" for none). */
  readonly rowBodyPartial: string;
  /** The step pill is emphasised (a surprise round). */
  readonly surpriseRound: boolean;
  /** The mode's panel names the step: no step pill (the header shows the round, so the strip does not). */
  readonly stepShown: boolean;
  /** The mode's panel above the set-up controls: its partial ("" for none) and data. */
  readonly panelPartial: string;
  readonly panel: object | null;
  /** The mode's list below the set-up controls: its partial ("" for none) and data. */
  readonly listPartial: string;
  readonly list: object | null;
  /** The mode shows hints: the glance has the toggle that folds them (`hintsToggle`). */
  readonly hasHints: boolean;
  /** This user has the hints shown (their user setting); folded, the roots carry `si-hints-folded`. */
  readonly hintsShown: boolean;
  /** The toggle's title: what a click does ("Fold the hints away", "Show the hints"). */
  readonly hintsTitle: string;
  /**
   * The disclosures filled on use that this user opened (`data-si-fill`), by kind then combatant id:
   * a closed one renders its summary only (set by the tracker, never here).
   */
  readonly opened?: Readonly<Record<string, Readonly<Record<string, true>>>>;
  /**
   * Each row of `rows` with its HTML, or standing for its live row; or, with `rowsInList` (a first
   * render), rendered by the list's template (set by the tracker, never here; see `shown-rows.ts`).
   */
  readonly rowsShown?: readonly RowShown[];
  readonly rowsInList?: boolean;
}

/** The choices of the mode select: the system's behaviour and every registered mode, `mode` selected. */
export function modeChoiceFor(mode: string): ModeOptionContext[] {
  return [SYSTEM_DEFAULT, ...modeIds()].map((value) => ({
    value,
    label: `${I18N}.Mode.${value}`,
    selected: value === mode,
  }));
}

/** What a system-default encounter's mode select shows (GM, before the start), under `structuredInitiativeMode`. */
export interface ModeSwitchContext {
  readonly rootClass: string;
  readonly modeChoice: readonly ModeOptionContext[];
}

/**
 * The mode select of a system-default encounter: the GM's way back to a structured mode until the
 * combat starts; null for players and once it has started.
 */
export function buildModeSwitch(combat: Combat.Implementation, user: User.Implementation): ModeSwitchContext | null {
  if (!user.isGM || combat.started || combat.round !== 0) return null;
  return { rootClass: CSS_ROOT, modeChoice: modeChoiceFor(modeOf(combat)) };
}

/**
 * The structured tracker context for one combat as one user sees it; null when the combat runs in
 * "system default" mode (the system's own tracker renders it). `hintsShown`: the user's choice to
 * see the hints. `opened`: the disclosures filled on use that the user opened (see `ModeInput.opened`).
 */
export function buildTrackerContext(
  combat: Combat.Implementation,
  user: User.Implementation,
  i18n: Localiser,
  activeGM: boolean,
  hintsShown: boolean,
  opened?: (kind: string, combatantId: string) => boolean,
): TrackerContext | null {
  const mode = modeOf(combat);
  if (mode === SYSTEM_DEFAULT) return null;
  const who = requesterFor(combat, user);
  const isGM = user.isGM;
  const bound = loadBound(combat);
  const allowedActions = bound === null ? [] : bound.allowed(who);
  const newerFormat = bound === null && loadProblem(combat) === "newerFormat";
  const corrupted = bound === null && !newerFormat;
  const visible = new Map<string, Combatant.Implementation>();
  for (const c of combat.combatants.contents) if (isGM || c.visible) visible.set(c.id ?? "", c);
  const nameOf = (id: string): string => visible.get(id)?.name ?? i18n.localize(`${T}.Unknown`);
  const view: TurnView | null = bound?.view ?? null;
  const allowed = new Allowed(allowedActions);
  const control = controlFactory(i18n);
  const modeTracker = moduleOfCombat(combat)?.tracker ?? null;
  const modeOut: ModeOutput | null =
    bound === null || modeTracker === null
      ? null
      : modeTracker.build({
          bound,
          state: bound.state,
          allowed,
          actions: allowedActions,
          combat,
          i18n,
          who,
          nameOf,
          control,
          ...(opened === undefined ? {} : { opened }),
        });

  const current = view?.current ?? null;
  const next = view?.next ?? null;
  const owned = new Set(who.owns);
  const order = view === null ? [] : [...view.order];
  const seen = new Set(order);
  for (const id of visible.keys()) if (!seen.has(id)) order.push(id);

  const rows: RowContext[] = [];
  for (const id of order) {
    const c = visible.get(id);
    if (c === undefined) continue;
    const extra = modeOut?.rows.get(id);
    const isCurrent = id === current;
    const isNext = id === next;
    const defeated = c.isDefeated;
    const hidden = c.hidden;
    const controls = extra?.controls ?? [];
    const initiative = extra === undefined ? c.initiative : extra.initiative;
    rows.push({
      id,
      name: c.name ?? "",
      img: c.img ?? "",
      initiative: initiative === null ? "" : String(initiative),
      isCurrent,
      currentLabel: extra?.currentLabel ?? "STRUCTURED_INITIATIVE.Tracker.Current",
      isNext,
      owned: !isGM && owned.has(id),
      hidden,
      defeated,
      // A row acting now or up next is never greyed out as done.
      acted: extra?.acted === true && !isCurrent && !isNext,
      waiting: extra?.waiting === true,
      controls,
      mode: extra?.data ?? null,
    });
  }

  const turnControls: ControlContext[] = [];
  const started = view?.started ?? false;
  // Undo is offered only where the history holds a step to go back to.
  if (started && isGM && bound !== null) {
    const undo = {
      round: bound.undoTarget("previousRound") !== null,
      turn: bound.undoTarget("previousTurn") !== null,
    };
    if (undo.round) turnControls.push(control({ action: "siPreviousRound", label: "PreviousRound" }));
    if (undo.turn) turnControls.push(control({ action: "siPreviousTurn", label: "PreviousTurn" }));
  }
  if (allowed.has("nextTurn"))
    turnControls.push(
      control({
        action: "siNextTurn",
        label: isGM ? "NextTurn" : "EndTurn",
        aria: isGM ? "NextTurn" : "EndTurnFor",
        name: current === null ? "" : nameOf(current),
        primary: true,
      }),
    );
  if (allowed.has("nextRound")) turnControls.push(control({ action: "siNextRound", label: "NextRound" }));
  // As core's footer does: the GM ends a started encounter (core asks to confirm, then deletes it).
  if (isGM && started) turnControls.push(control({ action: "siEndCombat", label: "EndCombat" }));

  const currentName = current === null ? "" : nameOf(current);
  const nextName = next === null ? "" : nameOf(next);
  const round = view?.round ?? 0;
  const stepLabel = `${I18N}.Step.${view?.step ?? "setup"}`;
  const stepText = modeOut?.stepText ?? "";
  // Nobody acts now (the round's start, an open slot, an upkeep): the round and what happens instead.
  const idle = modeOut?.idleAnnouncement ?? "";
  const announcement = !started
    ? ""
    : current === null
      ? i18n.format(`${T}.AnnounceStep`, {
          round: String(round),
          step: idle !== "" ? idle : stepText !== "" ? stepText : i18n.localize(stepLabel),
        })
      : i18n.format(next === null ? `${T}.AnnounceTurn` : `${T}.AnnounceTurnNext`, {
          round: String(round),
          name: currentName,
          next: nextName,
        });
  const canChooseMode = isGM && !combat.started && combat.round === 0 && !started;
  const modeChoice = canChooseMode ? modeChoiceFor(mode) : [];
  const setupControls = modeOut?.setupControls ?? [];
  const panel = modeOut?.panel ?? null;
  const list = modeOut?.list ?? null;
  return {
    rootClass: CSS_ROOT,
    mode,
    modeLabel: `${I18N}.Mode.${mode}`,
    corrupted,
    newerFormat,
    started,
    round,
    stepLabel,
    stepText,
    isGM,
    noGM: !isGM && !activeGM,
    currentName,
    hasCurrent: current !== null,
    nextName,
    hasNext: next !== null,
    announcement,
    // While nobody acts, each new announcement is news (another slot opens).
    announceKey: `${combat.id ?? ""}:${round}:${current ?? `:${announcement}`}`,
    modeChoice,
    canChooseMode,
    setupControls,
    turnControls,
    resetControl: corrupted && isGM ? control({ action: "siReset", label: "Reset", primary: true }) : null,
    rows,
    empty: rows.length === 0,
    rowPartial: modeTracker?.rowPartial ?? "",
    rowBodyPartial: modeTracker?.rowBodyPartial ?? "",
    surpriseRound: modeOut?.emphasiseStep ?? false,
    stepShown: modeOut?.stepShown ?? false,
    panelPartial: panel === null ? "" : (modeTracker?.panelPartial ?? ""),
    panel,
    listPartial: list === null ? "" : (modeTracker?.listPartial ?? ""),
    list,
    hasHints: modeTracker?.hints === true,
    hintsShown,
    hintsTitle: i18n.localize(`${T}.${hintsShown ? "HintsFold" : "HintsShow"}`),
  };
}
