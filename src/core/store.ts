/**
 * How an encounter is kept in a Combat's flags, and how one step becomes one small update.
 *
 * `flags.structured-initiative.encounter` holds the mode state, a revision counter and the undo
 * history. Each undo snapshot is stored under its own key as a reverse patch against the state that
 * followed it, so a step writes one new small entry (and deletes the oldest when the bound is hit):
 * the size of an update does not grow with the history's length. Orders are stored as ranks (see
 * `encodeArrays`), so moving one combatant changes one key. Loading parses the current state only;
 * a snapshot's state is rebuilt when something reads it (an undo), so a step's cost does not grow
 * with the history either. Older stored formats are upgraded on load (`parseStoredEncounter`), by
 * the numbered migrations of {@link STORED_MIGRATIONS} run through `migrations.ts`.
 * Pure: no Foundry globals.
 */
import type { Encounter, ModeId, Snapshot, StepKind } from "./engine";
import {
  applyPatch,
  copyJson,
  decodeArrays,
  deletionKey,
  diff,
  encodeArrays,
  isPatch,
  toUpdateData,
  type Json,
  type Patch,
  type StoredForms,
} from "./patch";
import { migrate, type Migration } from "./migrations";
import { isRecord, fieldOf } from "./common";

/** One stored undo entry. */
export type StoredSnapshot = {
  readonly kind: StepKind;
  /** Turns the stored state that followed this snapshot back into the stored state it had. */
  readonly undo: Patch;
  /** The snapshot's round, and whether it starts its round (see `Snapshot`): undo targets read these. */
  readonly r?: number;
  readonly s?: boolean;
};

/**
 * The storage format this version of the module reads and writes.
 * - 1: arrays keyed by index; undo patches on that encoded form.
 * - 2: lists of ids keyed by id with a rank above a floor, shortened arrays keeping their stale
 *   elements; each snapshot's round kept with it; a snapshot is rebuilt only when read.
 */
export const STORED_VERSION = 2;

/**
 * Whether untrusted flag data is an encounter stored by a newer version of the module (a format it
 * cannot read): such data is refused and never overwritten, so a module downgrade loses nothing.
 */
export function isNewerFormat(value: unknown): boolean {
  const v = fieldOf(value, "v");
  return typeof v === "number" && Number.isInteger(v) && v > STORED_VERSION;
}

/** The stored form of an encounter. */
export type StoredEncounter = {
  /** Storage format version. */
  readonly v: typeof STORED_VERSION;
  /** Incremented by every write. */
  readonly rev: number;
  /** The next history key. */
  readonly seq: number;
  /** The id of the last player request applied (lets the requester resolve its promise). */
  readonly applied: string | null;
  /** The mode state with arrays encoded as objects (see `encodeArrays`). */
  readonly state: Json;
  /** Undo entries keyed by a increasing sequence number (as a string). */
  readonly history: { readonly [seq: string]: StoredSnapshot };
};

/**
 * A player's request, written on a combatant the player owns (player-writable). It is stored as one
 * JSON string (see `encodeRequest`): Foundry merges object updates key by key and sends only the keys
 * that changed, so an object would reach the GM as a partial diff, and keys of an earlier request
 * (say a delay's `after`) would survive into the next one.
 */
export interface StoredRequest {
  /** A fresh random id per request. */
  readonly id: string;
  readonly command: Json;
  /**
   * Only in requests written in the older, longer form: the user the request claims to come from
   * (must equal the server-attested author) and its encounter (must be the one it is written on).
   * Today's form names neither: the author is the attested user, the encounter the written document's.
   */
  readonly userId?: string;
  readonly combatId?: string;
}

