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
 *
 * `createRealm` only wires the rooms under ./realm/, each of which emulates one part of Foundry and
 * names its sources: the records (logs.ts), hooks, operators, settings, i18n, socket, applications,
 * keybindings, audio, notifications, the document classes (classes.ts), the world's collections
 * (world.ts), the database operations (database.ts), applying broadcasts (broadcasts.ts), the
 * globals (globals.ts) and booting and receiving (lifecycle.ts).
 */
import { createApplications } from "./realm/applications.js";
import { createAudio } from "./realm/audio.js";
import { createBroadcasts } from "./realm/broadcasts.js";
import { createDocumentClasses } from "./realm/classes.js";
import { createDatabase } from "./realm/database.js";
import { installGlobals } from "./realm/globals.js";
import { createHooks } from "./realm/hooks.js";
import { createI18n } from "./realm/i18n.js";
import { createKeybindings } from "./realm/keybindings.js";
import { createLifecycle } from "./realm/lifecycle.js";
import { createLogs } from "./realm/logs.js";
import { createUi } from "./realm/notifications.js";
import { createOperators } from "./realm/operators.js";
import { createSettings } from "./realm/settings.js";
import { createSocket } from "./realm/socket.js";
import type { RealmBag } from "./realm/types.js";
import { createWorld } from "./realm/world.js";
import type { ClientRequest, ServerMessage } from "./server.js";
import type { Dict, Json } from "./utils.js";

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
  const logs = createLogs(t.userId);
  const { logCompatibilityWarning, recordError, safe } = logs;
  const Hooks = createHooks(logs.hookLog, recordError);
  const operators = createOperators(v14, logCompatibilityWarning);
  const { settings, worldSettings, userSettings, applySetting } = createSettings({
    t,
    v14,
    logCompatibilityWarning,
    safe,
    Hooks,
  });
  const i18n = createI18n(opts);
  const { socket, socketListeners } = createSocket(t);
  const apps = createApplications({
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
        return globals.game;
      },
      get ui() {
        return ui;
      },
      currentUser: () => world.currentUser(),
    },
  });
  const keybindings = createKeybindings(() => world.currentUser());
  const { sounds, AudioHelper } = createAudio();
  const ui = createUi(i18n, logs.notifications);
  // The realm bag the document rooms read; what is built below is read when used.
  const r: RealmBag = {
    t,
    opts,
    v14,
    logCompatibilityWarning,
    recordError,
    /** Each combatant's prepared initiative (`Combatant#initiative`, written by `_prepareGroup`). */
    preparedInitiative: new WeakMap<object, number | null>(),
    effectRefreshes: logs.effectRefreshes,
    Hooks,
    i18n,
    settings,
    worldSettings,
    ui,
    DialogV2: apps.DialogV2,
    ForcedDeletion: operators.ForcedDeletion,
    get game() {
      return globals.game;
    },
    get CONFIG() {
      return globals.CONFIG;
    },
    get canvas() {
      return globals.canvas;
    },
    docClass: (name) => classes.docClass(name),
    worldCollection: (name) => world.worldCollection(name),
    currentUser: () => world.currentUser(),
    replicaWorld: () => world.replicaWorld(),
    createDocuments: (cls, data, options) => db.createDocuments(cls, data, options),
    updateDocuments: (cls, updates, options) => db.updateDocuments(cls, updates, options),
    deleteDocuments: (cls, ids, options) => db.deleteDocuments(cls, ids, options),
  };
  const classes = createDocumentClasses(r);
  const world = createWorld(r, classes);
  const db = createDatabase(r, { ...classes, warnLegacyKeys: operators.warnLegacyKeys, findDoc: world.findDoc });
  const applyDocOp = createBroadcasts(r, { ...classes, ...world, safe, scheduleRender: apps.scheduleRender });
  const globals = installGlobals(g, {
    t,
    opts,
    v14,
    Hooks,
    i18n,
    ui,
    settings,
    worldSettings,
    keybindings,
    socket,
    AudioHelper,
    logCompatibilityWarning,
    classes,
    apps,
    world,
    operators,
    modifyBatch: db.modifyBatch,
  });
  const { boot, receive } = createLifecycle(r, { applyDocOp, applySetting, userSettings, socketListeners, safe });
  const { game, CONFIG, canvas, foundry } = globals;
  const { notifications, errors, compatWarnings, effectRefreshes, hookLog } = logs;
  return {
    game,
    CONFIG,
    canvas,
    Hooks,
    ui,
    foundry,
    Roll: classes.Roll,
    notifications,
    sounds,
    errors,
    compatWarnings,
    effectRefreshes,
    generation,
    hookLog,
    boot,
    receive,
    classes: classes.defaultClasses,
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
