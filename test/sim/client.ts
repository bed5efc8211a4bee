/**
 * One simulated Foundry client: a user's browser tab. Each runs in its own `node:vm` realm with its
 * own globals and a local replica of the world kept in sync from the server's broadcasts; the
 * module's built bundle runs in it as a classic script.
 */
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import type { ManualClock } from "./clock.js";
import { createRealm, type Notification, type SimGeneration, type SimRealm } from "./runtime.js";
import { answeredRequest, type ClientRequest, type ServerMessage, type SimServer } from "./server.js";
import type { Dict, Json } from "./utils.js";

export interface SimClientOptions {
  server: SimServer;
  userId: string;
  /** Compiled bundle (shared by all clients) or null for none. */
  script: vm.Script | null;
  translations: Dict;
  modules: string[];
  system?: { id: string; title: string; initiative: string };
  /** Runs in the realm before the bundle (install a stand-in game system here). */
  systemSetup?: (realm: Dict) => void;
  /** Directory that template paths resolve against (after stripping `modules/<id>/`). */
  templateRoot?: string;
  renderTemplates?: boolean;
  /** Core dispatches turn events when the combatant changes at the same turn index (see `CreateSimOptions`). */
  turnEventsOnCombatantChange?: boolean;
  /** The realm's time (`Date.now` and timers) when set; the host's wall clock otherwise. */
  clock?: ManualClock;
  /** The Foundry generation the realm emulates (default 13). */
  generation?: SimGeneration;
  /** The user's language code (`game.i18n.lang`, default "en"); `translations` are that language's. */
  lang?: string;
}

const scriptCache = new Map<string, { mtimeMs: number; script: vm.Script }>();
/** Compile a classic-script bundle once per file version; every realm runs the same compiled script. */
export function compileBundle(file: string): vm.Script {
  const stat = fs.statSync(file);
  const hit = scriptCache.get(file);
  if (hit && hit.mtimeMs === stat.mtimeMs) return hit.script;
  const script = new vm.Script(fs.readFileSync(file, "utf8"), { filename: file });
  scriptCache.set(file, { mtimeMs: stat.mtimeMs, script });
  return script;
}

let seq = 0;

export class SimClient {
  readonly server: SimServer;
  readonly userId: string;
  /** Client-scope settings survive reloads, like a browser's localStorage. */
  readonly clientStorage = new Map<string, Json>();
  realm!: Dict;
  private context!: vm.Context;
  api!: SimRealm;
  private buffer: ServerMessage[] | null = null;
  private readonly pending = new Map<string, { resolve: (m: ServerMessage) => void; reject: (e: Error) => void }>();
  private readonly queries = new Map<
    string,
    { resolve: (v: unknown) => void; reject: (e: Error) => void; timer?: ReturnType<typeof setTimeout> }
  >();
  private generation = 0;

  private constructor(private readonly opts: SimClientOptions) {
    this.server = opts.server;
    this.userId = opts.userId;
  }

  static async start(opts: SimClientOptions): Promise<SimClient> {
    const c = new SimClient(opts);
    await c.boot();
    return c;
  }

  // typed views of the realm's globals
  get game(): SimRealm["game"] {
    return this.api.game;
  }
  get CONFIG(): SimRealm["CONFIG"] {
    return this.api.CONFIG;
  }
  get Hooks(): SimRealm["Hooks"] {
    return this.api.Hooks;
  }
  get ui(): SimRealm["ui"] {
    return this.api.ui;
  }
  get notifications(): Notification[] {
    return this.api.notifications;
  }
  get errors(): unknown[] {
    return this.api.errors;
  }
  /** Deprecation warnings the realm's Foundry logged (`foundry.utils.logCompatibilityWarning`). */
  get compatWarnings(): string[] {
    return this.api.compatWarnings;
  }
  get hookLog(): SimRealm["hookLog"] {
    return this.api.hookLog;
  }
  get connected(): boolean {
    return this.server.isConnected(this.userId);
  }
  /** Evaluate code in the realm (e.g. to read a module's globals). */
  eval(code: string): unknown {
    return vm.runInContext(code, this.context);
  }

  /** Close the tab: the user goes inactive; pending requests of this tab reject. */
  disconnect(): void {
    this.server.disconnect(this.userId);
    this.generation++;
    const err = new Error("Disconnected");
    for (const p of this.pending.values()) p.reject(err);
    for (const q of this.queries.values()) q.reject(err);
    this.pending.clear();
    this.queries.clear();
  }

  /** F5: a fresh realm, a fresh replica from the server, the bundle re-run. */
  async reload(): Promise<void> {
    this.disconnect();
    await this.boot();
  }

  /** The sounds this client was asked to play (`foundry.audio.AudioHelper.play`). */
  get sounds(): SimRealm["sounds"] {
    return this.api.sounds;
  }

  /**
   * Press a registered key: the module's keybinding action's `onDown`, as a key down on one of its
   * bindings runs it (a restricted action only for a GM). Resolves once the sim has settled.
   */
  async pressKey(action: string, namespace = "structured-initiative"): Promise<unknown> {
    const consumed = this.api.game.keybindings.press(namespace, action);
    await this.server.settle();
    return consumed;
  }

