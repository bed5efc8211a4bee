/**
 * The `sides` mode's part of the tracker (RULES.md §1): a panel above the rows with the step banner
 * (Initiative / Declaration / Pass k), the sides with colour and roll, who declares now with the
 * countdown and the declaration form, the pass order (done / now / next), ties the GM orders, and
 * the GM's side controls; per row, the side, traits, declared actions, penalty and the controls the
 * rules allow the viewer (dodge, parry, slow down, roller). Every decision is made here; the
 * templates only loop, branch and localise.
 */
import { I18N } from "../../constants";
import { SIDES_SLOW_FILL, SIDES_TEMPLATES } from "./constants";
import {
  actionsTaken,
  currentDeclarer,
  currentPass,
  declarationOf,
  declarationOrder,
  declaringSides,
  earlierRolls,
  isGMSide,
  pendingSideTies,
  pendingTies,
  passOrder,
  penalty,
  sideMembers,
  sideRoll,
  sideRoller,
  slowedWaiting,
  type SidesState,
} from "./rules/sides";
import { clockView } from "./glue";
import { clock as pageClock } from "../../foundry/clock";
import { formatCount, type ControlContext, type ControlFactory } from "../../foundry/tracker/controls";
import type { KeyedEntry } from "../../foundry/tracker/dom-patch";
import type { ModeOutput, ModeRow, ModeTracker } from "../contract";

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
  readonly hasActions: boolean;
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

