/**
 * A mode's rules bound to its state parser and to the stored form: stored (untrusted) flag data is
 * narrowed once per load before the rules see it, and every command's outcome becomes the minimal
 * update of the stored form. Pure: no Foundry globals.
 */
import {
  createEncounter,
  applyToEncounter,
  snapshotOf,
  undoPreview,
  type AllowedAction,
  type Command,
  type Encounter,
  type ModeDefinition,
  type ModeId,
  type Refusal,
  type Requester,
  type RosterEntry,
  type RuleEvent,
  type TurnView,
  turnKeyOf,
} from "./engine";
import { decodeArrays, deletedBy, jsonEqual, type Json } from "./patch";
import {
  encodeEncounter,
  initialStored,
  loadEncounter,
  STORED_VERSION,
  storedVersion,
  storedOf,
  UnreadableSnapshot,
  type LoadedEncounter,
  type StoredEncounter,
} from "./store";
import { fieldOf } from "./common";

/** The result of applying a command to a stored encounter. */
export type Applied =
  | {
      readonly ok: true;
      readonly stored: StoredEncounter;
      /** Update data relative to the `encounter` flag: only what changed. */
      readonly update: { [key: string]: unknown };
      readonly events: readonly RuleEvent[];
      readonly view: TurnView;
      readonly before: TurnView;
      /** The mode's state after the command (its view's source; the initiative mirror reads it). */
      readonly state: unknown;
      /** The acting turn before and after (`turnKeyOf`): the glue's turn lifecycle follows these. */
      readonly turnBefore: string | null;
      readonly turnAfter: string | null;
    }
  | { readonly ok: false; readonly refusal: Refusal | { readonly code: "malformedCommand" | "corrupted" } };

/** A stored encounter, loaded and bound to its mode. */
export interface BoundEncounter<S = unknown> {
  readonly mode: ModeId;
  /** The stored revision this was loaded from. */
  readonly rev: number;
  /**
   * Whether the flag holds an older stored format (upgraded in memory on load): the authority's next
   * write, or its reconciliation at \`ready\`, stores it in today's format.
   */
  readonly upgraded: boolean;
  readonly view: TurnView;
  /** The acting turn under way (`turnKeyOf`), or null. */
  readonly turnKey: string | null;
  /** The mode's typed state, parsed once from the stored data. */
  readonly state: S;
  /** What this requester may do now. */
  allowed(who: Requester): readonly AllowedAction[];
  /**
   * Where previous turn / previous round would land: the view of the snapshot it restores, or null
   * when the undo history holds none (the command would do nothing). Reads the stored history.
   */
  undoTarget(type: "previousTurn" | "previousRound"): TurnView | null;
  /** Check an untrusted command without applying it (the player's quick pre-check). */
  check(command: unknown, who: Requester): Refusal | { readonly code: "malformedCommand" } | null;
  /** Apply an untrusted command, with undo history bounded to `historyLimit`. */
  apply(command: unknown, who: Requester, historyLimit: number, requestId: string | null): Applied;
  /**
   * What this revision's last applied command or reconciliation wrote (the authority's): the
   * loaded encounter it made, with its update; undefined before any. The next revision's load
   * reuses it while the flag holds exactly that write (`ModeBinding#load`, `previous`).
   */
  written(): Written<S> | undefined;
  /**
   * Reconcile with the live roster: drop combatants that no longer exist, add new ones; then apply
   * the commands `sync` derives from the resulting state (a mode mirroring other documents, such as
   * `sides` and its CombatantGroups). Everything lands in one write; null when nothing changed.
   */
  reconcile(
    live: readonly RosterEntry[],
    gm: Requester,
    historyLimit: number,
    sync?: (state: S) => readonly unknown[],
  ): Applied | null;
}

/** A write of the authority: the loaded encounter it made and its update of the stored flag. */
export interface Written<S = unknown> {
  readonly loaded: LoadedEncounter<S & Json>;
  readonly update: { readonly [key: string]: unknown };
}

/** A mode the glue can run. */
export interface ModeBinding<S = unknown> {
  readonly id: ModeId;
  /** A fresh stored encounter for these combatants. */
  create(roster: readonly RosterEntry[]): StoredEncounter;
  /** A fresh stored encounter with these commands applied (refused ones are skipped). */
  createWith(roster: readonly RosterEntry[], commands: readonly unknown[], who: Requester): StoredEncounter;
  /**
   * Load stored data, or null when it is corrupted. `raw` is the flag as it is, when `stored` was
   * upgraded from an older format (`parseStoredEncounter`). `previous`: the revision loaded before
   * from the same encounter; when the flag holds exactly what it wrote (`written`), that write's
   * state and history are taken instead of parsing the flag again.
   */
  load(stored: StoredEncounter, raw?: unknown, previous?: BoundEncounter<S> | null): BoundEncounter<S> | null;
}