  /** Run a tracker action as a click on `[data-action=name]` would (ApplicationV2 `actions`). */
  async runAction(name: string, dataset: Dict = {}): Promise<void> {
    const app = this.api.ui.combat as { options?: { actions?: Dict } } | null;
    const action = app?.options?.actions?.[name];
    const fn = typeof action === "function" ? action : (action as { handler?: unknown } | undefined)?.handler;
    if (typeof fn !== "function") throw new Error(`No tracker action "${name}"`);
    // The handler gets the element that carries `data-action` (so its dataset names the action).
    const target = { dataset: { action: name, ...dataset }, closest: () => target };
    await (fn as (this: unknown, e: unknown, t: unknown) => unknown).call(
      app,
      { type: "click", preventDefault() {}, stopPropagation() {} },
      target,
    );
  }

  private async boot(): Promise<void> {
    const gen = ++this.generation;
    const ctx = vm.createContext({
      console,
      setTimeout,
      clearTimeout,
      setInterval,
      clearInterval,
      queueMicrotask,
      structuredClone,
      TextEncoder,
      TextDecoder,
      URL,
    });
    const global = vm.runInContext("globalThis", ctx) as Dict;
    global.window = global;
    global.self = global;
    this.opts.clock?.install(global);
    this.realm = global;
    this.context = ctx;
    const realmJSON = global.JSON as JSON;
    const RealmError = global.Error as ErrorConstructor;
    const copy = <T>(v: T): T => realmJSON.parse(JSON.stringify(v)) as T;
    this.copy = copy;
    this.makeError = (m) => new RealmError(m);
    const { server, userId } = this;
    const root = this.opts.templateRoot ?? process.cwd();

    this.api = createRealm(
      global,
      {
        userId,
        clientStorage: this.clientStorage,
        submit: (req: ClientRequest) =>
          new Promise<ServerMessage>((resolve, reject) => {
            if (!server.isConnected(userId)) {
              reject(new RealmError("Not connected to the server"));
              return;
            }
            const id = `${userId}:${++seq}`;
            this.pending.set(id, { resolve, reject });
            server.request(userId, id, JSON.parse(JSON.stringify(req)) as ClientRequest);
          }),
        drawDie: (faces) => server.dice.next(faces),
        query: (targetId, name, data, timeout) =>
          new Promise<unknown>((resolve, reject) => {
            const id = `${userId}:q${++seq}`;
            const entry: {
              resolve: (v: unknown) => void;
              reject: (e: Error) => void;
              timer?: ReturnType<typeof setTimeout>;
            } = { resolve, reject };
            if (timeout !== undefined) {
              entry.timer = setTimeout(() => {
                this.queries.delete(id);
                reject(new RealmError(`Query "${name}" timed out after ${timeout}ms`));
              }, timeout);
            }
            this.queries.set(id, entry);
            server.query(userId, targetId, id, name, data);
          }),
        queryResponse: (queryId, ok, result, error) => {
          server.queryResponse(queryId, ok, result, error);
        },
        socketEmit: (event, data) => {
          server.socket(userId, event, data);
        },
        loadTemplate: (p) => {
          const file = path.resolve(root, p.replace(/^modules\/[^/]+\//, ""));
          return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null;
        },
      },
      {
        translations: copy(this.opts.translations),
        modules: this.opts.modules,
        system: this.opts.system ?? { id: "sim-system", title: "Simulated System", initiative: "1d20" },
        renderTemplates: this.opts.renderTemplates ?? false,
        generation: this.opts.generation ?? 13,
        turnEventsOnCombatantChange: this.opts.turnEventsOnCombatantChange ?? false,
        lang: this.opts.lang ?? "en",
      },
    );

    // Take the snapshot and connect in one step so that no broadcast is missed or applied twice.
    this.buffer = [];
    const world = copy(server.snapshot());
    // The world a client loads already has its own user logged in (https://foundryvtt.com/api/classes/foundry.documents.User.html#active):
    // at `ready`, `game.users.activeGM` is this user when it is the GM who applies commands.
    const self = world.users.find((u) => u._id === userId);
    if (self) self.active = true;
    server.connect(userId, (msg) => {
      if (gen !== this.generation) return;
      if (this.buffer) this.buffer.push(msg);
      else this.handle(msg);
    });
    this.opts.systemSetup?.(global);
    this.opts.script?.runInContext(ctx);
    await this.api.boot(world);
    const buffered = this.buffer;
    this.buffer = null;
    for (const msg of buffered) this.handle(msg);
  }

  private makeError: (message: string) => Error = (m) => new Error(m);
  private copy: <T>(v: T) => T = (v) => v;

  private handle(raw: ServerMessage): void {
    const msg = this.copy(raw);
    if (msg.type === "reject") {
      const p = this.pending.get(msg.requestId);
      this.pending.delete(msg.requestId);
      p?.reject(this.makeError(msg.error));
      return;
    }
    if (msg.type === "queryResult") {
      const q = this.queries.get(msg.queryId);
      if (!q) return;
      this.queries.delete(msg.queryId);
      if (q.timer) clearTimeout(q.timer);
      if (msg.ok) q.resolve(msg.result);
      else q.reject(this.makeError(msg.error));
      return;
    }
    try {
      this.api.receive(msg);
    } catch (err) {
      this.api.errors.push(err);
      console.error(`[sim ${this.userId}] failed to apply`, err);
    }
    const answered = answeredRequest(msg, this.userId);
    if (answered !== null) {
      const p = this.pending.get(answered);
      this.pending.delete(answered);
      p?.resolve(msg);
    }
  }
}
