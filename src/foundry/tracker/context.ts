/**
 * Everything the structured tracker's templates show, computed from the stored encounter and the
 * viewing user. Templates only loop, branch on booleans and localise; every decision is made here.
 * The controls a user sees are exactly the actions the rules allow that user now.
 */
import { CSS_ROOT, FLAGS, I18N, MODULE_ID, SYSTEM_DEFAULT, TEMPLATES } from "../../constants";
import { MODE_IDS, type AllowedAction, type ModeId, type Requester, type TurnView } from "../../core/engine";
import { groupMembers, pendingRollOffs, type IndividualState } from "../../modes/individual/rules/individual";
import { parseIndividualState } from "../../modes/individual/rules/state";
import { loadBound, modeOf, requesterFor } from "../authority/controller";
import type { BoundEncounter } from "../../core/binding";
import { slotsTracker, type SlotListContext, type SlotsRowContext } from "../../modes/slots/tracker";
import { sidesTracker, type SidesPanelContext, type SidesRowContext } from "../../modes/sides/tracker";

const T = `${I18N}.Tracker`;

/** One button. Its visible text is `label`, its accessible name `aria` formatted with `name`. */
export interface ControlContext {
  /** The `data-action` the tracker's `actions` handle. */
  readonly action: string;
  /** i18n key of the visible text. */
  readonly label: string;
  /** The accessible name, localised (it may hold a name, so it is escaped like any text). */
  readonly ariaLabel: string;
  /** Accessible name of the text input that goes with the control (the ready trigger), or "". */
  readonly inputLabel: string;
  /** The combatant the control acts for, or "". */
  readonly combatantId: string;
  /** The group the control acts for, or "". */
  readonly groupId: string;
  /** A toggle button (rendered with `aria-pressed`). */
  readonly toggle: boolean;
  /** The toggle's state. */
  readonly pressed: boolean;
  /** Styled as the main action of its row or strip. */
  readonly primary: boolean;
}

/** The individual mode's part of a row. */
export interface IndividualRowContext {
  readonly groupId: string;
  readonly inGroup: boolean;
  readonly modifier: string;
  readonly hasModifier: boolean;
  readonly aware: boolean;
  readonly showAware: boolean;
  readonly flatFooted: boolean;
  readonly delaying: boolean;
  readonly readied: boolean;
  readonly trigger: string;
  readonly acted: boolean;
  readonly needsRoll: boolean;
  readonly rollOffs: string;
  readonly hasRollOffs: boolean;
}

/** One combatant row. */
export interface RowContext {
  readonly id: string;
  readonly name: string;
  readonly img: string;
  readonly hasImg: boolean;
  readonly initiative: string;
  readonly hasInitiative: boolean;
  readonly isCurrent: boolean;
  readonly isNext: boolean;
  readonly owned: boolean;
  readonly hidden: boolean;
  readonly defeated: boolean;
  /** Space-separated CSS modifier classes. */
  readonly css: string;
  readonly controls: readonly ControlContext[];
  readonly hasControls: boolean;
  /** The "ready" control, rendered with its trigger text input; null when not allowed. */
  readonly ready: ControlContext | null;
  /** The mode-specific part (one key per mode; only the encounter's mode is set). */
  readonly individual: IndividualRowContext | null;
  readonly slots: SlotsRowContext | null;
  readonly sides: SidesRowContext | null;
}

/** An initiative group in the glance strip. */
export interface GroupContext {
  readonly id: string;
  readonly members: string;
  readonly initiative: string;
  readonly rolled: boolean;
  readonly controls: readonly ControlContext[];
}