/** The loaded form: the rules' encounter plus the storage bookkeeping the next write needs. */
export interface LoadedEncounter<S extends Json> {
  readonly encounter: Encounter<S>;
  /** The stored form. */
  readonly stored: StoredEncounter;
  /** The history key of each snapshot, in the same order as `encounter.history`. */
  readonly seqs: readonly string[];
  /**
   * The stored entry of each snapshot, in the same order. A step reads these, and the entries it
   * changes, rather than the whole stored history.
   */
  readonly entries: readonly StoredSnapshot[];
  /**
   * What the flag holds now when that is not `stored`: the older format `stored` was upgraded from.
   * The next write is computed against it, so that write replaces the old format (one write).
   */
  readonly upgradedFrom?: Json;
  /**
   * The stored form of each state of this revision and of its parts (see `StoredForms`), shared with
   * the revision this one's write makes: a snapshot's patch undoes the exact stored form of the state
   * after it, so a state keeps its stored form (an undo restores the form the snapshot had, and the
   * next write is computed against it), and a new state is encoded against its parent's form
   * reusing what they share. Made by the load that parsed the flag.
   */
  readonly forms: StoredForms;
}

/**
 * Whether a history entry has the shape of one (its round facts, where present, included). A patch's
 * operations are checked when the snapshot is rebuilt (`loadEncounter`), so that a check reads the
 * entry's few fields only.
 */
function isEntry(entry: unknown): entry is StoredSnapshot {
  if (!isRecord(entry) || (entry.kind !== "turn" && entry.kind !== "round") || !Array.isArray(entry.undo)) return false;
  const { r, s } = entry;
  return (r === undefined || Number.isInteger(r)) && (s === undefined || typeof s === "boolean");
}

/**
 * Narrow untrusted flag data to a stored encounter in today's format, or null when it is malformed.
 * An encounter stored in an older format is upgraded (see {@link upgradeStored}); check
 * {@link storedVersion} to know whether it was.
 *
 * Every history entry's shape is checked: one malformed entry makes the whole encounter unreadable.
 */
export function parseStoredEncounter(value: unknown): StoredEncounter | null {
  if (!isRecord(value)) return null;
  const { v, rev, seq, applied, state, history } = value;
  if ((v !== STORED_VERSION && v !== 1) || !Number.isInteger(rev) || !Number.isInteger(seq)) return null;
  if (applied !== null && typeof applied !== "string") return null;
  if (!isRecord(state) || !isRecord(history)) return null;
  if (!Object.values(history).every(isEntry)) return null;
  if (v !== STORED_VERSION) return migrate(value, STORED_MIGRATIONS, v) as StoredEncounter | null;
  return value as unknown as StoredEncounter;
}

/** The format version of stored flag data (1 for the first format), or null when it has none. */
export function storedVersion(value: unknown): number | null {
  const v = isRecord(value) ? value.v : undefined;
  return typeof v === "number" && Number.isInteger(v) ? v : null;
}

/** The first stored format: arrays keyed by index, undo patches on that encoded form. */
interface StoredV1 {
  readonly v: 1;
  readonly rev: number;
  readonly seq: number;
  readonly applied: string | null;
  readonly state: Json;
  readonly history: { readonly [seq: string]: { readonly kind: StepKind; readonly undo: Patch } };
}

/**
 * Upgrade format 1 to today's: rebuild each snapshot as format 1 did (newest first), then store the
 * state and the snapshots in today's encoding, each snapshot encoded against the one after it, and
 * each undo as the patch between those. Rounds are left for the binding to add (it knows the mode).
 * Keys, revision and the last applied request are kept, so the upgrade is one write of what differs.
 */
function upgradeStored(old: StoredV1): StoredEncounter {
  const seqs = Object.keys(old.history).sort((a, b) => Number(a) - Number(b));
  const history: { [seq: string]: StoredSnapshot } = {};
  let after: Json = old.state;
  const state = encodeArrays(decodeArrays(old.state));
  let following = state;
  for (let i = seqs.length - 1; i >= 0; i -= 1) {
    const key = seqs[i] ?? "";
    const entry = old.history[key];
    if (entry === undefined) continue;
    after = applyPatch(after, entry.undo);
    const snapshot = encodeArrays(decodeArrays(after), following);
    history[key] = { kind: entry.kind, undo: diff(following, snapshot, [], true) };
    following = snapshot;
  }
  return { v: STORED_VERSION, rev: old.rev, seq: old.seq, applied: old.applied, state, history };
}

