/**
 * A realm's life: booting a client (Foundry's load order) and receiving the server's messages
 * (document broadcasts, settings, socket events, queries).
 */
import type { ServerMessage, TopLevelName, WorldData } from "../server.js";
import { toJson, type JsonObject } from "../utils.js";
import type { createApplications } from "./applications.js";
import type { Fn } from "./constants.js";
import type { createSettings } from "./settings.js";
import type { createSocket } from "./socket.js";
import type { RealmBag } from "./types.js";

/** What booting and receiving need besides the realm. */
export interface LifecycleNeeds {
  applyDocOp: (msg: Extract<ServerMessage, { type: "broadcast" }>) => void;
  applySetting: ReturnType<typeof createSettings>["applySetting"];
  /** This user's user-scope settings (filled from the world at boot). */
  userSettings: ReturnType<typeof createSettings>["userSettings"];
  socketListeners: ReturnType<typeof createSocket>["socketListeners"];
  safe: (where: string, fn: () => unknown) => void;
}

type CombatTracker = ReturnType<typeof createApplications>["CombatTracker"];

/** One realm's `boot` and `receive`. */
export function createLifecycle(
  r: RealmBag,
  { applyDocOp, applySetting, userSettings, socketListeners, safe }: LifecycleNeeds,
) {
  const { t, Hooks, worldSettings, ui, recordError } = r;
  /** init -> i18nInit -> documents -> setup -> UI -> ready (https://foundryvtt.com/api/classes/foundry.Game.html). */
  async function boot(world: WorldData): Promise<void> {
    for (const [k, v] of Object.entries(world.settings)) worldSettings.set(k, v);
    for (const [k, v] of Object.entries(world.userSettings?.[t.userId] ?? {})) userSettings.set(k, v);
    Hooks.callAll("init");
    Hooks.callAll("i18nInit");
    const load = (name: TopLevelName, list: JsonObject[]): void => {
      const cls = r.docClass(name);
      for (const src of list) r.worldCollection(name).set(String(src._id), new cls(src));
    };
    load("User", world.users);
    load("Actor", world.actors);
    load("Scene", world.scenes);
    load("Combat", world.combats);
    load("ChatMessage", world.messages);
    Hooks.callAll("setup");
    const Tracker = r.CONFIG.ui.combat;
    if (typeof Tracker === "function") {
      const app = new (Tracker as CombatTracker)();
      ui.combat = app;
      await app.render({ force: true }).catch((err: unknown) => {
        recordError("render combat tracker", err);
      });
    }
    r.game.ready = true;
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
        applySetting(msg.key, msg.value, msg.userId, msg.user);
        return;
      case "socket":
        for (const fn of socketListeners.get(msg.event) ?? []) safe(`socket ${msg.event}`, () => fn(msg.data));
        return;
      case "query": {
        const handler = r.CONFIG.queries[msg.name];
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

  return { boot, receive };
}
