/**
 * The `declare-resolve` tracker's panel (RULES.md §3): the step (Roll / Declare / Resolve / Extra
 * attacks / Upkeep), who declares or resolves now and what, the ties the GM orders, the declaration
 * form (catalogue and custom actions, the running AP total and its legality, computed here from the
 * rules), the resolution and extra-attack queues and the upkeep; and the set-up controls. Every
 * decision is made here; the panel template only loops, branches and localises.
 */
import { I18N } from "../../constants";
import { currentDeclarer, currentStep, currentTurn } from "./rules/derived";
import { availableAP, declarationLegality, pendingTies, rollsNeeded } from "./rules/points";
import { extraAttackQueue, resolutionQueue, upkeepPreview, type ResolutionTurn } from "./rules/resolution";
import type { ActionInput, DeclareResolveState, DeclaredAction } from "./rules/types";
import type { CatalogueEntry } from "./rules/catalogue";
import { actionCatalogue } from "./settings";
import { draftOf } from "./controls";
import { actionName, chip, counted, D, extraFlags, K, signed, type ActionChipContext } from "./rows";
import { pluralCategory, remembered } from "../../foundry/tracker/controls";
import type { ControlContext, ControlFactory, Localiser } from "../../core/ui";
import type { KeyedEntry } from "../../foundry/tracker/dom-patch";
import type { ModeInput } from "../contract";

/** A catalogue button of the declaration form. */
export interface PickContext {
  readonly index: string;
  readonly combatantId: string;
  /** Localised "Dodge · 2 AP", with the action's DEF change when it has one: "Parry · 1 AP · DEF +3". */
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

/** The pass of a turn, localised; the k-th attack with its English-style ordinal form (`Pass.extra.<form>`). */
function passText(pass: number, i18n: Localiser): string {
  if (pass === 0) return i18n.localize(`${K}.Pass.finishing`);
  if (pass === 1) return i18n.localize(`${K}.Pass.initial`);
  const form = pluralCategory(game.i18n.lang, pass, "ordinal");
  return i18n.format(`${K}.Pass.extra.${form}`, { pass: String(pass) });
}

/** A queue's entries, the current turn marked. */
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

/** The declaration form of the current declarer, from its draft and the catalogue. */
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
      const parts = { action: actionName(i18n, entry.name), cost: counted(i18n, `${K}.AP`, entry.cost) };
      const label =
        entry.def === 0
          ? i18n.format(`${K}.PickText`, parts)
          : i18n.format(`${K}.PickTextDef`, { ...parts, def: i18n.format(`${K}.Def`, { def: signed(entry.def) }) });
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

/** The ties waiting for the GM: every view shows them; only the GM's has the buttons. */
function tiesOf({ state, nameOf, control, who }: ModeInput<DeclareResolveState>): TieContext[] {
  return pendingTies(state).map((tie) => ({
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
}

/** The actions of the turn being resolved ("Jab (1 AP), Dodge (2 AP)"), or "". */
function nowActionsOf({ i18n }: ModeInput<DeclareResolveState>, turn: ResolutionTurn | null): string {
  return turn === null
    ? ""
    : turn.actions.map((a) => `${actionName(i18n, a.name)} (${counted(i18n, `${K}.AP`, a.cost)})`).join(", ");
}

/** The declaration form, when the viewer may declare for whoever declares now; else null. */
function declareFormOf({
  state,
  allowed,
  combat,
  i18n,
  nameOf,
  control,
}: ModeInput<DeclareResolveState>): DeclareFormContext | null {
  const declarer = currentDeclarer(state);
  return declarer !== null && allowed.for(declarer, "declare")
    ? declareForm(state, declarer, draftOf(combat, declarer), actionCatalogue(), i18n, nameOf, control)
    : null;
}

/** The upkeep the GM confirms, one line per combatant, during the upkeep; else none. */
function upkeepLines({ state, i18n, nameOf }: ModeInput<DeclareResolveState>): string[] {
  const text = (key: string, data: Record<string, string> = {}): string => i18n.format(`${K}.${key}`, data);
  return state.phase === "upkeep"
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
}

/** The set-up controls: "roll all" while more than one may roll, and start. */
export function drSetupControls({ state, allowed, control }: ModeInput<DeclareResolveState>): ControlContext[] {
  const setupControls: ControlContext[] = [];
  const rollable = state.combatants.filter((c) => c.ip === null && !c.defeated && allowed.for(c.id, "recordIP"));
  if (rollable.length > 1) setupControls.push(control({ action: "siDrRollAll", label: "RollAll" }));
  if (allowed.has("start")) setupControls.push(control({ action: "siStart", label: "Start", primary: true }));
  return setupControls;
}

/** The panel. */
export function drPanel(input: ModeInput<DeclareResolveState>): DrPanelContext {
  const { state, allowed, i18n, who, nameOf, control } = input;
  const text = (key: string, data: Record<string, string> = {}): string => i18n.format(`${K}.${key}`, data);
  const turn = currentTurn(state);
  const needRoll = new Set(rollsNeeded(state));
  const ties = tiesOf(input);
  const queue = queueEntries(
    resolutionQueue(state).filter((t) => t.pass < 2),
    nameOf,
    turn,
    i18n,
  );
  const extraQueue = queueEntries(extraAttackQueue(state), nameOf, turn, i18n);
  const isUpkeep = state.phase === "upkeep";
  const upkeep = upkeepLines(input);
  const live = isUpkeep
    ? [text("UpkeepAnnounce", { round: String(state.round) }), ...upkeep].join(" ")
    : ties.length > 0
      ? text("TiesAnnounce")
      : "";
  const rolls = state.combatants.filter((c) => needRoll.has(c.id)).map((c) => nameOf(c.id));
  return {
    stepHint: text(`StepHint.${currentStep(state)}`),
    budget: counted(i18n, `${K}.Budget`, state.budget),
    rolls: rolls.join(", "),
    hasRolls: rolls.length > 0,
    ties,
    hasTies: ties.length > 0,
    tieWait: ties.length > 0 && !who.isGM,
    nowActions: nowActionsOf(input, turn),
    declareForm: declareFormOf(input),
    queue,
    hasQueue: queue.length > 0,
    extraQueue,
    hasExtraQueue: extraQueue.length > 0,
    upkeep,
    isUpkeep,
    upkeepEmpty: isUpkeep && upkeep.length === 0,
    upkeepControl: allowed.has("upkeep")
      ? control({ action: "siDrUpkeep", label: `${D}.ConfirmUpkeep`, primary: true })
      : null,
    live,
  };
}
