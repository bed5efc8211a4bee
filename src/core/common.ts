/**
 * Small pure helpers shared by the rules modes: permission checks, immutable list edits and the
 * narrowing of untrusted data. Nothing here knows about a particular mode.
 */

import {
  accept,
  refuse,
  type AllowedAction,
  type Outcome,
  type Requester,
  type RosterEntry,
  type StepKind,
} from "./engine";

/** Whether `who` may act for `combatantId`: the GM always, a player only for a combatant it owns. */
export function canControl(who: Requester, combatantId: string): boolean {
  return who.isGM || who.owns.includes(combatantId);
}

/**
 * Why `who` may not change a combatant as only the GM may (remove it, mark it defeated), or null: the
 * GM, on a combatant of the encounter.
 */
export function gmCombatantRefusal<S extends { readonly combatants: readonly { readonly id: string }[] }>(
  state: S,
  combatantId: string,
  who: Requester,
): Outcome<S> | null {
  if (!who.isGM) return refuse("notGM");
  if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
  return null;
}

/** The first entry whose `id` is `id`, if any. */
export function findById<T extends { readonly id: string }>(list: readonly T[], id: string): T | undefined {
  return list.find((entry) => entry.id === id);
}

/** Whether `list` holds `id`. */
export function includesId(list: readonly string[], id: string): boolean {
  return list.includes(id);
}

/** One `make(entry)` for the first entry of each id, in order (a roster may name someone twice). */
export function oncePerId<E extends { readonly id: string }, T>(entries: readonly E[], make: (entry: E) => T): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const entry of entries) {
    if (seen.has(entry.id)) continue;
    seen.add(entry.id);
    out.push(make(entry));
  }
  return out;
}

/** A copy of `list` without every occurrence of `item`. */
export function without<T>(list: readonly T[], item: T): T[] {
  return list.filter((entry) => entry !== item);
}

/** A copy of `list` with `items` inserted before position `index` (clamped to the list). */
export function insertAt<T>(list: readonly T[], index: number, ...items: readonly T[]): T[] {
  const at = Math.min(Math.max(index, 0), list.length);
  return [...list.slice(0, at), ...items, ...list.slice(at)];
}

/** Whether `a` holds each id once and the same ids as `b`, in any order. */
export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && new Set(a).size === a.length && a.every((id) => b.includes(id));
}

/** A copy of `list` with `item` appended unless it is already there. */
export function withItem<T>(list: readonly T[], item: T): T[] {
  return list.includes(item) ? [...list] : [...list, item];
}

/** A copy of `state` with the combatant of id `id` replaced by `change` of it. */
export function updateCombatant<S extends { readonly combatants: readonly { readonly id: string }[] }>(
  state: S,
  id: string,
  change: (c: S["combatants"][number]) => S["combatants"][number],
): S {
  return { ...state, combatants: state.combatants.map((c) => (c.id === id ? change(c) : c)) };
}

/** How a step that went from round `before` to round `after` is recorded for undo. */
export function stepKind(before: number, after: number): StepKind {
  return before === after ? "turn" : "round";
}

/** Longest id accepted from untrusted data (Foundry ids are 16 characters). */
export const MAX_ID_LENGTH = 128;
/** Longest free text (a name, a ready trigger) accepted from untrusted data. */
export const MAX_TEXT_LENGTH = 500;

/** Narrow untrusted data to a plain object (not an array, not null). */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Untrusted data as a plain object, or null when it is not one. */
export function recordOf(value: unknown): Readonly<Record<string, unknown>> | null {
  return isRecord(value) ? value : null;
}

/** A property of untrusted data, or undefined when the data is not an object. */
export function fieldOf(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** Narrow untrusted data to a usable id: a non-empty string of bounded length. */
export function isId(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= MAX_ID_LENGTH;
}

/** Narrow untrusted data to a finite number (no NaN, no ±Infinity). */
export function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** Narrow untrusted data to a string of bounded length (possibly empty). */
export function isText(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_TEXT_LENGTH;
}

/** Null, or a value `guard` accepts. */
export function isNullable<T>(value: unknown, guard: (v: unknown) => v is T): value is T | null {
  return value === null || guard(value);
}

/** A list of well-formed ids. */
export function isIdList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every(isId);
}

/** A whole number from `min` to `max`. */
export function isWhole(value: unknown, max: number, min = 0): value is number {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
}

