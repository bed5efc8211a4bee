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
import { createApplications } from "./realm/applications.js";
import { createAudio } from "./realm/audio.js";
import { CONST, LEVELS, debounce, type Fn } from "./realm/constants.js";
import { LEGACY_MODES, modernMode } from "./realm/generations.js";
import { createHooks } from "./realm/hooks.js";
import { createI18n } from "./realm/i18n.js";
import { createKeybindings } from "./realm/keybindings.js";
import { createUi, type Notification } from "./realm/notifications.js";
import { createOperators } from "./realm/operators.js";
import { createSettings } from "./realm/settings.js";
import { createSocket } from "./realm/socket.js";
import { createRollClass, type RollInstance } from "./roll.js";
import {
  createEffectRegistry,
  effectDuration,
  effectStartView,
  effectStartNow,
  isExpiryEvent,
  prepareEffectCreation,
  type EffectRealm,
  type RefreshRecord,
} from "./effects.js";
import {
  canModify,
  hasPermission,
  EMBEDDED,
  isEmbedded,
  isGMRole,
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
  // ------------------------------------------------------------------ Collection
  /** https://foundryvtt.com/api/classes/foundry.utils.Collection.html */
  class Collection<V> extends Map<string, V> {
    get contents(): V[] {
      return [...this.values()];
    }
    find(fn: (v: V, i: number, c: this) => unknown): V | undefined {
      return this.contents.find((v, i) => fn(v, i, this));
    }
    filter(fn: (v: V, i: number, c: this) => unknown): V[] {
      return this.contents.filter((v, i) => fn(v, i, this));
    }
    map<T>(fn: (v: V, i: number, c: this) => T): T[] {
      return this.contents.map((v, i) => fn(v, i, this));
    }
    some(fn: (v: V, i: number, c: this) => unknown): boolean {
      return this.contents.some((v, i) => fn(v, i, this));
    }
    every(fn: (v: V, i: number, c: this) => unknown): boolean {
      return this.contents.every((v, i) => fn(v, i, this));
    }
    reduce<T>(fn: (acc: T, v: V, i: number) => T, initial: T): T {
      return this.contents.reduce(fn, initial);
    }
    getName(name: string): V | undefined {
      return this.find((v) => (v as { name?: unknown }).name === name);
    }
    override get(key: string, { strict = false }: { strict?: boolean } = {}): V | undefined {
      const v = super.get(key);
      if (strict && v === undefined)
        throw new Error(`The key ${key} does not exist in the ${this.constructor.name} Collection`);
      return v;
    }
  }
  // "When iterating over a Collection, we should iterate over its values instead of over its
  // key-value pairs" (https://foundryvtt.com/api/v13/classes/foundry.utils.Collection.html#iterator):
  // `for (const doc of collection)` and `[...collection]` give documents; `entries()` still gives pairs.
  Object.defineProperty(Collection.prototype, Symbol.iterator, {
    value: function values(this: Map<string, unknown>) {
      return this.values();
    },
    writable: true,
    configurable: true,
  });

  // ------------------------------------------------------------------ operators (v14, ./realm/operators.ts)
  const { ForcedDeletion, ForcedReplacement, warnLegacyKeys } = createOperators(v14, logCompatibilityWarning);
  // ------------------------------------------------------------------ documents
  type Ctx = { parent?: ClientDocument | null };
  type OpOptions = Dict & { parent?: ClientDocument | null };
  const EMBED_FIELDS: Partial<Record<TopLevelName, Partial<Record<EmbeddedName, string>>>> = {
    Combat: { Combatant: "combatants", CombatantGroup: "groups" },
    Scene: { Token: "tokens" },
    Actor: { ActiveEffect: "effects" },
  };

  /** A document sheet reduced to what tests read: was it asked to render, and how often. */
  class SimSheet {
    renderCount = 0;
    constructor(readonly document: ClientDocument) {}
    get rendered(): boolean {
      return this.renderCount > 0;
    }
    render(_options: boolean | Dict = {}): this {
      this.renderCount++;
      return this;
    }
  }

  class ClientDocument {
    static documentName: DocumentName = "Actor";
    _source: Dict;
    parent: ClientDocument | null;
    _embedded: Partial<Record<EmbeddedName, Collection<ClientDocument>>> = {};

    constructor(data: Dict = {}, { parent = null }: Ctx = {}) {
      this._source = data;
      this.parent = parent;
      const fields = EMBED_FIELDS[this.documentName as TopLevelName] ?? {};
      for (const [name, field] of Object.entries(fields) as Array<[EmbeddedName, string]>) {
        const coll = new Collection<ClientDocument>();
        const list = Array.isArray(data[field]) ? (data[field] as Dict[]) : [];
        data[field] = list;
        for (const src of list) coll.set(String(src._id), new (docClass(name))(src, { parent: this }));
        this._embedded[name] = coll;
      }
      this._initialize();
    }
    static get implementation(): typeof ClientDocument {
      return docClass(this.documentName);
    }
    /** Re-read derived values from `_source` (after construction and every update). */
    _initialize(): void {
      this.prepareData();
    }
    /**
     * Base data, then the embedded documents, then derived data: the sim's order (a parent's update
     * prepares what it holds again, so a combatant's `_prepareGroup` sees its Combat's groups).
     */
    prepareData(): void {
      this.prepareBaseData();
      this.prepareEmbeddedDocuments();
      this.prepareDerivedData();
    }
    /** Each embedded document prepares its data. */
    prepareEmbeddedDocuments(): void {
      for (const coll of Object.values(this._embedded)) for (const doc of coll.values()) doc.prepareData();
    }
    prepareBaseData(): void {}
    prepareDerivedData(): void {}
    get documentName(): DocumentName {
      return (this.constructor as typeof ClientDocument).documentName;
    }
    get id(): string | null {
      return typeof this._source._id === "string" ? this._source._id : null;
    }
    get _id(): string | null {
      return this.id;
    }
    get uuid(): string {
      const own = `${this.documentName}.${String(this.id)}`;
      return this.parent ? `${this.parent.uuid}.${own}` : own;
    }
    get name(): string {
      return typeof this._source.name === "string" ? this._source.name : "";
    }
    get flags(): Dict {
      if (!isPlainObject(this._source.flags)) this._source.flags = {};
      return this._source.flags as Dict;
    }
    get system(): Dict {
      if (!isPlainObject(this._source.system)) this._source.system = {};
      return this._source.system as Dict;
    }
    get isEmbedded(): boolean {
      return this.parent !== null;
    }
    get collection(): Collection<ClientDocument> | undefined {
      return this.parent
        ? this.parent._embedded[this.documentName as EmbeddedName]
        : worldCollection(this.documentName as TopLevelName);
    }
    getEmbeddedCollection(name: string): Collection<ClientDocument> {
      const c = this._embedded[name as EmbeddedName];
      if (!c) throw new Error(`${name} is not an embedded collection of ${this.documentName}`);
      return c;
    }
    getEmbeddedDocument(name: string, id: string): ClientDocument | undefined {
      return this.getEmbeddedCollection(name).get(id);
    }

    // flags: https://foundryvtt.com/api/classes/foundry.abstract.Document.html#getFlag
    getFlag(scope: string, key: string): unknown {
      return getProperty(this.flags[scope], key);
    }
    async setFlag(scope: string, key: string, value: unknown): Promise<this | undefined> {
      return this.update({ [`flags.${scope}.${key}`]: value });
    }
    /** v13 writes `-=key: null`; v14 `key: ForcedDeletion` (https://foundryvtt.com/api/v14/modules/foundry.data.operators.html). */
    async unsetFlag(scope: string, key: string): Promise<this | undefined> {
      if (v14) return this.update({ [`flags.${scope}.${key}`]: new ForcedDeletion() });
      const i = key.lastIndexOf(".");
      const del = i >= 0 ? `${key.slice(0, i)}.-=${key.slice(i + 1)}` : `-=${key}`;
      return this.update({ [`flags.${scope}.${del}`]: null });
    }
    updateSource(changes: Dict = {}): Dict {
      const diff = diffObject(this._source, expandObject(changes));
      mergeObject(this._source, diff, { performDeletions: true });
      this._initialize();
      return diff;
    }
    toObject(): Dict {
      return deepClone(this._source);
    }
    toJSON(): Dict {
      return this.toObject();
    }

    // permissions: https://foundryvtt.com/api/classes/foundry.abstract.Document.html#testUserPermission
    getUserLevel(user: User | null | undefined): number {
      return user?.isGM ? CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER : CONST.DOCUMENT_OWNERSHIP_LEVELS.NONE;
    }
    testUserPermission(
      user: User | null | undefined,
      level: string | number,
      { exact = false }: { exact?: boolean } = {},
    ): boolean {
      const wanted = typeof level === "string" ? (LEVELS[level] ?? CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER) : level;
      const have = this.getUserLevel(user);
      return exact ? have === wanted : have >= wanted;
    }
    get permission(): number {
      return this.getUserLevel(currentUser());
    }
    get isOwner(): boolean {
      return this.testUserPermission(currentUser(), "OWNER");
    }
    #sheet: SimSheet | null = null;
    /**
     * The document's sheet (https://foundryvtt.com/api/classes/foundry.documents.Actor.html#sheet):
     * the sim records that it was rendered instead of drawing it.
     */
    get sheet(): SimSheet {
      this.#sheet ??= new SimSheet(this);
      return this.#sheet;
    }
    canUserModify(user: User, action: "create" | "update" | "delete", data: Dict = {}): boolean {
      return canModify(
        replicaWorld(),
        user._source as JsonObject,
        action,
        this.documentName,
        (this.parent?._source ?? null) as JsonObject | null,
        this._source as JsonObject,
        toJsonObject(expandObject(data)),
      );
    }

    // database operations (https://foundryvtt.com/api/classes/foundry.abstract.Document.html#update)
    async update(data: Dict = {}, options: Dict = {}): Promise<this | undefined> {
      const cls = this.constructor as typeof ClientDocument;
      const [doc] = await cls.updateDocuments([{ ...data, _id: this.id }], { ...options, parent: this.parent });
      return doc as this | undefined;
    }
    async delete(options: Dict = {}): Promise<this | undefined> {
      const cls = this.constructor as typeof ClientDocument;
      const [doc] = await cls.deleteDocuments([String(this.id)], { ...options, parent: this.parent });
      return doc as this | undefined;
    }
    static async create(
      data: Dict | Dict[],
      options: OpOptions = {},
    ): Promise<ClientDocument | ClientDocument[] | undefined> {
      const list = await this.createDocuments(Array.isArray(data) ? data : [data], options);
      return Array.isArray(data) ? list : list[0];
    }
    static async createDocuments(data: Dict[] = [], options: OpOptions = {}): Promise<ClientDocument[]> {
      return createDocuments(this, data, options);
    }
    static async updateDocuments(updates: Dict[] = [], options: OpOptions = {}): Promise<ClientDocument[]> {
      return updateDocuments(this, updates, options);
    }
    static async deleteDocuments(ids: string[] = [], options: OpOptions = {}): Promise<ClientDocument[]> {
      return deleteDocuments(this, ids, options);
    }
    async createEmbeddedDocuments(name: string, data: Dict[] = [], options: Dict = {}): Promise<ClientDocument[]> {
      this.getEmbeddedCollection(name);
      return docClass(name as DocumentName).createDocuments(data, { ...options, parent: this });
    }
    async updateEmbeddedDocuments(name: string, updates: Dict[] = [], options: Dict = {}): Promise<ClientDocument[]> {
      this.getEmbeddedCollection(name);
      return docClass(name as DocumentName).updateDocuments(updates, { ...options, parent: this });
    }
    async deleteEmbeddedDocuments(name: string, ids: string[] = [], options: Dict = {}): Promise<ClientDocument[]> {
      this.getEmbeddedCollection(name);
      return docClass(name as DocumentName).deleteDocuments(ids, { ...options, parent: this });
    }

    // lifecycle, overridable (https://foundryvtt.com/api/classes/foundry.abstract.Document.html#_onUpdate)
    async _preCreate(_data: Dict, _options: Dict, _user: User): Promise<unknown> {
      return undefined;
    }
    async _preUpdate(_changes: Dict, _options: Dict, _user: User): Promise<unknown> {
      return undefined;
    }
    async _preDelete(_options: Dict, _user: User): Promise<unknown> {
      return undefined;
    }
    _onCreate(_data: Dict, _options: Dict, _userId: string): void {}
    /**
     * Once per database operation on every client, after each document's `_on<Op>`, with all the
     * documents it touched (https://foundryvtt.com/api/v13/classes/foundry.abstract.Document.html#_onupdateoperation,
     * #_oncreateoperation, #_ondeleteoperation).
     */
    static async _onCreateOperation(
      _documents: ClientDocument[],
      _operation: Dict,
      _user: User | null,
    ): Promise<void> {}
    static async _onUpdateOperation(
      _documents: ClientDocument[],
      _operation: Dict,
      _user: User | null,
    ): Promise<void> {}
    static async _onDeleteOperation(
      _documents: ClientDocument[],
      _operation: Dict,
      _user: User | null,
    ): Promise<void> {}
    _onUpdate(_changed: Dict, _options: Dict, _userId: string): void {}
    _onDelete(_options: Dict, _userId: string): void {}
    _onCreateDescendantDocuments(
      _parent: ClientDocument,
      _collection: string,
      _documents: ClientDocument[],
      _data: Dict[],
      _options: Dict,
      _userId: string,
    ): void {}
    _onUpdateDescendantDocuments(
      _parent: ClientDocument,
      _collection: string,
      _documents: ClientDocument[],
      _changes: Dict[],
      _options: Dict,
      _userId: string,
    ): void {}
    _onDeleteDescendantDocuments(
      _parent: ClientDocument,
      _collection: string,
      _documents: ClientDocument[],
      _ids: string[],
      _options: Dict,
      _userId: string,
    ): void {}
  }

  /** https://foundryvtt.com/api/classes/foundry.documents.User.html */
  class User extends ClientDocument {
    static override documentName: DocumentName = "User";
    get role(): number {
      return typeof this._source.role === "number" ? this._source.role : 0;
    }
    get isGM(): boolean {
      return isGMRole(this.role);
    }
    get active(): boolean {
      return this._source.active === true;
    }
    get isSelf(): boolean {
      return this.id === t.userId;
    }
    get character(): Actor | null {
      return game.actors.get(String(this._source.character)) ?? null;
    }
    hasRole(role: string | number, { exact = false }: { exact?: boolean } = {}): boolean {
      const r = typeof role === "string" ? ((CONST.USER_ROLES as Record<string, number>)[role] ?? 99) : role;
      return exact ? this.role === r : this.role >= r;
    }
    /**
     * Whether the user's role has a user permission (https://foundryvtt.com/api/v14/variables/CONST.USER_PERMISSIONS.html;
     * the server's `hasPermission` decides, from the world's configured roles).
     */
    hasPermission(permission: string): boolean {
      return hasPermission(
        { ...replicaWorld(), settings: { "core.permissions": toJson(worldSettings.get("core.permissions") ?? null) } },
        this._source as JsonObject,
        permission,
      );
    }
    /** https://foundryvtt.com/api/classes/foundry.documents.User.html#can: a permission of the user's role. */
    can(action: string): boolean {
      return this.hasPermission(action);
    }
    /**
     * v13 `User#query` (https://github.com/foundryvtt/foundryvtt/issues/11235); the server refuses a
     * sender without the `QUERY_USER` permission.
     */
    async query(name: string, data: unknown, { timeout }: { timeout?: number } = {}): Promise<unknown> {
      return t.query(String(this.id), name, toJson(data), timeout);
    }
  }

  /** https://foundryvtt.com/api/classes/foundry.documents.Actor.html */
  class Actor extends ClientDocument {
    static override documentName: DocumentName = "Actor";
    get type(): string {
      return String(this._source.type ?? "");
    }
    get img(): string {
      return typeof this._source.img === "string" ? this._source.img : "icons/svg/mystery-man.svg";
    }
    get ownership(): Dict {
      return isPlainObject(this._source.ownership) ? this._source.ownership : {};
    }
    /** The actor's embedded effects (https://foundryvtt.com/api/classes/foundry.documents.Actor.html#effects). */
    get effects(): Collection<ActiveEffect> {
      return this._embedded.ActiveEffect as Collection<ActiveEffect>;
    }
    /**
     * The status ids applied to the actor (https://foundryvtt.com/api/classes/foundry.documents.Actor.html#statuses):
     * derived from the `statuses` of its active (not disabled) effects, never stored on the actor.
     */
    get statuses(): Set<string> {
      return new Set(this.effects.filter((e) => e.active).flatMap((e) => [...e.statuses]));
    }
    override getUserLevel(user: User | null | undefined): number {
      if (!user) return 0;
      if (user.isGM) return CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER;
      const explicit = this.ownership[String(user.id)];
      if (typeof explicit === "number" && explicit >= 0) return explicit;
      return typeof this.ownership.default === "number" ? this.ownership.default : 0;
    }
    get hasPlayerOwner(): boolean {
      return game.users.some((u) => !u.isGM && this.testUserPermission(u, "OWNER"));
    }
    getRollData(): Dict {
      return deepClone(this.system);
    }
    /**
     * https://foundryvtt.com/api/classes/foundry.documents.Actor.html#toggleStatusEffect: the status
     * is an ActiveEffect embedded in the actor — created from its `CONFIG.statusEffects` entry (name,
     * img, `statuses: [statusId]`; `overlay` kept as the `core.overlay` flag) to turn it on, the
     * effects carrying it deleted to turn it off; the actor itself is not updated. Resolves to the
     * created effect, `false` once deleted, `true` when already on, undefined when nothing changed.
     */
    async toggleStatusEffect(
      statusId: string,
      { active, overlay = false }: { active?: boolean; overlay?: boolean } = {},
    ): Promise<ActiveEffect | boolean | undefined> {
      const config = CONFIG.statusEffects.find((s) => s.id === statusId);
      if (config === undefined) throw new Error(`Invalid status ID "${statusId}" provided to Actor#toggleStatusEffect`);
      const existing = this.effects.filter((e) => e.statuses.has(statusId));
      const on = active ?? existing.length === 0;
      if (!on) {
        if (existing.length === 0) return undefined;
        await this.deleteEmbeddedDocuments(
          "ActiveEffect",
          existing.map((e) => String(e.id)),
        );
        return false;
      }
      if (existing.length > 0) return true;
      const data: Dict = { name: i18n.localize(String(config.name)), img: config.img, statuses: [statusId] };
      if (overlay) data.flags = { core: { overlay: true } };
      const [created] = await this.createEmbeddedDocuments("ActiveEffect", [data]);
      return created as ActiveEffect | undefined;
    }
  }

  class Scene extends ClientDocument {
    static override documentName: DocumentName = "Scene";
    get active(): boolean {
      return this._source.active === true;
    }
    get isView(): boolean {
      return game.scenes.viewed === this;
    }
    get tokens(): Collection<TokenDocument> {
      return this._embedded.Token as Collection<TokenDocument>;
    }
    #regions = new Map<string, Region>();
    /**
     * The scene's Regions (https://foundryvtt.com/api/classes/foundry.documents.RegionDocument.html),
     * reduced to rectangles from the scene source's `regions` (no Region CRUD in the sim); each keeps
     * the events triggered on it in `events`.
     */
    get regions(): Collection<Region> {
      const list = Array.isArray(this._source.regions) ? (this._source.regions as Dict[]) : [];
      const coll = new Collection<Region>();
      for (const data of list) {
        const id = String(data._id);
        let region = this.#regions.get(id);
        if (region === undefined) this.#regions.set(id, (region = new Region(data)));
        coll.set(id, region);
      }
      return coll;
    }
  }

  /** A Region of the sim: a rectangle in canvas pixels and the log of events triggered on it. */
  class Region {
    readonly events: Array<{ name: string; tokenId: string | null; combatantId: string | null; round: unknown }> = [];
    constructor(readonly data: Dict) {}
    get id(): string {
      return String(this.data._id);
    }
    contains(point: { x: number; y: number }): boolean {
      const n = (v: unknown): number => (typeof v === "number" ? v : 0);
      const { x, y, width, height } = this.data;
      return point.x >= n(x) && point.x < n(x) + n(width) && point.y >= n(y) && point.y < n(y) + n(height);
    }
    /** https://foundryvtt.com/api/classes/foundry.documents.RegionDocument.html#_triggerEvent */
    async _triggerEvent(name: string, data: Dict): Promise<void> {
      const token = data.token as TokenDocument | undefined;
      const combatant = data.combatant as Combatant | undefined;
      this.events.push({ name, tokenId: token?.id ?? null, combatantId: combatant?.id ?? null, round: data.round });
      await Promise.resolve();
    }
  }

  class TokenDocument extends ClientDocument {
    static override documentName: DocumentName = "Token";
    get actorId(): string | null {
      return typeof this._source.actorId === "string" ? this._source.actorId : null;
    }
    get actor(): Actor | null {
      return game.actors.get(String(this.actorId)) ?? null;
    }
    override get name(): string {
      return typeof this._source.name === "string" && this._source.name ? this._source.name : (this.actor?.name ?? "");
    }
    get disposition(): number {
      return typeof this._source.disposition === "number" ? this._source.disposition : 0;
    }
    get hidden(): boolean {
      return this._source.hidden === true;
    }
    override getUserLevel(user: User | null | undefined): number {
      return this.actor ? this.actor.getUserLevel(user) : super.getUserLevel(user);
    }
    /**
     * The Regions this token is in (https://foundryvtt.com/api/classes/foundry.documents.TokenDocument.html#regions):
     * those of its scene holding its centre (grid size 100).
     */
    get regions(): Set<Region> | null {
      const scene = this.parent instanceof Scene ? this.parent : null;
      if (scene === null) return null;
      const src = this._source;
      const n = (v: unknown, d: number): number => (typeof v === "number" ? v : d);
      const centre = { x: n(src.x, 0) + n(src.width, 1) * 50, y: n(src.y, 0) + n(src.height, 1) * 50 };
      return new Set(scene.regions.filter((r) => r.contains(centre)));
    }
    /**
     * The token on the canvas (https://foundryvtt.com/api/classes/foundry.documents.TokenDocument.html#object):
     * there only while its scene is the one the canvas shows.
     */
    get object(): Token | null {
      return canvas.ready && this.parent !== null && this.parent === canvas.scene
        ? canvas.tokens.placeable(this)
        : null;
    }
  }

  /**
   * A token on the canvas (https://foundryvtt.com/api/classes/foundry.canvas.placeables.Token.html),
   * reduced to what the tracker uses: its centre, whether this user may see and control it, and
   * control itself. A user controls only tokens they own (the GM any token).
   */
  class Token {
    constructor(readonly document: TokenDocument) {}
    get id(): string | null {
      return this.document.id;
    }
    get isOwner(): boolean {
      return this.document.isOwner;
    }
    /**
     * Whether the current user can see it (https://foundryvtt.com/api/classes/foundry.canvas.placeables.Token.html#isVisible):
     * in the sim, a hidden token only for the GM (no vision or fog).
     */
    get isVisible(): boolean {
      return !this.document.hidden || currentUser()?.isGM === true;
    }
    get controlled(): boolean {
      return canvas.tokens.controlled.includes(this);
    }
    /** The centre in canvas pixels (grid size 100, as a new scene's default). */
    get center(): { x: number; y: number } {
      const src = this.document._source;
      const size = 100;
      const x = typeof src.x === "number" ? src.x : 0;
      const y = typeof src.y === "number" ? src.y : 0;
      const w = typeof src.width === "number" ? src.width : 1;
      const h = typeof src.height === "number" ? src.height : 1;
      return { x: x + (w * size) / 2, y: y + (h * size) / 2 };
    }
    /** https://foundryvtt.com/api/classes/foundry.canvas.placeables.PlaceableObject.html#control */
    control({ releaseOthers = true }: { releaseOthers?: boolean } = {}): boolean {
      if (!this.isOwner) return false;
      if (releaseOthers) canvas.tokens.releaseAll();
      if (!this.controlled) canvas.tokens.controlled.push(this);
      return true;
    }
    release(): boolean {
      const list = canvas.tokens.controlled;
      const at = list.indexOf(this);
      if (at >= 0) list.splice(at, 1);
      return true;
    }
  }

  interface CombatHistoryData {
    round: number;
    turn: number | null;
    tokenId: string | null;
    combatantId: string | null;
  }

  /**
   * Core's Region turn events for a combatant's token, on the active GM with the turn events
   * (CONST.REGION_EVENTS.TOKEN_TURN_START/END, https://foundryvtt.com/api/variables/CONST.REGION_EVENTS.html;
   * event data https://foundryvtt.com/api/interfaces/foundry.documents.types.RegionTokenTurnEventData.html).
   */
  async function regionTurnEvent(combatant: Combatant, name: string, context: Dict): Promise<void> {
    const token = combatant.token;
    if (!token) return;
    for (const region of token.regions ?? []) {
      await region._triggerEvent(name, { token, combatant, combat: combatant.combat, ...context });
    }
  }

  /**
   * Core's Region round events, for every combatant's token, on the active GM with the round events
   * (CONST.REGION_EVENTS.TOKEN_ROUND_START/END, "Triggered when a Token starts/ends the Combat round in
   * a Region", https://foundryvtt.com/api/variables/CONST.REGION_EVENTS.html; event data {combat,
   * combatant, round, skipped, token}:
   * https://foundryvtt.com/api/interfaces/foundry.documents.types.RegionTokenRoundEventData.html). The
   * order among combatants is not documented: the sim goes down `combat.turns`.
   */
  async function regionRoundEvent(combat: Combat, name: string, round: number): Promise<void> {
    for (const combatant of combat.turns) {
      const token = combatant.token;
      for (const region of token?.regions ?? [])
        await region._triggerEvent(name, { token, combatant, combat, round, skipped: false });
    }
  }

  /**
   * Each client's token turn marker follows the acting combatant
   * (https://foundryvtt.com/api/v14/classes/foundry.canvas.placeables.tokens.TokenTurnMarker.html): the
   * token that loses it and the one that gains it refresh, seen as the `refreshToken` hook with
   * `refreshTurnMarker` (https://foundryvtt.com/api/functions/hookEvents.refreshObject.html).
   */
  function refreshTurnMarkers(priorId: string | null, currentId: string | null, combat: Combat): void {
    if (priorId === currentId) return;
    for (const id of [priorId, currentId]) {
      const object = id === null ? null : (combat.combatants.get(id)?.token?.object ?? null);
      if (object) Hooks.callAll("refreshToken", object, { refreshTurnMarker: true });
    }
  }

  /** https://foundryvtt.com/api/classes/foundry.documents.Combat.html */
  class Combat extends ClientDocument {
    static override documentName: DocumentName = "Combat";
    static CONFIG_SETTING = "combatTrackerConfig";
    declare round: number;
    declare turn: number | null;
    declare turns: Combatant[];
    declare current: CombatHistoryData;
    declare previous: CombatHistoryData | undefined;

    override _initialize(): void {
      const s = this._source;
      this.round = typeof s.round === "number" ? s.round : 0;
      this.turn = typeof s.turn === "number" ? s.turn : null;
      super._initialize();
    }
    override prepareDerivedData(): void {
      if (!(this as { turns?: unknown }).turns) this.setupTurns();
    }
    get combatants(): Collection<Combatant> {
      return this._embedded.Combatant as Collection<Combatant>;
    }
    get groups(): Collection<CombatantGroup> {
      return this._embedded.CombatantGroup as Collection<CombatantGroup>;
    }
    get active(): boolean {
      return this._source.active === true;
    }
    get scene(): Scene | null {
      return game.scenes.get(String(this._source.scene)) ?? null;
    }
    get started(): boolean {
      return this.round > 0;
    }
    get isActive(): boolean {
      return this.active && (this.scene === null || this.scene.isView);
    }
    get combatant(): Combatant | undefined {
      return this.turn === null ? undefined : this.turns[this.turn];
    }
    get nextCombatant(): Combatant | undefined {
      return this.turn === null ? this.turns[0] : this.turns[this.turn + 1];
    }
    get settings(): Dict {
      const v = game.settings.get("core", Combat.CONFIG_SETTING);
      return isPlainObject(v) ? v : {};
    }
    override getUserLevel(user: User | null | undefined): number {
      return user?.isGM ? CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER : CONST.DOCUMENT_OWNERSHIP_LEVELS.LIMITED;
    }

    /** Core order: initiative descending (none last), then name, then id (Combat#_sortCombatants). */
    _sortCombatants(a: Combatant, b: Combatant): number {
      const ia = typeof a.initiative === "number" ? a.initiative : -Infinity;
      const ib = typeof b.initiative === "number" ? b.initiative : -Infinity;
      // -Infinity - -Infinity is NaN (falsy): ties fall through to name, then id.
      return ib - ia || a.name.localeCompare(b.name) || String(a.id).localeCompare(String(b.id));
    }
    /** https://foundryvtt.com/api/classes/foundry.documents.Combat.html#setupTurns */
    setupTurns(): Combatant[] {
      const turns = this.combatants.contents.sort((a, b) => this._sortCombatants(a, b));
      if (this.turn !== null) this.turn = turns.length ? Math.min(Math.max(this.turn, 0), turns.length - 1) : null;
      this.turns = turns;
      const c = this.combatant;
      this.current = { round: this.round, turn: this.turn, combatantId: c?.id ?? null, tokenId: c?.tokenId ?? null };
      return turns;
    }

    /** Hooks combatStart/combatTurn/combatRound fire on the initiating client before the update (hookEvents docs). */
    async startCombat(): Promise<this> {
      const updateData = { round: 1, turn: 0 };
      Hooks.callAll("combatStart", this, updateData);
      await this.update(updateData);
      /**
       * @behaviour v14: starting a combat announces "combatStart" to the effect registry.
       * @source https://foundryvtt.com/api/variables/CONST.ACTIVE_EFFECT_EXPIRY_EVENTS.html (a core
       * event); a public v14 system whose own `startCombat` skips core's sends it itself after its
       * update (the "EncounterCombat" class found through the search index: `ActiveEffect.registry.refresh("combatStart", {combat: this})`).
       */
      if (v14) await effectRegistry()?.refresh("combatStart", { combat: this });
      return this;
    }
    /**
     * "Display a dialog querying the GM whether they wish to end the combat encounter. If confirmed,
     * the encounter is deleted" (https://foundryvtt.com/api/classes/foundry.documents.Combat.html#endcombat).
     */
    async endCombat(): Promise<this | undefined> {
      const confirmed = await DialogV2.confirm({
        // The sim's own words: core's texts are core's language file's.
        window: { title: "End the encounter?" },
        content: "<p>The encounter ends and is deleted.</p>",
      });
      return confirmed ? this.delete() : undefined;
    }
    /** Skips defeated combatants when core's combatTrackerConfig.skipDefeated is set (Combat#settings). */
    async nextTurn(): Promise<this> {
      const turn = this.turn ?? -1;
      const skip = this.settings.skipDefeated === true;
      let next: number | null = null;
      for (let i = turn + 1; i < this.turns.length; i++) {
        if (skip && this.turns[i]?.isDefeated) continue;
        next = i;
        break;
      }
      if (this.round === 0 || next === null) return this.nextRound();
      const updateData = { round: this.round, turn: next };
      const updateOptions = { direction: 1, worldTime: { delta: CONFIG.time.turnTime } };
      Hooks.callAll("combatTurn", this, updateData, updateOptions);
      await this.update(updateData, updateOptions);
      return this;
    }
    async previousTurn(): Promise<this> {
      if (this.turn === 0 && this.round === 0) return this;
      if (this.turn !== null && this.turn <= 0) return this.previousRound();
      const updateData = { round: this.round, turn: (this.turn ?? this.turns.length) - 1 };
      const updateOptions = { direction: -1, worldTime: { delta: -CONFIG.time.turnTime } };
      Hooks.callAll("combatTurn", this, updateData, updateOptions);
      await this.update(updateData, updateOptions);
      return this;
    }
    async nextRound(): Promise<this> {
      let turn: number | null = this.turn === null ? null : 0;
      if (this.settings.skipDefeated === true && turn !== null) {
        turn = this.turns.findIndex((c) => !c.isDefeated);
        if (turn === -1) {
          ui.notifications.warn("COMBAT.NoneRemaining", { localize: true });
          turn = 0;
        }
      }
      const updateData = { round: this.round + 1, turn };
      const updateOptions = { direction: 1, worldTime: { delta: CONFIG.time.roundTime } };
      Hooks.callAll("combatRound", this, updateData, updateOptions);
      await this.update(updateData, updateOptions);
      return this;
    }
    async previousRound(): Promise<this> {
      const turn = this.round === 0 ? 0 : Math.max(this.turns.length - 1, 0);
      const updateData = { round: Math.max(this.round - 1, 0), turn: this.turn === null ? null : turn };
      const updateOptions = { direction: -1, worldTime: { delta: -CONFIG.time.roundTime } };
      Hooks.callAll("combatRound", this, updateData, updateOptions);
      await this.update(updateData, updateOptions);
      return this;
    }
    async activate(): Promise<ClientDocument[]> {
      const updates = game.combats.map((c) => ({ _id: c.id, active: c === this }));
      return Combat.updateDocuments(updates);
    }

    /**
     * https://foundryvtt.com/api/classes/foundry.documents.Combat.html#rollInitiative. v13 takes the
     * mode in `messageOptions.rollMode`. v14 takes it as the top-level `messageMode` option; the old
     * `messageOptions.rollMode` still works, mapped to v14's words, with a deprecation warning
     * (since 14, until 16): dnd5e PR #7370 ("Fixes deprecation warning") moves its initiative
     * dialog to `initiativeOptions: {messageMode}`, and a public v14 system's override of this
     * method (`SciFiCombat#rollInitiative`, in the search tool's code index) repeats core's warning.
     */
    async rollInitiative(
      ids: string | string[],
      {
        formula = null,
        updateTurn = true,
        messageMode,
        messageOptions = {},
      }: { formula?: string | null; updateTurn?: boolean; messageMode?: string; messageOptions?: Dict } = {},
    ): Promise<this> {
      const list = typeof ids === "string" ? [ids] : ids;
      const currentId = this.combatant?.id;
      const modeKey = v14 ? "messageMode" : "rollMode";
      const chatMode = game.settings.get("core", modeKey);
      // v13 reads `messageOptions.rollMode` only; v14 the top-level `messageMode`, or the old form.
      let asked: unknown = v14 ? messageMode : messageOptions.rollMode;
      const extra: Dict = { ...messageOptions };
      if (v14 && "rollMode" in messageOptions) {
        logCompatibilityWarning(
          "The rollMode option of Combat#rollInitiative messageOptions is deprecated in favor of the `messageMode` option, a string key of CONFIG.ChatMessage.modes",
          { since: 14, until: 16 },
        );
        asked = modernMode(String(messageOptions.rollMode));
        delete extra.rollMode;
      }
      const updates: Dict[] = [];
      const messages: Dict[] = [];
      for (const [i, id] of list.entries()) {
        const combatant = this.combatants.get(id);
        if (!combatant?.isOwner) continue;
        const roll = combatant.getInitiativeRoll(formula);
        await roll.evaluate();
        updates.push({ _id: id, initiative: roll.total ?? null });
        const speaker = ChatMessage.getSpeaker({
          actor: combatant.actor,
          token: combatant.token,
          alias: combatant.name,
        });
        const messageData = mergeObject(
          {
            speaker,
            flavor: game.i18n.format("COMBAT.RollsInitiative", { name: combatant.name }),
            flags: { "core.initiativeRoll": true },
          },
          extra,
        );
        const chatData = (await roll.toMessage(messageData, { create: false })) as Dict;
        chatData[modeKey] =
          typeof asked === "string"
            ? asked
            : combatant.hidden
              ? v14
                ? "gm"
                : CONST.DICE_ROLL_MODES.PRIVATE
              : chatMode;
        if (i > 0) chatData.sound = null;
        messages.push(chatData);
      }
      if (!updates.length) return this;
      await this.updateEmbeddedDocuments("Combatant", updates);
      if (updateTurn && currentId) {
        const turn = this.turns.findIndex((c) => c.id === currentId);
        if (turn !== this.turn) await this.update({ turn });
      }
      await ChatMessage.implementation.createDocuments(messages);
      return this;
    }
    async rollAll(options: Dict = {}): Promise<this> {
      const ids = this.combatants.filter((c) => c.isOwner && c.initiative === null).map((c) => String(c.id));
      return this.rollInitiative(ids, options);
    }
    async rollNPC(options: Dict = {}): Promise<this> {
      const ids = this.combatants.filter((c) => c.isOwner && c.isNPC && c.initiative === null).map((c) => String(c.id));
      return this.rollInitiative(ids, options);
    }
    async resetAll(): Promise<this> {
      const updates = this.combatants.map((c) => ({ _id: c.id, initiative: null }));
      await this.updateEmbeddedDocuments("Combatant", updates, { turnEvents: false });
      if (this.turn !== null && this.turn !== 0) await this.update({ turn: 0 });
      return this;
    }

    /**
     * Recompute turns; fire combatTurnChange on all clients and turn events on the active GM only.
     * With `turnEventsOnCombatantChange`, also when only the acting combatant changed at the same
     * index (https://github.com/foundryvtt/foundryvtt/issues/9741).
     */
    override _onUpdate(changed: Dict, options: Dict, userId: string): void {
      super._onUpdate(changed, options, userId);
      const prior = this.current;
      this.setupTurns();
      refreshTurnMarkers(prior.combatantId, this.current.combatantId, this);
      const moved = "turn" in changed || "round" in changed;
      const swapped = opts.turnEventsOnCombatantChange === true && prior.combatantId !== this.current.combatantId;
      if (!moved && !swapped) return;
      this.previous = prior;
      // https://foundryvtt.com/api/functions/hookEvents.combatTurnChange.html
      Hooks.callAll("combatTurnChange", this, prior, this.current);
      if (game.users.activeGM?.isSelf && options.turnEvents !== false) void this._manageTurnEvents();
    }
    /**
     * _onEndTurn/_onEndRound/_onStartRound/_onStartTurn "only execute for one designated GM user"
     * (https://foundryvtt.com/api/classes/foundry.documents.Combat.html#_onStartTurn); not on rewinds.
     */
    async _manageTurnEvents(): Promise<void> {
      // Core compares the previous and the current turn state (no arguments in its signature).
      const prior = this.previous;
      if (!this.started || prior === undefined) return;
      const advanceRound = this.round > prior.round;
      const sameIndex =
        opts.turnEventsOnCombatantChange === true &&
        this.round === prior.round &&
        this.turn === prior.turn &&
        this.current.combatantId !== prior.combatantId;
      const advanceTurn =
        advanceRound || sameIndex || (this.round === prior.round && (this.turn ?? -1) > (prior.turn ?? -1));
      if (!advanceTurn) return;
      try {
        const priorCombatant = prior.combatantId ? this.combatants.get(prior.combatantId) : undefined;
        const ctx = { round: this.round, turn: this.turn, skipped: false };
        const priorCtx = { round: prior.round, turn: prior.turn, skipped: false };
        /**
         * @behaviour v14: core's own turn dispatch announces each event to the effect registry after
         * the event's handler: turnEnd, roundEnd, roundStart, turnStart.
         * @source draw-steel-combat-tools src/squad-turns.mjs (commit c3a61b8164c7fc6c733e22db082435923bfd562e)
         * refreshes "turnStart"/"turnEnd" by hand only for the squad members core's dispatch leaves
         * out, after the member's start and `_onEndTurn`; https://github.com/MetaMorphic-Digital/torgeternity/issues/668
         * ("`roundStart` and `roundEnd` are handled by core Foundry").
         */
        const announce = async (event: string, context: Dict): Promise<void> => {
          if (v14) await effectRegistry()?.refresh(event, { ...context, combat: this });
        };
        if (priorCombatant && prior.round > 0) {
          await this._onEndTurn(priorCombatant, priorCtx);
          await announce("turnEnd", priorCtx);
          await regionTurnEvent(priorCombatant, "tokenTurnEnd", priorCtx);
        }
        if (advanceRound) {
          if (prior.round > 0) {
            await this._onEndRound(priorCtx);
            await announce("roundEnd", priorCtx);
            await regionRoundEvent(this, "tokenRoundEnd", prior.round);
          }
          await this._onStartRound(ctx);
          await announce("roundStart", ctx);
          await regionRoundEvent(this, "tokenRoundStart", this.round);
        }
        if (this.combatant) {
          await this._onStartTurn(this.combatant, ctx);
          await announce("turnStart", ctx);
          await regionTurnEvent(this.combatant, "tokenTurnStart", ctx);
        }
      } catch (err) {
        recordError("combat turn events", err);
      }
    }
    async _onStartTurn(_combatant: Combatant, _context: Dict): Promise<void> {}
    async _onEndTurn(_combatant: Combatant, _context: Dict): Promise<void> {}
    async _onStartRound(_context: Dict): Promise<void> {}
    async _onEndRound(_context: Dict): Promise<void> {}

    override _onCreateDescendantDocuments(_parent: ClientDocument, collection: string): void {
      this.prepareGroupMembers(collection);
      this.setupTurns();
    }
    override _onUpdateDescendantDocuments(_parent: ClientDocument, collection: string): void {
      this.prepareGroupMembers(collection);
      this.setupTurns();
    }
    override _onDeleteDescendantDocuments(_parent: ClientDocument, collection: string): void {
      this.prepareGroupMembers(collection);
      this.setupTurns();
    }
    /**
     * @behaviour v14: a combat that ends (is deleted) announces "combatEnd" to the effect registry,
     * once, on the active GM.
     * @source https://foundryvtt.com/api/variables/CONST.ACTIVE_EFFECT_EXPIRY_EVENTS.html (a core
     * event) and https://foundryvtt.com/api/classes/foundry.documents.Combat.html#endcombat (ending
     * deletes the encounter). Where core sends it is on no public page: the sim sends it on deletion.
     */
    override _onDelete(options: Dict, userId: string): void {
      super._onDelete(options, userId);
      if (v14 && game.users.activeGM?.isSelf) void effectRegistry()?.refresh("combatEnd", { combat: this });
    }
    /**
     * A group changed: its members prepare their data again, so the group's initiative is theirs
     * before the turns are sorted (what the group's documented initiative means, seen on every client;
     * how core schedules it is not documented).
     */
    prepareGroupMembers(collection: string): void {
      if (collection !== "groups") return;
      for (const combatant of this.combatants.values()) combatant.prepareData();
    }

    /**
     * The combatants of a token (https://foundryvtt.com/api/v13/classes/foundry.documents.Combat.html#getcombatantsbytoken,
     * https://github.com/foundryvtt/foundryvtt/issues/10672: an array).
     */
    getCombatantsByToken(token: string | TokenDocument): Combatant[] {
      const id = typeof token === "string" ? token : token.id;
      return this.combatants.filter((c) => c.tokenId === id);
    }
    /**
     * @behaviour `Combat#getCombatantByToken`: deprecated for the plural, still working with a
     * deprecation warning, in both flavours (no public source says v14 removed it).
     * @source https://github.com/foundryvtt/foundryvtt/issues/9241 ("Deprecate … `Combat#getCombatantByToken`
     * in favor of pluralized versions"); https://github.com/foundryvtt/foundryvtt/issues/10672 (v12:
     * the singular still calls the plural).
     */
    getCombatantByToken(token: string | TokenDocument): Combatant | undefined {
      logCompatibilityWarning("Combat#getCombatantByToken is deprecated in favor of Combat#getCombatantsByToken");
      return this.getCombatantsByToken(token)[0];
    }

    /**
     * v13 keeps the current combatant current when combatants are added, removed or re-ordered
     * (operation.combatTurn, https://github.com/foundryvtt/foundryvtt/issues/12990): the index the
     * requesting client computes, from its own copy, for whoever acts now. Core's Combatant
     * `_preUpdateOperation` adds it even to a `turnEvents: false` operation (#12990, and #11531 for
     * v12); that it is left out when the index does not move is nowhere documented, so the sim takes
     * the harsher reading and always adds it once the combat has a current combatant.
     */
    _computeCombatTurn(action: "create" | "update" | "delete", payload: Dict[] | string[]): number | null {
      const currentId = this.combatant?.id;
      if (!this.started || this.turn === null || !currentId) return null;
      const cls = docClass("Combatant") as typeof Combatant;
      let sources = this.combatants.map((c) => c.toObject());
      if (action === "create") sources = sources.concat((payload as Dict[]).map((d) => deepClone(d)));
      if (action === "update") {
        for (const d of payload as Dict[]) {
          const src = sources.find((s) => s._id === d._id);
          if (src) mergeObject(src, deepClone(d), { performDeletions: true });
        }
      }
      if (action === "delete") sources = sources.filter((s) => !(payload as string[]).includes(String(s._id)));
      const temp = sources.map((s) => new cls(s, { parent: this })).sort((a, b) => this._sortCombatants(a, b));
      const idx = temp.findIndex((c) => c.id === currentId);
      return idx >= 0 ? idx : Math.min(this.turn, Math.max(temp.length - 1, 0));
    }
  }

  /** https://foundryvtt.com/api/classes/foundry.documents.Combatant.html */
  class Combatant extends ClientDocument {
    static override documentName: DocumentName = "Combatant";
    /**
     * The operation's `combatTurn` (`Combat#_computeCombatTurn`), whatever its `turnEvents`
     * (https://github.com/foundryvtt/foundryvtt/issues/12990; the static pre-operation methods:
     * https://foundryvtt.com/api/classes/foundry.abstract.Document.html#_preUpdateOperation). The sim
     * passes `documents` empty: nothing of its own reads them.
     */
    static async _preCreateOperation(_documents: Combatant[], operation: Dict, _user: User): Promise<void> {
      Combatant.attachCombatTurn(operation, "create", operation.data as Dict[]);
    }
    static async _preUpdateOperation(_documents: Combatant[], operation: Dict, _user: User): Promise<void> {
      Combatant.attachCombatTurn(operation, "update", operation.updates as Dict[]);
    }
    static async _preDeleteOperation(_documents: Combatant[], operation: Dict, _user: User): Promise<void> {
      Combatant.attachCombatTurn(operation, "delete", operation.ids as string[]);
    }
    private static attachCombatTurn(
      operation: Dict,
      action: "create" | "update" | "delete",
      payload: Dict[] | string[],
    ): void {
      const combat = operation.parent;
      if (!(combat instanceof Combat)) return;
      const turn = combat._computeCombatTurn(action, payload);
      if (turn !== null) operation.combatTurn = turn;
    }
    get combat(): Combat {
      return this.parent as Combat;
    }
    /**
     * @behaviour v14 `CombatantData.roundJoined`: the round a combatant joined, set when it is created
     * (the Combat's round; before the start, round 1). The v13 flavour has no such field.
     * @source https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.CombatantData.html
     * ("The round this Combatant joined Combat (i.e., was created). A Combatant created before the
     * Combat starts is considered to have joined in round 1.")
     */
    override async _preCreate(data: Dict, options: Dict, user: User): Promise<unknown> {
      const result = await super._preCreate(data, options, user);
      if (v14 && typeof this._source.roundJoined !== "number") {
        const round = this.parent instanceof Combat ? this.parent.round : 0;
        this.updateSource({ roundJoined: Math.max(round, 1) });
      }
      return result;
    }
    get roundJoined(): number | undefined {
      return v14 && typeof this._source.roundJoined === "number" ? this._source.roundJoined : undefined;
    }
    get actorId(): string | null {
      return typeof this._source.actorId === "string" ? this._source.actorId : null;
    }
    get tokenId(): string | null {
      return typeof this._source.tokenId === "string" ? this._source.tokenId : null;
    }
    get sceneId(): string | null {
      return typeof this._source.sceneId === "string" ? this._source.sceneId : null;
    }
    /**
     * The prepared initiative: the group's when the combatant's CombatantGroup has one ("The
     * initiative value that will be used for all group members",
     * https://foundryvtt.com/api/interfaces/foundry.documents.types.CombatantGroupData.html), else its
     * own. Core applies that override while preparing the combatant (`Combatant#_prepareGroup`, which
     * draw-steel overrides "to remove initiative override" and which assigns `this.initiative`:
     * https://github.com/MetaMorphic-Digital/draw-steel/blob/1aa726b7ea13674bc949d2737acee4fcae282e75/src/module/documents/combatant.mjs).
     */
    get initiative(): number | null {
      const prepared = preparedInitiative.get(this);
      if (prepared !== undefined) return prepared;
      return typeof this._source.initiative === "number" ? this._source.initiative : null;
    }
    /** Prepared data may be assigned, as a DataModel's fields may (what draw-steel's `_prepareGroup` does). */
    set initiative(value: number | null) {
      preparedInitiative.set(this, typeof value === "number" ? value : null);
    }
    override prepareBaseData(): void {
      super.prepareBaseData();
      this._prepareGroup();
    }
    /** Core's group preparation: a group's initiative, when it has one, is its members'. */
    _prepareGroup(): void {
      const own = typeof this._source.initiative === "number" ? this._source.initiative : null;
      const groupInitiative = this.group?._source.initiative;
      this.initiative = typeof groupInitiative === "number" ? groupInitiative : own;
    }
    get hidden(): boolean {
      return this._source.hidden === true;
    }
    get defeated(): boolean {
      return this._source.defeated === true;
    }
    /** v13: the CombatantGroup this combatant belongs to (https://foundryvtt.com/api/interfaces/foundry.documents.types.CombatantData.html). */
    get group(): CombatantGroup | null {
      const id = this._source.group;
      // While the Combat is being built its groups are not there yet (they are prepared after).
      const groups = this.combat._embedded.CombatantGroup as Collection<CombatantGroup> | undefined;
      return typeof id === "string" ? (groups?.get(id) ?? null) : null;
    }
    get actor(): Actor | null {
      return game.actors.get(String(this.actorId)) ?? this.token?.actor ?? null;
    }
    get token(): TokenDocument | null {
      const scene = game.scenes.get(String(this.sceneId ?? this.combat._source.scene));
      return scene?.tokens.get(String(this.tokenId)) ?? null;
    }
    override get name(): string {
      const n = this._source.name;
      return typeof n === "string" && n ? n : (this.token?.name ?? this.actor?.name ?? "Unknown");
    }
    get img(): string {
      return typeof this._source.img === "string" && this._source.img
        ? this._source.img
        : (this.actor?.img ?? "icons/svg/mystery-man.svg");
    }
    get isDefeated(): boolean {
      const dead = CONFIG.specialStatusEffects.DEFEATED;
      return this.defeated || (this.actor?.statuses.has(dead) ?? false);
    }
    get visible(): boolean {
      return this.isOwner || !this.hidden;
    }
    get hasPlayerOwner(): boolean {
      return this.actor?.hasPlayerOwner ?? false;
    }
    get isNPC(): boolean {
      return !this.actor || !this.hasPlayerOwner;
    }
    get players(): User[] {
      return game.users.filter((u) => !u.isGM && this.testUserPermission(u, "OWNER"));
    }
    /** Combatant permission follows its actor. */
    override getUserLevel(user: User | null | undefined): number {
      if (user?.isGM) return CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER;
      return this.actor ? this.actor.getUserLevel(user) : CONST.DOCUMENT_OWNERSHIP_LEVELS.NONE;
    }
    _getInitiativeFormula(): string {
      return CONFIG.Combat.initiative.formula || opts.system.initiative || "1d20";
    }
    getInitiativeRoll(formula?: string | null): RollInstance {
      return new Roll(formula || this._getInitiativeFormula(), this.actor?.getRollData() ?? {});
    }
    async rollInitiative(formula?: string | null): Promise<Combat> {
      return this.combat.rollInitiative([String(this.id)], { formula: formula ?? null });
    }
  }

  /**
   * An effect embedded in an actor (https://foundryvtt.com/api/classes/foundry.documents.ActiveEffect.html),
   * reduced to its statuses and whether it applies; permission follows its actor.
   */
  class ActiveEffect extends ClientDocument {
    static override documentName: DocumentName = "ActiveEffect";
    get img(): string | null {
      return typeof this._source.img === "string" ? this._source.img : null;
    }
    get disabled(): boolean {
      return this._source.disabled === true;
    }
    /** https://foundryvtt.com/api/interfaces/foundry.documents.types.ActiveEffectData.html#statuses */
    get statuses(): Set<string> {
      return new Set(Array.isArray(this._source.statuses) ? this._source.statuses.map(String) : []);
    }
    /** No system logic suppresses effects in the sim (https://foundryvtt.com/api/classes/foundry.documents.ActiveEffect.html#isSuppressed). */
    get isSuppressed(): boolean {
      return false;
    }
    /** Whether it applies (https://foundryvtt.com/api/classes/foundry.documents.ActiveEffect.html#active): not disabled, not suppressed. */
    get active(): boolean {
      return !this.disabled && !this.isSuppressed;
    }
    override getUserLevel(user: User | null | undefined): number {
      return this.parent instanceof Actor ? this.parent.getUserLevel(user) : super.getUserLevel(user);
    }
    // v14's timed effects (./effects.ts, each behaviour with its source); the v13 flavour has none of them.
    /** v14: the start record and the duration with its expiry event, filled on creation. */
    override async _preCreate(data: Dict, options: Dict, user: User): Promise<unknown> {
      const result = await super._preCreate(data, options, user);
      if (v14) this.updateSource(prepareEffectCreation(effectRealm, this._source));
      return result;
    }
    /** v14 `ActiveEffect#start`, its combat the document (./effects.ts). */
    get start(): Dict | undefined {
      return v14 ? effectStartView(effectRealm, this._source) : undefined;
    }
    /** The prepared duration: v14's with what remains (./effects.ts); v13's stored fields as they are. */
    get duration(): Dict {
      if (v14) return { ...effectDuration(effectRealm, this._source) };
      return (this._source.duration ?? {}) as Dict;
    }
    /** v14 `ActiveEffect#isExpiryEvent(event, context)` (./effects.ts). */
    isExpiryEvent(event: string, context: Dict = {}): boolean {
      return isExpiryEvent(this._source, event, context);
    }
    /** v14 `ActiveEffect.getEffectStart()` (./effects.ts). */
    static getEffectStart(): Dict {
      return { ...effectStartNow(effectRealm) };
    }
  }
  /** The parts of this realm the v14 effect machinery reads (./effects.ts). */
  const effectRealm: EffectRealm = {
    get game() {
      return game as unknown as EffectRealm["game"];
    },
    get CONFIG() {
      return CONFIG as unknown as EffectRealm["CONFIG"];
    },
  };
  /** v14 `ActiveEffect.registry` (./effects.ts); the v13 flavour has no registry. */
  if (v14)
    Object.defineProperty(ActiveEffect, "registry", { value: createEffectRegistry(effectRealm, effectRefreshes) });
  const effectRegistry = (): { refresh(event: string, context?: Dict): Promise<void> } | undefined =>
    (ActiveEffect as unknown as { registry?: { refresh(event: string, context?: Dict): Promise<void> } }).registry;

  /**
   * v13 CombatantGroup (https://foundryvtt.com/api/interfaces/foundry.documents.types.CombatData.html#groups),
   * with its fields (https://foundryvtt.com/api/interfaces/foundry.documents.types.CombatantGroupData.html,
   * the same in v14: https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.CombatantGroupData.html).
   */
  class CombatantGroup extends ClientDocument {
    static override documentName: DocumentName = "CombatantGroup";
    get img(): string | null {
      return typeof this._source.img === "string" ? this._source.img : null;
    }
    get type(): string {
      return typeof this._source.type === "string" ? this._source.type : "base";
    }
    /** "The initiative value that will be used for all group members" (null: none, members keep theirs). */
    get initiative(): number | null {
      return typeof this._source.initiative === "number" ? this._source.initiative : null;
    }
    get ownership(): Dict {
      return isPlainObject(this._source.ownership) ? this._source.ownership : {};
    }
    /** The combatants whose `group` is this group. */
    get members(): Set<Combatant> {
      const combat = this.parent as Combat;
      return new Set(combat.combatants.filter((c) => c._source.group === this.id));
    }
    /**
     * "An object which configures ownership of this group" (v13.340,
     * https://github.com/MetaMorphic-Digital/draw-steel/issues/354): read as an actor's ownership.
     */
    override getUserLevel(user: User | null | undefined): number {
      if (!user) return CONST.DOCUMENT_OWNERSHIP_LEVELS.NONE;
      if (user.isGM) return CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER;
      const explicit = this.ownership[String(user.id)];
      if (typeof explicit === "number" && explicit >= 0) return explicit;
      return typeof this.ownership.default === "number" ? this.ownership.default : 0;
    }
  }

  /** https://foundryvtt.com/api/classes/foundry.documents.ChatMessage.html */
  class ChatMessage extends ClientDocument {
    static override documentName: DocumentName = "ChatMessage";
    get author(): User | null {
      return game.users.get(String(this._source.author)) ?? null;
    }
    get content(): string {
      return String(this._source.content ?? "");
    }
    get flavor(): string {
      return String(this._source.flavor ?? "");
    }
    get speaker(): Dict {
      return isPlainObject(this._source.speaker) ? this._source.speaker : {};
    }
    get whisper(): string[] {
      return Array.isArray(this._source.whisper) ? this._source.whisper.map(String) : [];
    }
    get blind(): boolean {
      return this._source.blind === true;
    }
    get rolls(): RollInstance[] {
      const list = Array.isArray(this._source.rolls) ? this._source.rolls : [];
      return list.map((r) => Roll.fromData(r));
    }
    get isRoll(): boolean {
      return this.rolls.length > 0;
    }
    get isAuthor(): boolean {
      return this._source.author === t.userId;
    }
    get visible(): boolean {
      const w = this.whisper;
      return !w.length || currentUser()?.isGM === true || w.includes(t.userId) || this.isAuthor;
    }
    override getUserLevel(user: User | null | undefined): number {
      return user?.isGM || user?.id === this._source.author
        ? CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER
        : CONST.DOCUMENT_OWNERSHIP_LEVELS.OBSERVER;
    }
    /**
     * @behaviour The mode in the data or the options decides who sees the message: v13 `rollMode`;
     * v14 `messageMode`. On v14 an old `rollMode` is still read, without a warning of its own: no
     * public source quotes core warning about the `rollMode` creation option (the fallout issue the
     * sim once cited is about the `core.rollMode` setting).
     * @source https://github.com/foundryvtt/foundryvtt/issues/11442 (v13 roll modes at creation);
     * v14 creation with `{messageMode}`: a public v14 system's roll class
     * (`cls.create(msg.toObject(), {messageMode: rollMode})`, read through the search index) and
     * https://foundryvtt.com/api/v14/variables/CONFIG.ChatMessage.html (the modes).
     */
    override async _preCreate(data: Dict, options: Dict, _user: User): Promise<unknown> {
      const read = (key: string): string | null =>
        typeof data[key] === "string" ? data[key] : typeof options[key] === "string" ? options[key] : null;
      const modern = v14 ? read("messageMode") : null;
      const legacy = read("rollMode");
      delete this._source.rollMode;
      delete this._source.messageMode;
      // Each generation reads only its own words: "gm" is no v13 roll mode, "gmroll" no v14 message
      // mode; an unknown mode shows the message to everyone.
      const mode = v14
        ? (modern ?? (legacy === null ? null : modernMode(legacy)))
        : legacy === null
          ? null
          : LEGACY_MODES[legacy];
      if (mode !== null) this.updateSource(visibility({}, mode ?? "public"));
      return undefined;
    }
    static getSpeaker({
      scene,
      actor,
      token,
      alias,
    }: { scene?: unknown; actor?: unknown; token?: unknown; alias?: unknown } = {}): Dict {
      const a = actor instanceof Actor ? actor : token instanceof TokenDocument ? token.actor : null;
      const tk = token instanceof TokenDocument ? token : null;
      return {
        scene: scene instanceof Scene ? scene.id : (tk?.parent?.id ?? game.scenes.viewed?.id ?? null),
        actor: a?.id ?? null,
        token: tk?.id ?? null,
        alias: typeof alias === "string" ? alias : (tk?.name ?? a?.name ?? currentUser()?.name ?? ""),
      };
    }
    /**
     * @behaviour `ChatMessage.applyRollMode`: who sees each v13 roll mode; v14 deprecates it for
     * `applyMode`, with a warning.
     * @source https://foundryvtt.com/api/v11/enums/foundry.CONST.DICE_ROLL_MODES.html;
     * https://github.com/JohanFalt/Foundry_WoD20/issues/1396 (v14's warning, since 14, until 16).
     */
    static applyRollMode(chatData: Dict, rollMode: string): Dict {
      if (v14) logCompatibilityWarning("ChatMessage.applyRollMode is deprecated in favor of ChatMessage.applyMode.");
      const mode = rollMode === "roll" ? String(settings.get("core", v14 ? "messageMode" : "rollMode")) : rollMode;
      return visibility(chatData, modernMode(mode));
    }
    /**
     * v14: apply a message mode, a key of `CONFIG.ChatMessage.modes`, to message data; without one,
     * the user's `core.messageMode` (https://foundryvtt.com/api/v14/variables/CONFIG.ChatMessage.html,
     * teriock's and draw-steel's v14 calls). v13 has no such method.
     */
    static applyMode(chatData: Dict, mode?: string): Dict {
      return visibility(chatData, mode ?? String(settings.get("core", "messageMode")));
    }

    static getWhisperRecipients(name: string): User[] {
      if (name.toLowerCase() === "gm") return game.users.filter((u) => u.isGM);
      return game.users.filter((u) => u.name === name);
    }
  }
  if (!v14) Reflect.deleteProperty(ChatMessage, "applyMode");
  if (v14)
    Object.defineProperty(ChatMessage.prototype, "applyMode", {
      /**
       * @behaviour v14 `ChatMessage#applyMode(mode)`: the instance form, applying a message mode to
       * the message's own data (the static form's work); v13 has neither.
       * @source draw-steel's v14 `DSRoll#toMessage` (MetaMorphic-Digital/draw-steel src/module/rolls/base.mjs,
       * the version with `PART_TYPE = "roll"`: `const msg = new Cls(messageData); msg.applyMode(messageMode)`),
       * as do the Ryuutama system's `BaseRoll#toMessage` (systems/ryuutama) and Delta Green's
       * `createDGRollChatMessage` (each read through the search index). draw-steel 68856d45 (1.0.0) still calls the v13
       * `core.rollMode` and `ChatMessage.applyRollMode`: it is no source for this.
       */
      value(this: ChatMessage, mode?: string): ChatMessage {
        this.updateSource(visibility({}, mode ?? String(settings.get("core", "messageMode"))));
        return this;
      },
    });
  /**
   * Who sees a message in each mode, in v14's words (v13's `publicroll`, `gmroll`, `blindroll` and
   * `selfroll` are the same modes): public to all, gm and blind whispered to the GMs (blind hides it
   * from its author too), self to its author (https://github.com/foundryvtt/foundryvtt/issues/11442).
   */
  function visibility(chatData: Dict, mode: string): Dict {
    if (mode === "gm" || mode === "blind") chatData.whisper = ChatMessage.getWhisperRecipients("GM").map((u) => u.id);
    else if (mode === "self") chatData.whisper = [t.userId];
    else chatData.whisper = [];
    chatData.blind = mode === "blind";
    return chatData;
  }

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

  const Roll = createRollClass({
    drawDie: (faces) => t.drawDie(faces),
    lookupDie(denomination) {
      const cls = (CONFIG.Dice as { terms?: Record<string, unknown> }).terms?.[denomination];
      if (typeof cls !== "function") return null;
      const faces = (cls as { FACES?: unknown }).FACES;
      return { className: cls.name, faces: typeof faces === "number" && faces > 0 ? faces : 6 };
    },
    rollClassOf(name) {
      const rolls = (CONFIG.Dice as { rolls?: unknown[] }).rolls ?? [];
      return rolls.find((cls) => typeof cls === "function" && cls.name === name);
    },
    warn: (message) => ui.notifications.warn(message),
    /**
     * @behaviour v13 `Roll#toMessage(data, {rollMode})`; v14 `{messageMode}`, the `rollMode` option
     * deprecated with a warning (since 14, until 16), its mode mapped to the new words.
     * @source draw-steel's v14 `DSRoll#toMessage` (src/module/rolls/base.mjs, the version with
     * `PART_TYPE = "roll"`, read through the search index) repeats core's warning word for word
     * ("The rollMode option of Roll#toMessage is deprecated in favor of messageMode, a string value
     * in CONFIG.ChatMessage.modes", `{since: 14, until: 16}`); a public v14 module's notes quote the
     * same warning from core's log. draw-steel 68856d45 does not: its `toMessage` still takes `rollMode`.
     */
    async toMessage(roll, messageData, options, create) {
      const data: Dict = mergeObject<Dict>(
        {
          author: t.userId,
          content: String((roll as RollInstance).total),
          sound: "sounds/dice.wav",
          speaker: ChatMessage.getSpeaker(),
        },
        messageData,
        { inplace: false },
      );
      data.rolls = [roll];
      const key = v14 ? "messageMode" : "rollMode";
      let asked = typeof options[key] === "string" ? options[key] : undefined;
      if (v14 && asked === undefined && typeof options.rollMode === "string") {
        logCompatibilityWarning(
          "The rollMode option of Roll#toMessage is deprecated in favor of messageMode, a string value in CONFIG.ChatMessage.modes",
        );
        asked = modernMode(options.rollMode);
      }
      const mode = asked ?? (typeof data[key] === "string" ? data[key] : String(settings.get("core", key)));
      if (!create) return Object.assign(data, { [key]: mode });
      Reflect.deleteProperty(data, key);
      return ChatMessage.implementation.create(data, { [key]: mode });
    },
  });

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

  // ------------------------------------------------------------------ settings (./realm/settings.ts)
  const { settings, worldSettings, applySetting } = createSettings({ t, v14, logCompatibilityWarning, safe, Hooks });
  settings.register("core", Combat.CONFIG_SETTING, {
    scope: "world",
    default: { resource: "", skipDefeated: false },
    type: Object,
    config: false,
  });

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
      currentUser,
    },
  });

  // ------------------------------------------------------------------ keybindings and audio (./realm/keybindings.ts, ./realm/audio.ts)
  const keybindings = createKeybindings(currentUser);
  const { sounds, AudioHelper } = createAudio();
  // ------------------------------------------------------------------ notifications and globals
  const ui = createUi(i18n, notifications);

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