/** A tie waiting for a roll-off. */
export interface RollOffContext {
  readonly names: string;
  readonly controls: readonly ControlContext[];
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
  readonly started: boolean;
  readonly round: number;
  readonly stepLabel: string;
  readonly isGM: boolean;
  /** A player with no GM connected: controls would fail, the strip says so. */
  readonly noGM: boolean;
  readonly currentName: string;
  readonly hasCurrent: boolean;
  readonly nextName: string;
  readonly hasNext: boolean;
  /** The sentence the aria-live region announces when the turn changes. */
  readonly announcement: string;
  /** Changes exactly when the turn or round changes. */
  readonly announceKey: string;
  readonly modeChoice: readonly ModeOptionContext[];
  readonly canChooseMode: boolean;
  readonly setupControls: readonly ControlContext[];
  readonly hasSetupControls: boolean;
  readonly groups: readonly GroupContext[];
  readonly hasGroups: boolean;
  /** The GM may put NPCs into groups now (shows the group name input). */
  readonly canGroup: boolean;
  readonly rollOffs: readonly RollOffContext[];
  readonly hasRollOffs: boolean;
  readonly turnControls: readonly ControlContext[];
  readonly hasTurnControls: boolean;
  readonly resetControl: ControlContext | null;
  readonly rows: readonly RowContext[];
  readonly empty: boolean;
  /** The partial that renders a row's mode-specific content. */
  readonly rowPartial: string;
  readonly surpriseRound: boolean;
  /** `slots`: the slot list (rendered above the rows), or null in other modes. */
  readonly slotList: SlotListContext | null;
  /** `sides`: the panel (step banner, sides, declaration, pass order), or null in other modes. */
  readonly sidesPanel: SidesPanelContext | null;
}

/** A control in its plain form, before defaults. */
export interface ControlSpec {
  readonly action: string;
  readonly label: string;
  readonly aria?: string;
  readonly name?: string;
  readonly combatantId?: string;
  readonly groupId?: string;
  readonly toggle?: boolean;
  readonly pressed?: boolean;
  readonly primary?: boolean;
  /** i18n key of the accessible name of a text input that goes with the control. */
  readonly input?: string;
}

/** Makes a control from its plain form. */
export type ControlFactory = (spec: ControlSpec) => ControlContext;

function controlFactory(i18n: Localiser): ControlFactory {
  return (spec) => ({
    action: spec.action,
    label: `${T}.${spec.label}`,
    ariaLabel: i18n.format(`${T}.${spec.aria ?? spec.label}`, { name: spec.name ?? "" }),
    inputLabel: spec.input === undefined ? "" : i18n.format(`${T}.${spec.input}`, { name: spec.name ?? "" }),
    combatantId: spec.combatantId ?? "",
    groupId: spec.groupId ?? "",
    toggle: spec.toggle ?? false,
    pressed: spec.pressed ?? false,
    primary: spec.primary ?? false,
  });
}

/** The actions allowed to the viewer, indexed for quick look-up. */
export class Allowed {
  private readonly global = new Set<string>();
  private readonly byCombatant = new Map<string, Set<string>>();
  private readonly byGroup = new Map<string, Set<string>>();

  constructor(actions: readonly AllowedAction[]) {
    for (const action of actions) {
      if (action.groupId !== undefined) add(this.byGroup, action.groupId, action.type);
      else if (action.combatantId !== undefined) add(this.byCombatant, action.combatantId, action.type);
      else this.global.add(action.type);
    }
  }

  has(type: string): boolean {
    return this.global.has(type);
  }

  for(combatantId: string, type: string): boolean {
    return this.byCombatant.get(combatantId)?.has(type) ?? false;
  }

  forGroup(groupId: string, type: string): boolean {
    return this.byGroup.get(groupId)?.has(type) ?? false;
  }

  /** Combatant ids with this action allowed. */
  combatants(type: string): string[] {
    const out: string[] = [];
    for (const [id, types] of this.byCombatant) if (types.has(type)) out.push(id);
    return out;
  }
}

function add(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (set === undefined) map.set(key, new Set([value]));
  else set.add(value);
}

/** What one mode adds to the tracker: its row partial and per-row and strip data. */
export interface ModeTracker {
  readonly rowPartial: string;
  build(input: ModeInput): ModeOutput;
}

/** What a mode's tracker is given. */
export interface ModeInput {
  readonly bound: BoundEncounter;
  readonly allowed: Allowed;
  /** The allowed actions as the rules listed them (with any mode-specific fields, e.g. a slot). */
  readonly actions: readonly AllowedAction[];
  readonly combat: Combat.Implementation;
  readonly i18n: Localiser;
  readonly who: Requester;
  readonly nameOf: (id: string) => string;
  readonly control: ControlFactory;
}

/** What a mode's tracker returns. */
export interface ModeOutput {
  readonly rows: ReadonlyMap<string, ModeRow>;
  readonly setupControls: ControlContext[];
  readonly groups: GroupContext[];
  readonly canGroup: boolean;
  readonly rollOffs: RollOffContext[];
  readonly surpriseRound: boolean;
  /** `slots`: the slot list. */
  readonly slotList?: SlotListContext;
  /** `sides`: the panel. */
  readonly sidesPanel?: SidesPanelContext;
}

