/**
 * The `declare-resolve` tracker's rows (RULES.md §3): per row, IP (base → current), an AP bar
 * (carried in / declared / free, and what carries out), the declared actions as chips with costs, a
 * DEF badge, "finishing" for a carried action, the conditions, what the upkeep does to it, the GM's
 * edits and the tie order buttons; the declaration form in the declaring row. Every decision is made
 * here; the row template only loops, branches and localises.
 */
import { combatantRows, type CombatantRow } from "./rules/derived";
import { carriedInOf, declarationOf, pendingTies, resolvedOf, rollsNeeded } from "./rules/points";
import type { DeclareResolveCombatant, DeclareResolveState, DeclaredAction } from "./rules/types";
import { remembered } from "../../foundry/tracker/controls";
import type { ControlContext } from "../../core/ui";
import type { ModeInput, ModeRow } from "../contract";
import { actionName, chip, counted, D, extraFlags, K, signed, type ActionChipContext } from "./chips";
import { declareFormOf, type DeclareFormContext } from "./declare-form";
import { upkeepPreview, type UpkeepEntry } from "./rules/resolution";

/** One AP of the bar. */
export interface APCellContext {
  /** "carried" (used by last round's action), "declared", or "free". */
  readonly state: string;
}

/** The GM's edits of a row: a disclosure filled on use. */
export interface RowEditContext {
  readonly combatantId: string;
  readonly summary: string;
  /** Its fields, once the GM has opened it (until then only the summary renders); else null. */
  readonly form: RowEditForm | null;
}

/** The fields of the GM's edits of a row. */
export interface RowEditForm {
  readonly combatantId: string;
  readonly bleeding: string;
  readonly dazed: string;
  readonly stunned: string;
  readonly conditionsControl: ControlContext;
  readonly ipControl: ControlContext;
  readonly labels: Readonly<Record<string, string>>;
}

/** The `declare-resolve` part of one combatant row. */
export interface DrRowContext {
  readonly needsRoll: boolean;
  /** IP totals the roll replaced (the GM's re-rolls and corrections), shown struck through. */
  readonly earlierIP: readonly string[];
  /** Localised "IP 12" or "IP 12 → 15"; "" before the IP is rolled (none shown). */
  readonly ip: string;
  readonly ipChanged: boolean;
  readonly ipChanges: readonly { readonly text: string; readonly control: ControlContext | null }[];
  readonly tied: boolean;
  readonly showAP: boolean;
  readonly apCells: readonly APCellContext[];
  /** Localised accessible reading of the bar. */
  readonly apText: string;
  /** Localised "carries 2 AP into the next round", or "". */
  readonly carriesOut: string;
  readonly actions: readonly ActionChipContext[];
  readonly noActions: boolean;
  readonly skipped: boolean;
  /** Localised "DEF +2", or "". */
  readonly def: string;
  /** Localised "Finishing: Power Attack", or "". */
  readonly finishing: string;
  readonly conditions: readonly string[];
  /** Localised "loses 2 hits to bleeding; dazed 1 → 0" during the upkeep, or "". */
  readonly upkeep: string;
  readonly edit: RowEditContext | null;
  /** The declaration form, in the declaring row for whoever may declare for it; else null. */
  readonly declare: DeclareFormContext | null;
}

/**
 * Which of a combatant's declared actions are resolved: its turns are the carried action (if any),
 * the initial actions together, then each extra attack (`resolutionTurns`), `resolved` of them done.
 */
function doneFlags(state: DeclareResolveState, c: DeclareResolveCombatant): boolean[] {
  const phase = state.phase;
  const actions = declarationOf(state, c)?.actions ?? [];
  if (phase === "upkeep") return actions.map(() => true);
  if (phase !== "resolve") return actions.map(() => false);
  const extras = extraFlags(actions);
  const offset = carriedInOf(state, c) === null ? 0 : 1;
  const resolved = resolvedOf(state, c);
  const hasInitial = extras.some((x) => !x);
  let k = 0;
  return extras.map((extra) => {
    const index = extra ? offset + (hasInitial ? 1 : 0) + k++ : offset;
    return index < resolved;
  });
}

function apCells(row: CombatantRow): APCellContext[] {
  const { budget, carriedIn, declared, carriedOut } = row.ap;
  const used = Math.min(budget, carriedIn);
  const now = Math.min(budget - used, carriedOut > 0 ? budget - used : declared);
  return Array.from({ length: budget }, (_, i) => ({
    state: i < used ? "carried" : i < used + now ? "declared" : "free",
  }));
}