/** Bind a mode definition to its state parser. */
export function bindMode<S extends Json, C extends Command>(
  definition: ModeDefinition<S, C>,
  parseState: (data: unknown) => S | null,
  rosterCommands: {
    add(entry: RosterEntry): C;
    remove(id: string): C;
    ids(state: S): readonly string[];
  },
): ModeBinding<S> {
  // The authority rebuilds the undo history from reverse patches only once: the revision it wrote
  // from remembers what its write made, with what that write changed (`written`), and the next load
  // reuses it while the flag still holds exactly that. The revision and the history counter must be
  // the write's; the state is compared as data, the history by its length and by the entries the
  // write set or deleted, so that a step reads the newest entries only.
  const recall = (stored: StoredEncounter, write: Written<S> | undefined): LoadedEncounter<S> | undefined => {
    if (write === undefined) return undefined;
    const { loaded, update } = write;
    if (loaded.stored.rev !== stored.rev || loaded.stored.seq !== stored.seq) return undefined;
    const { seqs, entries } = loaded;
    if (stored.applied !== loaded.stored.applied) return undefined;
    if (Object.keys(stored.history).length !== seqs.length) return undefined;
    const changed = update.history;
    if (typeof changed === "object" && changed !== null) {
      for (const key of Object.keys(changed)) {
        const deleted = deletedBy(key);
        if (deleted !== null) {
          if (Object.hasOwn(stored.history, deleted)) return undefined;
          continue;
        }
        const at = seqs.lastIndexOf(key);
        if (at < 0 || !jsonEqual(stored.history[key], entries[at])) return undefined;
      }
    }
    return jsonEqual(loaded.stored.state, stored.state) ? loaded : undefined;
  };

  /**
   * Load the encounter with its (lazily rebuilt) history. An upgraded one gets its snapshots' round
   * facts now (read once, from every snapshot) and remembers the old form its first write replaces.
   */
  function loadFull(stored: StoredEncounter, upgradedFrom: Json | undefined, state: S): LoadedEncounter<S> | null {
    const loaded = loadEncounter(definition.id, stored, parseState, state);
    if (loaded === null || upgradedFrom === undefined) return loaded;
    const history = loaded.encounter.history.map((snap) => snapshotOf(definition, snap.kind, snap.state));
    const entries = loaded.entries.map((entry, i) => {
      const snap = history[i];
      if (snap === undefined) return entry;
      return {
        ...entry,
        ...(snap.round === undefined ? {} : { r: snap.round }),
        ...(snap.roundStart === undefined ? {} : { s: snap.roundStart }),
      };
    });
    const { v, rev, seq, applied, state: current } = loaded.stored;
    return {
      ...loaded,
      stored: storedOf({ v, rev, seq, applied, state: current }, loaded.seqs, entries),
      entries,
      encounter: { ...loaded.encounter, history },
      upgradedFrom,
    };
  }

  function bound(
    state: S,
    stored: StoredEncounter,
    upgradedFrom: Json | undefined,
    kept?: LoadedEncounter<S>,
  ): BoundEncounter<S> {
    const view = definition.view(state);
    const turnKey = turnKeyOf(definition, state);
    // The undo history is rebuilt only when a command is applied (on the authority): views,
    // permissions and the turn order need the current state alone.
    let cache: LoadedEncounter<S> | null | undefined = kept;
    // This revision's last write (the authority's), for the next revision's load.
    let wrote: Written<S> | undefined;
    const history = (): LoadedEncounter<S> | null => {
      try {
        cache ??= loadFull(stored, upgradedFrom, state);
      } catch (error) {
        if (!(error instanceof UnreadableSnapshot)) throw error;
        cache = null;
      }
      return cache;
    };

    const commit = (
      loaded: LoadedEncounter<S>,
      next: Encounter<S>,
      events: readonly RuleEvent[],
      requestId: string | null,
    ): Applied => {
      const { stored: made, update, loaded: after } = encodeEncounter(loaded, next, requestId);
      wrote = { loaded: after, update };
      return {
        ok: true,
        stored: made,
        update,
        events,
        view: definition.view(next.state),
        before: view,
        state: next.state,
        turnBefore: turnKey,
        turnAfter: turnKeyOf(definition, next.state),
      };
    };

    // What this revision is asked again and again (each render of each tracker), worked out once: it
    // depends on the stored state and history alone, which this object was loaded from and keeps.
    const allowedBy = new Map<string, readonly AllowedAction[]>();
    const undoTargets = new Map<"previousTurn" | "previousRound", TurnView | null>();
    const findUndoTarget = (type: "previousTurn" | "previousRound"): TurnView | null => {
      if (isEmpty(stored.history)) return null;
      const loaded = history();
      if (loaded === null) return null;
      try {
        return undoPreview(definition, loaded.encounter, type);
      } catch (error) {
        if (error instanceof UnreadableSnapshot) return null;
        throw error;
      }
    };

    return {
      mode: definition.id,
      rev: stored.rev,
      upgraded: upgradedFrom !== undefined,
      view,
      turnKey,
      state,
      allowed(who) {
        const key = `${who.userId}|${String(who.isGM)}|${who.owns.join(",")}`;
        let actions = allowedBy.get(key);
        if (actions === undefined) allowedBy.set(key, (actions = definition.allowed(state, who)));
        return actions;
      },
      written: () => wrote,
      undoTarget(type) {
        if (!undoTargets.has(type)) undoTargets.set(type, findUndoTarget(type));
        return undoTargets.get(type) ?? null;
      },
      check(data, who) {
        if (isUndo(data)) return who.isGM ? null : { code: "notGM" };
        const command = definition.parseCommand(data);
        if (command === null) return { code: unparsed(definition, data) };
        const outcome = definition.apply(state, command, who);
        return outcome.ok ? null : outcome.refusal;
      },
      apply(data, who, historyLimit, requestId) {
        const command = isUndo(data) ? data : definition.parseCommand(data);
        if (command === null) return { ok: false, refusal: { code: unparsed(definition, data) } };
        const loaded = history();
        if (loaded === null) return { ok: false, refusal: { code: "corrupted" } };
        let outcome;
        try {
          outcome = applyToEncounter(definition, loaded.encounter, command, who, historyLimit);
        } catch (error) {
          // An undo (or a roster change replayed on the history) met a snapshot that cannot be read.
          if (error instanceof UnreadableSnapshot) return { ok: false, refusal: { code: "corrupted" } };
          throw error;
        }
        if (!outcome.ok) return outcome;
        return commit(loaded, outcome.state, outcome.events, requestId);
      },
      reconcile(live, gm, historyLimit, sync) {
        const loaded = history();
        if (loaded === null) return null;
        const encounter = loaded.encounter;
        const liveIds = new Set(live.map((entry) => entry.id));
        const known = new Set(rosterCommands.ids(encounter.state));
        let current: Encounter<S> = encounter;
        const events: RuleEvent[] = [];
        const commands = [
          ...[...known].filter((id) => !liveIds.has(id)).map((id) => rosterCommands.remove(id)),
          ...live.filter((entry) => !known.has(entry.id)).map((entry) => rosterCommands.add(entry)),
        ];
        for (const command of commands) {
          const outcome = applyToEncounter(definition, current, command, gm, historyLimit);
          if (outcome.ok) {
            current = outcome.state;
            events.push(...outcome.events);
          }
        }
        for (const data of sync?.(current.state) ?? []) {
          const command = definition.parseCommand(data);
          const outcome = command === null ? null : applyToEncounter(definition, current, command, gm, historyLimit);
          if (outcome?.ok) {
            current = outcome.state;
            events.push(...outcome.events);
          }
        }
        return current === encounter && upgradedFrom === undefined ? null : commit(loaded, current, events, null);
      },
    };
  }

  return {
    id: definition.id,
    create: (roster) => initialStored(createEncounter(definition, roster).state),
    createWith(roster, commands, who) {
      let state = definition.create(roster);
      for (const data of commands) {
        const command = definition.parseCommand(data);
        const outcome = command === null ? null : definition.apply(state, command, who);
        if (outcome?.ok) state = outcome.state;
      }
      return initialStored(state);
    },
    load(stored, raw, previous) {
      const upgradedFrom = raw !== undefined && storedVersion(raw) !== STORED_VERSION ? (raw as Json) : undefined;
      // The flag still holds what this client wrote last from the previous revision: its state is
      // the one the rules made, which a parse of the flag would give again (the rules make states in
      // today's shape), so it is not parsed; the memory of that write is the undo history too.
      const kept = upgradedFrom === undefined ? recall(stored, previous?.written()) : undefined;
      if (kept !== undefined) return bound(kept.encounter.state, stored, undefined, kept);
      const state = parseState(decodeArrays(stored.state));
      return state === null ? null : bound(state, stored, upgradedFrom);
    },
  };
}

/** Whether an object has no keys (without listing them). */
function isEmpty(value: object): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

function isUndo(data: unknown): data is { readonly type: "previousTurn" | "previousRound" } {
  if (typeof data !== "object" || data === null) return false;
  const type = (data as { type?: unknown }).type;
  return type === "previousTurn" || type === "previousRound";
}

/**
 * Why data the mode could not parse is refused: a command of a type this mode does not know (another
 * mode's) is not part of this mode; anything else is malformed.
 */
function unparsed<S extends Json, C extends Command>(
  definition: ModeDefinition<S, C>,
  data: unknown,
): "unknownCommand" | "malformedCommand" {
  const type = fieldOf(data, "type");
  const known = definition.commandTypes;
  return typeof type === "string" && known !== undefined && !known.has(type) ? "unknownCommand" : "malformedCommand";
}