/** One side in the panel. */
export interface SideContext {
  readonly id: string;
  readonly name: string;
  readonly colour: string;
  readonly members: string;
  /** Localised "GM side" / "PC side". */
  readonly kind: string;
  readonly roll: string;
  readonly rolled: boolean;
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
  readonly controls: readonly ControlContext[];
  /** The GM's save and delete buttons (shown with the inputs). */
  readonly editControls: readonly ControlContext[];
  /** The GM may rename and recolour it (shows the inputs). */
  readonly editable: boolean;
  readonly nameLabel: string;
  readonly colourLabel: string;
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

/** The declaration form for the current declarer. */
export interface DeclareFormContext {
  readonly combatantId: string;
  readonly textLabel: string;
  readonly control: ControlContext;
  readonly penaltyHint: string;
}

/** The sides panel. */
export interface SidesPanelContext {
  /** Localised step banner: "Initiative", "Declaration", "Pass 2", "Setting up". */
  readonly banner: string;
  readonly sides: readonly SideContext[];
  /** After the initiative step the sides fold into one line (the list keeps the room). */
  readonly collapsed: boolean;
  /** That line: each side's place and roll, with its earlier rolls (struck through). */
  readonly summary: readonly { readonly text: string; readonly earlier: readonly string[] }[];
  readonly sideTies: readonly SidesTieContext[];
  readonly hasSideTies: boolean;
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
  readonly hasPassOrder: boolean;
  readonly passTies: readonly SidesTieContext[];
  readonly hasPassTies: boolean;
  /** The GM may add a side (shows the name and colour inputs). */
  readonly canAddSide: boolean;
  readonly addControl: ControlContext | null;
  readonly gmControls: readonly ControlContext[];
  readonly hasGMControls: boolean;
}

const minus = (code: string): string => (code === "0D" ? "" : `−${code}`);

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

/** The `sides` mode's tracker. */
export const sidesTracker: ModeTracker<SidesState> = {
  rowPartial: SIDES_TEMPLATES.row,
  panelPartial: SIDES_TEMPLATES.panel,
  build({ bound, state, allowed, combat, i18n, nameOf, control, who, opened }): ModeOutput {
    const rows = new Map<string, ModeRow>();
    const sideName = (id: string | null): string => state.sides.find((s) => s.id === id)?.name ?? "";
    const sideNameOfId = (id: string): string => state.sides.find((s) => s.id === id)?.name ?? "";
    const pass = currentPass(state);
    const declarer = currentDeclarer(state);
    const view = bound.view;
    const waiting = slowedWaiting(state);
    // Who a combatant may slow down after: the pass's others not done yet, then the waiting ones.
    const doneIds = new Set(state.done);
    const slowTargets = [...passOrder(state), ...waiting.map((w) => w.combatantId)]
      .filter((id) => !doneIds.has(id))
      .map((id) => ({ value: id, label: nameOf(id) }));

    // Declaration: each row still to declare shows its place in the declaring order.
    const declarePlace = new Map(declarationOrder(state).map((id, i) => [id, i + 1]));
    // Declaration: the form and the GM's countdown controls sit on the declaring row.
    const clock = clockView(combat, state);
    const declareForm =
      declarer !== null && allowed.for(declarer, "declare")
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
    const clockControls: ControlContext[] = [];
    // The GM pauses and resumes the countdown whoever declares; extends and excuses where it counts.
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

    // Rows
    for (const c of state.combatants) {
      const d = declarationOf(state, c.id);
      const taken = actionsTaken(state, c.id) - (d?.reactions.length ?? 0);
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
      if (who.isGM && side !== undefined && !state.started && sideRoller(state, side.id) !== c.id)
        controls.push(
          control({
            ...base,
            action: "siSidesRoller",
            groupId: side.id,
            label: `${S}.MakeRoller`,
            aria: `${S}.MakeRollerFor`,
          }),
        );
      const move: MoveContext | null =
        who.isGM && state.sides.length > 1 && !state.started
          ? {
              combatantId: c.id,
              selectLabel: i18n.format(`${I18N}.Tracker.${S}.SideFor`, { name: nameOf(c.id) }),
              options: state.sides.map((o) => ({ value: o.id, label: o.name, selected: o.id === c.sideId })),
              control: control({ ...base, action: "siSidesMove", label: `${S}.Move`, aria: `${S}.MoveFor` }),
            }
          : null;
      const slowDown: SlowDownContext | null = on("slowDown")
        ? {
            combatantId: c.id,
            form:
              (opened?.(SIDES_SLOW_FILL, c.id) ?? true)
                ? {
                    combatantId: c.id,
                    selectLabel: i18n.format(`${I18N}.Tracker.${S}.SlowAfterFor`, { name: nameOf(c.id) }),
                    options: slowTargets.filter((t) => t.value !== c.id),
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
      const slowed = state.slowed.find((s) => s.combatantId === c.id);
      const lost = state.lost.filter((l) => l.combatantId === c.id).length;
      const code = penalty(state, c.id);
      // One entry per kind, counted: "Dodge ×3, Parry".
      const reactions = (["dodge", "parry"] as const).flatMap((kind) => {
        const count = (d?.reactions ?? []).filter((r) => r.kind === kind).length;
        if (count === 0) return [];
        const reaction = i18n.localize(`${I18N}.Tracker.${S}.${kind === "dodge" ? "Dodge" : "Parry"}`);
        return [
          count === 1
            ? reaction
            : i18n.format(`${I18N}.Tracker.${S}.ReactionTimes`, { reaction, count: String(count) }),
        ];
      });
      const lostIn = new Set(state.lost.filter((l) => l.combatantId === c.id).map((l) => l.pass));
      const actions = (d?.hesitated ? [] : (d?.actions ?? [])).map((a, i) => ({
        number: String(i + 1),
        text: a.text,
        // Action i is the one of pass i + 1.
        taken: i < taken && !lostIn.has(i + 1),
        lost: i < taken && lostIn.has(i + 1),
      }));
      rows.set(c.id, {
        // The row's initiative column shows its side's roll this round.
        initiative: c.sideId === null ? null : sideRoll(state, c.sideId),
        controls,
        ready: null,
        acted: pass !== null && doneIds.has(c.id) && view.current !== c.id,
        data: {
          sideName: sideName(c.sideId),
          sideColour: side?.colour ?? "",
          hasSide: side !== undefined,
          dexterity: c.dexterity ?? "0D",
          perception: c.perception ?? "0D",
          isRoller: side !== undefined && sideRoller(state, side.id) === c.id,
          declared: d !== undefined && !d.hesitated,
          hesitated: d?.hesitated === true,
          actions,
          hasActions: actions.length > 0,
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
        },
      });
    }

    // Sides
    const order = declaringSides(state);
    const tiedSides = new Set(pendingSideTies(state).flat());
    const sides: SideContext[] = state.sides.map((side) => {
      const roll = sideRoll(state, side.id);
      const roller = sideRoller(state, side.id);
      const controls: ControlContext[] = [];
      const mayRecord = allowed.forGroup(side.id, "recordSideRoll");
      if (mayRecord)
        controls.push(
          control({
            action: "siSidesRoll",
            groupId: side.id,
            name: side.name,
            // A rolled side is re-rolled (by the GM only: the rules refuse players a second roll).
            label: roll === null ? "Roll" : `${S}.Reroll`,
            aria: roll === null ? `${S}.RollFor` : `${S}.RerollFor`,
            primary: roll === null,
          }),
        );
      const correct: CorrectContext | null =
        mayRecord && who.isGM && roll !== null
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
      const tied = tiedSides.has(side.id);
      const place = tied ? -1 : order.indexOf(side.id);
      return {
        id: side.id,
        name: side.name,
        colour: side.colour,
        members: sideMembers(state, side.id).map(nameOf).join(", "),
        kind: i18n.localize(`${I18N}.Tracker.${S}.${isGMSide(state, side.id) ? "GMSide" : "PCSide"}`),
        roll: roll === null ? "" : String(roll),
        rolled: roll !== null,
        typed: state.rolls.some((r) => r.sideId === side.id && r.typed === true),
        earlier: earlierRolls(state, side.id).map(String),
        tied,
        correct,
        roller: roller === null ? "" : nameOf(roller),
        place: place < 0 ? "" : String(place + 1),
        controls,
        editControls,
        editable: who.isGM,
        nameLabel: i18n.format(`${I18N}.Tracker.${S}.NameFor`, { name: side.name }),
        colourLabel: i18n.format(`${I18N}.Tracker.${S}.ColourFor`, { name: side.name }),
      };
    });
    // Every view shows a tie that waits for the GM; only the GM's has the buttons.
    const sideTies = pendingSideTies(state).map((tie) => ({
      names: tie.map(sideNameOfId).join(", "),
      controls: who.isGM ? tieControls(tie, sideNameOfId, control, "siSidesOrderSides") : [],
    }));
    const passTies = pendingTies(state).map((tie) => ({
      names: tie.map(nameOf).join(", "),
      controls: who.isGM ? tieControls(tie, nameOf, control, "siSidesOrderTied") : [],
    }));

    // Passes
    const passEntries: PassEntryContext[] =
      pass === null
        ? []
        : [...passOrder(state), ...waiting.map((w) => w.combatantId)].map((id, i) => {
            const done = doneIds.has(id);
            const lost = done && state.lost.some((l) => l.combatantId === id && l.pass === pass);
            const now = view.current === id;
            const next = view.next === id;
            const isWaiting = i >= passOrder(state).length;
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

    const gmControls: ControlContext[] = [];
    if (who.isGM) {
      gmControls.push(control({ action: "siSidesRefresh", label: `${S}.Refresh` }));
    }
    const addControl = who.isGM ? control({ action: "siSidesAdd", label: `${S}.Add` }) : null;
    const setupControls: ControlContext[] = [];
    if (allowed.has("start")) setupControls.push(control({ action: "siStart", label: "Start", primary: true }));
    if (
      state.step === "initiative" &&
      sides.filter((s) => s.controls.some((c) => c.label.endsWith(".Roll"))).length > 1
    )
      setupControls.push(control({ action: "siSidesRollAll", label: "RollAll" }));

    const banner = !state.started
      ? i18n.localize(`${I18N}.Step.setup`)
      : pass !== null
        ? i18n.format(`${I18N}.Tracker.${S}.Pass`, { pass: String(pass) })
        : i18n.localize(`${I18N}.Step.${state.step}`);
    const collapsed = state.started && state.step !== "initiative";
    const summary = sides.map((side) => ({
      text: i18n.format(`${I18N}.Tracker.${S}.SideSummary`, {
        name: side.name,
        place: side.place === "" ? "–" : side.place,
        roll: side.rolled ? side.roll : "–",
      }),
      earlier: side.earlier,
    }));
    // Counted on this client's clock against the GM's stamp, never more than the whole countdown
    // (a client whose clock runs behind the GM's); the whole of it until the stamp arrives.
    const left = clock === null ? 0 : clock.deadline === null ? clock.fullMs : clock.deadline - pageClock.now();
    const seconds = clock === null ? 0 : Math.ceil(Math.min(clock.fullMs, Math.max(0, left)) / 1000);
    return {
      rows,
      setupControls,
      list: null,
      emphasiseStep: false,
      // The banner names the step ("Pass 2"), so the glance strip does not repeat it.
      stepShown: true,
      panel: {
        banner,
        sides,
        collapsed,
        summary,
        sideTies,
        hasSideTies: sideTies.length > 0,
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
        hasPassOrder: passEntries.length > 0,
        passTies,
        hasPassTies: passTies.length > 0,
        canAddSide: who.isGM,
        addControl,
        gmControls,
        hasGMControls: gmControls.length > 0,
      },
    };
  },
};