/** What every row of one build shares. */
interface RowsShared {
  readonly started: boolean;
  /** The tie each tied combatant is in (while the GM has not ordered it). */
  readonly tieOf: ReadonlyMap<string, readonly string[]>;
  /** What the upkeep does to each combatant it changes, during the upkeep. */
  readonly upkeepOf: ReadonlyMap<string, string>;
  /** The declaration form and whose row it is in, or null. */
  readonly declare: DeclareFormContext | null;
  readonly needRoll: ReadonlySet<string>;
  readonly text: (key: string, data?: Record<string, string>) => string;
  /** Many rows declare the same actions: each chip is built once per build (and shared). */
  readonly chipOf: (
    name: string,
    cost: number,
    kind: DeclaredAction["kind"],
    def: number,
    extra: boolean,
    done: boolean,
  ) => ActionChipContext;
}

/**
 * A row's buttons: a first roll, or the GM's re-roll before the start; the GM's "first" of a tie
 * (its group id carries the whole tie, this combatant first).
 */
function rowControls(
  { allowed, nameOf, control, who }: ModeInput<DeclareResolveState>,
  shared: RowsShared,
  row: CombatantRow,
): ControlContext[] {
  const id = row.combatantId;
  const base = { name: nameOf(id), combatantId: id };
  const controls: ControlContext[] = [];
  const tie = shared.tieOf.get(id);
  if (tie !== undefined && who.isGM)
    controls.push({
      ...control({ ...base, action: "siDrOrderTied", label: `${D}.First`, aria: `${D}.FirstFor` }),
      groupId: [id, ...tie.filter((x) => x !== id)].join(","),
    });
  if (allowed.for(id, "recordIP") && (row.baseIP === null || !shared.started))
    controls.push(
      control({
        ...base,
        action: "siRoll",
        label: row.baseIP === null ? "Roll" : `${D}.Reroll`,
        aria: row.baseIP === null ? "RollFor" : `${D}.RerollFor`,
        primary: row.baseIP === null,
      }),
    );
  return controls;
}

/** The declared actions of a row as chips, each marked extra (a later attack) and done as resolved. */
function actionChips(
  { state }: ModeInput<DeclareResolveState>,
  shared: RowsShared,
  row: CombatantRow,
): ActionChipContext[] {
  const d = row.declaration;
  const flags = extraFlags(d?.actions ?? []);
  const c = state.combatants.find((x) => x.id === row.combatantId);
  const done = c === undefined ? [] : doneFlags(state, c);
  return (d?.actions ?? []).map((a, i) =>
    shared.chipOf(a.name, a.cost, a.kind, a.def, flags[i] ?? false, done[i] ?? false),
  );
}

/** The row's conditions, localised ("Bleeding 2", "Dazed 1"); none at 0. */
function conditionTexts({ i18n }: ModeInput<DeclareResolveState>, shared: RowsShared, row: CombatantRow): string[] {
  const { conditions } = row;
  const { text } = shared;
  return [
    conditions.bleeding > 0 ? counted(i18n, `${K}.Bleeding`, conditions.bleeding) : "",
    conditions.dazed > 0 ? text("Dazed", { count: String(conditions.dazed) }) : "",
    conditions.stunned > 0 ? text("Stunned", { count: String(conditions.stunned) }) : "",
  ].filter((t) => t !== "");
}

/** The row's IP changes, each with the GM's remove button where the rules allow it. */
function ipChangesOf(
  { allowed, nameOf, control }: ModeInput<DeclareResolveState>,
  shared: RowsShared,
  row: CombatantRow,
): DrRowContext["ipChanges"] {
  const id = row.combatantId;
  const base = { name: nameOf(id), combatantId: id };
  const { text } = shared;
  return row.ipChanges.map((x) => ({
    text: text(x.lastRound === null ? "ChangeUntilRemoved" : "ChangeUntil", {
      cause: x.cause,
      amount: signed(x.amount),
      round: String(x.lastRound ?? 0),
    }),
    control: allowed.for(id, "removeIPChange")
      ? {
          ...control({ ...base, action: "siDrIPRemove", label: `${D}.RemoveChange`, aria: `${D}.RemoveChangeFor` }),
          groupId: x.id,
        }
      : null,
  }));
}

/** The GM's edits of a row (conditions, an IP change): its fields only once opened; null for players. */
function editOf(
  { nameOf, control, who, opened }: ModeInput<DeclareResolveState>,
  shared: RowsShared,
  row: CombatantRow,
): RowEditContext | null {
  const id = row.combatantId;
  const base = { name: nameOf(id), combatantId: id };
  const { conditions } = row;
  const { text } = shared;
  const form: RowEditForm | null =
    who.isGM && (opened?.("drEdit", id) ?? true)
      ? {
          combatantId: id,
          bleeding: String(conditions.bleeding),
          dazed: String(conditions.dazed),
          stunned: String(conditions.stunned),
          conditionsControl: control({
            ...base,
            action: "siDrConditions",
            label: `${D}.SetConditions`,
            aria: `${D}.SetConditionsFor`,
          }),
          ipControl: control({
            ...base,
            action: "siDrIPChange",
            label: `${D}.AddChange`,
            aria: `${D}.AddChangeFor`,
          }),
          labels: {
            bleeding: text("BleedingLabel", { name: base.name }),
            dazed: text("DazedLabel", { name: base.name }),
            stunned: text("StunnedLabel", { name: base.name }),
            cause: text("CauseLabel", { name: base.name }),
            amount: text("AmountLabel", { name: base.name }),
            duration: text("DurationLabel", { name: base.name }),
            rounds: text("RoundsLabel", { name: base.name }),
            round: text("Duration.round"),
            roundsOption: text("Duration.rounds"),
            untilRemoved: text("Duration.untilRemoved"),
            causePlaceholder: text("CausePlaceholder"),
            conditions: text("Conditions"),
            change: text("IPChange"),
          },
        }
      : null;
  return who.isGM ? { combatantId: id, summary: text("Edit"), form } : null;
}

