/**
 * The tracker's helpers for every mode's tracker builder: the control factory (the types of a
 * control and of the index of what the viewer may do are in `src/core/ui.ts`, which the contract
 * shares) and the texts many rows share.
 */
import type { ControlFactory, Localiser } from "../../core/ui";
import { I18N } from "../../constants";

const T = `${I18N}.Tracker`;

export function controlFactory(i18n: Localiser): ControlFactory {
  return (spec) => ({
    action: spec.action,
    label: `${T}.${spec.label}`,
    ariaLabel: accessibleName(
      i18n,
      spec.label,
      i18n.format(`${T}.${spec.aria ?? spec.label}`, { name: spec.name ?? "" }),
    ),
    inputLabel: spec.input === undefined ? "" : i18n.format(`${T}.${spec.input}`, { name: spec.name ?? "" }),
    combatantId: spec.combatantId ?? "",
    groupId: spec.groupId ?? "",
    toggle: spec.toggle ?? false,
    pressed: spec.pressed ?? false,
    primary: spec.primary ?? false,
  });
}

/**
 * A button's accessible name: its description, led by its visible text where the description does not
 * already say it, so that a user of speech input can say what they see (WCAG 2.5.3, "label in name";
 * axe's `label-content-name-mismatch`): "Dodge: Aria dodges", not "Aria dodges" for a button showing
 * "Dodge" (the visible text must stand in the name as whole words).
 */
function accessibleName(i18n: Localiser, labelKey: string, description: string): string {
  const visible = i18n.localize(`${T}.${labelKey}`);
  const escaped = visible.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const asWords = new RegExp(`(^|\\P{L})${escaped}($|\\P{L})`, "iu");
  return asWords.test(description) ? description : `${visible}: ${description}`;
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
