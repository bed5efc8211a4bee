/**
 * The simulated Foundry server: one authoritative store of documents as plain JSON. It applies
 * create/update/delete operations sent by clients under the user id it attests, enforces Foundry's
 * permission rules, and broadcasts every change, in order, to every connected client, each delivery
 * on a later macrotask so that races happen as they do over a real socket.
 */
import {
  deepClone,
  expandObject,
  isPlainObject,
  macrotask,
  mergeObject,
  prng,
  randomID,
  type Json,
  type JsonObject,
} from "./utils.js";

export type TopLevelName = "User" | "Actor" | "Scene" | "Combat" | "ChatMessage";
export type EmbeddedName = "Combatant" | "CombatantGroup" | "Token" | "ActiveEffect";
export type DocumentName = TopLevelName | EmbeddedName;

/** Where each embedded document lives in its parent's source. */
export const EMBEDDED: Record<EmbeddedName, { parent: TopLevelName; field: string }> = {
  Combatant: { parent: "Combat", field: "combatants" },
  CombatantGroup: { parent: "Combat", field: "groups" },
  Token: { parent: "Scene", field: "tokens" },
  // An actor's effects (https://foundryvtt.com/api/classes/foundry.documents.Actor.html#effects).
  ActiveEffect: { parent: "Actor", field: "effects" },
};
export const COLLECTIONS: Record<TopLevelName, string> = {
  User: "users",
  Actor: "actors",
  Scene: "scenes",
  Combat: "combats",
  ChatMessage: "messages",
};
export function isEmbedded(name: DocumentName): name is EmbeddedName {
  return name in EMBEDDED;
}

/** Ownership levels and roles: https://foundryvtt.com/api/enums/CONST.DOCUMENT_OWNERSHIP_LEVELS.html, .../CONST.USER_ROLES.html */
export const OWNER = 3;
export const ROLES = { NONE: 0, PLAYER: 1, TRUSTED: 2, ASSISTANT: 3, GAMEMASTER: 4 } as const;
export const isGMRole = (role: unknown): boolean => typeof role === "number" && role >= ROLES.ASSISTANT;

export interface WorldData {
  users: JsonObject[];
  actors: JsonObject[];
  scenes: JsonObject[];
  combats: JsonObject[];
  messages: JsonObject[];
  settings: Record<string, Json>;
  /** User-scope settings, by user id then key (see `SimServer.applySetting`). */
  userSettings?: Record<string, Record<string, Json>>;
}

export interface DocOperation {
  action: "create" | "update" | "delete";
  documentName: DocumentName;
  parentId: string | null;
  data?: JsonObject[];
  updates?: JsonObject[];
  ids?: string[];
  options: JsonObject;
}
/** A setting's change: a world setting, or (`scope: "user"`) the requesting user's own. */
export interface SettingRequest {
  action: "setting";
  key: string;
  value: Json;
  scope?: "user";
}
export type ClientRequest = DocOperation | SettingRequest | BatchRequest;

/**
 * @behaviour v14's `foundry.documents.modifyBatch` on the server: several operations in one request,
 * applied one after another with no round trip between them, all or nothing (when one fails, the
 * world is left as it was). Each operation reaches every client as an ordinary one, with its own
 * hooks; the sim sends them in one message.
 * @source https://foundryvtt.com/api/functions/foundry.documents.modifyBatch.html (the v14 API page:
 * in sequence without network delay; one cancellation or error cancels the whole batch);
 * https://github.com/foundryvtt/foundryvtt/issues/14174 (a batch's modifications are broadcast to the
 * other clients).
 */
export interface BatchRequest {
  action: "batch";
  operations: DocOperation[];
}

export type ServerMessage =
  | ({ type: "broadcast"; requestId: string | null; userId: string } & DocOperation)
  | { type: "setting"; requestId: string | null; userId: string; key: string; value: Json; user?: string }
  | { type: "batch"; requestId: string | null; userId: string; operations: BroadcastMessage[] }
  | { type: "reject"; requestId: string; error: string }
  | { type: "query"; queryId: string; name: string; data: Json }
  | { type: "queryResult"; queryId: string; ok: boolean; result: Json; error: string }
  | { type: "socket"; event: string; data: Json; userId: string };

