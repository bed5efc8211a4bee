/**
 * The tracker's buttons as templates render them, and the index of what the viewer may do that
 * decides which buttons they see. Shared by the tracker and every mode's tracker builder.
 */
import type { AllowedAction } from "../../core/engine";
import { I18N } from "../../constants";

const T = `${I18N}.Tracker`;

/** One button. Its visible text is `label`, its accessible name `aria` formatted with `name`. */
export interface ControlContext {
  /** The `data-action` the tracker's `actions` handle. */
  readonly action: string;
  /** i18n key of the visible text. */
  readonly label: string;
  /** The accessible name, localised (it may hold a name, so it is escaped like any text). */
  readonly ariaLabel: string;
  /** Accessible name of the text input that goes with the control (the ready trigger), or "". */
  readonly inputLabel: string;
  /** The combatant the control acts for, or "". */
  readonly combatantId: string;
  /** The group the control acts for, or "". */
  readonly groupId: string;
  /** A toggle button (rendered with `aria-pressed`). */
  readonly toggle: boolean;
  /** The toggle's state. */
  readonly pressed: boolean;
  /** Styled as the main action of its row or strip. */
  readonly primary: boolean;
}

/** A control in its plain form, before defaults. */
export interface ControlSpec {
  readonly action: string;
  readonly label: string;
  readonly aria?: string;
  readonly name?: string;
  readonly combatantId?: string;
  readonly groupId?: string;
  readonly toggle?: boolean;
  readonly pressed?: boolean;
  readonly primary?: boolean;
  /** i18n key of the accessible name of a text input that goes with the control. */
  readonly input?: string;
}

/** Makes a control from its plain form. */
export type ControlFactory = (spec: ControlSpec) => ControlContext;

export function controlFactory(i18n: Localiser): ControlFactory {
  return (spec) => ({
    action: spec.action,
    label: `${T}.${spec.label}`,
    ariaLabel: i18n.format(`${T}.${spec.aria ?? spec.label}`, { name: spec.name ?? "" }),
    inputLabel: spec.input === undefined ? "" : i18n.format(`${T}.${spec.input}`, { name: spec.name ?? "" }),
    combatantId: spec.combatantId ?? "",
    groupId: spec.groupId ?? "",
    toggle: spec.toggle ?? false,
    pressed: spec.pressed ?? false,
    primary: spec.primary ?? false,
  });
}

/** The actions allowed to the viewer, indexed for quick look-up. */
export class Allowed {
  private readonly global = new Set<string>();
  private readonly byCombatant = new Map<string, Set<string>>();
  private readonly byGroup = new Map<string, Set<string>>();

  constructor(actions: readonly AllowedAction[]) {
    for (const action of actions) {
      if (action.groupId !== undefined) add(this.byGroup, action.groupId, action.type);
      else if (action.combatantId !== undefined) add(this.byCombatant, action.combatantId, action.type);
      else this.global.add(action.type);
    }
  }

  has(type: string): boolean {
    return this.global.has(type);
  }

  for(combatantId: string, type: string): boolean {
    return this.byCombatant.get(combatantId)?.has(type) ?? false;
  }

  forGroup(groupId: string, type: string): boolean {
    return this.byGroup.get(groupId)?.has(type) ?? false;
  }

  /** Combatant ids with this action allowed. */
  combatants(type: string): string[] {
    const out: string[] = [];
    for (const [id, types] of this.byCombatant) if (types.has(type)) out.push(id);
    return out;
  }
}

function add(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (set === undefined) map.set(key, new Set([value]));
  else set.add(value);
}

/** Localisation function the context builder uses (Foundry's `game.i18n`). */
export interface Localiser {
  localize(key: string): string;
  format(key: string, data: Record<string, string>): string;
  /** The language code (Foundry's `game.i18n.lang`). */
  readonly lang?: string;
}

/**
 * `make`, remembered by its arguments for as long as the returned function lives: a context build
 * makes one for a text (or a piece of context) that many rows or entries share (a slot's scores,
 * "4 AP", an action chip), and formats it once per distinct value instead of once per row. What it
 * returns is shared: nothing may change it.
 */
export function remembered<A extends ReadonlyArray<string | number | boolean>, V>(
  make: (...args: A) => V,
): (...args: A) => V {
  const seen = new Map<string, V>();
  return (...args) => {
    const key = args.join("\u0000");
    if (seen.has(key)) return seen.get(key) as V;
    const value = make(...args);
    seen.set(key, value);
    return value;
  };
}

/** Plural rules by language and type, built once each (building one costs far more than a lookup). */
const pluralRules = new Map<string, Intl.PluralRules>();

/**
 * Foundry language codes that are not the BCP 47 tag of their language: "cn" is the code Foundry's
 * community uses for simplified Chinese (Intl would read it as an unknown language and use English rules).
 */
const INTL_LOCALES: Readonly<Record<string, string>> = { cn: "zh-CN" };

/** The BCP 47 locale Intl reads for a Foundry language code. */
export function intlLocale(lang: string): string {
  return INTL_LOCALES[lang] ?? lang;
}

/** The plural category of `count` in `lang` (cardinal or ordinal); throws for an unknown language code. */
export function pluralCategory(lang: string, count: number, type: Intl.PluralRuleType = "cardinal"): string {
  const key = `${type}:${lang}`;
  let rules = pluralRules.get(key);
  if (rules === undefined) {
    rules = new Intl.PluralRules(intlLocale(lang), { type });
    pluralRules.set(key, rules);
  }
  return rules.select(count);
}

/**
 * A count in words that agree with it: `key` holds one text per plural category of the language
 * (`one`, `other`, and `few`, `many`… where the language has them), each with `{count}`; a missing
 * category falls back to `other`. `lang` is the language whose plural rules apply (default `i18n.lang`).
 */
export function formatCount(
  i18n: Localiser,
  key: string,
  count: number,
  data: Record<string, string> = {},
  lang: string = i18n.lang ?? "en",
): string {
  let category: string = "other";
  try {
    category = pluralCategory(lang, count);
  } catch {
    // An unknown language code: the "other" text.
  }
  const values = { ...data, count: String(count) };
  const wanted = `${key}.${category}`;
  // Foundry's localize returns the key itself when it has no text for it.
  return i18n.localize(wanted) === wanted ? i18n.format(`${key}.other`, values) : i18n.format(wanted, values);
}
