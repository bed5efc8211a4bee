/**
 * What a render leaves as it is. A combatant row, or an entry of a mode's panel or list that carries
 * a `keepKey` (a slot, a queued turn, an intent), whose context equals the one it was last rendered
 * from and whose live element is there, untouched since, is marked `kept`: its template renders a
 * placeholder of the same tag and identity (`data-si-kept`), which the patch keeps (`dom-patch.ts`).
 * Templates, parsing, the patch and the layout then cost what changed, not the whole list.
 */
import type { RowContext, TrackerContext } from "./context";

/** The attribute that names a kept entry's element (`data-si-key="<keepKey>"`); rows are named by their combatant id. */
export const ENTRY_KEY_ATTRIBUTE = "data-si-key";

/** An entry of a mode's panel or list that a render may keep: its key is unique in the tracker. */
export interface KeyedEntry {
  readonly keepKey: string;
  /** Unchanged since the last render, whose element the patch keeps (set here, never by a mode). */
  readonly kept?: boolean;
}

/** The key of a row among everything kept. */
export const rowKey = (combatantId: string): string => `row:${combatantId}`;
/** The key of an entry among everything kept. */
export const entryKey = (keepKey: string): string => `entry:${keepKey}`;

function isKeyed(value: unknown): value is KeyedEntry {
  return typeof value === "object" && value !== null && typeof (value as { keepKey?: unknown }).keepKey === "string";
}

/**
 * Whether two contexts (plain data: objects, arrays, strings, numbers, booleans, null) are equal,
 * key by key; in any doubt (a value of another kind, a key present in one only) they are not. It
 * runs on every row of every render, so it allocates nothing: the keys are counted as they are
 * walked, and a value shared by both (a control made once, `controls.ts`) is equal at once.
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  const list = Array.isArray(a);
  if (list !== Array.isArray(b)) return false;
  if (list) {
    const [x, y] = [a as unknown[], b as unknown[]];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i] && !sameData(x[i], y[i])) return false;
    return true;
  }
  if (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let keys = 0;
  // Plain objects inherit no enumerable key, so `for…in` walks their own keys.
  for (const key in x) {
    keys++;
    if (!Object.hasOwn(y, key) || (x[key] !== y[key] && !sameData(x[key], y[key]))) return false;
  }
  for (const _key in y) keys--;
  return keys === 0;
}

/**
 * A panel or list with its keyed entries marked: each array directly under it (`slots`, `queue`,
 * `intents`…) whose entries carry a `keepKey`.
 */
function markEntries(
  part: object | null,
  before: ReadonlyMap<string, unknown>,
  live: ReadonlySet<string>,
  rendered: Map<string, unknown>,
): object | null {
  if (part === null) return null;
  let out: Record<string, unknown> | null = null;
  for (const [name, value] of Object.entries(part)) {
    if (!Array.isArray(value) || !value.some(isKeyed)) continue;
    const marked = value.map((entry: unknown) => {
      if (!isKeyed(entry)) return entry;
      const key = entryKey(entry.keepKey);
      // A key given twice names no one element: neither entry is kept next time.
      if (rendered.has(key)) {
        rendered.set(key, null);
        return entry;
      }
      rendered.set(key, entry);
      return live.has(key) && sameData(before.get(key), entry) ? { ...entry, kept: true } : entry;
    });
    out ??= { ...part };
    out[name] = marked;
  }
  return out ?? part;
}

/**
 * `data` with every row and keyed entry marked `kept` whose context equals the one in `before` (what
 * the last render rendered, by key) and whose element is in `live` (keys of live, untouched
 * elements); and what this render renders, by key, for the next one (the contexts themselves, which
 * nothing changes after a render). Every row and entry keeps its data (for listeners of the render
 * hook).
 */
export function markKept(
  data: TrackerContext,
  before: ReadonlyMap<string, unknown>,
  live: ReadonlySet<string>,
): { data: TrackerContext; rendered: Map<string, unknown> } {
  const rendered = new Map<string, unknown>();
  const rows = data.rows.map((row): RowContext => {
    const key = rowKey(row.id);
    rendered.set(key, row);
    return live.has(key) && sameData(before.get(key), row) ? { ...row, kept: true } : row;
  });
  const panel = markEntries(data.panel, before, live, rendered);
  const list = markEntries(data.list, before, live, rendered);
  return { data: { ...data, rows, panel, list }, rendered };
}

/** The key (as {@link markKept} names it) of a live row or keyed entry element, or null. */
export function keyOfElement(element: Element): string | null {
  const entry = element.getAttribute(ENTRY_KEY_ATTRIBUTE);
  if (entry !== null) return entryKey(entry);
  const id = element.getAttribute("data-combatant-id");
  return id !== null && element.classList.contains("si-row") ? rowKey(id) : null;
}
