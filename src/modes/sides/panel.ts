/**
 * The `sides` tracker's panel above the rows (RULES.md §1), one line in every step (issue 29): each
 * side as a chip with its colour, roll and place (or the viewer's "Roll <side>" button while it has
 * not rolled), "Roll all", the declaration's countdown, and a disclosure the user opens for the rest:
 * each side's kind, roller, earlier rolls and the GM's re-roll and correction, the pass order, the
 * GM's side editing and trait refresh. The step's name (Setting up / Initiative / Declaration /
 * Pass k) is the glance strip's step pill. Under the line, while any: the ties the GM orders. The
 * set-up controls (Start) come after it. Every decision is made here; the panel template only
 * loops, branches and localises.
 */
import { I18N } from "../../constants";
import {
  currentDeclarer,
  currentPass,
  declaringSides,
  earlierRolls,
  isGMSide,
  pendingSideTies,
  pendingTies,
  passOrder,
  sideMembers,
  sideRoll,
  sideRoller,
  slowedWaiting,
} from "./rules/derived";
import type { Side, SidesState } from "./rules/types";
import type { ClockView } from "./countdown";
import { clock as pageClock } from "../../foundry/clock";
import type { ControlContext, ControlFactory } from "../../core/ui";
import type { KeyedEntry } from "../../foundry/tracker/dom-patch";
import type { ModeInput } from "../contract";

const S = "Sides";

/** One side in the panel. */
export interface SideContext {
  readonly id: string;
  readonly name: string;
  readonly colour: string;
  readonly members: string;
  /** i18n key of "GM side" / "PC side". */
  readonly kind: string;
  readonly roll: string;
  readonly rolled: boolean;
  /** Localised chip text of a rolled side: "Heroes #1 (12)" (its place "–" while not placed). */
  readonly chip: string;
  /** The GM typed the roll instead of rolling it. */
  readonly typed: boolean;
  /** Totals this roll replaced (the GM's re-rolls and corrections), shown struck through. */
  readonly earlier: readonly string[];
  /** Tied with another side, waiting for the GM's order (no place shown yet). */
  readonly tied: boolean;
  /** The GM's correction of the roll (a number field and its button), or null. */
  readonly correct: CorrectContext | null;
  readonly roller: string;
  /** 1-based place in the declaration order, or "". */
  readonly place: string;
  /** The GM's re-roll of a rolled side (in the disclosure). */
  readonly controls: readonly ControlContext[];
  /** The viewer's first roll of the side (on the line), or null. */
  readonly rollButton: RollButtonContext | null;
  /** The GM's save and delete buttons (shown with the inputs). */
  readonly editControls: readonly ControlContext[];
  /** The GM may rename and recolour it (shows the inputs). */
  readonly editable: boolean;
  readonly nameLabel: string;
  readonly colourLabel: string;
}

/** A button whose visible text is already localised and is its accessible name too ("Roll Heroes"). */
export interface RollButtonContext {
  readonly control: ControlContext;
  readonly text: string;
}

/** The GM's typed correction of a side's roll. */
export interface CorrectContext {
  readonly sideId: string;
  readonly inputLabel: string;
  readonly control: ControlContext;
}

/** A tie the GM orders: one button per entry, "X first". */
export interface SidesTieContext {
  readonly names: string;
  readonly controls: readonly ControlContext[];
}

/** One entry of the pass order (found again across renders by `keepKey`). */
export interface PassEntryContext extends KeyedEntry {
  readonly name: string;
  readonly done: boolean;
  readonly now: boolean;
  readonly next: boolean;
  readonly waiting: boolean;
  /** i18n key of its state text (colour is never the only cue). */
  readonly stateLabel: string;
}

