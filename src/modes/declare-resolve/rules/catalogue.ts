/**
 * The action catalogue of the `declare-resolve` mode, pure: its entries, the seed's defaults, the
 * narrowing of a stored catalogue (a world setting, which a macro or a bad migration can corrupt) and
 * the check of the rows a GM typed in the settings form (each row's error, never a silent save).
 */
import { isRecord, isWhole } from "../../../core/common";
import {
  ACTION_KINDS,
  MAX_ACTION_COST,
  MAX_ACTION_NAME_LENGTH,
  MAX_DEF_CHANGE,
  type ActionKind,
  type DeclaredAction,
} from "./types";
import { isDeclaredAction } from "./state";

/** One entry of the catalogue: what a declaration takes when it picks it. */
export type CatalogueEntry = DeclaredAction;

/** Most entries a catalogue holds. */
export const MAX_CATALOGUE_ENTRIES = 100;

/** The seed's catalogue (rulebook excerpt 002): Dodge 2 (defence), Melee Attack 4, Power Attack 7. */
export const DEFAULT_CATALOGUE: readonly CatalogueEntry[] = [
  { name: "Dodge", cost: 2, kind: "defence", def: 0 },
  { name: "Melee Attack", cost: 4, kind: "attack", def: 0 },
  { name: "Power Attack", cost: 7, kind: "attack", def: 0 },
];

/**
 * The last part of the i18n key that names each default action in the user's language
 * (`Tracker.DeclareResolve.DefaultAction.<key>`). The catalogue setting, declarations and macros keep
 * the English names above, so stored data does not depend on who saved it; only what is shown changes.
 */
export const DEFAULT_ACTION_KEYS: ReadonlyMap<string, string> = new Map([
  ["Dodge", "dodge"],
  ["Melee Attack", "meleeAttack"],
  ["Power Attack", "powerAttack"],
]);

function isKind(value: unknown): value is ActionKind {
  return ACTION_KINDS.some((k) => k === value);
}

/**
 * A stored catalogue narrowed to its entries; null when it cannot be read (not a list of well-formed
 * entries with distinct names, or empty). A JSON text is read as its value.
 */
export function parseCatalogue(data: unknown): readonly CatalogueEntry[] | null {
  let value = data;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return null;
    }
  }
  const list = isRecord(value) && !Array.isArray(value) ? value.entries : value;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_CATALOGUE_ENTRIES) return null;
  if (!list.every(isDeclaredAction)) return null;
  const names = new Set(list.map((e) => e.name.toLowerCase()));
  if (names.size !== list.length) return null;
  return list.map((e) => ({ name: e.name, cost: e.cost, kind: e.kind, def: e.def }));
}

/** A catalogue row as the settings form holds it: the typed texts. */
export interface CatalogueRowInput {
  readonly name: string;
  readonly cost: string;
  readonly kind: string;
  /** Empty: no DEF change. */
  readonly def: string;
}

/** What is wrong with one field of a row (the last part of its i18n key). */
export type CatalogueFieldError = "name" | "duplicate" | "cost" | "kind" | "def";

/** The fields of a row, in the form's order: a row's errors come in this order. */
export type CatalogueField = "name" | "cost" | "kind" | "def";

/** The field each error is about. */
export const ERROR_FIELD: Readonly<Record<CatalogueFieldError, CatalogueField>> = {
  name: "name",
  duplicate: "name",
  cost: "cost",
  kind: "kind",
  def: "def",
};

/** Every error of a row, in the fields' order; empty when the row is valid. */
export type CatalogueRowErrors = readonly CatalogueFieldError[];

/** The checked rows: the entries (when every row is valid) and each row's errors. */
export interface CatalogueCheck {
  /** Null while any row has an error, or when there is no row. */
  readonly entries: readonly CatalogueEntry[] | null;
  readonly errors: readonly CatalogueRowErrors[];
}

function wholeText(text: string, min: number, max: number): number | null {
  const trimmed = text.trim();
  if (!/^[+-]?\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return isWhole(value, max, min) ? value + 0 : null;
}

/**
 * Check the rows typed in the catalogue form: each needs a name (distinct, case aside), a whole AP
 * cost of 0 or more, a kind (attack, defence or other) and, when given, a whole DEF change. Every
 * field of every row is checked, so the form shows all that is wrong at once.
 */
export function checkCatalogueRows(rows: readonly CatalogueRowInput[]): CatalogueCheck {
  const seen = new Set<string>();
  const entries: CatalogueEntry[] = [];
  const errors = rows.map((row): CatalogueRowErrors => {
    const found: CatalogueFieldError[] = [];
    const name = row.name.trim();
    if (name === "" || name.length > MAX_ACTION_NAME_LENGTH) found.push("name");
    // A name counts once it is typed, even on a row with other errors.
    else if (seen.has(name.toLowerCase())) found.push("duplicate");
    else seen.add(name.toLowerCase());
    const cost = wholeText(row.cost, 0, MAX_ACTION_COST);
    if (cost === null) found.push("cost");
    const kind = isKind(row.kind) ? row.kind : null;
    if (kind === null) found.push("kind");
    const def = row.def.trim() === "" ? 0 : wholeText(row.def, -MAX_DEF_CHANGE, MAX_DEF_CHANGE);
    if (def === null) found.push("def");
    if (found.length === 0 && cost !== null && kind !== null && def !== null) entries.push({ name, cost, kind, def });
    return found;
  });
  const ok = rows.length > 0 && rows.length <= MAX_CATALOGUE_ENTRIES && errors.every((e) => e.length === 0);
  return { entries: ok ? entries : null, errors };
}

/** The catalogue's entries as form rows. */
export function catalogueRows(entries: readonly CatalogueEntry[]): CatalogueRowInput[] {
  return entries.map((e) => ({
    name: e.name,
    cost: String(e.cost),
    kind: e.kind,
    def: e.def === 0 ? "" : String(e.def),
  }));
}

/** The catalogue entry of this name (case aside), or undefined. */
export function catalogueEntry(entries: readonly CatalogueEntry[], name: string): CatalogueEntry | undefined {
  const wanted = name.trim().toLowerCase();
  return entries.find((e) => e.name.toLowerCase() === wanted);
}
