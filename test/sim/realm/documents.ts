/**
 * The base of the realm's documents: `Collection` and `ClientDocument` (data, flags, permissions,
 * database operations and the lifecycle methods subclasses override), with a sheet that records its
 * renders.
 */
import { canModify, type DocumentName, type EmbeddedName, type TopLevelName } from "../server.js";
import {
  deepClone,
  diffObject,
  expandObject,
  getProperty,
  isPlainObject,
  mergeObject,
  toJsonObject,
  type Dict,
  type JsonObject,
} from "../utils.js";
import { CONST, LEVELS } from "./constants.js";
import type { RealmBag, User } from "./types.js";

export function createDocumentBase(r: RealmBag) {
  const { v14, ForcedDeletion } = r;
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
        for (const src of list) coll.set(String(src._id), new (r.docClass(name))(src, { parent: this }));
        this._embedded[name] = coll;
      }
      this._initialize();
    }
    static get implementation(): typeof ClientDocument {
      return r.docClass(this.documentName);
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
        : r.worldCollection(this.documentName as TopLevelName);
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
      return this.getUserLevel(r.currentUser());
    }
    get isOwner(): boolean {
      return this.testUserPermission(r.currentUser(), "OWNER");
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
        r.replicaWorld(),
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
      return r.createDocuments(this, data, options);
    }
    static async updateDocuments(updates: Dict[] = [], options: OpOptions = {}): Promise<ClientDocument[]> {
      return r.updateDocuments(this, updates, options);
    }
    static async deleteDocuments(ids: string[] = [], options: OpOptions = {}): Promise<ClientDocument[]> {
      return r.deleteDocuments(this, ids, options);
    }
    async createEmbeddedDocuments(name: string, data: Dict[] = [], options: Dict = {}): Promise<ClientDocument[]> {
      this.getEmbeddedCollection(name);
      return r.docClass(name as DocumentName).createDocuments(data, { ...options, parent: this });
    }
    async updateEmbeddedDocuments(name: string, updates: Dict[] = [], options: Dict = {}): Promise<ClientDocument[]> {
      this.getEmbeddedCollection(name);
      return r.docClass(name as DocumentName).updateDocuments(updates, { ...options, parent: this });
    }
    async deleteEmbeddedDocuments(name: string, ids: string[] = [], options: Dict = {}): Promise<ClientDocument[]> {
      this.getEmbeddedCollection(name);
      return r.docClass(name as DocumentName).deleteDocuments(ids, { ...options, parent: this });
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

  return { Collection, ClientDocument, EMBED_FIELDS };
}
