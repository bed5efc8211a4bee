/**
 * What the `declare-resolve` controls do on a user's behalf: declarations built from the catalogue or
 * custom actions (each client keeps its draft until it is sent), and the GM's changes (IP changes,
 * conditions, the AP budget passed on to running encounters). The tracker's buttons (actions.ts) and
 * the module API (api.ts) both call them.
 */
import type { CommandResult } from "../../core/protocol";
import { applyAsAuthority, isAuthority, submit } from "../../foundry/authority/controller";
import { requesterFor } from "../../foundry/authority/encounters";
import { declarationLegality } from "./rules/points";
import type { ActionInput, IPChangeDuration } from "./rules/types";
import { catalogueEntry, type CatalogueEntry } from "./rules/catalogue";
import { actionCatalogue, apBudget } from "./settings";
import { drState } from "./encounter";
import { shownRefusal } from "../../foundry/notify";

// Declarations

/** An action as the API takes it: a catalogue entry by name, or a custom action. */
export type ActionChoice = { readonly catalogue: string } | ActionInput;

/** A catalogue choice or custom action as the rules take it; null for an unknown catalogue entry. */
export function toActionInput(choice: unknown, catalogue: readonly CatalogueEntry[]): ActionInput | null {
  if (typeof choice !== "object" || choice === null) return null;
  const c = choice as Record<string, unknown>;
  if (typeof c.catalogue === "string") {
    const entry = catalogueEntry(catalogue, c.catalogue);
    return entry === undefined ? null : { ...entry };
  }
  const cost =
    typeof c.cost === "number" ? c.cost : typeof c.cost === "string" && c.cost.trim() !== "" ? Number(c.cost) : NaN;
  const def = typeof c.def === "number" ? c.def : typeof c.def === "string" && c.def.trim() !== "" ? Number(c.def) : 0;
  return {
    name: typeof c.name === "string" ? c.name : "",
    cost,
    kind: typeof c.kind === "string" ? c.kind : "",
    def,
  };
}

/**
 * Declare for a combatant: catalogue entries by name (`{catalogue: "Dodge"}`) or custom actions
 * (`{name, cost, kind, def?}`), in order; an empty list declares no actions.
 */
export async function declareActions(
  combat: Combat.Implementation,
  combatantId: string,
  choices: readonly unknown[],
): Promise<CommandResult> {
  const catalogue = actionCatalogue();
  const actions: ActionInput[] = [];
  for (const choice of choices) {
    const action = toActionInput(choice, catalogue);
    if (action === null) return shownRefusal(combat, { ok: false, code: "unknownAction", combatantId });
    actions.push(action);
  }
  const result = await submit(combat, { type: "declare", combatantId, actions: actions.map((a) => ({ ...a })) });
  if (result.ok) clearDraft(combat, combatantId);
  return result;
}

/** Each client's declarations being put together, by combat, combatant and round. */
const drafts = new Map<string, ActionInput[]>();

function draftKey(combat: Combat.Implementation, combatantId: string): string {
  return `${combat.id ?? ""}|${combatantId}|${drState(combat)?.round ?? 0}`;
}

/** The actions picked so far for a combatant's declaration on this client. */
export function draftOf(combat: Combat.Implementation, combatantId: string): readonly ActionInput[] {
  return drafts.get(draftKey(combat, combatantId)) ?? [];
}

function rerender(): Promise<unknown> {
  return ui.combat.render();
}

/**
 * Add an action to the draft (checked first: an unnamed action or a bad cost is refused with its
 * message and not added). The tracker shows the draft's AP total and legality.
 */
export function addToDraft(combat: Combat.Implementation, combatantId: string, choice: unknown): Promise<unknown> {
  const state = drState(combat);
  const action = toActionInput(choice, actionCatalogue());
  if (state === null) return Promise.resolve(shownRefusal(combat, { ok: false, code: "corrupted" }));
  if (action === null) return Promise.resolve(shownRefusal(combat, { ok: false, code: "unknownAction", combatantId }));
  const checked = declarationLegality(state, combatantId, [action]);
  if (!checked.ok && checked.refusal.code !== "apOverBudget" && checked.refusal.code !== "actionTooLong") {
    return Promise.resolve(shownRefusal(combat, { ok: false, code: checked.refusal.code, combatantId }));
  }
  const key = draftKey(combat, combatantId);
  drafts.set(key, [...(drafts.get(key) ?? []), action]);
  return rerender();
}

/** Take the action at `index` out of the draft. */
export function removeFromDraft(combat: Combat.Implementation, combatantId: string, index: number): Promise<unknown> {
  const key = draftKey(combat, combatantId);
  drafts.set(
    key,
    (drafts.get(key) ?? []).filter((_, i) => i !== index),
  );
  return rerender();
}

function clearDraft(combat: Combat.Implementation, combatantId: string): void {
  drafts.delete(draftKey(combat, combatantId));
}

/** Send the draft as the combatant's declaration. */
export function declareDraft(combat: Combat.Implementation, combatantId: string): Promise<CommandResult> {
  return declareActions(combat, combatantId, draftOf(combat, combatantId));
}

// The GM's changes

function wholeOrNaN(text: string): number {
  return /^\s*[+-]?\d+\s*$/.test(text) ? Number(text) : Number.NaN;
}

/** A temporary IP change as the tracker's fields give it: cause, amount and duration (GM). */
export function addIPChange(
  combat: Combat.Implementation,
  combatantId: string,
  cause: string,
  amount: string,
  duration: string,
  rounds: string,
): Promise<CommandResult> {
  const span: IPChangeDuration =
    duration === "untilRemoved"
      ? { kind: "untilRemoved" }
      : duration === "rounds"
        ? { kind: "rounds", rounds: wholeOrNaN(rounds) }
        : { kind: "round" };
  if (span.kind === "rounds" && !Number.isInteger(span.rounds)) {
    return Promise.resolve(shownRefusal(combat, { ok: false, code: "invalidValue", combatantId }));
  }
  return submit(combat, { type: "addIPChange", combatantId, cause, amount: wholeOrNaN(amount), duration: span });
}

/** A combatant's bleeding, dazed and stunned as the tracker's fields give them (GM). */
export function setConditions(
  combat: Combat.Implementation,
  combatantId: string,
  values: { bleeding: string; dazed: string; stunned: string },
): Promise<CommandResult> {
  const number = (text: string): number => (text.trim() === "" ? 0 : wholeOrNaN(text));
  const command = {
    type: "setConditions",
    combatantId,
    bleeding: number(values.bleeding),
    dazed: number(values.dazed),
    stunned: number(values.stunned),
  };
  if (![command.bleeding, command.dazed, command.stunned].every(Number.isFinite)) {
    return Promise.resolve(shownRefusal(combat, { ok: false, code: "invalidValue", combatantId }));
  }
  return submit(combat, command);
}

/**
 * The GM changed the world's AP budget: the active GM passes it on to every `declare-resolve`
 * encounter where the rules allow it (before the round's first declaration).
 */
export async function applyBudget(): Promise<void> {
  if (!isAuthority()) return;
  const budget = apBudget();
  for (const combat of game.combats.contents) {
    const state = drState(combat);
    if (state === null || state.budget === budget) continue;
    await applyAsAuthority(combat, { type: "setBudget", budget }, requesterFor(combat, game.user), null);
  }
}
