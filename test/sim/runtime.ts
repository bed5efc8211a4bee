/**
 * One client's Foundry globals, installed on a realm's global object (a `node:vm` context here, an
 * iframe window in the browser playground). Every call builds fresh classes, so realms share nothing.
 * Behaviour follows Foundry's public API pages; each emulated behaviour names its source.
 *
 * Two flavours (`RealmOptions.generation`): 13 (default) and 14. Where v14 differs, both are here,
 * each citing its source: `game.release`, ContextMenu entries, key deletion (`ForcedDeletion`), the
 * message mode (`core.messageMode`, `ChatMessage.applyMode`, `Roll#toMessage({messageMode})`), the
 * options of `combatTurn`/`combatRound`, and v14's timed Active Effects (./effects.ts) and
 * `CombatantData.roundJoined`. A v14 call in its deprecated v13
 * form still works, as v14's deprecation warnings say it does until v16, and is logged in
 * `compatWarnings` (Foundry's `logCompatibilityWarning`), which the tests read.
 */
import { createActorClasses } from "./realm/actors.js";
import { createApplications } from "./realm/applications.js";
import { createChat } from "./realm/chat.js";
import { createCombatClasses } from "./realm/combat.js";
import { createDocumentBase } from "./realm/documents.js";
import { createSceneClasses } from "./realm/scenes.js";
import type {
  Actor,
  ChatMessage,
  ClientDocument,
  Collection,
  Combat,
  OpOptions,
  RealmBag,
  Scene,
  Token,
  TokenDocument,
  User,
} from "./realm/types.js";
import { createUserClass } from "./realm/users.js";
import { createAudio } from "./realm/audio.js";
import { CONST, debounce, type Fn } from "./realm/constants.js";
import { createHooks } from "./realm/hooks.js";
import { createI18n } from "./realm/i18n.js";
import { createKeybindings } from "./realm/keybindings.js";
import { createUi, type Notification } from "./realm/notifications.js";
import { createOperators } from "./realm/operators.js";
import { createSettings } from "./realm/settings.js";
import { createSocket } from "./realm/socket.js";
import { type RefreshRecord } from "./effects.js";
import {
  EMBEDDED,
  isEmbedded,
  type ClientRequest,
  type DocOperation,
  type DocumentName,
  type EmbeddedName,
  type ServerMessage,
  type TopLevelName,
  type WorldData,
} from "./server.js";
import {
  OPERATOR_IDENTIFIER,
  deepClone,
  diffObject,
  expandObject,
  flattenObject,
  getProperty,
  isEmpty,
  isPlainObject,
  mergeObject,
  objectsEqual,
  randomID,
  setProperty,
  toJson,
  toJsonObject,
  type Dict,
  type Json,
  type JsonObject,
} from "./utils.js";

/** What a realm needs from its connection to the server. */
export interface RealmTransport {
  userId: string;
  /** Resolves with the broadcast once this realm has applied it; rejects if the server refused. */
  submit(req: ClientRequest): Promise<ServerMessage>;
  drawDie(faces: number): number;
  query(targetId: string, name: string, data: Json, timeout: number | undefined): Promise<unknown>;
  queryResponse(queryId: string, ok: boolean, result: Json, error: string): void;
  socketEmit(event: string, data: Json): void;
  /** Client-scope settings (a browser's localStorage): survives reloads. */
  clientStorage: Map<string, Json>;
  /** Source text of a template path, or null when there is none. */
  loadTemplate(path: string): string | null;
}

export interface RealmOptions {
  translations: Dict;
  modules: string[];
  system: { id: string; title: string; initiative: string };
  /** Render Handlebars parts of applications (off by default: cheap tests). */
  renderTemplates: boolean;
  /** The Foundry generation to emulate (default 13). */
  generation?: 13 | 14;
  /** The user's language code, `game.i18n.lang` (default "en"); `translations` are that language's. */
  lang?: string;
  /** See `CreateSimOptions.turnEventsOnCombatantChange`. */
  turnEventsOnCombatantChange?: boolean;
}

/** The Foundry generations the sim emulates. */
export type SimGeneration = 13 | 14;

export type { Notification } from "./realm/notifications.js";