/**
 * The stored format's migrations, run from the version a flag holds (`v`) by `parseStoredEncounter`
 * once the flag's head and entries are checked; the last one's version is {@link STORED_VERSION}.
 */
export const STORED_MIGRATIONS: readonly Migration[] = [
  // Version 2: lists of ids keyed by id with ranks, shortened arrays keep stale elements, snapshots keep their round.
  {
    version: 2,
    up: (old) =>
      // The upgrade rebuilds every snapshot now: every patch must be one.
      Object.values(old.history as object).every((entry) => isPatch((entry as { undo?: unknown }).undo))
        ? upgradeStored(old as unknown as StoredV1)
        : null,
  },
];

/**
 * The stored (flag) form of a request: `[id, command]` as one string, replaced wholesale by every
 * write. The author and the encounter are not written: the GM reads them from the update itself.
 * Written on a combatant (`carrierId`), a command for that combatant leaves its `combatantId` out
 * and is marked `[id, command, 1]`: the GM reads it from the written document, as it does the author.
 */
export function encodeRequest(request: StoredRequest, carrierId: string | null = null): string {
  const { id, command } = request;
  if (carrierId !== null && isRecord(command) && command.combatantId === carrierId) {
    const { combatantId: _named, ...rest } = command;
    return JSON.stringify([id, rest, 1]);
  }
  return JSON.stringify([id, command]);
}

/**
 * Narrow a player's request flag, or null when it is malformed: today's `[id, command]` string (or
 * `[id, command, 1]`, whose combatant is `carrierId`, the combatant it is written on), or the older
 * `{id, userId, combatId, command}` one (still checked against the author and encounter).
 */
export function parseStoredRequest(raw: unknown, carrierId: string | null = null): StoredRequest | null {
  if (typeof raw !== "string") return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (Array.isArray(value)) {
    const [id, command, implied] = value as unknown[];
    if (typeof id !== "string" || !isRecord(command)) return null;
    if (value.length === 2) return { id, command: command as Json };
    // The combatant is the carrier's: only on a combatant, and never named twice.
    if (value.length !== 3 || implied !== 1 || carrierId === null || "combatantId" in command) return null;
    return { id, command: { ...(command as { readonly [key: string]: Json }), combatantId: carrierId } };
  }
  if (!isRecord(value)) return null;
  const { id, userId, combatId, command } = value;
  if (typeof id !== "string" || typeof userId !== "string" || typeof combatId !== "string") return null;
  if (!isRecord(command)) return null;
  return { id, userId, combatId, command: command as Json };
}

/** A fresh stored encounter for a newly created state. */
export function initialStored(state: Json): StoredEncounter {
  return { v: STORED_VERSION, rev: 0, seq: 0, applied: null, state: encodeArrays(state), history: {} };
}

/** The stored form a state was loaded from or written as, when `forms` knows it. */
function formOf(forms: StoredForms, state: unknown): Json | undefined {
  return typeof state === "object" && state !== null ? forms.get(state) : undefined;
}

function rememberForm(forms: StoredForms, state: unknown, form: Json): void {
  if (typeof state === "object" && state !== null) forms.set(state, form);
}

