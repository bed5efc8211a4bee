/** The realm's `game.i18n` (https://foundryvtt.com/api/classes/foundry.helpers.Localization.html). */
import { getProperty, type Dict } from "../utils.js";

/** Localisation from one language's translations. */
export function createI18n(opts: { lang?: string; translations: Dict }) {
  const i18n = {
    lang: opts.lang ?? "en",
    translations: opts.translations,
    has(key: string): boolean {
      return typeof getProperty(opts.translations, key) === "string";
    },
    localize(key: string): string {
      const v = getProperty(opts.translations, key);
      return typeof v === "string" ? v : key;
    },
    format(key: string, data: Dict = {}): string {
      return i18n.localize(key).replace(/{[^}]+}/g, (m) => {
        const k = m.slice(1, -1);
        return k in data ? String(data[k]) : m;
      });
    },
  };
  return i18n;
}

export type SimI18n = ReturnType<typeof createI18n>;