/** What a mode adds to one row. */
export interface ModeRow {
  /** The initiative the mode ranks by (stored in the encounter, not on the Combatant). */
  readonly initiative: number | null;
  readonly controls: ControlContext[];
  readonly ready: ControlContext | null;
  readonly individual?: IndividualRowContext;
  readonly slots?: SlotsRowContext;
  readonly sides?: SidesRowContext;
  /** The row's combatant has acted this round (greyed out). */
  readonly acted?: boolean;
}

const signed = (n: number): string => (n >= 0 ? `+${n}` : `${n}`);

/** The `individual` mode's tracker (RULES.md §2). */
const individualTracker: ModeTracker = {
  rowPartial: TEMPLATES.modeRows.individual,
  build({ bound, allowed, nameOf, control }) {
    const state: IndividualState | null = parseIndividualState(bound.state);
    const rows = new Map<string, ModeRow>();
    if (state === null)
      return { rows, setupControls: [], groups: [], canGroup: false, rollOffs: [], surpriseRound: false };
    const acted = new Set(state.acted);
    const flat = new Set(state.flatFooted);
    const delaying = new Set(state.delaying.map((d) => d.combatantId));
    const rollOffText = new Map<string, string[]>();
    for (const set of state.rollOffs)
      for (const r of set) {
        const list = rollOffText.get(r.combatantId) ?? [];
        list.push(String(r.total));
        rollOffText.set(r.combatantId, list);
      }
    for (const c of state.combatants) {
      const name = nameOf(c.id);
      const on = (type: string): boolean => allowed.for(c.id, type);
      const controls: ControlContext[] = [];
      const base = { name, combatantId: c.id };
      if (on("recordInitiative"))
        controls.push(control({ ...base, action: "siRoll", label: "Roll", aria: "RollFor", primary: true }));
      if (on("setAware"))
        controls.push(
          control({ ...base, action: "siAware", label: "Aware", aria: "AwareFor", toggle: true, pressed: c.aware }),
        );
      if (on("setGroup")) {
        if (c.groupId === null)
          controls.push(control({ ...base, action: "siGroup", label: "Group", aria: "GroupFor" }));
        else controls.push(control({ ...base, action: "siUngroup", label: "Ungroup", aria: "UngroupFor" }));
      }
      if (on("delay")) controls.push(control({ ...base, action: "siDelay", label: "Delay", aria: "DelayFor" }));
      if (on("endDelay"))
        controls.push(control({ ...base, action: "siEndDelay", label: "ActNow", aria: "ActNowFor", primary: true }));
      if (on("triggerReady"))
        controls.push(
          control({ ...base, action: "siTriggerReady", label: "Trigger", aria: "TriggerFor", primary: true }),
        );
      const ready = on("ready")
        ? control({ ...base, action: "siReady", label: "Ready", aria: "ReadyFor", input: "TriggerTextFor" })
        : null;
      const offs = rollOffText.get(c.id) ?? [];
      rows.set(c.id, {
        initiative: c.initiative,
        controls,
        ready,
        individual: {
          groupId: c.groupId ?? "",
          inGroup: c.groupId !== null,
          modifier: c.modifier === null ? "" : signed(c.modifier),
          hasModifier: c.modifier !== null,
          aware: c.aware,
          showAware: !state.started || state.surpriseRound,
          flatFooted: flat.has(c.id),
          delaying: delaying.has(c.id),
          readied: c.ready !== null,
          trigger: c.ready ?? "",
          acted: state.started && acted.has(c.id) && state.current !== c.id && !delaying.has(c.id),
          needsRoll: c.initiative === null,
          rollOffs: offs.join(", "),
          hasRollOffs: offs.length > 0,
        },
      });
    }

    const setupControls: ControlContext[] = [];
    const rollable = allowed.combatants("recordInitiative");
    const groups = [...new Set(state.combatants.flatMap((c) => (c.groupId === null ? [] : [c.groupId])))];
    const groupContexts = groups.map((groupId): GroupContext => {
      const members = groupMembers(state, groupId);
      const first = state.combatants.find((c) => c.id === members[0]);
      const rolled = first?.initiative !== null && first?.initiative !== undefined;
      const controls = allowed.forGroup(groupId, "recordGroupInitiative")
        ? [control({ action: "siRollGroup", label: "Roll", aria: "RollGroup", name: groupId, groupId, primary: true })]
        : [];
      return {
        id: groupId,
        members: members.map(nameOf).join(", "),
        initiative: rolled ? String(first.initiative) : "",
        rolled,
        controls,
      };
    });
    const groupRolls = groupContexts.filter((g) => g.controls.length > 0 && !g.rolled).length;
    if (rollable.filter((id) => state.combatants.find((c) => c.id === id)?.initiative === null).length + groupRolls > 1)
      setupControls.push(control({ action: "siRollAll", label: "RollAll" }));
    if (allowed.has("start")) {
      setupControls.push(control({ action: "siStart", label: "Start", primary: true }));
      if (state.combatants.some((c) => c.aware))
        setupControls.push(control({ action: "siStartSurprise", label: "StartSurprise" }));
    }
    const rollOffs: RollOffContext[] = [];
    for (const id of allowed.combatants("recordRollOff")) {
      const set = pendingRollOffs(state).find((ids) => ids[0] === id) ?? [id];
      rollOffs.push({
        names: set.map(nameOf).join(", "),
        controls: [
          control({ action: "siRollOff", label: "RollOff", aria: "RollOffFor", name: nameOf(id), combatantId: id }),
        ],
      });
    }
    return {
      rows,
      setupControls,
      groups: groupContexts,
      canGroup: state.combatants.some((c) => allowed.for(c.id, "setGroup")),
      rollOffs,
      surpriseRound: state.started && state.surpriseRound,
    };
  },
};