/**
 * The id of this user's own request that a message answers (a document operation, a setting or a
 * batch the server applied), or null. Every transport (test/sim/client.ts, playground/realm.ts)
 * settles its pending requests by this one rule, so a new kind of answer reaches them all.
 */
export function answeredRequest(msg: ServerMessage, userId: string): string | null {
  if (msg.type !== "broadcast" && msg.type !== "setting" && msg.type !== "batch") return null;
  return msg.requestId !== null && msg.requestId !== "" && msg.userId === userId ? msg.requestId : null;
}

export interface OpRecord {
  userId: string;
  action: string;
  documentName: string;
  writes: number;
  requestBytes: number;
  broadcastBytes: number;
  refused: boolean;
}

const DEFAULTS: Record<DocumentName, () => JsonObject> = {
  User: () => ({ name: "", role: ROLES.PLAYER, active: false, flags: {} }),
  Actor: () => ({ name: "", type: "character", ownership: { default: 0 }, system: {}, effects: [], flags: {} }),
  // https://foundryvtt.com/api/interfaces/foundry.documents.types.ActiveEffectData.html (the fields the sim reads)
  ActiveEffect: () => ({
    name: "",
    img: null,
    changes: [],
    disabled: false,
    duration: {},
    origin: null,
    statuses: [],
    system: {},
    flags: {},
  }),
  Scene: () => ({ name: "", active: false, tokens: [], flags: {} }),
  Token: () => ({ name: "", actorId: null, disposition: -1, hidden: false, flags: {} }),
  // Field list: https://foundryvtt.com/api/interfaces/foundry.documents.types.CombatData.html
  Combat: () => ({
    round: 0,
    turn: null,
    active: false,
    scene: null,
    sort: 0,
    combatants: [],
    groups: [],
    system: {},
    flags: {},
  }),
  // https://foundryvtt.com/api/interfaces/foundry.documents.types.CombatantData.html
  Combatant: () => ({
    name: "",
    img: null,
    actorId: null,
    tokenId: null,
    sceneId: null,
    initiative: null,
    hidden: false,
    defeated: false,
    group: null,
    system: {},
    flags: {},
  }),
  // https://foundryvtt.com/api/interfaces/foundry.documents.types.CombatantGroupData.html (v13 and
  // v14 alike: https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.CombatantGroupData.html)
  CombatantGroup: () => ({
    name: "",
    img: null,
    type: "base",
    initiative: null,
    ownership: { default: 0 },
    system: {},
    flags: {},
  }),
  ChatMessage: () => ({
    author: null,
    content: "",
    flavor: "",
    speaker: {},
    rolls: [],
    whisper: [],
    blind: false,
    sound: null,
    flags: {},
  }),
};

/** One document operation as every client receives it. */
export type BroadcastMessage = Extract<ServerMessage, { type: "broadcast" }>;

type Listener = (msg: ServerMessage) => void;
interface Connection {
  userId: string;
  queue: ServerMessage[];
  listener: Listener;
  pumping: boolean;
}

export interface ServerOptions {
  users: JsonObject[];
  actors?: JsonObject[];
  scenes?: JsonObject[];
  combats?: JsonObject[];
  settings?: Record<string, Json>;
  seed?: number;
}

export class Dice {
  private queue: number[] = [];
  private random: () => number;
  constructor(seed: number) {
    this.random = prng(seed);
  }
  /** Queue exact die results; they are consumed before the seeded PRNG is used. */
  push(...results: number[]): void {
    this.queue.push(...results);
  }
  get pending(): number {
    return this.queue.length;
  }
  clear(): void {
    this.queue.length = 0;
  }
  next(faces: number): number {
    return this.queue.shift() ?? 1 + Math.floor(this.random() * faces);
  }
}