/** The sides panel. */
export interface SidesPanelContext {
  /** Localised step name for the glance strip's step pill: "Initiative", "Declaration", "Pass 2", "Setting up". */
  readonly banner: string;
  readonly sides: readonly SideContext[];
  /** The viewer's "Roll all" (more than one side to roll), or null. */
  readonly rollAll: ControlContext | null;
  readonly sideTies: readonly SidesTieContext[];
  /** i18n key of the tie block's heading: a question for the GM, "waiting for the GM" for players. */
  readonly sideTiesHeading: string;
  readonly declaring: boolean;
  readonly declarerName: string;
  readonly hasDeclarer: boolean;
  readonly hasCountdown: boolean;
  /** Epoch ms of the deadline as the GM stamped it (the ticker counts down to it); "" when none. */
  readonly deadline: string;
  /** The whole countdown in ms: the ticker never shows more. */
  readonly fullMs: string;
  readonly seconds: string;
  readonly paused: boolean;
  /** Paused while no countdown shows (an NPC declares): the "Paused" badge alone. */
  readonly pausedOnly: boolean;
  readonly excused: boolean;
  readonly passOrder: readonly PassEntryContext[];
  readonly passTies: readonly SidesTieContext[];
  /** The GM may add a side (shows the name and colour inputs). */
  readonly canAddSide: boolean;
  readonly addControl: ControlContext | null;
  readonly gmControls: readonly ControlContext[];
}

function tieControls(
  tie: readonly string[],
  nameOf: (id: string) => string,
  control: ControlFactory,
  op: string,
): ControlContext[] {
  return tie.map((first) =>
    control({
      action: op,
      label: `${S}.First`,
      aria: `${S}.FirstFor`,
      name: nameOf(first),
      combatantId: first,
      // The group id carries the whole tie, the chosen one first.
      groupId: [first, ...tie.filter((id) => id !== first)].join(","),
    }),
  );
}

/** A rolled side's re-roll, for whoever may record its roll (the GM only: the rules refuse players a second roll). */
function rerollControls(
  { allowed, control }: ModeInput<SidesState>,
  side: Side,
  roll: number | null,
): ControlContext[] {
  return roll !== null && allowed.forGroup(side.id, "recordSideRoll")
    ? [
        control({
          action: "siSidesRoll",
          groupId: side.id,
          name: side.name,
          label: `${S}.Reroll`,
          aria: `${S}.RerollFor`,
        }),
      ]
    : [];
}

/** A side's first roll, for whoever may record it: "Roll Heroes", its visible text its name. */
function rollButtonOf(
  { allowed, control, i18n }: ModeInput<SidesState>,
  side: Side,
  roll: number | null,
): RollButtonContext | null {
  if (roll !== null || !allowed.forGroup(side.id, "recordSideRoll")) return null;
  const text = i18n.format(`${I18N}.Tracker.${S}.RollSide`, { name: side.name });
  return {
    text,
    control: {
      ...control({ action: "siSidesRoll", groupId: side.id, name: side.name, label: "Roll", primary: true }),
      ariaLabel: text,
    },
  };
}

/** The GM's typed correction of a rolled side's roll; else null. */
function correctOf(
  { allowed, i18n, control, who }: ModeInput<SidesState>,
  side: Side,
  roll: number | null,
): CorrectContext | null {
  return allowed.forGroup(side.id, "recordSideRoll") && who.isGM && roll !== null
    ? {
        sideId: side.id,
        inputLabel: i18n.format(`${I18N}.Tracker.${S}.CorrectValueFor`, { name: side.name }),
        control: control({
          action: "siSidesCorrect",
          groupId: side.id,
          name: side.name,
          label: `${S}.Correct`,
          aria: `${S}.CorrectFor`,
        }),
      }
    : null;
}

/** The GM's save button and, where the rules allow it, the delete button of a side. */
function editControlsOf({ allowed, control, who }: ModeInput<SidesState>, side: Side): ControlContext[] {
  const editControls: ControlContext[] = [];
  if (who.isGM)
    editControls.push(
      control({
        action: "siSidesEdit",
        groupId: side.id,
        name: side.name,
        label: `${S}.Save`,
        aria: `${S}.SaveFor`,
      }),
    );
  if (allowed.forGroup(side.id, "removeSide"))
    editControls.push(
      control({
        action: "siSidesDelete",
        groupId: side.id,
        name: side.name,
        label: `${S}.Delete`,
        aria: `${S}.DeleteFor`,
      }),
    );
  return editControls;
}

