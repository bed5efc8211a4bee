/**
 * What the `declare-resolve` tracker's buttons do, by `data-action`: roll IP, declare one catalogue
 * action or none in one click, build and send a declaration (catalogue picks and custom actions), order ties, confirm the upkeep, and the GM's IP
 * changes and conditions. Each goes through the rules (`submit`) or the mode's glue; refusals come
 * back as localised notifications. Typed values are read from form controls, never as HTML.
 */
import { submit } from "../../foundry/authority/controller";
import type { ActionTable } from "../contract";
import { addIPChange, addToDraft, declareActions, declareDraft, removeFromDraft, setConditions } from "./controls";
import { DR_INITIATIVE } from "./initiative";
import { actionCatalogue } from "./settings";

const idOf = (target: HTMLElement): string => target.dataset.combatantId ?? "";

/** The value of the field `field` for the button's combatant inside the closest `scope`, or "". */
function fieldNear(target: HTMLElement, scope: string, field: string): string {
  const element = target
    .closest(scope)
    ?.querySelector<HTMLInputElement | HTMLSelectElement>(
      `[data-field="${field}"][data-combatant-id="${idOf(target)}"]`,
    );
  return element?.value ?? "";
}

/** The `declare-resolve` buttons. */
export const DECLARE_RESOLVE_ACTIONS: ActionTable = {
  siDrRollAll: (combat) => DR_INITIATIVE.rollAll(combat),
  // One click: the catalogue action alone, or no actions, is the declaration.
  siDrDeclareEntry: (combat, target) => {
    const entry = actionCatalogue()[Number(target.dataset.entry)];
    return declareActions(combat, idOf(target), [entry === undefined ? null : { catalogue: entry.name }]);
  },
  siDrDeclareNone: (combat, target) => declareActions(combat, idOf(target), []),
  siDrPick: (combat, target) => {
    const entry = actionCatalogue()[Number(target.dataset.entry)];
    return addToDraft(combat, idOf(target), entry === undefined ? null : { catalogue: entry.name });
  },
  siDrUnpick: (combat, target) => removeFromDraft(combat, idOf(target), Number(target.dataset.entry)),
  siDrAddCustom: async (combat, target) => {
    const scope = ".si-dr-custom";
    const result = await addToDraft(combat, idOf(target), {
      name: fieldNear(target, scope, "name"),
      cost: fieldNear(target, scope, "cost"),
      kind: fieldNear(target, scope, "kind"),
      def: fieldNear(target, scope, "def"),
    });
    // Re-renders keep what was typed (they patch the tracker in place): empty the fields once added.
    if (!(typeof result === "object" && result !== null && (result as { ok?: unknown }).ok === false))
      for (const input of target.closest(scope)?.querySelectorAll("input") ?? []) input.value = input.defaultValue;
    return result;
  },
  siDrDeclare: (combat, target) => declareDraft(combat, idOf(target)),
  siDrOrderTied: (combat, target) =>
    submit(combat, { type: "orderTied", combatantIds: (target.dataset.groupId ?? "").split(",") }),
  siDrUpkeep: (combat) => submit(combat, { type: "upkeep" }),
  siDrIPChange: (combat, target) => {
    const scope = ".si-dr-edit";
    return addIPChange(
      combat,
      idOf(target),
      fieldNear(target, scope, "cause"),
      fieldNear(target, scope, "amount"),
      fieldNear(target, scope, "duration"),
      fieldNear(target, scope, "rounds"),
    );
  },
  siDrIPRemove: (combat, target) =>
    submit(combat, { type: "removeIPChange", combatantId: idOf(target), changeId: target.dataset.groupId ?? "" }),
  siDrConditions: (combat, target) => {
    const scope = ".si-dr-edit";
    return setConditions(combat, idOf(target), {
      bleeding: fieldNear(target, scope, "bleeding"),
      dazed: fieldNear(target, scope, "dazed"),
      stunned: fieldNear(target, scope, "stunned"),
    });
  },
};