/** Narrow untrusted data to a roster entry (a combatant as the rules see it), or null. */
export function parseRosterEntry(data: unknown): RosterEntry | null {
  if (!isRecord(data)) return null;
  const { id, name, isPC } = data;
  if (!isId(id) || !isText(name) || typeof isPC !== "boolean") return null;
  return { id, name, isPC };
}

/**
 * Whether a command joins or removes a combatant: undo replays these on every snapshot, so an undo
 * never brings back a deleted combatant (every mode's `isRosterCommand`).
 */
export function isRosterCommand(command: { readonly type: string }): boolean {
  return command.type === "addCombatant" || command.type === "removeCombatant";
}

/** The roster commands every mode takes: a combatant joins, leaves, or is marked defeated. */
export type RosterCommand =
  | { readonly type: "addCombatant"; readonly combatant: RosterEntry }
  | { readonly type: "removeCombatant"; readonly combatantId: string }
  | { readonly type: "setDefeated"; readonly combatantId: string; readonly defeated: boolean };

/**
 * Narrow untrusted data to a roster command: the command, null when it is one of them but malformed,
 * undefined when it is another command (the mode's own parser goes on).
 */
export function parseRosterCommand(d: Readonly<Record<string, unknown>>): RosterCommand | null | undefined {
  const id = d.combatantId;
  switch (d.type) {
    case "addCombatant": {
      const combatant = parseRosterEntry(d.combatant);
      return combatant === null ? null : { type: "addCombatant", combatant };
    }
    case "removeCombatant":
      return isId(id) ? { type: "removeCombatant", combatantId: id } : null;
    case "setDefeated":
      return isId(id) && typeof d.defeated === "boolean"
        ? { type: "setDefeated", combatantId: id, defeated: d.defeated }
        : null;
    default:
      return undefined;
  }
}

/**
 * The `addCombatant` command every mode shares: the GM adds a combatant with a new, well-formed id
 * at the end of the roster (`make` gives the mode's record of it).
 */
export function addToRoster<
  S extends { readonly round: number; readonly combatants: readonly C[] },
  C extends { readonly id: string },
>(state: S, entry: RosterEntry, who: Requester, make: (entry: RosterEntry) => C): Outcome<S> {
  if (!who.isGM) return refuse("notGM");
  if (!isId(entry.id)) return refuse("invalidValue");
  if (findById(state.combatants, entry.id) !== undefined) return refuse("duplicateCombatant", entry.id);
  const s: S = { ...state, combatants: [...state.combatants, make(entry)] };
  return accept(s, [{ type: "combatantAdded", round: s.round, combatantId: entry.id }]);
}

/** A mode's command handlers: one per command type, each given a command of its type. */
export type Handlers<S, C extends { readonly type: string }> = {
  readonly [T in C["type"]]: (state: S, command: Extract<C, { readonly type: T }>, who: Requester) => Outcome<S>;
};

/**
 * Apply a command with the handler of its type. A type with no handler (reached only by data that
 * bypassed the mode's `parseCommand`, inherited names such as `toString` included) is refused.
 */
export function runHandler<S, C extends { readonly type: string }>(
  handlers: Handlers<S, C>,
  state: S,
  command: C,
  who: Requester,
): Outcome<S> {
  if (!Object.hasOwn(handlers, command.type)) return refuse("unknownCommand");
  // The mapped type pairs each handler with its own command type; `command` is of the type looked up.
  const handler = handlers[command.type as C["type"]] as (state: S, command: C, who: Requester) => Outcome<S>;
  return handler(state, command, who);
}

/** A command tried on the state to learn whether a user may take the action it stands for. */
export interface Probe<A extends AllowedAction, C> {
  readonly action: A;
  readonly command: C;
}

/** A probe of `command` for the action of its type, about what `about` names (a combatant, a slot…). */
export function probe<A extends AllowedAction, C extends { readonly type: string }>(
  command: C,
  about?: Omit<A, "type">,
): Probe<A, C> {
  // `A` adds only optional fields to `AllowedAction`: the type and what `about` names make one.
  return { action: { type: command.type, ...about } as A, command };
}

/**
 * A command's refusal check: why `who` may not take `command` now, or null exactly when the
 * command's handler would accept it. It builds no state, so that a trial of it is cheap.
 */
export type RefusalCheck<S, C> = (state: S, command: C, who: Requester) => Outcome<S> | null;

