/**
 * The one way stored data is brought to today's shape: an ordered list of numbered migrations, each
 * taking data of the version before it to its own version, run by {@link migrate} from the version
 * the data was stored in. The stored format (`store.ts`) and each mode's state (`rules/state.ts`)
 * keep their lists here in this form.
 *
 * A migration takes what it upgrades as untrusted data: it returns null for a malformed older shape
 * (the data is rejected, never read as today's), and returns data that already has its shape as it
 * is (the very object). A mode's state carries no version of its own: every stored state so far is of
 * version 0, and its parser runs every migration of its list, each recognising the older shape it
 * upgrades (an undo snapshot may be older than the state after it, so a version kept beside the state
 * would not say which shape each snapshot has). Pure: no Foundry globals.
 */
import { isRecord } from "./common";

/** Plain-object data, as a migration receives it. */
export type StoredRecord = { readonly [key: string]: unknown };

/**
 * One numbered step of a stored shape's history. What changed is said in a comment above it (never
 * shipped: nothing reads it at run time) and in its fixture's `describe`.
 */
export interface Migration {
  /** The version this migration brings data to (the first migration of a list brings it to 1 or more). */
  readonly version: number;
  /**
   * The data of the version before, in this version's shape, or null when it is malformed. Data that
   * already has this version's shape is returned as it is.
   */
  readonly up: (old: StoredRecord) => unknown;
}

/** The version a list of migrations brings data to (0 for an empty list). */
export function latestVersion(migrations: readonly Migration[]): number {
  return migrations.reduce((latest, m) => Math.max(latest, m.version), 0);
}

/**
 * Whether a list is a history: versions whole, above 0 and strictly increasing (checked by the
 * migrations' tests, so a list out of order cannot ship).
 */
export function isOrdered(migrations: readonly Migration[]): boolean {
  return migrations.every(
    (m, i) => Number.isInteger(m.version) && m.version > (i === 0 ? 0 : (migrations[i - 1]?.version ?? 0)),
  );
}

/**
 * Run the migrations above `from` (the version the data was stored in), in order, on stored data.
 * Null when one of them finds the data malformed; data that is not a plain object is returned as it
 * is (the parser rejects it).
 */
export function migrate(data: unknown, migrations: readonly Migration[], from = 0): unknown {
  let current = data;
  for (const migration of migrations) {
    if (migration.version <= from) continue;
    if (!isRecord(current)) return current;
    current = migration.up(current);
    if (current === null) return null;
  }
  return current;
}
