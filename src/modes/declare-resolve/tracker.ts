/**
 * The `declare-resolve` mode's part of the tracker (RULES.md §3): a panel with the step (Roll /
 * Declare / Resolve / Extra attacks / Upkeep), who declares or resolves now and what, the ties the GM
 * orders, the declaration form (catalogue and custom actions, the running AP total and its legality,
 * computed here from the rules), the resolution and extra-attack queues and the upkeep; per row, IP
 * (base → current), an AP bar (carried in / declared / free, and what carries out), the declared
 * actions as chips with costs, a DEF badge, "finishing" for a carried action, the conditions, and
 * the GM's edits. Every decision is made here; the templates only loop, branch and localise.
 */
import { I18N } from "../../constants";
import { DR_TEMPLATES } from "./constants";
import {
  combatantRows,
  currentDeclarer,
  currentStep,
  currentTurn,
  availableAP,
  carriedInOf,
  declarationLegality,
  declarationOf,
  resolvedOf,
  extraAttackQueue,
  pendingTies,
  resolutionQueue,
  rollsNeeded,
  upkeepPreview,
  type ActionInput,
  type CombatantRow,
  type DeclareResolveCombatant,
  type DeclareResolveState,
  type DeclaredAction,
  type ResolutionTurn,
} from "./rules/declare-resolve";
import { DEFAULT_ACTION_KEYS, type CatalogueEntry } from "./rules/catalogue";
import { actionCatalogue } from "./settings";
import { draftOf } from "./glue";
import {
  formatCount,
  pluralCategory,
  remembered,
  type ControlContext,
  type ControlFactory,
  type Localiser,
} from "../../foundry/tracker/controls";
import type { KeyedEntry } from "../../foundry/tracker/dom-patch";
import type { ModeOutput, ModeRow, ModeTracker } from "../contract";

const D = "DeclareResolve";
const K = `${I18N}.Tracker.${D}`;

/** One action chip: its name, cost and kind. */
export interface ActionChipContext {
  readonly name: string;
  /** Localised "4 AP". */
  readonly cost: string;
  readonly kind: string;
  /** Localised kind, for the chip's accessible text. */
  readonly kindLabel: string;
  /** Localised "DEF +2", or "". */
  readonly def: string;
  /** A second or later attack: it resolves after everyone's initial actions. */
  readonly extra: boolean;
  /** Already resolved this round. */
  readonly done: boolean;
}

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
  readonly hasIP: boolean;
  /** IP totals the roll replaced (the GM's re-rolls and corrections), shown struck through. */
  readonly earlierIP: readonly string[];
  /** Localised "IP 12" or "IP 12 → 15". */
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
  readonly hasActions: boolean;
  readonly noActions: boolean;
  readonly skipped: boolean;
  /** Localised "DEF +2", or "". */
  readonly def: string;
  /** Localised "Finishing: Power Attack", or "". */
  readonly finishing: string;
  readonly conditions: readonly string[];
  readonly edit: RowEditContext | null;
}

/** A catalogue button of the declaration form. */
export interface PickContext {
  readonly index: string;
  readonly combatantId: string;
  /** Localised "Dodge · 2 AP". */
  readonly text: string;
  readonly ariaLabel: string;
}

/** The declaration form for whoever declares now, when the viewer may declare for them. */
export interface DeclareFormContext {
  readonly combatantId: string;
  readonly heading: string;
  readonly picks: readonly PickContext[];
  readonly draft: readonly (ActionChipContext & { readonly index: string; readonly removeLabel: string })[];
  readonly hasDraft: boolean;
  /** Localised running total: "4 of 5 AP". */
  readonly total: string;
  /** Localised legality of the draft. */
  readonly legality: string;
  readonly legal: boolean;
  readonly kinds: readonly { readonly value: string; readonly label: string }[];
  readonly labels: Readonly<Record<string, string>>;
  readonly addControl: ControlContext;
  readonly declareControl: ControlContext;
}

/** A tie the GM orders. */
export interface TieContext {
  readonly names: string;
  readonly controls: readonly ControlContext[];
}

/** An entry of a queue (found again across renders by `keepKey`). */
export interface QueueEntryContext extends KeyedEntry {
  readonly name: string;
  readonly actions: string;
  readonly now: boolean;
  /** Localised pass: "finishing", "initial actions", "2nd attack". */
  readonly passText: string;
}