export class SimServer {
  readonly world: WorldData;
  readonly dice: Dice;
  readonly ops: OpRecord[] = [];
  private readonly connections = new Map<string, Connection>();
  private readonly inbound: Array<() => void> = [];
  private processing = false;
  private timestamp = 0;
  private readonly pendingQueries = new Map<string, string>();

  constructor(opts: ServerOptions) {
    const seed = opts.seed ?? 1;
    this.dice = new Dice(seed);
    const prep = (name: DocumentName, list: JsonObject[] = []): JsonObject[] =>
      list.map((d) => this.withDefaults(name, d));
    this.world = {
      users: prep("User", opts.users).map((u) => ({ ...u, active: false })),
      actors: prep("Actor", opts.actors),
      scenes: prep("Scene", opts.scenes),
      combats: prep("Combat", opts.combats),
      messages: [],
      settings: deepClone(opts.settings ?? {}),
    };
  }

  // ---------------------------------------------------------------- counters
  get stats(): { writes: number; requestBytes: number; broadcastBytes: number; refused: number } {
    const s = { writes: 0, requestBytes: 0, broadcastBytes: 0, refused: 0 };
    for (const r of this.ops) {
      s.writes += r.writes;
      s.requestBytes += r.requestBytes;
      s.broadcastBytes += r.broadcastBytes;
      s.refused += r.refused ? 1 : 0;
    }
    return s;
  }
  resetStats(): void {
    this.ops.length = 0;
  }

  // ---------------------------------------------------------------- connections
  snapshot(): WorldData {
    return deepClone(this.world);
  }
  user(id: string): JsonObject | undefined {
    return this.world.users.find((u) => u._id === id);
  }
  isConnected(userId: string): boolean {
    return this.connections.has(userId);
  }

  connect(userId: string, listener: Listener): void {
    const user = this.user(userId);
    if (!user) throw new Error(`Unknown user ${userId}`);
    if (this.connections.has(userId)) throw new Error(`User ${userId} is already connected`);
    this.connections.set(userId, { userId, queue: [], listener, pumping: false });
    this.setActive(userId, true);
  }

  disconnect(userId: string): void {
    if (!this.connections.delete(userId)) return;
    this.setActive(userId, false);
  }

  /** A User document update {active} so `game.users.activeGM` follows logins (https://foundryvtt.com/api/classes/foundry.documents.User.html#active). */
  private setActive(userId: string, active: boolean): void {
    const user = this.user(userId);
    if (!user) return;
    user.active = active;
    this.broadcast({
      type: "broadcast",
      requestId: null,
      userId,
      action: "update",
      documentName: "User",
      parentId: null,
      updates: [{ _id: userId, active }],
      options: {},
    });
  }

  /** True while any request or delivery is still queued. */
  get busy(): boolean {
    if (this.processing || this.inbound.length) return true;
    for (const c of this.connections.values()) if (c.queue.length || c.pumping) return true;
    return false;
  }

  async settle(maxTicks = 20000): Promise<void> {
    let idle = 0;
    for (let i = 0; i < maxTicks; i++) {
      await new Promise<void>((r) => {
        macrotask(r);
      });
      idle = this.busy ? 0 : idle + 1;
      if (idle >= 4) return;
    }
    throw new Error("Simulated Foundry did not settle");
  }

  private send(userId: string, msg: ServerMessage): void {
    const c = this.connections.get(userId);
    if (!c) return;
    c.queue.push(msg);
    if (!c.pumping) this.pump(c);
  }

  /** One delivery per macrotask per client, in server order. */
  private pump(c: Connection): void {
    c.pumping = true;
    macrotask(() => {
      const msg = c.queue.shift();
      if (msg && this.connections.get(c.userId) === c) {
        try {
          c.listener(msg);
        } catch (err) {
          console.error("[sim] client failed to handle a message", err);
        }
      }
      if (c.queue.length && this.connections.get(c.userId) === c) this.pump(c);
      else c.pumping = false;
    });
  }

  private broadcast(msg: ServerMessage): number {
    const bytes = JSON.stringify(msg).length;
    for (const id of this.connections.keys()) this.send(id, msg);
    return bytes;
  }