/**
 * A mode's refusal checks by command type, for `allowedByTrial`: a command with one is tried by it
 * instead of by its handler. Only a command whose handler, once past that check, always accepts may
 * have one (each mode's allowed-actions property test compares the two ways).
 */
export type RefusalChecks<S, C extends { readonly type: string }> = {
  readonly [T in C["type"]]?: RefusalCheck<S, Extract<C, { readonly type: T }>>;
};

/**
 * "What this user may do now", derived from the rules themselves so the two cannot disagree: the
 * `given` actions (known without a trial), then each probe's action whose command the mode accepts
 * for `who`, each action once. A probe is tried by its command's refusal check in `checks` when it
 * has one (building no state), else by `apply`.
 */
export function allowedByTrial<S, C extends { readonly type: string }, A extends AllowedAction>(
  state: S,
  who: Requester,
  given: readonly A[],
  probes: Iterable<Probe<A, C>>,
  apply: (state: S, command: C, who: Requester) => { readonly ok: boolean },
  checks: RefusalChecks<S, C> = {},
): A[] {
  const out = [...given];
  const seen = new Set<string>();
  for (const { action, command } of probes) {
    // Most probes are refused: try first, name the action only when it is allowed.
    if (!tryProbe(state, command, who, apply, checks)) continue;
    const key = actionKey(action);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(action);
  }
  return out;
}

/**
 * A key two actions share exactly when they have the same fields in the same order (undefined ones
 * left out) with equal values: each field's name and value, prefixed by its length. Values are
 * strings, numbers or booleans (anything else is written as JSON, in a list so that it always has
 * some); a string is told from the others by a mark. Cheaper than each action's JSON, which was
 * most of what was left of a trial's time.
 */
function actionKey(action: AllowedAction): string {
  // An action is a flat record of its own fields.
  const fields = action as unknown as Readonly<Record<string, unknown>>;
  let key = "";
  for (const name in fields) {
    const value = fields[name];
    if (value === undefined) continue;
    const text =
      typeof value === "string"
        ? `'${value}`
        : typeof value === "number" || typeof value === "boolean"
          ? String(value)
          : JSON.stringify([value]);
    key += `${name.length}:${name}${text.length}:${text}`;
  }
  return key;
}

/** Whether `who` may take `command` now: by its refusal check in `checks`, or else by `apply`. */
function tryProbe<S, C extends { readonly type: string }>(
  state: S,
  command: C,
  who: Requester,
  apply: (state: S, command: C, who: Requester) => { readonly ok: boolean },
  checks: RefusalChecks<S, C>,
): boolean {
  if (!Object.hasOwn(checks, command.type)) return apply(state, command, who).ok;
  // The mapped type pairs each check with its own command type; `command` is of the type looked up.
  const check = checks[command.type as C["type"]] as RefusalCheck<S, C> | undefined;
  return check === undefined ? apply(state, command, who).ok : check(state, command, who) === null;
}

/**
 * A result the GM typed instead of rolling (issue 15: the tracker marks it). A command carries
 * `typed: true` when the authority found no roll behind it; only the GM's may.
 */
export type TypedMark = {
  /** Present (true) only on a typed result. */
  readonly typed?: true;
};

/** `value` marked typed, or with any earlier mark removed. */
export function markTyped<T extends object>(value: T, typed: boolean | undefined): T & TypedMark {
  const { typed: _earlier, ...rest } = value as T & TypedMark;
  return (typed === true ? { ...rest, typed: true } : rest) as T & TypedMark;
}

/** Whether untrusted data holds a well-formed mark (absent, or true). */
export function isTypedMark(value: Readonly<Record<string, unknown>>): boolean {
  return isTypedField(value.typed);
}

/** Whether the `typed` field of untrusted data is well-formed (absent, or true). */
export function isTypedField(value: unknown): boolean {
  return value === undefined || value === true;
}

/** The `typed` field of an untrusted command: true, false, or absent when malformed or missing. */
export function parseTyped(data: Readonly<Record<string, unknown>>): { readonly typed?: boolean } {
  return typeof data.typed === "boolean" ? { typed: data.typed } : {};
}

// ---------------------------------------------------------------------------------------------
// Declarative narrowing: record shapes and command tables
// ---------------------------------------------------------------------------------------------