export function createRealm(g: Dict, t: RealmTransport, opts: RealmOptions) {
  const generation: SimGeneration = opts.generation ?? 13;
  const v14 = generation >= 14;
  const notifications: Notification[] = [];
  const errors: unknown[] = [];
  /**
   * Deprecation warnings, as `foundry.utils.logCompatibilityWarning` logs them
   * (https://foundryvtt.com/api/v14/functions/foundry.utils.logCompatibilityWarning.html).
   */
  const compatWarnings: string[] = [];
  /** v14: every `ActiveEffect.registry.refresh` call, for the tests (./effects.ts). */
  const effectRefreshes: RefreshRecord[] = [];
  const logCompatibilityWarning = (message: string, _options: Dict = {}): void => {
    compatWarnings.push(message);
  };
  const hookLog: Array<{ name: string; args: unknown[] }> = [];
  /** Each combatant's prepared initiative (`Combatant#initiative`, written by `_prepareGroup`). */
  const preparedInitiative = new WeakMap<object, number | null>();
  const recordError = (where: string, err: unknown): void => {
    errors.push(err);
    console.error(`[sim ${t.userId}] ${where}:`, err);
  };

  // ------------------------------------------------------------------ Hooks (./realm/hooks.ts)
  const Hooks = createHooks(hookLog, recordError);
  // ------------------------------------------------------------------ operators (v14, ./realm/operators.ts)
  const { ForcedDeletion, ForcedReplacement, warnLegacyKeys } = createOperators(v14, logCompatibilityWarning);
  // ------------------------------------------------------------------ settings (./realm/settings.ts)
  const { settings, worldSettings, applySetting } = createSettings({ t, v14, logCompatibilityWarning, safe, Hooks });

  // ------------------------------------------------------------------ i18n (./realm/i18n.ts)
  const i18n = createI18n(opts);

  // ------------------------------------------------------------------ socket (./realm/socket.ts)
  const { socket, socketListeners } = createSocket(t);

  // ------------------------------------------------------------------ applications (./realm/applications.ts)
  const {
    hb,
    getTemplate,
    renderTemplate,
    loadTemplates,
    ContextMenu,
    DialogV2,
    ApplicationV2,
    HandlebarsApplicationMixin,
    CombatTracker,
    scheduleRender,
  } = createApplications({
    g,
    t,
    opts,
    v14,
    logCompatibilityWarning,
    recordError,
    Hooks,
    i18n,
    late: {
      get game() {
        return game;
      },
      get ui() {
        return ui;
      },
      currentUser: () => currentUser(),
    },
  });

  // ------------------------------------------------------------------ keybindings and audio (./realm/keybindings.ts, ./realm/audio.ts)
  const keybindings = createKeybindings(() => currentUser());
  const { sounds, AudioHelper } = createAudio();
  // ------------------------------------------------------------------ notifications (./realm/notifications.ts)
  const ui = createUi(i18n, notifications);
  // ------------------------------------------------------------------ documents (the realm bag the rooms read; ./realm/documents.ts, users.ts, actors.ts, scenes.ts, chat.ts, combat.ts)
  const r: RealmBag = {
    t,
    opts,
    v14,
    logCompatibilityWarning,
    recordError,
    preparedInitiative,
    effectRefreshes,
    Hooks,
    i18n,
    settings,
    worldSettings,
    ui,
    DialogV2,
    ForcedDeletion,
    // Built below; read when used.
    get game() {
      return game;
    },
    get CONFIG() {
      return CONFIG;
    },
    get canvas() {
      return canvas;
    },
    docClass: (name) => docClass(name),
    worldCollection: (name) => worldCollection(name),
    currentUser: () => currentUser(),
    replicaWorld: () => replicaWorld(),
    createDocuments: (cls, data, options) => createDocuments(cls, data, options),
    updateDocuments: (cls, updates, options) => updateDocuments(cls, updates, options),
    deleteDocuments: (cls, ids, options) => deleteDocuments(cls, ids, options),
  };
  const { Collection, ClientDocument, EMBED_FIELDS } = createDocumentBase(r);
  const { User } = createUserClass(r, { ClientDocument });
  const { Actor, ActiveEffect, effectRegistry } = createActorClasses(r, { ClientDocument });
  const { Scene, TokenDocument, Token } = createSceneClasses(r, { ClientDocument, Collection });
  const { ChatMessage, Roll } = createChat(r, { ClientDocument, Actor, Scene, TokenDocument });
  const { Combat, Combatant, CombatantGroup } = createCombatClasses(r, {
    ClientDocument,
    effectRegistry,
    ChatMessage,
    Roll,
  });
  settings.register("core", Combat.CONFIG_SETTING, {
    scope: "world",
    default: { resource: "", skipDefeated: false },
    type: Object,
    config: false,
  });
  const defaultClasses = {
    Actor,
    ActiveEffect,
    User,
    Scene,
    Token: TokenDocument,
    Combat,
    Combatant,
    CombatantGroup,
    ChatMessage,
  };
  function docClass(name: DocumentName): typeof ClientDocument {
    const entry = (CONFIG as unknown as Record<string, { documentClass?: unknown }>)[name];
    const cls = entry?.documentClass;
    return typeof cls === "function" ? (cls as typeof ClientDocument) : defaultClasses[name];
  }

  // ------------------------------------------------------------------ world collections
  class Users extends Collection<User> {
    /**
     * "One User who is an active Gamemaster (non-assistant if possible)"
     * (https://foundryvtt.com/api/classes/foundry.documents.collections.Users.html#activeGM,
     * https://github.com/foundryvtt/foundryvtt/issues/11242); ties broken by the lowest id.
     */
    get activeGM(): User | null {
      const gms = this.filter((u) => u.active && u.isGM).sort(
        (a, b) => b.role - a.role || (String(a.id) < String(b.id) ? -1 : 1),
      );
      return gms[0] ?? null;
    }
    get current(): User | null {
      return this.get(t.userId) ?? null;
    }
    get players(): User[] {
      return this.filter((u) => !u.isGM);
    }
  }
  class Scenes extends Collection<Scene> {
    get active(): Scene | undefined {
      return this.find((s) => s.active);
    }
    get viewed(): Scene | undefined {
      return this.active;
    }
  }
  class Combats extends Collection<Combat> {
    /** The combat the tracker shows: the active one in the viewed scene, else the first there. */
    get viewed(): Combat | null {
      const sceneId = game.scenes.viewed?.id ?? null;
      const here = this.filter((c) => c._source.scene == null || c._source.scene === sceneId);
      return here.find((c) => c.active) ?? here[0] ?? null;
    }
    get active(): Combat | undefined {
      return this.find((c) => c.active);
    }
  }
  const collections = {
    User: new Users(),
    Actor: new Collection<Actor>(),
    Scene: new Scenes(),
    Combat: new Combats(),
    ChatMessage: new Collection<ChatMessage>(),
  };
  function worldCollection(name: TopLevelName): Collection<ClientDocument> {
    return collections[name];
  }
  const currentUser = (): User | null => collections.User.get(t.userId) ?? null;
  const replicaWorld = (): WorldData => ({
    users: collections.User.map((u) => u._source as JsonObject),
    actors: collections.Actor.map((a) => a._source as JsonObject),
    scenes: [],
    combats: [],
    messages: [],
    settings: {},
  });
  function findDoc(name: DocumentName, parent: ClientDocument | null, id: string): ClientDocument | undefined {
    if (isEmbedded(name)) return parent?._embedded[name]?.get(id);
    return worldCollection(name).get(id);
  }

  // ------------------------------------------------------------------ operations (initiating client)
  const splitOptions = (options: OpOptions): { parent: ClientDocument | null; rest: Dict } => {
    const { parent = null, ...rest } = options;
    return { parent, rest };
  };
  const embeddedCheck = (name: DocumentName, parent: ClientDocument | null): void => {
    if (isEmbedded(name) && !parent)
      throw new Error(`${name} documents must be created with a parent ${EMBEDDED[name].parent}`);
  };
  async function createDocuments(
    cls: typeof ClientDocument,
    data: Dict[],
    options: OpOptions,
  ): Promise<ClientDocument[]> {
    const { parent, rest } = splitOptions(options);
    const name = cls.documentName;
    embeddedCheck(name, parent);
    const user = currentUser() as User;
    const sources: Dict[] = [];
    for (const d of data) {
      const src = expandObject(d instanceof ClientDocument ? d.toObject() : isPlainObject(d) ? d : {});
      if (name === "ChatMessage" && Array.isArray(src.rolls))
        src.rolls = src.rolls.map((r) => (typeof r === "string" ? r : JSON.stringify(r)));
      const tmp = new cls(deepClone(src), { parent });
      if ((await tmp._preCreate(src, rest, user)) === false) continue;
      if (!Hooks.call(`preCreate${name}`, tmp, src, rest, t.userId)) continue;
      sources.push(tmp._source);
    }
    if (!sources.length) return [];
    if (name === "Combatant" && parent instanceof Combat) {
      const operation: Dict = { ...rest, data: sources, parent };
      await (cls as typeof Combatant)._preCreateOperation([], operation, user);
      if (typeof operation.combatTurn === "number") rest.combatTurn = operation.combatTurn;
      else delete rest.combatTurn;
    }
    const msg = await t.submit({
      action: "create",
      documentName: name,
      parentId: parent?.id ?? null,
      data: sources.map(toJsonObject),
      options: toJsonObject(rest),
    });
    const created = msg.type === "broadcast" ? (msg.data ?? []) : [];
    return created.map((d) => findDoc(name, parent, String(d._id))).filter((d): d is ClientDocument => d !== undefined);
  }

  async function updateDocuments(
    cls: typeof ClientDocument,
    updates: Dict[],
    options: OpOptions,
  ): Promise<ClientDocument[]> {
    const prepared = await prepareUpdate(cls, updates, options);
    if (prepared.request === null) return [];
    await t.submit(prepared.request);
    return prepared.documents();
  }

  /**
   * An update operation as the initiating client prepares it (diffs, `_preUpdate`, the `preUpdate`
   * hooks, the Combatant pre-operation): the request to send (null when nothing is left to write),
   * whether a pre-update returned false, and the documents it names once applied.
   */
  async function prepareUpdate(
    cls: typeof ClientDocument,
    updates: Dict[],
    options: OpOptions,
  ): Promise<{ request: DocOperation | null; cancelled: boolean; documents: () => ClientDocument[] }> {
    const { parent, rest } = splitOptions(options);
    const name = cls.documentName;
    embeddedCheck(name, parent);
    const user = currentUser() as User;
    const diffs: Dict[] = [];
    let cancelled = false;
    for (const u of updates) {
      const id = String(u._id);
      const doc = findDoc(name, parent, id);
      if (!doc) throw new Error(`${name} [${id}] does not exist`);
      warnLegacyKeys(u);
      const data = expandObject(u);
      delete data._id;
      // Embedded documents changed through the parent's update, merged by id (the server's
      // `mergeEmbedded` names the sources); each entry is diffed against its document.
      const embedded: Dict = {};
      for (const [child, field] of Object.entries(EMBED_FIELDS[name as TopLevelName] ?? {})) {
        if (!(field in data)) continue;
        const list = data[field];
        Reflect.deleteProperty(data, field);
        if (!Array.isArray(list) || rest.diff === false)
          throw new Error(`The sim emulates ${name}#update with ${field} only as an array of changes, diffed`);
        const coll = doc._embedded[child as EmbeddedName];
        const entries = (list as unknown[]).flatMap((entry) => {
          const e = expandObject(entry as Dict);
          const target = coll?.get(String(e._id));
          if (!target) throw new Error(`The sim does not emulate creating embedded ${field} through ${name}#update`);
          const d = diffObject(target._source, { ...e, _id: target._source._id });
          delete d._id;
          return isEmpty(d) ? [] : [{ _id: e._id, ...d }];
        });
        if (entries.length) embedded[field] = entries;
      }
      const changes = rest.diff === false ? data : { ...diffObject(doc._source, data), ...embedded };
      if (isEmpty(changes)) continue;
      changes._id = id;
      if (
        (await doc._preUpdate(changes, rest, user)) === false ||
        !Hooks.call(`preUpdate${name}`, doc, changes, rest, t.userId)
      ) {
        cancelled = true;
        continue;
      }
      diffs.push(changes);
    }
    const documents = (): ClientDocument[] =>
      diffs.map((d) => findDoc(name, parent, String(d._id))).filter((d): d is ClientDocument => d !== undefined);
    if (!diffs.length) return { request: null, cancelled, documents };
    if (name === "Combatant" && parent instanceof Combat) {
      const operation: Dict = { ...rest, updates: diffs, parent };
      await (cls as typeof Combatant)._preUpdateOperation([], operation, user);
      if (typeof operation.combatTurn === "number") rest.combatTurn = operation.combatTurn;
      else delete rest.combatTurn;
    }
    const request: DocOperation = {
      action: "update",
      documentName: name,
      parentId: parent?.id ?? null,
      updates: diffs.map(toJsonObject),
      options: toJsonObject(rest),
    };
    return { request, cancelled, documents };
  }

  /**
   * @behaviour v14 only: `foundry.documents.modifyBatch(operations)`. Each operation
   * `{action, documentName, updates, parent?, ...options}` is prepared as its own `update` would be;
   * one cancelled by its `_preUpdate` (or a `preUpdate` hook) cancels the whole batch and nothing is
   * written; the rest go to the server in one request (`BatchRequest`, test/sim/server.ts) and are
   * applied in order on every client as ordinary updates, each with its own `_onUpdate` and hooks.
   * Resolves with each operation's documents. The sim emulates update operations only.
   * @source https://foundryvtt.com/api/functions/foundry.documents.modifyBatch.html (the v14 API page:
   * one batched request, the operations' shape, applied in sequence, a cancellation or error in one
   * cancels the whole batch); https://github.com/foundryvtt/foundryvtt/issues/11898 (requested for
   * v13, shipped with v14); https://github.com/foundryvtt/foundryvtt/issues/14174 (a batch's
   * modifications are broadcast to the other clients).
   */
  async function modifyBatch(operations: Dict[]): Promise<ClientDocument[][]> {
    const prepared = [];
    for (const operation of operations) {
      const { action, documentName, updates, ...options } = operation;
      if (action !== "update" || typeof documentName !== "string" || !Array.isArray(updates))
        throw new Error("The sim emulates foundry.documents.modifyBatch for update operations only");
      prepared.push(await prepareUpdate(docClass(documentName as DocumentName), updates as Dict[], options));
    }
    if (prepared.some((p) => p.cancelled)) return prepared.map(() => []);
    const requests = prepared.flatMap((p) => (p.request === null ? [] : [p.request]));
    if (requests.length > 0) await t.submit({ action: "batch", operations: requests });
    return prepared.map((p) => (p.request === null ? [] : p.documents()));
  }

  async function deleteDocuments(
    cls: typeof ClientDocument,
    ids: string[],
    options: OpOptions,
  ): Promise<ClientDocument[]> {
    const { parent, rest } = splitOptions(options);
    const name = cls.documentName;
    embeddedCheck(name, parent);
    const user = currentUser() as User;
    const docs: ClientDocument[] = [];
    for (const id of ids) {
      const doc = findDoc(name, parent, id);
      if (!doc) throw new Error(`${name} [${id}] does not exist`);
      if ((await doc._preDelete(rest, user)) === false) continue;
      if (!Hooks.call(`preDelete${name}`, doc, rest, t.userId)) continue;
      docs.push(doc);
    }
    if (!docs.length) return [];
    const delIds = docs.map((d) => String(d.id));
    if (name === "Combatant" && parent instanceof Combat) {
      const operation: Dict = { ...rest, ids: delIds, parent };
      await (cls as typeof Combatant)._preDeleteOperation([], operation, user);
      if (typeof operation.combatTurn === "number") rest.combatTurn = operation.combatTurn;
      else delete rest.combatTurn;
    }
    await t.submit({
      action: "delete",
      documentName: name,
      parentId: parent?.id ?? null,
      ids: delIds,
      options: toJsonObject(rest),
    });
    // Deleting a token deletes its combatants, done by the deleting client
    // (https://github.com/foundryvtt/foundryvtt/issues/11295, https://github.com/pokemon-tabletop-reunited/ptr1e/issues/576).
    if (name === "Token" && parent instanceof Scene) {
      for (const combat of game.combats.contents) {
        const gone = combat.combatants
          .filter(
            (c) =>
              c.tokenId !== null && delIds.includes(c.tokenId) && (c.sceneId ?? combat._source.scene) === parent.id,
          )
          .map((c) => String(c.id));
        if (gone.length) await combat.deleteEmbeddedDocuments("Combatant", gone);
      }
    }
    return docs;
  }

  // ------------------------------------------------------------------ applying broadcasts (every client)
  const TRACKED = new Set<DocumentName>(["Combat", "Combatant", "CombatantGroup"]);
  function applyDocOp(msg: Extract<ServerMessage, { type: "broadcast" }>): void {
    const name = msg.documentName;
    const cls = docClass(name);
    const options: Dict = msg.options;
    const userId = msg.userId;
    const where = isEmbedded(name) ? EMBEDDED[name] : null;
    const parent = where ? (worldCollection(where.parent).get(String(msg.parentId)) ?? null) : null;
    if (where && !parent) return;
    const coll = parent
      ? (parent._embedded[name as EmbeddedName] as Collection<ClientDocument>)
      : worldCollection(name as TopLevelName);
    const parentList = (): Dict[] => (parent && where ? (parent._source[where.field] as Dict[]) : []);
    const setParentTurn = (): void => {
      if (parent instanceof Combat && typeof options.combatTurn === "number") {
        parent._source.turn = options.combatTurn;
        parent._initialize();
      }
    };
    const field = where?.field ?? "";
    // Who was logged in before this broadcast: `userConnected` fires for a change only
    // (https://foundryvtt.com/api/functions/hookEvents.userConnected.html), so not for a client's own
    // login, which the world it loaded already shows.
    const wasActive = new Map(name === "User" ? collections.User.map((u) => [String(u.id), u.active]) : []);
    // Post-operation hooks fire on every client; per document _on<Op> then the hook, then the parent's
    // descendant callback (https://foundryvtt.com/api/classes/foundry.abstract.Document.html#_onCreate).
    if (msg.action === "create") {
      const data = (msg.data ?? []) as Dict[];
      const docs = data.map((src) => {
        if (parent) parentList().push(src);
        const doc = new cls(src, { parent });
        coll.set(String(src._id), doc);
        return doc;
      });
      setParentTurn();
      for (const doc of docs)
        safe(`_onCreate ${name}`, () => {
          doc._onCreate(doc._source, options, userId);
        });
      safe(`_onCreateOperation ${name}`, () =>
        cls._onCreateOperation(docs, { ...options, data }, currentUserOf(userId)),
      );
      for (const doc of docs) Hooks.callAll(`create${name}`, doc, options, userId);
      if (parent)
        safe("_onCreateDescendantDocuments", () => {
          parent._onCreateDescendantDocuments(parent, field, docs, data, options, userId);
        });
    } else if (msg.action === "update") {
      const diffs = (msg.updates ?? []) as Dict[];
      const docs: ClientDocument[] = [];
      const applied: Dict[] = [];
      for (const diff of diffs) {
        const doc = coll.get(String(diff._id));
        if (!doc) continue;
        // Embedded changes carried by the parent's update update those documents' sources; only the
        // parent's `_onUpdate` and `update<Parent>` hook fire, with the changes in `changed` (the
        // module relies on nothing more; see the server's `mergeEmbedded` for the sources).
        const own: Dict = { ...diff };
        for (const [child, field] of Object.entries(EMBED_FIELDS[name as TopLevelName] ?? {})) {
          const list = own[field];
          if (!Array.isArray(list)) continue;
          Reflect.deleteProperty(own, field);
          for (const change of list as Dict[]) {
            const target = doc._embedded[child as EmbeddedName]?.get(String(change._id));
            if (!target) continue;
            mergeObject(target._source, change, { performDeletions: true });
            target._initialize();
          }
        }
        mergeObject(doc._source, own, { performDeletions: true, recursive: options.recursive !== false });
        doc._initialize();
        docs.push(doc);
        applied.push(diff);
      }
      setParentTurn();
      docs.forEach((doc, i) => {
        safe(`_onUpdate ${name}`, () => {
          doc._onUpdate(applied[i] as Dict, options, userId);
        });
      });
      // Once per operation, on every client, with all its documents, before the update hooks
      // (https://foundryvtt.com/api/classes/foundry.abstract.Document.html#_onUpdateOperation).
      safe(`_onUpdateOperation ${name}`, () =>
        cls._onUpdateOperation(docs, { ...options, updates: applied, parent }, currentUserOf(userId)),
      );
      docs.forEach((doc, i) => {
        Hooks.callAll(`update${name}`, doc, applied[i], options, userId);
      });
      if (parent)
        safe("_onUpdateDescendantDocuments", () => {
          parent._onUpdateDescendantDocuments(parent, field, docs, applied, options, userId);
        });
    } else {
      const ids = msg.ids ?? [];
      const docs = ids.map((id) => coll.get(id)).filter((d): d is ClientDocument => d !== undefined);
      for (const doc of docs) {
        coll.delete(String(doc.id));
        if (parent) {
          const list = parentList();
          const i = list.indexOf(doc._source);
          if (i >= 0) list.splice(i, 1);
        }
      }
      setParentTurn();
      for (const doc of docs)
        safe(`_onDelete ${name}`, () => {
          doc._onDelete(options, userId);
        });
      safe(`_onDeleteOperation ${name}`, () =>
        cls._onDeleteOperation(docs, { ...options, ids }, currentUserOf(userId)),
      );
      for (const doc of docs) Hooks.callAll(`delete${name}`, doc, options, userId);
      if (parent)
        safe("_onDeleteDescendantDocuments", () => {
          parent._onDeleteDescendantDocuments(parent, field, docs, ids, options, userId);
        });
    }
    if (name === "User") {
      for (const u of msg.updates ?? [])
        if ("active" in u && wasActive.get(String(u._id)) !== (u.active === true))
          Hooks.callAll("userConnected", collections.User.get(String(u._id)), u.active === true);
    }
    if (TRACKED.has(name) && opts.renderTemplates) scheduleRender();
  }
  const currentUserOf = (userId: string): User | null => collections.User.get(userId) ?? null;
  function safe(where: string, fn: () => unknown): void {
    try {
      const r = fn();
      if (r instanceof Promise)
        r.catch((err: unknown) => {
          recordError(where, err);
        });
    } catch (err) {
      recordError(where, err);
    }
  }

  // ------------------------------------------------------------------ notifications and globals

  const CONFIG = {
    Actor: { documentClass: Actor as unknown },
    ActiveEffect: { documentClass: ActiveEffect as unknown },
    User: { documentClass: User as unknown },
    Scene: { documentClass: Scene as unknown },
    Token: { documentClass: TokenDocument as unknown },
    Combat: {
      documentClass: Combat as unknown,
      initiative: { formula: null as string | null, decimals: 2 },
      sounds: {},
    },
    Combatant: { documentClass: Combatant as unknown },
    CombatantGroup: { documentClass: CombatantGroup as unknown },
    ChatMessage: {
      documentClass: ChatMessage as unknown,
      // v14: the message modes (https://foundryvtt.com/api/v14/variables/CONFIG.ChatMessage.html).
      ...(v14
        ? {
            modes: {
              public: { label: "CHAT.MODES.public", icon: "fa-solid fa-globe" },
              gm: { label: "CHAT.MODES.gm", icon: "fa-solid fa-user-secret" },
              blind: { label: "CHAT.MODES.blind", icon: "fa-solid fa-eye-slash" },
              self: { label: "CHAT.MODES.self", icon: "fa-solid fa-user" },
            },
          }
        : {}),
    },
    // `terms`: the die term classes by denomination; core's own numbered Die needs no entry here
    // (https://foundryvtt.com/api/classes/foundry.dice.terms.DiceTerm.html#DENOMINATION); a game
    // system adds its lettered dice (StarWarsFFG, Genesys).
    Dice: { rolls: [Roll] as unknown[], terms: {} as Record<string, unknown> },
    ui: { combat: CombatTracker as unknown },
    queries: {} as Record<string, unknown>,
    statusEffects: [
      { id: "dead", name: "EFFECT.StatusDead", img: "icons/svg/skull.svg" },
      { id: "unconscious", name: "EFFECT.StatusUnconscious", img: "icons/svg/unconscious.svg" },
      { id: "prone", name: "EFFECT.StatusProne", img: "icons/svg/falling.svg" },
    ] as Dict[],
    specialStatusEffects: { DEFEATED: "dead", INVISIBLE: "invisible", BLIND: "blind" },
    time: { turnTime: 0, roundTime: 6 },
    debug: { hooks: false },
  };

  /**
   * The canvas (https://foundryvtt.com/api/classes/foundry.canvas.Canvas.html), reduced to the
   * viewed scene, its tokens' placeables and panning; the sim records each pan instead of moving.
   */
  const placeables = new WeakMap<TokenDocument, Token>();
  const canvas = {
    get ready(): boolean {
      return game.scenes.viewed !== undefined;
    },
    get scene(): Scene | null {
      return game.scenes.viewed ?? null;
    },
    /** Every `animatePan` view, in order (the sim's record). */
    pans: [] as Dict[],
    /** https://foundryvtt.com/api/classes/foundry.canvas.Canvas.html#animatePan */
    async animatePan(view: Dict = {}): Promise<boolean> {
      canvas.pans.push({ ...view });
      return true;
    },
    tokens: {
      controlled: [] as Token[],
      placeable(doc: TokenDocument): Token {
        let token = placeables.get(doc);
        if (token === undefined) {
          token = new Token(doc);
          placeables.set(doc, token);
        }
        return token;
      },
      get(id: string): Token | undefined {
        const doc = canvas.scene?.tokens.get(id);
        return doc?.object ?? undefined;
      },
      releaseAll(): number {
        const n = canvas.tokens.controlled.length;
        canvas.tokens.controlled.length = 0;
        return n;
      },
    },
  };

  const game = {
    world: { id: "sim-world", title: "Simulated World" },
    /**
     * https://foundryvtt.com/api/v14/classes/foundry.Game.html#release: the core release data.
     * Builds: 13.350 (https://foundryvtt.com/api/v13/, "version 13.350 Stable") and 14.360
     * (https://github.com/foundryvtt/dnd5e/issues/6958).
     */
    release: v14
      ? { generation: 14, build: 360, version: "14.360", stable: true }
      : { generation: 13, build: 350, version: "13.350", stable: true },
    system: { ...opts.system },
    modules: new Map<string, Dict>(opts.modules.map((id) => [id, { id, active: true, title: id }])),
    ready: false,
    userId: t.userId,
    get user(): User | null {
      return currentUser();
    },
    users: collections.User,
    actors: collections.Actor,
    scenes: collections.Scene,
    combats: collections.Combat,
    messages: collections.ChatMessage,
    get combat(): Combat | null {
      return collections.Combat.viewed;
    },
    settings,
    keybindings,
    i18n,
    socket,
    /** https://foundryvtt.com/api/classes/foundry.helpers.GameTime.html#worldTime (the world setting core.time). */
    time: {
      get worldTime(): number {
        const v = worldSettings.get("core.time");
        return typeof v === "number" ? v : 0;
      },
    },
    paused: false,
  };

  const foundry = {
    utils: {
      deepClone,
      duplicate: (v: unknown) => toJson(v),
      mergeObject,
      getProperty,
      setProperty,
      expandObject,
      flattenObject,
      diffObject,
      randomID,
      isEmpty,
      objectsEqual,
      Collection,
      debounce,
      logCompatibilityWarning,
    },
    ...(v14 ? { data: { operators: { ForcedDeletion, ForcedReplacement, OPERATOR_IDENTIFIER } } } : {}),
    documents: {
      Actor,
      ActiveEffect,
      User,
      Scene,
      TokenDocument,
      Combat,
      Combatant,
      CombatantGroup,
      ChatMessage,
      collections: { Users, Combats, Scenes },
      ...(v14 ? { modifyBatch } : {}),
    },
    dice: { Roll },
    audio: { AudioHelper },
    applications: {
      api: { ApplicationV2, HandlebarsApplicationMixin, DialogV2 },
      sidebar: { tabs: { CombatTracker } },
      handlebars: { renderTemplate, loadTemplates, getTemplate },
      ui: {},
      ux: { ContextMenu },
    },
    helpers: { Hooks },
    CONST,
  };

  Object.assign(g, {
    canvas,
    Hooks,
    CONFIG,
    CONST,
    game,
    ui,
    foundry,
    Roll,
    ChatMessage,
    Combat,
    Combatant,
    Actor,
    ActiveEffect,
    User,
    TokenDocument,
    Handlebars: hb,
    renderTemplate,
    loadTemplates,
  });

  // ------------------------------------------------------------------ lifecycle and messages
  /** init -> i18nInit -> documents -> setup -> UI -> ready (https://foundryvtt.com/api/classes/foundry.Game.html). */
  async function boot(world: WorldData): Promise<void> {
    for (const [k, v] of Object.entries(world.settings)) worldSettings.set(k, v);
    Hooks.callAll("init");
    Hooks.callAll("i18nInit");
    const load = (name: TopLevelName, list: JsonObject[]): void => {
      const cls = docClass(name);
      for (const src of list) worldCollection(name).set(String(src._id), new cls(src));
    };
    load("User", world.users);
    load("Actor", world.actors);
    load("Scene", world.scenes);
    load("Combat", world.combats);
    load("ChatMessage", world.messages);
    Hooks.callAll("setup");
    const Tracker = CONFIG.ui.combat;
    if (typeof Tracker === "function") {
      const app = new (Tracker as typeof CombatTracker)();
      ui.combat = app;
      await app.render({ force: true }).catch((err: unknown) => {
        recordError("render combat tracker", err);
      });
    }
    game.ready = true;
    Hooks.callAll("ready");
  }

  function receive(msg: ServerMessage): void {
    switch (msg.type) {
      case "broadcast":
        applyDocOp(msg);
        return;
      case "batch":
        for (const op of msg.operations) applyDocOp(op);
        return;
      case "setting":
        applySetting(msg.key, msg.value, msg.userId);
        return;
      case "socket":
        for (const fn of socketListeners.get(msg.event) ?? []) safe(`socket ${msg.event}`, () => fn(msg.data));
        return;
      case "query": {
        const handler = CONFIG.queries[msg.name];
        if (typeof handler !== "function") {
          t.queryResponse(msg.queryId, false, null, `Unknown query "${msg.name}"`);
          return;
        }
        // v13: the handler receives the data and options only, not the sender.
        Promise.resolve()
          .then(() => (handler as Fn)(msg.data, {}))
          .then(
            (result) => {
              t.queryResponse(msg.queryId, true, toJson(result ?? null), "");
            },
            (err: unknown) => {
              t.queryResponse(msg.queryId, false, null, err instanceof Error ? err.message : String(err));
            },
          );
        return;
      }
      default:
        return;
    }
  }

  return {
    game,
    CONFIG,
    canvas,
    Hooks,
    ui,
    foundry,
    Roll,
    notifications,
    sounds,
    errors,
    compatWarnings,
    effectRefreshes,
    generation,
    hookLog,
    boot,
    receive,
    classes: defaultClasses,
  };
}

export type SimRealm = ReturnType<typeof createRealm>;
export type SimClasses = SimRealm["classes"];
export type SimCombat = InstanceType<SimClasses["Combat"]>;
export type SimCombatant = InstanceType<SimClasses["Combatant"]>;
export type SimUser = InstanceType<SimClasses["User"]>;
export type SimActor = InstanceType<SimClasses["Actor"]>;
export type SimActiveEffect = InstanceType<SimClasses["ActiveEffect"]>;
export type SimChatMessage = InstanceType<SimClasses["ChatMessage"]>;