  private enqueue(fn: () => void): void {
    this.inbound.push(fn);
    if (this.processing) return;
    this.processing = true;
    const step = (): void => {
      const next = this.inbound.shift();
      if (!next) {
        this.processing = false;
        return;
      }
      next();
      macrotask(step);
    };
    macrotask(step);
  }

  // ---------------------------------------------------------------- requests
  /** A client's request; `userId` is the id the real server attests from the socket session. */
  request(userId: string, requestId: string, req: ClientRequest): void {
    const payload = JSON.stringify(req);
    this.enqueue(() => {
      const rec: OpRecord = {
        userId,
        action: req.action,
        documentName:
          req.action === "setting"
            ? "Setting"
            : req.action === "batch"
              ? (req.operations[0]?.documentName ?? "Batch")
              : req.documentName,
        writes: 0,
        requestBytes: payload.length,
        broadcastBytes: 0,
        refused: false,
      };
      this.ops.push(rec);
      try {
        if (req.action === "batch") {
          const batch = this.applyBatch(userId, req.operations);
          batch.requestId = requestId;
          rec.writes = 1;
          for (const op of batch.operations) {
            const time = this.advanceTime(op, userId);
            if (time !== null) rec.broadcastBytes += this.broadcast(time);
          }
          rec.broadcastBytes += this.broadcast(batch);
          return;
        }
        const msg = req.action === "setting" ? this.applySetting(userId, req) : this.apply(userId, req);
        msg.requestId = requestId;
        rec.writes = 1;
        const time = this.advanceTime(msg, userId);
        if (time !== null) rec.broadcastBytes += this.broadcast(time);
        rec.broadcastBytes += this.broadcast(msg);
      } catch (err) {
        rec.refused = true;
        this.send(userId, { type: "reject", requestId, error: err instanceof Error ? err.message : String(err) });
      }
    });
  }

  /**
   * A Combat or Token update with the operation option `worldTime: {delta}` advances the world time
   * (https://github.com/foundryvtt/foundryvtt/issues/10924), stored as the world setting `core.time`;
   * the new time is emitted before the update, so `_onUpdate` already reads it
   * (https://github.com/foundryvtt/foundryvtt/issues/11619).
   */
  private advanceTime(msg: ServerMessage, userId: string): ServerMessage | null {
    if (msg.type !== "broadcast" || msg.action !== "update") return null;
    if (msg.documentName !== "Combat" && msg.documentName !== "Token") return null;
    const worldTime = msg.options.worldTime;
    const delta = isPlainObject(worldTime) ? worldTime.delta : undefined;
    if (typeof delta !== "number" || !Number.isFinite(delta) || delta === 0) return null;
    const now = typeof this.world.settings["core.time"] === "number" ? this.world.settings["core.time"] : 0;
    this.world.settings["core.time"] = now + delta;
    return { type: "setting", requestId: null, userId, key: "core.time", value: now + delta };
  }

  /**
   * Apply a batch's operations in sequence (`BatchRequest`); when one is refused, the world is put
   * back as it was before the batch and the whole batch is refused.
   */
  private applyBatch(userId: string, operations: DocOperation[]): Extract<ServerMessage, { type: "batch" }> {
    const before = deepClone(this.world);
    try {
      const applied = operations.map((op) => this.apply(userId, op));
      return { type: "batch", requestId: null, userId, operations: applied };
    } catch (err) {
      Object.assign(this.world, before);
      throw err;
    }
  }

