/**
 * The realm's globals, as Foundry installs them on `window`: `CONFIG`, `game`, the `canvas`, the
 * `foundry` namespace, `ui`, `Hooks`, `CONST` and the document classes core exposes by name.
 */
import type { RealmOptions, RealmTransport } from "../runtime.js";
import {
  OPERATOR_IDENTIFIER,
  deepClone,
  diffObject,
  expandObject,
  flattenObject,
  getProperty,
  isEmpty,
  mergeObject,
  objectsEqual,
  randomID,
  setProperty,
  toJson,
  type Dict,
  type Json,
} from "../utils.js";
import type { createApplications } from "./applications.js";
import type { createAudio } from "./audio.js";
import type { createDocumentClasses } from "./classes.js";
import { CONST, debounce } from "./constants.js";
import type { createDatabase } from "./database.js";
import type { SimHooks } from "./hooks.js";
import type { SimI18n } from "./i18n.js";
import type { createKeybindings } from "./keybindings.js";
import type { createUi } from "./notifications.js";
import type { createOperators } from "./operators.js";
import type { createSettings } from "./settings.js";
import type { createSocket } from "./socket.js";
import type { Combat, Scene, Token, TokenDocument, User } from "./types.js";
import type { createWorld } from "./world.js";

/** Everything the globals expose, built by the realm's other rooms. */
export interface GlobalsNeeds {
  t: RealmTransport;
  opts: RealmOptions;
  v14: boolean;
  Hooks: SimHooks;
  i18n: SimI18n;
  ui: ReturnType<typeof createUi>;
  settings: ReturnType<typeof createSettings>["settings"];
  worldSettings: Map<string, Json>;
  keybindings: ReturnType<typeof createKeybindings>;
  socket: ReturnType<typeof createSocket>["socket"];
  AudioHelper: ReturnType<typeof createAudio>["AudioHelper"];
  logCompatibilityWarning: (message: string, options?: Dict) => void;
  classes: ReturnType<typeof createDocumentClasses>;
  apps: ReturnType<typeof createApplications>;
  world: ReturnType<typeof createWorld>;
  operators: ReturnType<typeof createOperators>;
  modifyBatch: ReturnType<typeof createDatabase>["modifyBatch"];
}

/** `CONFIG` (https://foundryvtt.com/api/variables/CONFIG.html), with the sim's default document classes. */
function createConfig({ v14, classes, apps }: GlobalsNeeds) {
  const { Actor, ActiveEffect, User, Scene, TokenDocument, Combat, Combatant, CombatantGroup, ChatMessage, Roll } =
    classes;
  const { CombatTracker } = apps;
  return {
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
}

/** `game` (https://foundryvtt.com/api/classes/foundry.Game.html): the world's collections and the realm's services. */
function createGame({ t, opts, v14, world, settings, keybindings, i18n, socket, worldSettings }: GlobalsNeeds) {
  const { collections, currentUser } = world;
  return {
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
}

/**
 * The canvas (https://foundryvtt.com/api/classes/foundry.canvas.Canvas.html), reduced to the
 * viewed scene, its tokens' placeables and panning; the sim records each pan instead of moving.
 */
function createCanvas(game: ReturnType<typeof createGame>, Token: GlobalsNeeds["classes"]["Token"]) {
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
  return canvas;
}

/** The `foundry` namespace (https://foundryvtt.com/api/modules/foundry.html), as far as the sim emulates it. */
function createFoundry(needs: GlobalsNeeds) {
  const { v14, Hooks, AudioHelper, logCompatibilityWarning, classes, apps, world, operators, modifyBatch } = needs;
  const { Actor, ActiveEffect, User, Scene, TokenDocument, Combat, Combatant, CombatantGroup, ChatMessage, Roll } =
    classes;
  const { Collection } = classes;
  const { ApplicationV2, HandlebarsApplicationMixin, DialogV2, CombatTracker, ContextMenu } = apps;
  const { renderTemplate, loadTemplates, getTemplate } = apps;
  const { ForcedDeletion, ForcedReplacement } = operators;
  const { Users, Combats, Scenes } = world;
  return {
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
}

/** Builds the globals and installs them on the realm's global object `g`. */
export function installGlobals(g: Dict, needs: GlobalsNeeds) {
  const { Hooks, ui, classes, apps } = needs;
  const { Roll, ChatMessage, Combat, Combatant, Actor, ActiveEffect, User, TokenDocument } = classes;
  const { hb, renderTemplate, loadTemplates } = apps;
  const CONFIG = createConfig(needs);
  const game = createGame(needs);
  const canvas = createCanvas(game, classes.Token);
  const foundry = createFoundry(needs);
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
  return { CONFIG, game, canvas, foundry };
}