/** A stored snapshot whose state is rebuilt, once, when first read (see `loadEncounter`). */
class LazySnapshot<S extends Json> implements Snapshot<S> {
  #state: S | undefined;
  #json: Json | undefined;
  constructor(
    readonly kind: StepKind,
    readonly round: number | undefined,
    readonly roundStart: boolean | undefined,
    private readonly rebuild: () => { json: Json; state: S },
  ) {}
  get state(): S {
    return this.#built().state;
  }
  /** The stored form of this snapshot (the next older snapshot's patch applies to it). */
  get json(): Json {
    return this.#built().json;
  }
  /** The stored form when the snapshot was already rebuilt, without rebuilding it. */
  get builtJson(): Json | undefined {
    return this.#json;
  }
  #built(): { json: Json; state: S } {
    if (this.#state === undefined || this.#json === undefined) {
      const built = this.rebuild();
      this.#json = built.json;
      this.#state = built.state;
    }
    return { json: this.#json, state: this.#state };
  }
}

/** A snapshot in storage could not be read back (its patch or its state is malformed). */
export class UnreadableSnapshot extends Error {}

/** A stored encounter without its history: what a step reads and rewrites besides history entries. */
export type StoredHead = Omit<StoredEncounter, "history">;

/** A stored encounter from its head and its history's keys and entries (in the same order). */
export function storedOf(
  head: StoredHead,
  seqs: readonly string[],
  entries: readonly StoredSnapshot[],
): StoredEncounter {
  const history: { [seq: string]: StoredSnapshot } = {};
  seqs.forEach((key, i) => {
    const entry = entries[i];
    if (entry !== undefined) history[key] = entry;
  });
  return { ...head, history };
}

/**
 * Rebuild the rules' encounter from storage. Only the current state is parsed now; each snapshot's
 * state is rebuilt from the reverse patches when first read (newest first, each once), so a load
 * does not parse the history. A malformed current state makes the load fail; a malformed snapshot
 * throws {@link UnreadableSnapshot} when read (the binding refuses that undo).
 * `parsed`: the current state, when the caller has already parsed it from this flag.
 */
export function loadEncounter<S extends Json>(
  mode: ModeId,
  flag: StoredEncounter,
  parseState: (data: unknown) => S | null,
  parsed?: S,
): LoadedEncounter<S> | null {
  // The flag object belongs to the document, and an update may merge into it in place: keep a copy
  // of the current state's stored form, which the next write and the newest undo are computed from,
  // and of each entry's fields. Each snapshot keeps its own patch (a patch is an array: an update
  // replaces it, never merges into it).
  const current = copyJson(flag.state);
  const state = parsed ?? parseState(decodeArrays(current));
  if (state === null) return null;
  const forms: StoredForms = new WeakMap();
  rememberForm(forms, state, current);
  const seqs = Object.keys(flag.history);
  // Integer keys come in ascending order; others (a hand-edited flag) are put in order.
  let sorted = true;
  for (let i = 1; i < seqs.length && sorted; i += 1) sorted = Number(seqs[i - 1]) < Number(seqs[i]);
  if (!sorted) seqs.sort((a, b) => Number(a) - Number(b));
  const count = seqs.length;
  const history: LazySnapshot<S>[] = [];
  const entries: StoredSnapshot[] = [];
  let seq = flag.seq;
  for (let i = 0; i < count; i += 1) {
    const key = seqs[i] ?? "";
    const stored = flag.history[key];
    // Each entry was checked by the parse; checked again here, where every entry is read anyway.
    if (!isEntry(stored)) return null;
    const { kind, undo, r, s } = stored;
    const entry: StoredSnapshot = { kind, undo, ...(r === undefined ? {} : { r }), ...(s === undefined ? {} : { s }) };
    entries.push(entry);
    // A new key is never one the flag already holds, even when its counter was edited back.
    if (Number(key) >= seq) seq = Math.floor(Number(key)) + 1;
    history.push(
      new LazySnapshot<S>(kind, r, s, () => {
        // The next newer snapshot of this load.
        const next = i + 1 < count ? history[i + 1] : undefined;
        if (!isPatch(undo)) throw new UnreadableSnapshot(`${mode}: undo snapshot ${key} is malformed`);
        const json = applyPatch(next === undefined ? current : next.json, undo);
        const snap = parseState(decodeArrays(json));
        if (snap === null) throw new UnreadableSnapshot(`${mode}: undo snapshot ${key} is malformed`);
        rememberForm(forms, snap, json);
        return { json, state: snap };
      }),
    );
  }
  const head: StoredHead = { v: flag.v, rev: flag.rev, seq, applied: flag.applied, state: current };
  return { encounter: { mode, state, history }, stored: storedOf(head, seqs, entries), seqs, entries, forms };
}