  /**
   * World settings are writable by a GM only (https://foundryvtt.com/api/classes/foundry.helpers.ClientSettings.html).
   * @behaviour A user-scope setting (v13 and v14) is stored on the server for the user who sets it,
   * whatever their role, so it follows them to every client they log in from; it changes nothing
   * for any other user (their clients ignore the message, `user` names whose it is).
   * @source https://foundryvtt.com/api/interfaces/foundry.types.SettingConfig.html and
   * https://foundryvtt.com/api/v14/interfaces/foundry.types.SettingConfig.html (`scope: "world" |
   * "client" | "user"`, "stored in either World, Client, or User"); https://foundryvtt.com/api/v14/variables/CONST.SETTING_SCOPES.html;
   * https://github.com/League-of-Fabulous-Developers/FoundryVTT-Fabula-Ultima/pull/622 (v13 introduced
   * the user scope: per user rather than per device); https://github.com/foundryvtt/foundryvtt/issues/4804
   * (the request it answers: stored on the server, a player changes their own, every client of theirs has it).
   */
  private applySetting(userId: string, req: SettingRequest): ServerMessage & { requestId: string | null } {
    const { key, value } = req;
    const user = this.user(userId);
    if (req.scope === "user") {
      const own = (this.world.userSettings ??= {});
      own[userId] = { ...own[userId], [key]: deepClone(value) };
      return { type: "setting", requestId: null, userId, key, value: deepClone(value), user: userId };
    }
    if (!isGMRole(user?.role))
      throw new Error(`User ${String(user?.name)} lacks permission to update Setting [${key}]`);
    this.world.settings[key] = deepClone(value);
    return { type: "setting", requestId: null, userId, key, value: deepClone(value) };
  }

  private collection(name: TopLevelName): JsonObject[] {
    return this.world[COLLECTIONS[name] as "users"];
  }

  /** A document's source with its defaults, and those of the embedded documents it holds. */
  private withDefaults(name: DocumentName, data: JsonObject): JsonObject {
    const doc = mergeObject(DEFAULTS[name](), deepClone(data));
    if (typeof doc._id !== "string") doc._id = randomID();
    for (const [child, where] of Object.entries(EMBEDDED) as Array<[EmbeddedName, (typeof EMBEDDED)[EmbeddedName]]>) {
      const list = doc[where.field];
      if (where.parent === name && Array.isArray(list))
        doc[where.field] = list.map((c) => this.withDefaults(child, isPlainObject(c) ? c : {}));
    }
    return doc;
  }

  private apply(userId: string, op: DocOperation): BroadcastMessage {
    const user = this.user(userId);
    if (!user) throw new Error("Unknown user");
    const name = op.documentName;
    let list: JsonObject[];
    let parent: JsonObject | null = null;
    if (isEmbedded(name)) {
      const where = EMBEDDED[name];
      parent = this.collection(where.parent).find((d) => d._id === op.parentId) ?? null;
      if (!parent) throw new Error(`${where.parent} [${String(op.parentId)}] does not exist`);
      const field = parent[where.field];
      if (!Array.isArray(field)) throw new Error("Corrupt parent");
      list = field as JsonObject[];
    } else list = this.collection(name);
    const deny = (id: unknown): never => {
      throw new Error(`User ${String(user.name)} lacks permission to ${op.action} ${name} [${String(id)}]`);
    };
    const base = {
      type: "broadcast" as const,
      requestId: null,
      userId,
      documentName: name,
      parentId: op.parentId,
      options: op.options,
    };

    if (op.action === "create") {
      const created = (op.data ?? []).map((d) => {
        const src = deepClone(d);
        if (!(op.options.keepId === true && typeof src._id === "string")) delete src._id;
        if (name === "ChatMessage" && src.author == null) src.author = userId;
        if (name === "ChatMessage") src.timestamp = ++this.timestamp;
        const doc = this.withDefaults(name, src);
        if (list.some((x) => x._id === doc._id)) throw new Error(`${name} [${String(doc._id)}] already exists`);
        if (!canModify(this.world, user, "create", name, parent, doc, doc)) deny(doc._id);
        return doc;
      });
      list.push(...created);
      return { ...base, action: "create", data: deepClone(created) };
    }

    if (op.action === "update") {
      const diffs = (op.updates ?? []).map((u) => expandObject(u) as JsonObject);
      for (const diff of diffs) {
        const target = list.find((d) => d._id === diff._id);
        if (!target) throw new Error(`${name} [${String(diff._id)}] does not exist`);
        if (!canModify(this.world, user, "update", name, parent, target, diff)) deny(diff._id);
        if (!isEmbedded(name)) this.mergeEmbedded(name, target, diff, true);
      }
      // v13 keeps the acting combatant current when the order changes (operation.combatTurn):
      // https://github.com/foundryvtt/foundryvtt/issues/12990
      const combatTurn = op.options.combatTurn;
      if (parent && name === "Combatant" && typeof combatTurn === "number") parent.turn = combatTurn;
      for (const diff of diffs) {
        const target = list.find((d) => d._id === diff._id);
        if (!target) continue;
        const rest = isEmbedded(name) ? diff : this.mergeEmbedded(name, target, diff);
        mergeObject(target, rest, { performDeletions: true, recursive: op.options.recursive !== false });
      }
      return { ...base, action: "update", updates: deepClone(diffs) };
    }

    const ids = op.ids ?? [];
    for (const id of ids) {
      const target = list.find((d) => d._id === id);
      if (!target) throw new Error(`${name} [${id}] does not exist`);
      if (!canModify(this.world, user, "delete", name, parent, target, {})) deny(id);
    }
    const combatTurn = op.options.combatTurn;
    if (parent && name === "Combatant" && typeof combatTurn === "number") parent.turn = combatTurn;
    for (const id of ids)
      list.splice(
        list.findIndex((d) => d._id === id),
        1,
      );
    return { ...base, action: "delete", ids: [...ids] };
  }