/** One side of the panel: its members, kind, roll (and earlier ones), place and controls. */
function sideContext(
  input: ModeInput<SidesState>,
  side: Side,
  order: readonly string[],
  tiedSides: ReadonlySet<string>,
): SideContext {
  const { state, i18n, nameOf, who } = input;
  const roll = sideRoll(state, side.id);
  const roller = sideRoller(state, side.id);
  const controls = rerollControls(input, side, roll);
  const correct = correctOf(input, side, roll);
  const editControls = editControlsOf(input, side);
  const tied = tiedSides.has(side.id);
  const place = tied ? -1 : order.indexOf(side.id);
  return {
    id: side.id,
    name: side.name,
    colour: side.colour,
    members: sideMembers(state, side.id).map(nameOf).join(", "),
    kind: `${I18N}.Tracker.${S}.${isGMSide(state, side.id) ? "GMSide" : "PCSide"}`,
    roll: roll === null ? "" : String(roll),
    rolled: roll !== null,
    chip: i18n.format(`${I18N}.Tracker.${S}.SideSummary`, {
      name: side.name,
      place: place < 0 ? "–" : String(place + 1),
      roll: roll === null ? "–" : String(roll),
    }),
    typed: state.rolls.some((r) => r.sideId === side.id && r.typed === true),
    earlier: earlierRolls(state, side.id).map(String),
    tied,
    correct,
    roller: roller === null ? "" : nameOf(roller),
    place: place < 0 ? "" : String(place + 1),
    controls,
    rollButton: rollButtonOf(input, side, roll),
    editControls,
    editable: who.isGM,
    nameLabel: i18n.format(`${I18N}.Tracker.${S}.NameFor`, { name: side.name }),
    colourLabel: i18n.format(`${I18N}.Tracker.${S}.ColourFor`, { name: side.name }),
  };
}

/** Every side of the panel, in the order they were defined. */
function sideContexts(input: ModeInput<SidesState>): SideContext[] {
  const order = declaringSides(input.state);
  const tiedSides = new Set(pendingSideTies(input.state).flat());
  return input.state.sides.map((side) => sideContext(input, side, order, tiedSides));
}

/** The ties waiting for the GM: every view shows them; only the GM's has the buttons. */
function tiesOf({ state, nameOf, control, who }: ModeInput<SidesState>): {
  sideTies: SidesTieContext[];
  passTies: SidesTieContext[];
} {
  const sideNameOfId = (id: string): string => state.sides.find((s) => s.id === id)?.name ?? "";
  const sideTies = pendingSideTies(state).map((tie) => ({
    names: tie.map(sideNameOfId).join(", "),
    controls: who.isGM ? tieControls(tie, sideNameOfId, control, "siSidesOrderSides") : [],
  }));
  const passTies = pendingTies(state).map((tie) => ({
    names: tie.map(nameOf).join(", "),
    controls: who.isGM ? tieControls(tie, nameOf, control, "siSidesOrderTied") : [],
  }));
  return { sideTies, passTies };
}

/** The pass order during a pass (done / now / next / waiting / later); empty outside the passes. */
function passEntriesOf({ bound, state, nameOf }: ModeInput<SidesState>): PassEntryContext[] {
  const pass = currentPass(state);
  const view = bound.view;
  const waiting = slowedWaiting(state);
  const doneIds = new Set(state.done);
  const order = passOrder(state);
  return pass === null
    ? []
    : [...order, ...waiting.map((w) => w.combatantId)].map((id, i) => {
        const done = doneIds.has(id);
        const lost = done && state.lost.some((l) => l.combatantId === id && l.pass === pass);
        const now = view.current === id;
        const next = view.next === id;
        const isWaiting = i >= order.length;
        return {
          // One entry per combatant in a pass: a turn advance re-renders the two or three that change.
          keepKey: `sides-pass:${id}`,
          name: nameOf(id),
          done,
          now,
          next,
          waiting: isWaiting,
          stateLabel: `${I18N}.Tracker.${S}.${now ? "StateNow" : lost ? "StateLost" : next ? "StateNext" : done ? "StateDone" : isWaiting ? "StateWaiting" : "StateLater"}`,
        };
      });
}