/**
 * What identifies the stored form a snapshot or state has, for telling whether what follows a kept
 * snapshot changed: its stored form when known (a state remembers the one it was loaded from or
 * written as), else the object itself (a stored snapshot not yet rebuilt).
 */
function formToken<S extends Json>(forms: StoredForms, item: Snapshot<S> | undefined, current: S): unknown {
  if (item === undefined) return formOf(forms, current) ?? current;
  if (item instanceof LazySnapshot) return item.builtJson ?? item;
  return formOf(forms, item.state) ?? item.state;
}

/**
 * The new stored encounter and the minimal Foundry update data (relative to the encounter flag)
 * for going from `before` to `next`. History entries kept from `before` (same snapshot object) keep
 * their key and are rewritten only when what follows them changed; dropped ones are deleted. A step
 * touches the newest entries only: the kept snapshots are found as one run of `before`'s history
 * (a step drops the oldest, pushes one; an undo drops the newest), and only the entries around
 * that run's ends are encoded, compared and written.
 */
export function encodeEncounter<S extends Json>(
  before: LoadedEncounter<S>,
  next: Encounter<S>,
  appliedRequest: string | null,
): { stored: StoredEncounter; update: { [key: string]: unknown }; loaded: LoadedEncounter<S> } {
  const head = before.stored;
  const { seqs: oldSeqs, entries: oldEntries } = before;
  const oldLength = before.encounter.history.length;
  const freshLength = next.history.length;
  const old = (b: number): Snapshot<S> | undefined => before.encounter.history[b];
  const fresh = (i: number): Snapshot<S> | undefined => next.history[i];
  let seq = head.seq;
  const forms = before.forms;
  rememberForm(forms, before.encounter.state, head.state);
  // The new state keeps the stored form it had (an undo), else it is encoded against the last one.
  const state = formOf(forms, next.state) ?? encodeArrays(next.state, head.state, forms);
  rememberForm(forms, next.state, state);

  // Where each new snapshot stood in `before` (-1: a new one). The kept ones are one run, found by
  // identity from where the oldest stands (a step drops the oldest and pushes one, an undo drops the
  // newest); any other kept one (a roster change replays the history, keeping some) is looked up in
  // an index of the rest, built only then.
  let start = -1;
  let run = 0;
  if (freshLength > 0) {
    const first = fresh(0);
    for (let b = 0; b < oldLength && start < 0; b += 1) if (old(b) === first) start = b;
    if (start >= 0) while (run < freshLength && fresh(run) === old(start + run)) run += 1;
  }
  const after = Math.max(start, 0) + run;
  let rest: Map<Snapshot<S>, number> | undefined;
  const tail: number[] = [];
  for (let i = run; i < freshLength; i += 1) {
    if (after < oldLength)
      rest ??= new Map(before.encounter.history.slice(after).map((snap, k) => [snap, after + k] as const));
    tail.push(rest?.get(fresh(i) as Snapshot<S>) ?? -1);
  }
  const from = (i: number): number => (i < run ? start + i : (tail[i - run] ?? -1));
  // Keys oldest first: a kept snapshot keeps its key, a new one takes the next.
  const tailSeqs = tail.map((b) => (b >= 0 ? (oldSeqs[b] ?? "") : String(seq++)));
  const tailEntries = tail.map((b) => oldEntries[b] ?? { kind: "turn" as const, undo: [] });
  const keyAt = (i: number): string => (i < run ? oldSeqs[start + i] : tailSeqs[i - run]) ?? "";
  const rewritten = new Map<number, StoredSnapshot>();

  const formOfSnapshot = (snap: Snapshot<S>, following: Json): Json => {
    const had = snap instanceof LazySnapshot ? snap.json : formOf(forms, snap.state);
    const form = had ?? encodeArrays(snap.state, following, forms);
    rememberForm(forms, snap.state, form);
    return form;
  };
  // Newest first: each snapshot's patch is computed against the stored form of the one after it.
  // Inside the run, all but its newest are followed by the same snapshot as before: kept as they are.
  const history: { [seq: string]: unknown } = {};
  let following: Json | undefined = state;
  for (let i = freshLength - 1; i >= 0 && (i >= run - 1 || rest !== undefined); i -= 1) {
    const snap = fresh(i);
    if (snap === undefined) continue;
    const b = from(i);
    if (b >= 0 && formToken(forms, old(b + 1), before.encounter.state) === formToken(forms, fresh(i + 1), next.state)) {
      following = undefined;
      continue;
    }
    const later = fresh(i + 1);
    following ??=
      later instanceof LazySnapshot ? later.json : later === undefined ? state : formOfSnapshot(later, state);
    const form = formOfSnapshot(snap, following);
    const entry: StoredSnapshot = {
      kind: snap.kind,
      undo: diff(following, form, [], true),
      ...(snap.round === undefined ? {} : { r: snap.round }),
      ...(snap.roundStart === undefined ? {} : { s: snap.roundStart }),
    };
    const key = keyAt(i);
    const had = b >= 0 ? oldEntries[b] : undefined;
    // A new entry is written whole (a copy: the document may merge later updates into it); a kept
    // one by what changed in it.
    if (had === undefined) history[key] = copyJson(entry);
    else {
      const change = toUpdateData(had, entry);
      if (Object.keys(change).length > 0) history[key] = change;
    }
    if (i >= run) tailEntries[i - run] = entry;
    else rewritten.set(i, entry);
    following = form;
  }
  // Dropped entries: those of `before` before the run and after it, unless found again.
  const keptAfter = rest === undefined ? undefined : new Set(tail);
  const drop = (b: number): void => {
    if (keptAfter?.has(b) !== true) history[deletionKey(oldSeqs[b] ?? "")] = null;
  };
  for (let b = 0; b < start; b += 1) drop(b);
  for (let b = after; b < oldLength; b += 1) drop(b);
  const seqs = [...oldSeqs.slice(Math.max(start, 0), after), ...tailSeqs];
  const entries = [...oldEntries.slice(Math.max(start, 0), after), ...tailEntries];
  for (const [i, entry] of rewritten) entries[i] = entry;

  const nextHead: StoredHead = {
    v: STORED_VERSION,
    rev: head.rev + 1,
    seq,
    applied: appliedRequest ?? head.applied,
    state,
  };
  const stored = storedOf(nextHead, seqs, entries);
  const loaded: LoadedEncounter<S> = { encounter: next, stored, seqs, entries, forms };
  if (before.upgradedFrom !== undefined) {
    // The first write of an upgraded encounter replaces the old format: every key that differs.
    return { stored, update: toUpdateData(before.upgradedFrom, stored), loaded };
  }
  const update: { [key: string]: unknown } = { rev: nextHead.rev };
  if (head.seq !== nextHead.seq) update.seq = nextHead.seq;
  if (head.applied !== nextHead.applied) update.applied = nextHead.applied;
  const stateUpdate = toUpdateData(head.state, state);
  if (Object.keys(stateUpdate).length > 0) update.state = stateUpdate;
  if (Object.keys(history).length > 0) update.history = history;
  return { stored, update, loaded };
}