  /**
   * A parent's update may carry changes to its embedded documents as an array of partial sources
   * (`combat.update({combatants: [{_id, initiative}]})`): each is merged into the embedded document
   * with that id, the others are left alone ("passing items inline with update just adds/updates the
   * documents specified", https://github.com/foundryvtt/foundryvtt/issues/8351; a GM may update a
   * Combat's combatants this way, a player may not, https://github.com/foundryvtt/foundryvtt/issues/10501;
   * the SR5 system's v13 `SR5Combat` sets `turn` and `combatants` in one update,
   * https://github.com/SR5-FoundryVTT/SR5-FoundryVTT/blob/master/src/module/combat/SR5Combat.ts).
   * Returns the rest of the diff. Adding documents this way is not emulated (the module does not).
   */
  private mergeEmbedded(name: DocumentName, target: JsonObject, diff: JsonObject, check = false): JsonObject {
    const rest: JsonObject = { ...diff };
    for (const where of Object.values(EMBEDDED)) {
      const changes = diff[where.field];
      if (where.parent !== name || !Array.isArray(changes)) continue;
      Reflect.deleteProperty(rest, where.field);
      const list = target[where.field] as JsonObject[];
      for (const change of changes) {
        const child = isPlainObject(change) ? list.find((c) => c._id === change._id) : undefined;
        if (!child || !isPlainObject(change))
          throw new Error(`The sim does not emulate creating embedded ${where.field} through ${name}#update`);
        if (!check) mergeObject(child, change, { performDeletions: true });
      }
    }
    return rest;
  }

  // ---------------------------------------------------------------- queries and socket
  /**
   * v13 `User#query` (https://github.com/foundryvtt/foundryvtt/issues/11235): routed to the target
   * user's client, whose `CONFIG.queries[name]` handler answers. The handler is not told the sender.
   */
  query(fromId: string, targetId: string, queryId: string, name: string, data: Json): void {
    const bytes = JSON.stringify(data).length;
    this.enqueue(() => {
      const sender = this.user(fromId);
      // "The querying user needs the `QUERY_USER` permission to be able to send a query" (#11235).
      const allowed = hasPermission(this.world, sender, "QUERY_USER");
      this.ops.push({
        userId: fromId,
        action: "query",
        documentName: name,
        writes: 0,
        requestBytes: bytes,
        broadcastBytes: 0,
        refused: !allowed,
      });
      if (!allowed) {
        this.send(fromId, {
          type: "queryResult",
          queryId,
          ok: false,
          result: null,
          error: `User ${String(sender?.name)} lacks permission to query users (QUERY_USER)`,
        });
        return;
      }
      if (!this.connections.has(targetId)) {
        this.send(fromId, {
          type: "queryResult",
          queryId,
          ok: false,
          result: null,
          error: `User [${targetId}] is not connected`,
        });
        return;
      }
      this.pendingQueries.set(queryId, fromId);
      this.send(targetId, { type: "query", queryId, name, data });
    });
  }

