/**
 * The `individual` tracker's rows (RULES.md §2): per combatant, its badges (group, modifier, aware,
 * flat-footed, delaying, readied, acted, roll-offs, why it stands where it does) and the controls the
 * rules allow the viewer: the row's body lays out on one line the turn's controls (delay, act now,
 * trigger, a player's own roll) and the Ready button with its trigger field; the row menu (⋯) at the
 * end of the badges' line, a disclosure of the GM's set-up buttons (roll, aware, group or ungroup),
 * keeps them off the row (issue 29).
 */
import { I18N } from "../../constants";
import type { ControlContext } from "../../core/ui";
import type { ModeInput, ModeRow } from "../contract";
import type { IndividualState } from "./rules/types";

const T = `${I18N}.Tracker`;

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
  /** The turn's controls on the row's line (delay, act now, trigger; a player's own roll). */
  readonly controls: readonly ControlContext[];
  /** The Ready button with its trigger field (on the same line), or null when not allowed. */
  readonly ready: ControlContext | null;
  /** The GM's set-up buttons of the row, in its menu (roll, aware, group or ungroup). */
  readonly menu: readonly ControlContext[];
  /** Localised accessible name of the menu's button ("Set-up of Officer"). */
  readonly menuLabel: string;
  /** The line has anything to show. */
  readonly hasLine: boolean;
  readonly acted: boolean;
  /** Why the row stands where it does when a delay or a ready put it there ("after Officer"), or "". */
  readonly placedBy: string;
  readonly needsRoll: boolean;
  /** The GM typed the initiative instead of rolling it. */
  readonly typed: boolean;
  readonly rollOffs: string;
  readonly hasRollOffs: boolean;
}

const signed = (n: number): string => (n >= 0 ? `+${n}` : `${n}`);

/** The rows of every combatant, by id. */
export function individualRows({
  bound,
  state,
  allowed,
  nameOf,
  control,
  i18n,
  who,
}: ModeInput<IndividualState>): Map<string, ModeRow> {
  const rows = new Map<string, ModeRow>();
  const acted_ = new Set(state.acted);
  const flat = new Set(state.flatFooted);
  const delaying = new Set(state.delaying.map((d) => d.combatantId));
  const moved = new Set(state.moved);
  const current = state.current === null ? -1 : state.order.indexOf(state.current);
  // A moved row whose number looks out of place next to its neighbours in the stored order names
  // the one it follows (or, at the top, the one it precedes).
  const initiativeOf = (id: string | undefined): number | null =>
    id === undefined ? null : (state.combatants.find((x) => x.id === id)?.initiative ?? null);
  const placedText = (at: number): string => {
    const own = initiativeOf(state.order[at]);
    const before = state.order[at - 1];
    const after = state.order[at + 1];
    const b = initiativeOf(before);
    const a = initiativeOf(after);
    const outOfPlace = own !== null && ((b !== null && b < own) || (a !== null && a > own));
    if (!outOfPlace) return "";
    if (before !== undefined) return i18n.format(`${T}.PlacedAfter`, { name: nameOf(before) });
    return after === undefined ? "" : i18n.format(`${T}.PlacedBefore`, { name: nameOf(after) });
  };
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
    // The GM's set-up buttons go into the row menu; a player's own roll stays on the row.
    const menu: ControlContext[] = [];
    const setup = who.isGM ? menu : controls;
    const base = { name, combatantId: c.id };
    if (on("recordInitiative"))
      setup.push(control({ ...base, action: "siRoll", label: "Roll", aria: "RollFor", primary: true }));
    if (on("setAware"))
      setup.push(
        control({ ...base, action: "siAware", label: "Aware", aria: "AwareFor", toggle: true, pressed: c.aware }),
      );
    if (on("setGroup")) {
      if (c.groupId === null) setup.push(control({ ...base, action: "siGroup", label: "Group", aria: "GroupFor" }));
      else setup.push(control({ ...base, action: "siUngroup", label: "Ungroup", aria: "UngroupFor" }));
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
    const isDelaying = delaying.has(c.id);
    // A turn that began and was interrupted (it stands after the one acting now) resumes: it is
    // "next", not "acted". Only a turn that is over is shown as acted.
    const at = state.order.indexOf(c.id);
    const interrupted = current >= 0 && at > current;
    // Up next (a resumed turn, or the first turn of the next round) is not shown as acted either.
    const acted =
      state.started &&
      acted_.has(c.id) &&
      state.current !== c.id &&
      bound.view.next !== c.id &&
      !isDelaying &&
      !interrupted;
    const placedBy = !moved.has(c.id) || at < 0 ? "" : placedText(at);
    rows.set(c.id, {
      initiative: c.initiative,
      // The row's body lays its controls out on one line with the trigger field; the menu is on the badges' line.
      controls: [],
      acted,
      waiting: isDelaying,
      data: {
        groupId: c.groupId ?? "",
        inGroup: c.groupId !== null,
        modifier: c.modifier === null ? "" : signed(c.modifier),
        hasModifier: c.modifier !== null,
        aware: c.aware,
        showAware: !state.started || state.surpriseRound,
        flatFooted: flat.has(c.id),
        delaying: isDelaying,
        readied: c.ready !== null,
        trigger: c.ready ?? "",
        controls,
        ready,
        menu,
        menuLabel: i18n.format(`${T}.RowMenuFor`, { name }),
        hasLine: controls.length > 0 || ready !== null,
        acted,
        placedBy,
        needsRoll: c.initiative === null,
        typed: c.initiative !== null && c.typed === true,
        rollOffs: offs.join(", "),
        hasRollOffs: offs.length > 0,
      },
    });
  }

  return rows;
}
