/**
 * The realm's settings (https://foundryvtt.com/api/classes/foundry.helpers.ClientSettings.html):
 * world settings through the server, client settings in the browser's storage, user settings (v13+)
 * through the server for this user only (see `SimServer.applySetting`), `onChange` on every client a
 * change reaches.
 */
import type { RealmTransport } from "../runtime.js";
import { CONST, call } from "./constants.js";
import { legacyMode, modernMode } from "./generations.js";
import type { SimHooks } from "./hooks.js";
import { deepClone, toJson, type Dict, type Json } from "../utils.js";

export interface SettingConfig extends Dict {
  scope?: string;
  default?: unknown;
  type?: unknown;
  onChange?: unknown;
}

/** What the settings room needs from its realm. */
export interface SettingsRealm {
  t: RealmTransport;
  v14: boolean;
  logCompatibilityWarning: (message: string) => void;
  safe: (where: string, fn: () => unknown) => void;
  Hooks: SimHooks;
}

/** One realm's settings, with core's message-mode setting registered. */
export function createSettings({ t, v14, logCompatibilityWarning, safe, Hooks }: SettingsRealm) {
  const registry = new Map<string, SettingConfig>();
  const menus = new Map<string, Dict>();
  const worldSettings = new Map<string, Json>();
  /** This user's user-scope settings, as the server stores them for them. */
  const userSettings = new Map<string, Json>();
  const cast = (cfg: SettingConfig, v: unknown): unknown => {
    if (v === null || v === undefined) return v;
    if (cfg.type === Number) return Number(v);
    if (cfg.type === Boolean) return Boolean(v);
    if (cfg.type === String) return String(v);
    return deepClone(v);
  };
  const settings = {
    settings: registry,
    menus,
    register(namespace: string, key: string, config: SettingConfig): void {
      registry.set(`${namespace}.${key}`, { scope: "client", ...config, namespace, key });
    },
    registerMenu(namespace: string, key: string, data: Dict): void {
      menus.set(`${namespace}.${key}`, data);
    },
    /**
     * @behaviour v14 reads and writes the `core.rollMode` setting as `core.messageMode`, with a warning.
     * @source https://github.com/JohanFalt/Foundry_WoD20/issues/1395 and
     * https://github.com/Muttley/foundryvtt-fallout/issues/745 (the warning);
     * https://github.com/foundryvtt/dnd5e/issues/6958 (`core.messageMode` replaces it).
     */
    get(namespace: string, key: string): unknown {
      if (v14 && namespace === "core" && key === "rollMode") {
        logCompatibilityWarning("The `core.rollMode` client setting is deprecated in favor of `core.messageMode`");
        return legacyMode(String(settings.get("core", "messageMode")));
      }
      const k = `${namespace}.${key}`;
      const cfg = registry.get(k);
      if (!cfg) throw new Error(`"${k}" is not a registered game setting`);
      const store = cfg.scope === "world" ? worldSettings : cfg.scope === "user" ? userSettings : t.clientStorage;
      return cast(cfg, store.has(k) ? store.get(k) : cfg.default);
    },
    async set(namespace: string, key: string, value: unknown): Promise<unknown> {
      if (v14 && namespace === "core" && key === "rollMode") {
        logCompatibilityWarning("The `core.rollMode` client setting is deprecated in favor of `core.messageMode`");
        return settings.set("core", "messageMode", modernMode(String(value)));
      }
      const k = `${namespace}.${key}`;
      const cfg = registry.get(k);
      if (!cfg) throw new Error(`"${k}" is not a registered game setting`);
      const json = toJson(value);
      if (cfg.scope === "world") {
        await t.submit({ action: "setting", key: k, value: json });
      } else if (cfg.scope === "user") {
        await t.submit({ action: "setting", key: k, value: json, scope: "user" });
      } else {
        t.clientStorage.set(k, json);
        safe(`onChange ${k}`, () => call(cfg.onChange, undefined, cast(cfg, json), {}, t.userId));
      }
      return value;
    },
  };
  function applySetting(key: string, value: Json, userId: string, user?: string): void {
    if (user !== undefined) {
      // A user setting: this realm's user's own changes it; another user's is none of this client's.
      if (user !== t.userId) return;
      userSettings.set(key, value);
      const cfg = registry.get(key);
      if (cfg) safe(`onChange ${key}`, () => call(cfg.onChange, undefined, cast(cfg, value), {}, userId));
      return;
    }
    const before = worldSettings.get(key);
    worldSettings.set(key, value);
    // The world time is the setting core.time; each change fires updateWorldTime on every client
    // (https://foundryvtt.com/api/functions/hookEvents.updateWorldTime.html).
    if (key === "core.time" && typeof value === "number") {
      const dt = value - (typeof before === "number" ? before : 0);
      Hooks.callAll("updateWorldTime", value, dt, {}, userId);
    }
    const cfg = registry.get(key);
    // onChange runs on every client when a world setting changes.
    if (cfg) safe(`onChange ${key}`, () => call(cfg.onChange, undefined, cast(cfg, value), {}, userId));
  }
  // v13's `core.rollMode`; v14's `core.messageMode` (default "public"), with `core.rollMode` a
  // deprecated alias of it (https://github.com/JohanFalt/Foundry_WoD20/issues/1395).
  if (v14)
    settings.register("core", "messageMode", { scope: "client", default: "public", type: String, config: false });
  else
    settings.register("core", "rollMode", {
      scope: "client",
      default: CONST.DICE_ROLL_MODES.PUBLIC,
      type: String,
      config: false,
    });
  return { settings, worldSettings, userSettings, applySetting };
}