/** What the upkeep does to one combatant: "loses 2 hits to bleeding; dazed 1 → 0". */
export function upkeepWhat({ i18n }: ModeInput<DeclareResolveState>, entry: UpkeepEntry): string {
  const parts: string[] = [];
  if (entry.hits > 0) parts.push(counted(i18n, `${K}.UpkeepHits`, entry.hits));
  for (const condition of ["dazed", "stunned"] as const) {
    const { from, to } = entry[condition];
    if (from > 0) parts.push(i18n.format(`${K}.UpkeepDown.${condition}`, { from: String(from), to: String(to) }));
  }
  return parts.join("; ");
}

/** One combatant's row. */
function drRow(input: ModeInput<DeclareResolveState>, shared: RowsShared, row: CombatantRow): ModeRow {
  const { state, i18n } = input;
  const { started, needRoll, text } = shared;
  const id = row.combatantId;
  const controls = rowControls(input, shared, row);
  const d = row.declaration;
  const actions = actionChips(input, shared, row);
  const ap = row.ap;
  return {
    initiative: row.currentIP,
    controls,
    acted: started && state.phase === "resolve" && row.turnsLeft === 0 && !row.current,
    // The declarer declares: its badge says so, not "Acting now".
    ...(state.phase === "declare" ? { currentLabel: `${K}.Declaring` } : {}),
    data: {
      needsRoll: needRoll.has(id),
      earlierIP: row.replacedIP.map(String),
      ip:
        row.baseIP === null
          ? ""
          : row.currentIP !== row.baseIP
            ? text("IPChanged", { base: String(row.baseIP), current: String(row.currentIP ?? row.baseIP) })
            : text("IP", { base: String(row.baseIP) }),
      ipChanged: row.currentIP !== row.baseIP,
      ipChanges: ipChangesOf(input, shared, row),
      tied: row.tied,
      showAP: started && !row.defeated && row.baseIP !== null,
      apCells: apCells(row),
      apText: text("APText", {
        available: String(ap.available),
        budget: String(ap.budget),
        declared: String(ap.carriedOut > 0 ? ap.available : ap.declared),
        carried: String(ap.carriedIn),
      }),
      carriesOut: ap.carriedOut > 0 ? counted(i18n, `${K}.CarriesOut`, ap.carriedOut) : "",
      actions,
      noActions: d !== null && d.actions.length === 0 && !d.skipped,
      skipped: d?.skipped === true,
      def: row.def === 0 ? "" : text("Def", { def: signed(row.def) }),
      finishing:
        row.finishing && row.carriedIn !== null
          ? text("Finishing", {
              action: actionName(i18n, row.carriedIn.action.name),
              cost: counted(i18n, `${K}.AP`, row.carriedIn.ap),
            })
          : "",
      conditions: conditionTexts(input, shared, row),
      upkeep: shared.upkeepOf.get(id) ?? "",
      edit: editOf(input, shared, row),
      declare: shared.declare?.combatantId === id ? shared.declare : null,
    } satisfies DrRowContext,
  };
}

/** Every combatant's row, by id. */
export function drRows(input: ModeInput<DeclareResolveState>): Map<string, ModeRow> {
  const { state, i18n } = input;
  const tieOf = new Map<string, readonly string[]>();
  for (const tie of pendingTies(state)) for (const id of tie) tieOf.set(id, tie);
  const shared: RowsShared = {
    started: state.phase !== "setup",
    tieOf,
    upkeepOf: new Map(
      state.phase === "upkeep" ? upkeepPreview(state).map((e) => [e.combatantId, upkeepWhat(input, e)]) : [],
    ),
    declare: declareFormOf(input),
    needRoll: new Set(rollsNeeded(state)),
    text: (key: string, data: Record<string, string> = {}): string => i18n.format(`${K}.${key}`, data),
    chipOf: remembered(
      (name: string, cost: number, kind: DeclaredAction["kind"], def: number, extra: boolean, done: boolean) =>
        chip(i18n, { name, cost, kind, def }, extra, done),
    ),
  };
  return new Map(combatantRows(state).map((row) => [row.combatantId, drRow(input, shared, row)]));
}
