/**
 * The `declare-resolve` declaration form, shown in the declaring combatant's row to whoever may
 * declare for it: one button per catalogue action that declares it alone (one click), a "no actions"
 * button, and a disclosure to combine actions (catalogue and custom ones) with the draft's running AP
 * total and its legality, computed here from the rules.
 */
import { I18N } from "../../constants";
import { currentDeclarer } from "./rules/derived";
import { availableAP, declarationLegality } from "./rules/points";
import type { ActionInput, DeclareResolveState, DeclaredAction } from "./rules/types";
import type { CatalogueEntry } from "./rules/catalogue";
import { actionCatalogue } from "./settings";
import { draftOf } from "./controls";
import { actionName, chip, counted, D, extraFlags, K, signed, type ActionChipContext } from "./chips";
import type { ControlContext } from "../../core/ui";
import type { ModeInput } from "../contract";

/** A catalogue action of the declaration form: its button that declares it alone, and its add button. */
export interface PickContext {
  readonly index: string;
  readonly combatantId: string;
  /** Localised "Dodge · 2 AP", with the action's DEF change when it has one: "Parry · 1 AP · DEF +3". */
  readonly text: string;
  /** Accessible name of the add button (in the combining disclosure). */
  readonly ariaLabel: string;
  /** Accessible name of the button that declares this action alone. */
  readonly declareLabel: string;
}

/** The declaration form for whoever declares now, when the viewer may declare for them. */
export interface DeclareFormContext {
  readonly combatantId: string;
  readonly heading: string;
  readonly picks: readonly PickContext[];
  /** Declares no actions this round (one click). */
  readonly noneControl: ControlContext;
  readonly draft: readonly (ActionChipContext & { readonly index: string; readonly removeLabel: string })[];
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

/** The legality of a draft in words. */
function verdictOf(
  state: DeclareResolveState,
  input: ModeInput<DeclareResolveState>,
  declarer: string,
  draft: readonly ActionInput[],
): { text: string; legal: boolean; total: number; available: number } {
  const { i18n, nameOf } = input;
  const legality = declarationLegality(state, declarer, draft);
  const total = draft.reduce((sum, a) => sum + (Number.isFinite(a.cost) ? a.cost : 0), 0);
  const c = state.combatants.find((x) => x.id === declarer);
  const available = c === undefined ? state.budget : availableAP(state, c);
  const text = (key: string, data: Record<string, string> = {}): string => i18n.format(`${K}.${key}`, data);
  let verdict: string;
  if (!legality.ok) {
    const r = legality.refusal as { code: string; total?: number; available?: number; budget?: number };
    verdict = i18n.format(`${I18N}.Refusal.${r.code}`, {
      name: nameOf(declarer),
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
  return { text: verdict, legal: legality.ok, total, available };
}

/** The catalogue's actions as the form shows them. */
function picksOf(
  input: ModeInput<DeclareResolveState>,
  declarer: string,
  catalogue: readonly CatalogueEntry[],
): PickContext[] {
  const { i18n, nameOf } = input;
  const name = nameOf(declarer);
  return catalogue.map((entry, i) => {
    const parts = { action: actionName(i18n, entry.name), cost: counted(i18n, `${K}.AP`, entry.cost) };
    const label =
      entry.def === 0
        ? i18n.format(`${K}.PickText`, parts)
        : i18n.format(`${K}.PickTextDef`, { ...parts, def: i18n.format(`${K}.Def`, { def: signed(entry.def) }) });
    return {
      index: String(i),
      combatantId: declarer,
      text: label,
      ariaLabel: i18n.format(`${K}.PickFor`, { action: label, name }),
      declareLabel: i18n.format(`${K}.DeclareEntryFor`, { action: label, name }),
    };
  });
}

/** The declaration form of `declarer`, from its draft and the catalogue. */
function declareForm(
  state: DeclareResolveState,
  input: ModeInput<DeclareResolveState>,
  declarer: string,
  draft: readonly ActionInput[],
  catalogue: readonly CatalogueEntry[],
): DeclareFormContext {
  const { i18n, nameOf, control } = input;
  const name = nameOf(declarer);
  const verdict = verdictOf(state, input, declarer, draft);
  const text = (key: string, data: Record<string, string> = {}): string => i18n.format(`${K}.${key}`, data);
  const flags = extraFlags(draft);
  const base = { combatantId: declarer, name };
  return {
    combatantId: declarer,
    heading: text("DeclareFor", { name }),
    picks: picksOf(input, declarer, catalogue),
    noneControl: control({ ...base, action: "siDrDeclareNone", label: `${D}.NoActions`, aria: `${D}.DeclareNoneFor` }),
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
    total: text("Total", { total: String(verdict.total), available: String(verdict.available) }),
    legality: verdict.text,
    legal: verdict.legal,
    kinds: (["attack", "defence", "other"] as const).map((k) => ({ value: k, label: i18n.localize(`${K}.Kind.${k}`) })),
    labels: {
      combine: text("Combine"),
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
      primary: draft.length > 0,
    }),
  };
}

/** The declaration form of whoever declares now, when the viewer may declare for them; else null. */
export function declareFormOf(input: ModeInput<DeclareResolveState>): DeclareFormContext | null {
  const { state, allowed, combat } = input;
  const declarer = currentDeclarer(state);
  return declarer !== null && allowed.for(declarer, "declare")
    ? declareForm(state, input, declarer, draftOf(combat, declarer), actionCatalogue())
    : null;
}
