/**
 * The `sides` tracker's rows (RULES.md §1): per combatant, its side, traits, declared actions,
 * penalty, reactions and the controls the rules allow the viewer (dodge, parry, slow down, let pass,
 * roller, the GM's side choice); on the declaring row, the declaration form and the GM's countdown
 * controls. Every decision is made here; the row template only loops, branches and localises.
 */
import { I18N } from "../../constants";
import { SIDES_SLOW_FILL } from "./constants";
import {
  actionsTaken,
  currentDeclarer,
  currentPass,
  declarationOf,
  declarationOrder,
  passOrder,
  penalty,
  sideRoll,
  sideRoller,
  slowedWaiting,
} from "./rules/derived";
import type { Declaration, SidesCombatant, SidesState } from "./rules/types";
import type { ClockView } from "./countdown";
import { formatCount } from "../../foundry/tracker/controls";
import type { ControlContext } from "../../core/ui";
import type { ModeInput, ModeRow } from "../contract";

const S = "Sides";

/** One declared action, numbered. */
export interface SidesActionContext {
  readonly number: string;
  readonly text: string;
  /** Already taken this round. */
  readonly taken: boolean;
  /** Lost: a slowed action whose moment passed. */
  readonly lost: boolean;
}

/** The `sides` part of one combatant row. */
export interface SidesRowContext {
  readonly sideName: string;
  readonly sideColour: string;
  readonly hasSide: boolean;
  readonly dexterity: string;
  readonly perception: string;
  readonly isRoller: boolean;
  readonly declared: boolean;
  readonly hesitated: boolean;
  readonly actions: readonly SidesActionContext[];
  /** Localised "no actions" when it declared none. */
  readonly noActions: boolean;
  readonly forcePoint: boolean;
  /** "−2D", shown when not 0D. */
  readonly penalty: string;
  readonly hasPenalty: boolean;
  /** Localised reactions taken ("dodge, parry"), or "". */
  readonly reactions: string;
  /** Localised "acts after X", or "". */
  readonly slowedAfter: string;
  /** "1 action lost" / "2 actions lost", or "". */
  readonly lost: string;
  readonly hasLost: boolean;
  /** Declares now. */
  readonly declaring: boolean;
  /**
   * Its place in the declaration order while it has yet to declare ("declares #3"), or "": the
   * rows keep the passes' order all round, so the declaring order is shown on each row instead.
   */
  readonly declaresAt: string;
  /** The declaration form, on the declaring row for its owner and the GM; or null. */
  readonly declareForm: DeclareFormContext | null;
  /** The GM's countdown controls, on the declaring row. */
  readonly clockControls: readonly ControlContext[];
  readonly hasClockControls: boolean;
  /** The slow-down choice (a select of who to follow), or null. */
  readonly slowDown: SlowDownContext | null;
  /** The GM's side choice (a select of sides), or null. */
  readonly move: MoveContext | null;
}

/** The GM's side choice of a row. */
export interface MoveContext {
  readonly combatantId: string;
  readonly selectLabel: string;
  readonly options: readonly { readonly value: string; readonly label: string; readonly selected: boolean }[];
  readonly control: ControlContext;
}

/**
 * The slow-down choice of a row: a disclosure filled on use (`data-si-fill`). Until the user opens
 * it only its summary renders, which does not change with who acts now (the choice's first option,
 * its default, does): a turn advance leaves every closed one as it is.
 */
export interface SlowDownContext {
  readonly combatantId: string;
  /** The choice, once the user opened it; else null. */
  readonly form: SlowDownFormContext | null;
}

/** The opened slow-down choice: a select of who to follow and its button. */
export interface SlowDownFormContext {
  readonly combatantId: string;
  readonly selectLabel: string;
  /** Every character it may follow, the one acting now first. */
  readonly options: readonly { readonly value: string; readonly label: string }[];
  readonly control: ControlContext;
}

/** The declaration form for the current declarer. */
export interface DeclareFormContext {
  readonly combatantId: string;
  readonly textLabel: string;
  readonly control: ControlContext;
  readonly penaltyHint: string;
}

/** What every row of one build shares: the round's facts, and the declaring row's form and controls. */
interface RowsShared {
  readonly pass: number | null;
  readonly declarer: string | null;
  readonly doneIds: ReadonlySet<string>;
  /** Who a combatant may slow down after: the pass's others not done yet, then the waiting ones. */
  readonly slowTargets: readonly { readonly value: string; readonly label: string }[];
  /** Declaration: each row still to declare shows its place in the declaring order. */
  readonly declarePlace: ReadonlyMap<string, number>;
  readonly declareForm: DeclareFormContext | null;
  readonly clockControls: readonly ControlContext[];
  /** Each side's roller (`sideRoller`), by side id: found once, not once per row. */
  readonly rollers: ReadonlyMap<string, string | null>;
}

const minus = (code: string): string => (code === "0D" ? "" : `−${code}`);