/** A boolean (a flag of untrusted data). */
export function isFlag(value: unknown): value is boolean {
  return typeof value === "boolean";
}

/** The checks of a record's fields: one for every field of `T`, optional fields included. */
export type FieldChecks<T> = { readonly [K in keyof T]-?: (value: unknown) => boolean };

/**
 * A guard of untrusted data for records of type `T`: a plain object whose every field passes its
 * check, in the order listed (a check of an optional field sees `undefined` when it is absent).
 */
export function shapeOf<T>(checks: FieldChecks<T>): (value: unknown) => value is T {
  const entries: [string, (value: unknown) => boolean][] = Object.entries(checks);
  return (value: unknown): value is T => isRecord(value) && entries.every(([key, check]) => check(value[key]));
}

/** A guard of lists whose every item `guard` accepts. */
export function listOf<T>(guard: (value: unknown) => value is T): (value: unknown) => value is readonly T[] {
  return (value: unknown): value is readonly T[] => Array.isArray(value) && value.every((item) => guard(item));
}

/** A guard of null or what `guard` accepts. */
export function orNull<T>(guard: (value: unknown) => value is T): (value: unknown) => value is T | null {
  return (value: unknown): value is T | null => value === null || guard(value);
}

/** What a field reader gives for malformed data: the whole command is refused. */
export const BAD: unique symbol = Symbol("bad");

/**
 * How a command's field is read from untrusted data (`data`, the whole command, for fields that
 * depend on another): the value to store, `undefined` to leave the field out, or `BAD`.
 */
export type FieldReader<V> = (value: unknown, data: Readonly<Record<string, unknown>>) => V | undefined | typeof BAD;

/** The keys of every member of a union, `type` aside. */
type FieldKeys<C> = C extends unknown ? Exclude<keyof C, "type"> : never;
/** The value field `K` takes in any member of the union `C`. */
type FieldValue<C, K> = C extends unknown ? (K extends keyof C ? Exclude<C[K], undefined> : never) : never;

/** The readers of one command's fields: one for every field of every form the command takes. */
export type CommandFields<C> = { readonly [K in FieldKeys<C>]-?: FieldReader<FieldValue<C, K>> };

/** Each command type's field readers; a type the table leaves out is not accepted. */
export type CommandTable<C extends { readonly type: string }> = {
  readonly [T in C["type"]]?: CommandFields<Extract<C, { readonly type: T }>>;
};

/** A required field that `guard` accepts. */
export function required<T>(guard: (value: unknown) => value is T): FieldReader<T> {
  return (value) => (guard(value) ? value : BAD);
}

/** A field that may be absent (undefined or null: left out), else one `guard` accepts. */
export function optional<T>(guard: (value: unknown) => value is T): FieldReader<T> {
  return (value) => (value === undefined || value === null ? undefined : guard(value) ? value : BAD);
}

/** A field that may be absent (undefined: `absent` stands for it, or it is left out), else one `guard` accepts. */
export function absentOr<T>(guard: (value: unknown) => value is T, absent?: T): FieldReader<T> {
  return (value) => (value === undefined ? absent : guard(value) ? value : BAD);
}

/** A combatant id, required. */
export const ID_FIELD: FieldReader<string> = required(isId);

/** The `typed` mark of a result (issue 15): kept when it is a boolean, dropped when it is anything else. */
export const TYPED_FIELD: FieldReader<boolean> = (value) => (isFlag(value) ? value : undefined);

/**
 * Narrow untrusted data to a command: a roster command, or one of the table's types with every
 * field its reader gives (in the table's order); null when it is malformed or of no known type.
 */
export function parseByTable<C extends { readonly type: string }>(
  data: unknown,
  table: CommandTable<C>,
): C | RosterCommand | null {
  if (!isRecord(data)) return null;
  const roster = parseRosterCommand(data);
  if (roster !== undefined) return roster;
  const type = data.type;
  if (typeof type !== "string" || !Object.hasOwn(table, type)) return null;
  const fields: Readonly<Record<string, FieldReader<unknown>>> = table[type as C["type"]] ?? {};
  const out: Record<string, unknown> = { type };
  for (const [key, read] of Object.entries(fields)) {
    const value = read(data[key], data);
    if (value === BAD) return null;
    if (value !== undefined) out[key] = value;
  }
  // The table names a reader for every field of the command of this type, each of the field's type.
  return out as C;
}