/**
 * Per mode, its tracker. A mode without an entry renders the generic rows only; the other four
 * modes add theirs here as they land.
 */
const MODE_TRACKERS: Partial<Record<ModeId, ModeTracker>> = {
  individual: individualTracker,
  slots: slotsTracker,
  sides: sidesTracker,
};

/**
 * The loaded encounter and what a requester may do in it, kept per stored revision (every write
 * increments it): a re-render without a change — Foundry re-renders the tracker on many unrelated
 * updates — reuses the rules' answer instead of probing again. A few entries are kept (one per
 * viewed encounter and user).
 */
const evaluated = new Map<
  string,
  { readonly bound: BoundEncounter | null; readonly allowed: readonly AllowedAction[] }
>();
const EVALUATED_MAX = 8;

function evaluate(
  combat: Combat.Implementation,
  who: Requester,
): { readonly bound: BoundEncounter | null; readonly allowed: readonly AllowedAction[] } {
  const stored: unknown = combat.getFlag(MODULE_ID, FLAGS.encounter);
  const rev = typeof stored === "object" && stored !== null ? (stored as { rev?: unknown }).rev : undefined;
  const key =
    typeof rev === "number"
      ? [combat.id ?? "", rev, modeOf(combat), who.userId, who.isGM, who.owns.join(",")].join("|")
      : null;
  const hit = key === null ? undefined : evaluated.get(key);
  if (hit !== undefined) return hit;
  const bound = loadBound(combat);
  const result = { bound, allowed: bound === null ? [] : bound.allowed(who) };
  if (key !== null) {
    if (evaluated.size >= EVALUATED_MAX) evaluated.delete(evaluated.keys().next().value ?? "");
    evaluated.set(key, result);
  }
  return result;
}

/** Localisation function the context builder uses (Foundry's `game.i18n`). */
export interface Localiser {
  localize(key: string): string;
  format(key: string, data: Record<string, string>): string;
}

/**
 * The structured tracker context for one combat as one user sees it; null when the combat runs in
 * "system default" mode (the system's own tracker renders it).
 */