/** The declaration form, on the declaring row for its owner and the GM; else null. */
function declareFormOf(
  { state, allowed, i18n, nameOf, control }: ModeInput<SidesState>,
  declarer: string | null,
): DeclareFormContext | null {
  return declarer !== null && allowed.for(declarer, "declare")
    ? {
        combatantId: declarer,
        textLabel: i18n.format(`${I18N}.Tracker.${S}.ActionsFor`, { name: nameOf(declarer) }),
        control: control({
          action: "siSidesDeclare",
          combatantId: declarer,
          name: nameOf(declarer),
          label: `${S}.Declare`,
          aria: `${S}.DeclareFor`,
          primary: true,
        }),
        penaltyHint: i18n.format(`${I18N}.Tracker.${S}.PenaltyHint`, { penalty: `−${state.actionPenalty}` }),
      }
    : null;
}

/** The GM's countdown controls: pause and resume whoever declares; extend and excuse where it counts. */
function clockControlsOf({ nameOf, control, who }: ModeInput<SidesState>, clock: ClockView | null): ControlContext[] {
  const clockControls: ControlContext[] = [];
  if (who.isGM && clock !== null) {
    clockControls.push(
      control({
        action: clock.paused ? "siSidesResume" : "siSidesPause",
        label: `${S}.${clock.paused ? "Resume" : "Pause"}`,
      }),
    );
  }
  if (who.isGM && clock?.counts === true) {
    clockControls.push(
      control({ action: "siSidesExtend", label: `${S}.Extend` }),
      control({
        action: clock.excused ? "siSidesUnexcuse" : "siSidesExcuse",
        combatantId: clock.combatantId,
        name: nameOf(clock.combatantId),
        label: `${S}.Excuse`,
        aria: `${S}.ExcuseFor`,
        toggle: true,
        pressed: clock.excused,
      }),
    );
  }
  return clockControls;
}

/** What the rows of one build share (the declaration form and countdown controls made once). */
function rowsShared(input: ModeInput<SidesState>, clock: ClockView | null): RowsShared {
  const { state, nameOf } = input;
  const declarer = currentDeclarer(state);
  const waiting = slowedWaiting(state);
  const doneIds = new Set(state.done);
  const slowTargets = [...passOrder(state), ...waiting.map((w) => w.combatantId)]
    .filter((id) => !doneIds.has(id))
    .map((id) => ({ value: id, label: nameOf(id) }));
  const declarePlace = new Map(declarationOrder(state).map((id, i) => [id, i + 1]));
  const declareForm = declareFormOf(input, declarer);
  const clockControls = clockControlsOf(input, clock);
  const rollers = new Map(state.sides.map((side) => [side.id, sideRoller(state, side.id)]));
  return {
    pass: currentPass(state),
    declarer,
    doneIds,
    slowTargets,
    declarePlace,
    declareForm,
    clockControls,
    rollers,
  };
}

/** A row's buttons: let pass, dodge and parry as the rules allow; before the start, the GM's "make roller". */
function rowControls(
  { state, allowed, nameOf, control, who }: ModeInput<SidesState>,
  { rollers }: RowsShared,
  c: SidesCombatant,
): ControlContext[] {
  const on = (type: string): boolean => allowed.for(c.id, type);
  const base = { name: nameOf(c.id), combatantId: c.id };
  const controls: ControlContext[] = [];
  if (on("letPass"))
    controls.push(control({ ...base, action: "siSidesLetPass", label: `${S}.LetPass`, aria: `${S}.LetPassFor` }));
  if (on("react")) {
    controls.push(control({ ...base, action: "siSidesDodge", label: `${S}.Dodge`, aria: `${S}.DodgeFor` }));
    controls.push(control({ ...base, action: "siSidesParry", label: `${S}.Parry`, aria: `${S}.ParryFor` }));
  }
  const side = state.sides.find((s) => s.id === c.sideId);
  // Sides and rollers are set up before the start; afterwards the controls are gone.
  if (who.isGM && side !== undefined && !state.started && rollers.get(side.id) !== c.id)
    controls.push(
      control({
        ...base,
        action: "siSidesRoller",
        groupId: side.id,
        label: `${S}.MakeRoller`,
        aria: `${S}.MakeRollerFor`,
      }),
    );
  return controls;
}

/** The GM's side choice of a row, before the start when there is more than one side; else null. */
function moveOf({ state, i18n, nameOf, control, who }: ModeInput<SidesState>, c: SidesCombatant): MoveContext | null {
  const base = { name: nameOf(c.id), combatantId: c.id };
  return who.isGM && state.sides.length > 1 && !state.started
    ? {
        combatantId: c.id,
        selectLabel: i18n.format(`${I18N}.Tracker.${S}.SideFor`, { name: nameOf(c.id) }),
        options: state.sides.map((o) => ({ value: o.id, label: o.name, selected: o.id === c.sideId })),
        control: control({ ...base, action: "siSidesMove", label: `${S}.Move`, aria: `${S}.MoveFor` }),
      }
    : null;
}