  queryResponse(queryId: string, ok: boolean, result: Json, error: string): void {
    this.enqueue(() => {
      const from = this.pendingQueries.get(queryId);
      if (from === undefined) return;
      this.pendingQueries.delete(queryId);
      this.send(from, { type: "queryResult", queryId, ok, result, error });
    });
  }

  /** `game.socket.emit`: relayed to every other connected client, not echoed to the sender. */
  socket(fromId: string, event: string, data: Json): void {
    this.enqueue(() => {
      for (const id of this.connections.keys())
        if (id !== fromId) this.send(id, { type: "socket", event, data, userId: fromId });
    });
  }
}

/**
 * The role from which each user permission the sim checks is granted by default. `QUERY_USER`: the
 * permission a query's sender needs (https://github.com/foundryvtt/foundryvtt/issues/11235); its
 * default role is not in the public sources found, so the sim takes the stricter reading: GMs
 * (Assistant and Gamemaster) only, never players.
 */
export const DEFAULT_PERMISSION_ROLES: Readonly<Record<string, number>> = { QUERY_USER: ROLES.ASSISTANT };

/**
 * Whether a user's role has a user permission (https://foundryvtt.com/article/users/, "Role
 * Permissions"; https://foundryvtt.com/api/v14/variables/CONST.USER_PERMISSIONS.html). A Gamemaster
 * has every permission. The roles a GM configured are the sim's world setting `core.permissions`
 * (`{QUERY_USER: [roles…]}`); unconfigured, `DEFAULT_PERMISSION_ROLES` decides.
 */
export function hasPermission(world: WorldData, user: JsonObject | undefined, permission: string): boolean {
  const role = typeof user?.role === "number" ? user.role : ROLES.NONE;
  if (role >= ROLES.GAMEMASTER) return true;
  const configured = world.settings["core.permissions"];
  const roles = isPlainObject(configured) ? configured[permission] : undefined;
  if (Array.isArray(roles)) return roles.includes(role);
  const from = DEFAULT_PERMISSION_ROLES[permission];
  return from !== undefined && role >= from;
}

/**
 * The ownership level a user has on an actor, or on any document with an `ownership` object (a
 * CombatantGroup's): explicit entry, else `default`. GMs are owners of everything.
 */
export function actorLevel(actor: JsonObject | undefined, user: JsonObject): number {
  if (isGMRole(user.role)) return OWNER;
  const own = actor?.ownership;
  if (!isPlainObject(own)) return 0;
  const explicit = own[String(user._id)];
  if (typeof explicit === "number" && explicit >= 0) return explicit;
  return typeof own.default === "number" ? own.default : 0;
}

/**
 * The keys a player may write on a Combatant whose actor they own. Where a public source decides a
 * key, it is named; every other key (`name`, `img`, `hidden`, `defeated`, `group`, `actorId`,
 * `tokenId`, `sceneId`, `type`) is refused: no public source found says a player may write it, so the
 * sim takes the stricter reading.
 * - `initiative`: "`BaseCombatant#canUpdate` ... `initiative` is an allowed key"
 *   (https://github.com/foundryvtt/foundryvtt/issues/10501);
 * - `flags`: players' own combatant flags are what systems fall back on when `system` was refused in
 *   v12 (https://github.com/the-metalworks/cosmere-rpg/pull/391; pf2e sets its `initiativeStatistic`
 *   flag from a player's own initiative roll, https://github.com/foundryvtt/pf2e/pull/7043);
 * - `system`: "now that you can update the system properties of owned combatants" (v13,
 *   https://github.com/MetaMorphic-Digital/draw-steel/pull/254);
 * - `type` is not one of the permitted keys (https://github.com/foundryvtt/foundryvtt/issues/12386).
 */
export const PLAYER_COMBATANT_KEYS: ReadonlySet<string> = new Set(["_id", "initiative", "flags", "system"]);