export function buildTrackerContext(
  combat: Combat.Implementation,
  user: User.Implementation,
  i18n: Localiser,
  activeGM: boolean,
): TrackerContext | null {
  const mode = modeOf(combat);
  if (mode === SYSTEM_DEFAULT) return null;
  const who = requesterFor(combat, user);
  const isGM = user.isGM;
  const { bound, allowed: allowedActions } = evaluate(combat, who);
  const corrupted = bound === null;
  const visible = new Map<string, Combatant.Implementation>();
  for (const c of combat.combatants.contents) if (isGM || c.visible) visible.set(c.id ?? "", c);
  const nameOf = (id: string): string => visible.get(id)?.name ?? i18n.localize(`${T}.Unknown`);
  const view: TurnView | null = bound?.view ?? null;
  const allowed = new Allowed(allowedActions);
  const control = controlFactory(i18n);
  const modeTracker = MODE_TRACKERS[mode];
  const modeOut =
    bound === null || modeTracker === undefined
      ? null
      : modeTracker.build({ bound, allowed, actions: allowedActions, combat, i18n, who, nameOf, control });

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
    const css = [
      isCurrent ? "si-row--current" : "",
      isNext ? "si-row--next" : "",
      defeated ? "si-row--defeated" : "",
      hidden ? "si-row--hidden" : "",
      extra?.individual?.acted === true || extra?.acted === true ? "si-row--acted" : "",
      extra?.individual?.delaying === true ? "si-row--waiting" : "",
    ]
      .filter((s) => s !== "")
      .join(" ");
    const controls = extra?.controls ?? [];
    const initiative = extra === undefined ? c.initiative : extra.initiative;
    rows.push({
      id,
      name: c.name ?? "",
      img: c.img ?? "",
      hasImg: typeof c.img === "string" && c.img !== "",
      initiative: initiative === null ? "" : String(initiative),
      hasInitiative: initiative !== null,
      isCurrent,
      isNext,
      owned: !isGM && owned.has(id),
      hidden,
      defeated,
      css,
      controls,
      hasControls: controls.length > 0 || extra?.ready != null,
      ready: extra?.ready ?? null,
      individual: extra?.individual ?? null,
      slots: extra?.slots ?? null,
      sides: extra?.sides ?? null,
    });
  }

  const turnControls: ControlContext[] = [];
  const started = view?.started ?? false;
  if (started && isGM) {
    turnControls.push(control({ action: "siPreviousRound", label: "PreviousRound" }));
    turnControls.push(control({ action: "siPreviousTurn", label: "PreviousTurn" }));
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

  const currentName = current === null ? "" : nameOf(current);
  const nextName = next === null ? "" : nameOf(next);
  const round = view?.round ?? 0;
  const announcement = !started
    ? ""
    : current === null
      ? i18n.format(`${T}.AnnounceRound`, { round: String(round) })
      : i18n.format(next === null ? `${T}.AnnounceTurn` : `${T}.AnnounceTurnNext`, {
          round: String(round),
          name: currentName,
          next: nextName,
        });
  const canChooseMode = isGM && !combat.started && combat.round === 0 && !started;
  const modeChoice = canChooseMode
    ? [SYSTEM_DEFAULT, ...MODE_IDS].map((value) => ({
        value,
        label: `${I18N}.Mode.${value}`,
        selected: value === mode,
      }))
    : [];
  const setupControls = modeOut?.setupControls ?? [];
  const groups = modeOut?.groups ?? [];
  const rollOffs = modeOut?.rollOffs ?? [];
  return {
    rootClass: CSS_ROOT,
    mode,
    modeLabel: `${I18N}.Mode.${mode}`,
    corrupted,
    started,
    round,
    stepLabel: `${I18N}.Step.${view?.step ?? "setup"}`,
    isGM,
    noGM: !isGM && !activeGM,
    currentName,
    hasCurrent: current !== null,
    nextName,
    hasNext: next !== null,
    announcement,
    announceKey: `${combat.id ?? ""}:${round}:${current ?? ""}`,
    modeChoice,
    canChooseMode,
    setupControls,
    hasSetupControls: setupControls.length > 0,
    groups,
    hasGroups: groups.length > 0,
    canGroup: modeOut?.canGroup ?? false,
    rollOffs,
    hasRollOffs: rollOffs.length > 0,
    turnControls,
    hasTurnControls: turnControls.length > 0,
    resetControl: corrupted && isGM ? control({ action: "siReset", label: "Reset", primary: true }) : null,
    rows,
    empty: rows.length === 0,
    rowPartial: modeTracker?.rowPartial ?? TEMPLATES.modeRows.individual,
    surpriseRound: modeOut?.surpriseRound ?? false,
    slotList: modeOut?.slotList ?? null,
    sidesPanel: modeOut?.sidesPanel ?? null,
  };
}