/** The slow-down choice of a row where the rules allow it (its form only once opened); else null. */
function slowDownOf(
  { allowed, i18n, nameOf, control, opened }: ModeInput<SidesState>,
  shared: RowsShared,
  c: SidesCombatant,
): SlowDownContext | null {
  const base = { name: nameOf(c.id), combatantId: c.id };
  return allowed.for(c.id, "slowDown")
    ? {
        combatantId: c.id,
        form:
          (opened?.(SIDES_SLOW_FILL, c.id) ?? true)
            ? {
                combatantId: c.id,
                selectLabel: i18n.format(`${I18N}.Tracker.${S}.SlowAfterFor`, { name: nameOf(c.id) }),
                options: shared.slowTargets.filter((t) => t.value !== c.id),
                control: control({
                  ...base,
                  action: "siSidesSlow",
                  label: `${S}.SlowDown`,
                  aria: `${S}.SlowDownFor`,
                }),
              }
            : null,
      }
    : null;
}

/** The reactions taken this round, one entry per kind, counted: "Dodge ×3, Parry". */
function reactionsOf({ i18n }: ModeInput<SidesState>, d: Declaration | undefined): string[] {
  return (["dodge", "parry"] as const).flatMap((kind) => {
    const count = (d?.reactions ?? []).filter((r) => r.kind === kind).length;
    if (count === 0) return [];
    const reaction = i18n.localize(`${I18N}.Tracker.${S}.${kind === "dodge" ? "Dodge" : "Parry"}`);
    return [
      count === 1 ? reaction : i18n.format(`${I18N}.Tracker.${S}.ReactionTimes`, { reaction, count: String(count) }),
    ];
  });
}

/** The declared actions of a row, numbered, each taken or lost as the passes went. */
function actionsOf(state: SidesState, c: SidesCombatant, d: Declaration | undefined): SidesActionContext[] {
  const taken = actionsTaken(state, c.id) - (d?.reactions.length ?? 0);
  const lostIn = new Set(state.lost.filter((l) => l.combatantId === c.id).map((l) => l.pass));
  return (d?.hesitated ? [] : (d?.actions ?? [])).map((a, i) => ({
    number: String(i + 1),
    text: a.text,
    // Action i is the one of pass i + 1.
    taken: i < taken && !lostIn.has(i + 1),
    lost: i < taken && lostIn.has(i + 1),
  }));
}

/** One combatant's row. */
function sidesRow(input: ModeInput<SidesState>, shared: RowsShared, c: SidesCombatant): ModeRow {
  const { bound, state, i18n, nameOf } = input;
  const { pass, declarer, doneIds, declarePlace, declareForm, clockControls } = shared;
  const d = declarationOf(state, c.id);
  const controls = rowControls(input, shared, c);
  const side = state.sides.find((s) => s.id === c.sideId);
  const move = moveOf(input, c);
  const slowDown = slowDownOf(input, shared, c);
  const slowed = state.slowed.find((s) => s.combatantId === c.id);
  const lost = state.lost.filter((l) => l.combatantId === c.id).length;
  const code = penalty(state, c.id);
  const reactions = reactionsOf(input, d);
  const actions = actionsOf(state, c, d);
  const data: SidesRowContext = {
    sideName: state.sides.find((s) => s.id === c.sideId)?.name ?? "",
    sideColour: side?.colour ?? "",
    hasSide: side !== undefined,
    dexterity: c.dexterity ?? "0D",
    perception: c.perception ?? "0D",
    isRoller: side !== undefined && shared.rollers.get(side.id) === c.id,
    declared: d !== undefined && !d.hesitated,
    hesitated: d?.hesitated === true,
    actions,
    noActions: d !== undefined && !d.hesitated && d.actions.length === 0,
    forcePoint: d?.forcePoint === true,
    penalty: minus(code),
    hasPenalty: code !== "0D",
    reactions: reactions.join(", "),
    slowedAfter:
      slowed === undefined
        ? ""
        : i18n.format(`${I18N}.Tracker.${S}.ActsAfter`, {
            name: slowed.after === null ? "" : nameOf(slowed.after),
          }),
    lost: lost > 0 ? formatCount(i18n, `${I18N}.Tracker.${S}.Lost`, lost) : "",
    hasLost: lost > 0,
    declaring: declarer === c.id,
    declaresAt:
      d === undefined && declarer !== c.id && declarePlace.has(c.id)
        ? i18n.format(`${I18N}.Tracker.${S}.Place`, { place: String(declarePlace.get(c.id)) })
        : "",
    declareForm: declarer === c.id ? declareForm : null,
    clockControls: declarer === c.id ? clockControls : [],
    hasClockControls: declarer === c.id && clockControls.length > 0,
    slowDown,
    move,
  };
  return {
    // The row's initiative column shows its side's roll this round.
    initiative: c.sideId === null ? null : sideRoll(state, c.sideId),
    controls,
    acted: pass !== null && doneIds.has(c.id) && bound.view.current !== c.id,
    data,
  };
}

/** Every combatant's row, by id. */
export function sidesRows(input: ModeInput<SidesState>, clock: ClockView | null): Map<string, ModeRow> {
  const shared = rowsShared(input, clock);
  return new Map(input.state.combatants.map((c) => [c.id, sidesRow(input, shared, c)]));
}