/** The set-up controls below the panel: start. */
export function sidesSetupControls({ allowed, control }: ModeInput<SidesState>): ControlContext[] {
  const setupControls: ControlContext[] = [];
  if (allowed.has("start")) setupControls.push(control({ action: "siStart", label: "Start", primary: true }));
  return setupControls;
}

/** "Roll all" on the panel's line, while more than one side may have its first roll. */
function rollAllOf({ state, control }: ModeInput<SidesState>, sides: readonly SideContext[]): ControlContext | null {
  return state.step === "initiative" && sides.filter((s) => s.rollButton !== null).length > 1
    ? control({ action: "siSidesRollAll", label: "RollAll" })
    : null;
}

/** The step banner: "Setting up", "Initiative", "Declaration", "Pass 2". */
function bannerOf({ state, i18n }: ModeInput<SidesState>): string {
  const pass = currentPass(state);
  return !state.started
    ? i18n.localize(`${I18N}.Step.setup`)
    : pass !== null
      ? i18n.format(`${I18N}.Tracker.${S}.Pass`, { pass: String(pass) })
      : i18n.localize(`${I18N}.Step.${state.step}`);
}

/**
 * The whole seconds the countdown shows: counted on this client's clock against the GM's stamp,
 * never more than the whole countdown (a client whose clock runs behind the GM's); the whole of it
 * until the stamp arrives.
 */
function secondsLeft(clock: ClockView | null): number {
  const left = clock === null ? 0 : clock.deadline === null ? clock.fullMs : clock.deadline - pageClock.now();
  return clock === null ? 0 : Math.ceil(Math.min(clock.fullMs, Math.max(0, left)) / 1000);
}

/** The GM's "refresh traits" button. */
function gmControlsOf({ control, who }: ModeInput<SidesState>): ControlContext[] {
  const gmControls: ControlContext[] = [];
  if (who.isGM) {
    gmControls.push(control({ action: "siSidesRefresh", label: `${S}.Refresh` }));
  }
  return gmControls;
}

/** The panel above the rows. */
export function sidesPanel(input: ModeInput<SidesState>, clock: ClockView | null): SidesPanelContext {
  const { state, nameOf, control, who } = input;
  const declarer = currentDeclarer(state);
  const sides = sideContexts(input);
  const { sideTies, passTies } = tiesOf(input);
  const passEntries = passEntriesOf(input);
  const gmControls = gmControlsOf(input);
  const seconds = secondsLeft(clock);
  return {
    banner: bannerOf(input),
    sides,
    rollAll: rollAllOf(input, sides),
    sideTies,
    sideTiesHeading: `${I18N}.Tracker.${S}.${who.isGM ? "SideTies" : "SideTiesWaiting"}`,
    declaring: state.step === "declaration",
    declarerName: declarer === null ? "" : nameOf(declarer),
    hasDeclarer: declarer !== null,
    hasCountdown: clock !== null && clock.counts && !clock.excused,
    deadline: clock === null || clock.paused || clock.deadline === null ? "" : String(clock.deadline),
    fullMs: clock === null ? "" : String(clock.fullMs),
    seconds: String(seconds),
    paused: clock !== null && clock.paused,
    pausedOnly: clock !== null && clock.paused && !(clock.counts && !clock.excused),
    excused: clock !== null && clock.counts && clock.excused,
    passOrder: passEntries,
    passTies,
    canAddSide: who.isGM,
    addControl: who.isGM ? control({ action: "siSidesAdd", label: `${S}.Add` }) : null,
    gmControls,
  };
}
