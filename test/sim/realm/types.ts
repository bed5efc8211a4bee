/**
 * What the document rooms read from their realm (`RealmBag`) and the types they share. The realm
 * builds its globals (`game`, `CONFIG`, the canvas) and its database operations after the document
 * classes, so those members are read when used, never while the classes are being built.
 */
import type { RefreshRecord } from "../effects.js";
import type { RealmOptions, RealmTransport, SimRealm } from "../runtime.js";
import type { DocumentName, TopLevelName, WorldData } from "../server.js";
import type { Dict, Json } from "../utils.js";
import type { createActorClasses } from "./actors.js";
import type { createApplications } from "./applications.js";
import type { createChat } from "./chat.js";
import type { createCombatClasses } from "./combat.js";
import type { createDocumentBase } from "./documents.js";
import type { SimHooks } from "./hooks.js";
import type { SimI18n } from "./i18n.js";
import type { createUi } from "./notifications.js";
import type { createSettings } from "./settings.js";
import type { createSceneClasses } from "./scenes.js";
import type { createUserClass } from "./users.js";

export type DocumentBase = ReturnType<typeof createDocumentBase>;
export type ClientDocumentClass = DocumentBase["ClientDocument"];
export type ClientDocument = InstanceType<ClientDocumentClass>;
type Scenes = ReturnType<typeof createSceneClasses>;
type Encounters = ReturnType<typeof createCombatClasses>;
export type User = InstanceType<ReturnType<typeof createUserClass>["User"]>;
export type Actor = InstanceType<ReturnType<typeof createActorClasses>["Actor"]>;
export type ActiveEffect = InstanceType<ReturnType<typeof createActorClasses>["ActiveEffect"]>;
export type Scene = InstanceType<Scenes["Scene"]>;
export type Region = InstanceType<Scenes["Region"]>;
export type TokenDocument = InstanceType<Scenes["TokenDocument"]>;
export type Token = InstanceType<Scenes["Token"]>;
export type Combat = InstanceType<Encounters["Combat"]>;
export type Combatant = InstanceType<Encounters["Combatant"]>;
export type CombatantGroup = InstanceType<Encounters["CombatantGroup"]>;
export type ChatMessage = InstanceType<ReturnType<typeof createChat>["ChatMessage"]>;

/** A document's construction context, and the options of a database operation. */
export type Ctx = { parent?: ClientDocument | null };
export type OpOptions = Dict & { parent?: ClientDocument | null };

/** A realm's `foundry.utils.Collection` of values `V` (./documents.ts). */
export interface Collection<V> extends Map<string, V> {
  readonly contents: V[];
  find(fn: (v: V, i: number, c: this) => unknown): V | undefined;
  filter(fn: (v: V, i: number, c: this) => unknown): V[];
  map<T>(fn: (v: V, i: number, c: this) => T): T[];
  some(fn: (v: V, i: number, c: this) => unknown): boolean;
  every(fn: (v: V, i: number, c: this) => unknown): boolean;
  reduce<T>(fn: (acc: T, v: V, i: number) => T, initial: T): T;
  getName(name: string): V | undefined;
  get(key: string, options?: { strict?: boolean }): V | undefined;
}

/** The realm as its document rooms see it. */
export interface RealmBag {
  readonly t: RealmTransport;
  readonly opts: RealmOptions;
  readonly v14: boolean;
  readonly logCompatibilityWarning: (message: string, options?: Dict) => void;
  readonly recordError: (where: string, err: unknown) => void;
  /** Each combatant's prepared initiative (`Combatant#initiative`, written by `_prepareGroup`). */
  readonly preparedInitiative: WeakMap<object, number | null>;
  /** v14: every `ActiveEffect.registry.refresh` call, for the tests (../effects.ts). */
  readonly effectRefreshes: RefreshRecord[];
  readonly Hooks: SimHooks;
  readonly i18n: SimI18n;
  readonly settings: ReturnType<typeof createSettings>["settings"];
  readonly worldSettings: Map<string, Json>;
  readonly ui: ReturnType<typeof createUi>;
  readonly DialogV2: ReturnType<typeof createApplications>["DialogV2"];
  readonly ForcedDeletion: new () => object;
  readonly game: SimRealm["game"];
  readonly CONFIG: SimRealm["CONFIG"];
  readonly canvas: SimRealm["canvas"];
  docClass(name: DocumentName): ClientDocumentClass;
  worldCollection(name: TopLevelName): Collection<ClientDocument>;
  currentUser(): User | null;
  replicaWorld(): WorldData;
  createDocuments(cls: ClientDocumentClass, data: Dict[], options: OpOptions): Promise<ClientDocument[]>;
  updateDocuments(cls: ClientDocumentClass, updates: Dict[], options: OpOptions): Promise<ClientDocument[]>;
  deleteDocuments(cls: ClientDocumentClass, ids: string[], options: OpOptions): Promise<ClientDocument[]>;
}