/**
 * The keys a player may write on a CombatantGroup they own (v13.340 gave groups `ownership`:
 * https://github.com/foundryvtt/foundryvtt/issues/12442, https://github.com/MetaMorphic-Digital/draw-steel/issues/354).
 * Which keys is nowhere said; the sim takes the stricter reading: the ones a player may write on a
 * combatant, never `ownership`, `name`, `img` or `type`.
 */
export const PLAYER_GROUP_KEYS: ReadonlySet<string> = PLAYER_COMBATANT_KEYS;

/**
 * Foundry's permission rules as the module relies on them:
 * - a GM may do anything;
 * - a player may update a Combat's `round` and `turn` only, never flags, system data or its
 *   `combatants` (https://github.com/SR5-FoundryVTT/SR5-FoundryVTT/pull/1988,
 *    https://github.com/Nimble-Co/FoundryVTT-Nimble/pull/853,
 *    https://github.com/fvtt-fria-ligan/yearzero-combat-fvtt/pull/85; the `combatants` array:
 *    https://github.com/foundryvtt/foundryvtt/issues/10501, closed without a documented change, so
 *    the sim keeps refusing it);
 * - a player may update a Combatant whose actor they own (OWNER = 3), only the keys in
 *   `PLAYER_COMBATANT_KEYS` (https://github.com/foundryvtt/foundryvtt/issues/10501,
 *   https://github.com/Aliharu/Foundry-Ex3/issues/17);
 * - a player may create and delete a Combatant whose actor they own: "players can add their own
 *   characters to the encounter by clicking this button [Toggle Combat State] on their tokens"
 *   (https://foundryvtt.com/article/combat/), the same toggle removing them;
 * - a CombatantGroup: a player who owns it (its `ownership`, as an actor's) may update the keys in
 *   `PLAYER_GROUP_KEYS`; creating and deleting groups is the GM's (nothing public says otherwise);
 * - Scenes, Tokens, Users: GM only here; Actors: owners may update;
 * - an actor's ActiveEffects: its owners may create, update and delete them (an embedded document's
 *   permission follows its parent's: https://foundryvtt.com/api/classes/foundry.documents.ActiveEffect.html,
 *   https://foundryvtt.com/api/classes/foundry.abstract.Document.html#canUserModify);
 * - chat messages: anyone may create as themselves; author or GM may update/delete. The author is
 *   the server's to attest: only a GM or Assistant GM may set it to someone else ("The "author" field
 *   may only be modified by a GM or Assistant GM user", the server's refusal quoted in
 *   https://github.com/moo-man/WFRP4e-FoundryVTT/issues/2846); a message's `flags` are "optional
 *   key/value flags" like any document's, its `whisper` the users it is whispered to and `blind`
 *   hides it from its creator (https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.ChatMessageData.html).
 */
export function canModify(
  world: WorldData,
  user: JsonObject,
  action: "create" | "update" | "delete",
  name: DocumentName,
  parent: JsonObject | null,
  target: JsonObject,
  changes: JsonObject,
): boolean {
  if (isGMRole(user.role)) return true;
  const actor = (id: unknown): JsonObject | undefined => world.actors.find((a) => a._id === id);
  switch (name) {
    case "Combat":
      return action === "update" && Object.keys(changes).every((k) => k === "_id" || k === "round" || k === "turn");
    case "Combatant": {
      if (parent === null || actorLevel(actor(target.actorId), user) < OWNER) return false;
      return action !== "update" || Object.keys(changes).every((k) => PLAYER_COMBATANT_KEYS.has(k));
    }
    case "CombatantGroup":
      return (
        parent !== null &&
        action === "update" &&
        actorLevel(target, user) >= OWNER &&
        Object.keys(changes).every((k) => PLAYER_GROUP_KEYS.has(k))
      );
    case "ChatMessage":
      return action === "create" ? target.author === user._id : target.author === user._id;
    case "Actor":
      return action === "update" && actorLevel(target, user) >= OWNER;
    case "ActiveEffect":
      return parent !== null && actorLevel(parent, user) >= OWNER;
    default:
      return false;
  }
}
