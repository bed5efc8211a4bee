/**
 * The `declare-resolve` action chips and the texts they share with the declaration form and the
 * queues: an action's shown name (a default catalogue action's in the user's language), its cost in
 * the user's plural forms, its DEF change, and which actions of a declaration are later attacks.
 */
import { I18N } from "../../constants";
import type { DeclaredAction } from "./rules/types";
import { DEFAULT_ACTION_KEYS } from "./rules/catalogue";
import { formatCount } from "../../foundry/tracker/controls";
import type { Localiser } from "../../core/ui";

export const D = "DeclareResolve";
export const K = `${I18N}.Tracker.${D}`;

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

export function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/** "1 AP" / "2 AP" and the like: a count in the plural form of the user's language (`<key>.one`, `.few`…). */
export function counted(i18n: Localiser, key: string, count: number, data: Record<string, string> = {}): string {
  return formatCount(i18n, key, count, data, game.i18n.lang);
}

/** An action's name as shown: a default catalogue action's in the user's language, any other as typed. */
export function actionName(i18n: Localiser, name: string): string {
  const key = DEFAULT_ACTION_KEYS.get(name);
  return key === undefined ? name : i18n.localize(`${K}.DefaultAction.${key}`);
}

export function chip(i18n: Localiser, action: DeclaredAction, extra: boolean, done: boolean): ActionChipContext {
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
export function extraFlags(actions: readonly { readonly kind: string }[]): boolean[] {
  let attacks = 0;
  return actions.map((a) => a.kind === "attack" && ++attacks > 1);
}