/** The `declare-resolve` panel. */
export interface DrPanelContext {
  readonly stepHint: string;
  readonly budget: string;
  readonly rolls: string;
  readonly hasRolls: boolean;
  readonly ties: readonly TieContext[];
  readonly hasTies: boolean;
  readonly tieWait: boolean;
  /** Localised "Resolving: Jab (1 AP)" for the turn being resolved, or "". */
  readonly nowActions: string;
  readonly declareForm: DeclareFormContext | null;
  readonly queue: readonly QueueEntryContext[];
  readonly hasQueue: boolean;
  readonly extraQueue: readonly QueueEntryContext[];
  readonly hasExtraQueue: boolean;
  readonly upkeep: readonly string[];
  readonly isUpkeep: boolean;
  readonly upkeepEmpty: boolean;
  readonly upkeepControl: ControlContext | null;
  /** What the tracker's live region announces (the upkeep, a tie waiting). */
  readonly live: string;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/** "1 AP" / "2 AP" and the like: a count in the plural form of the user's language (`<key>.one`, `.few`…). */
function counted(i18n: Localiser, key: string, count: number, data: Record<string, string> = {}): string {
  return formatCount(i18n, key, count, data, game.i18n.lang);
}

/** An action's name as shown: a default catalogue action's in the user's language, any other as typed. */
function actionName(i18n: Localiser, name: string): string {
  const key = DEFAULT_ACTION_KEYS.get(name);
  return key === undefined ? name : i18n.localize(`${K}.DefaultAction.${key}`);
}

function chip(i18n: Localiser, action: DeclaredAction, extra: boolean, done: boolean): ActionChipContext {
  return {
    name: actionName(i18n, action.name),
    cost: counted(i18n, `${K}.AP`, action.cost),
    kind: action.kind,
    kindLabel: i18n.localize(`${K}.Kind.${action.kind}`),
    def: action.def === 0 ? "" : i18n.format(`${K}.Def`, { def: signed(action.def) }),
    extra,
    done,
  };
}

/** Which of a declaration's actions are second or later attacks. */
function extraFlags(actions: readonly { readonly kind: string }[]): boolean[] {
  let attacks = 0;
  return actions.map((a) => a.kind === "attack" && ++attacks > 1);
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

/** The pass of a turn, localised; the k-th attack with its English-style ordinal form (`Pass.extra.<form>`). */
function passText(pass: number, i18n: Localiser): string {
  if (pass === 0) return i18n.localize(`${K}.Pass.finishing`);
  if (pass === 1) return i18n.localize(`${K}.Pass.initial`);
  const form = pluralCategory(game.i18n.lang, pass, "ordinal");
  return i18n.format(`${K}.Pass.extra.${form}`, { pass: String(pass) });
}

function queueEntries(
  turns: readonly ResolutionTurn[],
  nameOf: (id: string) => string,
  current: ResolutionTurn | null,
  i18n: Localiser,
): QueueEntryContext[] {
  // Most turns share their actions and pass: each text is formatted once.
  const actionsText = remembered(
    (name: string, cost: number) => `${actionName(i18n, name)} (${counted(i18n, `${K}.AP`, cost)})`,
  );
  const passOf = remembered((pass: number) => passText(pass, i18n));
  return turns.map((t) => ({
    keepKey: `dr-turn:${t.combatantId}:${t.pass}`,
    name: nameOf(t.combatantId),
    actions: t.actions.map((a) => actionsText(a.name, a.cost)).join(", "),
    now: current !== null && t.combatantId === current.combatantId && t.pass === current.pass,
    passText: passOf(t.pass),
  }));
}

function declareForm(
  state: DeclareResolveState,
  declarer: string,
  draft: readonly ActionInput[],
  catalogue: readonly CatalogueEntry[],
  i18n: Localiser,
  nameOf: (id: string) => string,
  control: ControlFactory,
): DeclareFormContext {
  const name = nameOf(declarer);
  const legality = declarationLegality(state, declarer, draft);
  const total = draft.reduce((sum, a) => sum + (Number.isFinite(a.cost) ? a.cost : 0), 0);
  const c = state.combatants.find((x) => x.id === declarer);
  const available = c === undefined ? state.budget : availableAP(state, c);
  const text = (key: string, data: Record<string, string> = {}): string => i18n.format(`${K}.${key}`, data);
  let verdict: string;
  if (!legality.ok) {
    const r = legality.refusal as { code: string; total?: number; available?: number; budget?: number };
    verdict = i18n.format(`${I18N}.Refusal.${r.code}`, {
      name,
      total: String(r.total ?? total),
      available: String(r.available ?? available),
      budget: String(r.budget ?? state.budget),
    });
  } else if (draft.length === 0) verdict = text("LegalNone");
  else if (legality.carry > 0)
    verdict = text("LegalCarry", {
      now: String(legality.available),
      carry: String(legality.carry),
      left: String(state.budget - legality.carry),
    });
  else verdict = counted(i18n, `${K}.LegalFits`, legality.available - legality.total);
  const flags = extraFlags(draft);
  const base = { combatantId: declarer, name };
  return {
    combatantId: declarer,
    heading: text("DeclareFor", { name }),
    picks: catalogue.map((entry, i) => {
      const label = i18n.format(`${K}.PickText`, {
        action: actionName(i18n, entry.name),
        cost: counted(i18n, `${K}.AP`, entry.cost),
      });
      return {
        index: String(i),
        combatantId: declarer,
        text: label,
        ariaLabel: text("PickFor", { action: label, name }),
      };
    }),
    draft: draft.map((a, i) => {
      const valid: DeclaredAction = {
        name: a.name,
        cost: Number.isFinite(a.cost) ? a.cost : 0,
        kind: a.kind === "attack" || a.kind === "defence" ? a.kind : "other",
        def: a.def ?? 0,
      };
      return {
        ...chip(i18n, valid, flags[i] ?? false, false),
        index: String(i),
        removeLabel: text("RemoveFor", { action: actionName(i18n, a.name) }),
      };
    }),
    hasDraft: draft.length > 0,
    total: text("Total", { total: String(total), available: String(available) }),
    legality: verdict,
    legal: legality.ok,
    kinds: (["attack", "defence", "other"] as const).map((k) => ({ value: k, label: i18n.localize(`${K}.Kind.${k}`) })),
    labels: {
      custom: text("Custom"),
      name: text("CustomName"),
      cost: text("CustomCost"),
      kind: text("CustomKind"),
      def: text("CustomDef"),
    },
    addControl: control({ ...base, action: "siDrAddCustom", label: `${D}.Add`, aria: `${D}.AddFor` }),
    declareControl: control({
      ...base,
      action: "siDrDeclare",
      label: draft.length === 0 ? `${D}.DeclareNone` : `${D}.Declare`,
      aria: draft.length === 0 ? `${D}.DeclareNoneFor` : `${D}.DeclareFor`,
      primary: true,
    }),
  };
}

/** The `declare-resolve` mode's tracker. */
export const declareResolveTracker: ModeTracker<DeclareResolveState> = {
  rowPartial: DR_TEMPLATES.row,
  panelPartial: DR_TEMPLATES.panel,
  build({ state, allowed, combat, i18n, who, nameOf, control, opened }): ModeOutput {
    const rows = new Map<string, ModeRow>();
    const started = state.phase !== "setup";
    const step = currentStep(state);
    const turn = currentTurn(state);
    const needRoll = new Set(rollsNeeded(state));
    const text = (key: string, data: Record<string, string> = {}): string => i18n.format(`${K}.${key}`, data);
    // Many rows declare the same actions: each chip is built once per build (and shared).
    const chipOf = remembered(
      (name: string, cost: number, kind: DeclaredAction["kind"], def: number, extra: boolean, done: boolean) =>
        chip(i18n, { name, cost, kind, def }, extra, done),
    );

    for (const row of combatantRows(state)) {
      const id = row.combatantId;
      const base = { name: nameOf(id), combatantId: id };
      const controls: ControlContext[] = [];
      if (allowed.for(id, "recordIP") && (row.baseIP === null || !started))
        controls.push(
          control({
            ...base,
            action: "siRoll",
            label: row.baseIP === null ? "Roll" : `${D}.Reroll`,
            aria: row.baseIP === null ? "RollFor" : `${D}.RerollFor`,
            primary: row.baseIP === null,
          }),
        );
      const d = row.declaration;
      const flags = extraFlags(d?.actions ?? []);
      const c = state.combatants.find((x) => x.id === id);
      const done = c === undefined ? [] : doneFlags(state, c);
      const actions = (d?.actions ?? []).map((a, i) =>
        chipOf(a.name, a.cost, a.kind, a.def, flags[i] ?? false, done[i] ?? false),
      );
      const { conditions } = row;
      const conditionTexts = [
        conditions.bleeding > 0 ? counted(i18n, `${K}.Bleeding`, conditions.bleeding) : "",
        conditions.dazed > 0 ? text("Dazed", { count: String(conditions.dazed) }) : "",
        conditions.stunned > 0 ? text("Stunned", { count: String(conditions.stunned) }) : "",
      ].filter((t) => t !== "");
      const ipChanges = row.ipChanges.map((x) => ({
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
      const edit: RowEditContext | null = who.isGM ? { combatantId: id, summary: text("Edit"), form } : null;
      const ap = row.ap;
      rows.set(id, {
        initiative: row.currentIP,
        controls,
        ready: null,
        acted: started && state.phase === "resolve" && row.turnsLeft === 0 && !row.current,
        // The declarer declares: its badge says so, not "Acting now".
        ...(state.phase === "declare" ? { currentLabel: `${K}.Declaring` } : {}),
        data: {
          needsRoll: needRoll.has(id),
          hasIP: row.baseIP !== null,
          earlierIP: row.replacedIP.map(String),
          ip:
            row.baseIP === null
              ? ""
              : row.currentIP !== row.baseIP
                ? text("IPChanged", { base: String(row.baseIP), current: String(row.currentIP ?? row.baseIP) })
                : text("IP", { base: String(row.baseIP) }),
          ipChanged: row.currentIP !== row.baseIP,
          ipChanges,
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
          hasActions: actions.length > 0,
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
          conditions: conditionTexts,
          edit,
        } satisfies DrRowContext,
      });
    }

    // Ties
    const ties = pendingTies(state).map((tie) => ({
      names: tie.map(nameOf).join(", "),
      controls: who.isGM
        ? tie.map((first) => ({
            ...control({
              action: "siDrOrderTied",
              label: `${D}.First`,
              aria: `${D}.FirstFor`,
              name: nameOf(first),
              combatantId: first,
            }),
            // The group id carries the whole tie, the chosen one first.
            groupId: [first, ...tie.filter((x) => x !== first)].join(","),
          }))
        : [],
    }));

    // Who now
    const declarer = currentDeclarer(state);
    const nowActions =
      turn === null
        ? ""
        : turn.actions.map((a) => `${actionName(i18n, a.name)} (${counted(i18n, `${K}.AP`, a.cost)})`).join(", ");
    const form =
      declarer !== null && allowed.for(declarer, "declare")
        ? declareForm(state, declarer, draftOf(combat, declarer), actionCatalogue(), i18n, nameOf, control)
        : null;

    // Queues
    const queue = queueEntries(
      resolutionQueue(state).filter((t) => t.pass < 2),
      nameOf,
      turn,
      i18n,
    );
    const extraQueue = queueEntries(extraAttackQueue(state), nameOf, turn, i18n);

    // Upkeep
    const isUpkeep = state.phase === "upkeep";
    const upkeep = isUpkeep
      ? upkeepPreview(state).map((entry) => {
          const parts: string[] = [];
          if (entry.hits > 0) parts.push(counted(i18n, `${K}.UpkeepHits`, entry.hits));
          for (const condition of ["dazed", "stunned"] as const) {
            const { from, to } = entry[condition];
            if (from > 0) parts.push(text(`UpkeepDown.${condition}`, { from: String(from), to: String(to) }));
          }
          return text("UpkeepLine", { name: nameOf(entry.combatantId), what: parts.join("; ") });
        })
      : [];
    const upkeepControl = allowed.has("upkeep")
      ? control({ action: "siDrUpkeep", label: `${D}.ConfirmUpkeep`, primary: true })
      : null;
    const tieWait = ties.length > 0 && !who.isGM;
    const live = isUpkeep
      ? [text("UpkeepAnnounce", { round: String(state.round) }), ...upkeep].join(" ")
      : ties.length > 0
        ? text("TiesAnnounce")
        : "";

    const setupControls: ControlContext[] = [];
    const rollable = state.combatants.filter((c) => c.ip === null && !c.defeated && allowed.for(c.id, "recordIP"));
    if (rollable.length > 1) setupControls.push(control({ action: "siDrRollAll", label: "RollAll" }));
    if (allowed.has("start")) setupControls.push(control({ action: "siStart", label: "Start", primary: true }));

    const rolls = state.combatants.filter((c) => needRoll.has(c.id)).map((c) => nameOf(c.id));
    const panel: DrPanelContext = {
      stepHint: text(`StepHint.${step}`),
      budget: counted(i18n, `${K}.Budget`, state.budget),
      rolls: rolls.join(", "),
      hasRolls: rolls.length > 0,
      ties,
      hasTies: ties.length > 0,
      tieWait,
      nowActions,
      declareForm: form,
      queue,
      hasQueue: queue.length > 0,
      extraQueue,
      hasExtraQueue: extraQueue.length > 0,
      upkeep,
      isUpkeep,
      upkeepEmpty: isUpkeep && upkeep.length === 0,
      upkeepControl,
      live,
    };
    return { rows, setupControls, panel, list: null, emphasiseStep: false };
  },
};
