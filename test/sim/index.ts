/**
 * Simulated Foundry test bed: `createSim()` starts one server and one client per connected user,
 * each client running the built module in its own realm.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { ManualClock } from "./clock.js";
import type { SimGeneration } from "./runtime.js";
import { compileBundle, SimClient } from "./client.js";
import { Dice, ROLES, SimServer } from "./server.js";
import { resetIds, type Dict, type Json, type JsonObject } from "./utils.js";

export { SimClient } from "./client.js";
export { ManualClock, MANUAL_CLOCK_START } from "./clock.js";
export { SimServer, Dice, ROLES } from "./server.js";
export type { SimCombat, SimCombatant, SimActor, SimUser, SimChatMessage, SimRealm, SimGeneration } from "./runtime.js";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The Foundry generation a sim emulates unless a test asks for one: `SIM_GENERATION` (13 or 14)
 * from the environment, so `npm test` runs the integration and e2e suites once per flavour; 13 by default.
 */
export const SIM_GENERATION: SimGeneration = process.env.SIM_GENERATION === "14" ? 14 : 13;

/** Who sees a message, in the words of a generation: v13's roll modes, v14's message modes. */
export const CHAT_MODES = {
  13: { public: "publicroll", private: "gmroll", blind: "blindroll", self: "selfroll", setting: "rollMode" },
  14: { public: "public", private: "gm", blind: "blind", self: "self", setting: "messageMode" },
} as const;

/** A chat mode in the words of the sim's default generation (for `core.rollMode`/`core.messageMode` and `messageOptions`). */
export function chatMode(
  mode: "public" | "private" | "blind" | "self",
  generation: SimGeneration = SIM_GENERATION,
): string {
  return CHAT_MODES[generation][mode];
}

/** Set a client's own chat mode (`core.rollMode` in v13, `core.messageMode` in v14). */
export async function setChatMode(client: SimClient, mode: "public" | "private" | "blind" | "self"): Promise<void> {
  const generation = client.api.generation;
  await client.game.settings.set("core", CHAT_MODES[generation].setting, CHAT_MODES[generation][mode]);
}

/** `Combat#rollInitiative`'s `messageOptions` asking for a mode, as core names it in the sim's generation. */
export function modeOptions(
  mode: "public" | "private" | "blind" | "self",
  generation: SimGeneration = SIM_GENERATION,
): { messageOptions: Record<string, string> } {
  return { messageOptions: { [CHAT_MODES[generation].setting]: CHAT_MODES[generation][mode] } };
}
export const MODULE_ID = "structured-initiative";

export interface SimUserSpec {
  id?: string;
  name: string;
  /** 1 player (default), 4 gamemaster. */
  role?: number;
  /** Open a client for this user at start (default true). */
  connect?: boolean;
}

export interface CreateSimOptions {
  /** Bundle file; null for none. Default `dist/scripts/structured-initiative.js`. */
  bundlePath?: string | null;
  /** Script text to run instead of a bundle file (tests of the sim itself). */
  bundleCode?: string;
  /** Lang file; default `dist/lang/en.json` (missing file: no translations). */
  langPath?: string;
  /** The language code every client reports as `game.i18n.lang` (default "en"); give its file as `langPath`. */
  lang?: string;
  users?: SimUserSpec[];
  actors?: JsonObject[];
  scenes?: JsonObject[];
  combats?: JsonObject[];
  settings?: Record<string, Json>;
  /** Runs in each realm before the bundle, e.g. to install a system's Combat subclass. */
  systemSetup?: (realm: Dict) => void;
  system?: { id: string; title: string; initiative: string };
  modules?: string[];
  seed?: number;
  templateRoot?: string;
  renderTemplates?: boolean;
  /**
   * Run every client on one manual clock (`sim.clock`) instead of the wall clock: the module's
   * `Date.now` and timers move only when the test advances it. Default false.
   */
  manualClock?: boolean;
  /** The Foundry generation to emulate (default `SIM_GENERATION`: 13 unless the environment says 14). */
  generation?: SimGeneration;
  /**
   * Core's turn events (`combatTurnChange`, `_onEndTurn`/`_onStartTurn`) also when the acting combatant
   * changes at the same turn index, as https://github.com/foundryvtt/foundryvtt/issues/9741 asked
   * (closed for v12); default false: only when the turn or round is in the update.
   */
  turnEventsOnCombatantChange?: boolean;
}

export interface Sim {
  server: SimServer;
  gm: SimClient;
  players: SimClient[];
  clients: SimClient[];
  dice: Dice;
  /** The Foundry generation every client emulates. */
  readonly generation: SimGeneration;
  settle(): Promise<void>;
  client(userId: string): SimClient;
  /** Open a client for a user (first login or after `disconnect()`). */
  connect(userId: string): Promise<SimClient>;
  /** The clients' manual clock; throws unless the sim was created with `manualClock: true`. */
  readonly clock: ManualClock;
}

const langCache = new Map<string, Dict>();
function loadLang(file: string): Dict {
  let v = langCache.get(file);
  if (!v) {
    v = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Dict) : {};
    langCache.set(file, v);
  }
  return v;
}

export const DEFAULT_USERS: SimUserSpec[] = [
  { id: "gmUser0000000001", name: "Gamemaster", role: ROLES.GAMEMASTER },
  { id: "player0000000001", name: "Alice", role: ROLES.PLAYER },
  { id: "player0000000002", name: "Bob", role: ROLES.PLAYER },
];

/** Every sim created since the last `takeCreatedSims()` (the test setup checks their deprecation warnings). */
const created: Sim[] = [];
/** The sims created since the last call, forgotten by this call. */
export function takeCreatedSims(): Sim[] {
  return created.splice(0, created.length);
}

export async function createSim(options: CreateSimOptions = {}): Promise<Sim> {
  resetIds(options.seed ?? 1);
  const specs = options.users ?? DEFAULT_USERS;
  const users: JsonObject[] = specs.map((u, i) => ({
    _id: u.id ?? `user${String(i).padStart(12, "0")}`,
    name: u.name,
    role: u.role ?? ROLES.PLAYER,
  }));
  const server = new SimServer({
    users,
    actors: options.actors ?? [],
    scenes: options.scenes ?? [],
    combats: options.combats ?? [],
    settings: options.settings ?? {},
    seed: options.seed ?? 1,
  });
  let script: vm.Script | null = null;
  if (options.bundleCode !== undefined) script = new vm.Script(options.bundleCode, { filename: "sim-bundle.js" });
  else if (options.bundlePath !== null) {
    const file = path.resolve(REPO_ROOT, options.bundlePath ?? "dist/scripts/structured-initiative.js");
    if (!fs.existsSync(file)) throw new Error(`Bundle not found: ${file} (build the module first)`);
    script = compileBundle(file);
  }
  const generation = options.generation ?? SIM_GENERATION;
  const clock = options.manualClock === true ? new ManualClock(() => server.settle()) : null;
  const translations = loadLang(path.resolve(REPO_ROOT, options.langPath ?? "dist/lang/en.json"));
  const clientOptions = (userId: string) => ({
    server,
    userId,
    script,
    translations,
    modules: options.modules ?? [MODULE_ID],
    ...(options.system ? { system: options.system } : {}),
    ...(options.systemSetup ? { systemSetup: options.systemSetup } : {}),
    templateRoot: options.templateRoot ?? REPO_ROOT,
    renderTemplates: options.renderTemplates ?? false,
    generation,
    turnEventsOnCombatantChange: options.turnEventsOnCombatantChange ?? false,
    lang: options.lang ?? "en",
    ...(clock ? { clock } : {}),
  });

  const clients: SimClient[] = [];
  for (const [i, spec] of specs.entries()) {
    if (spec.connect === false) continue;
    clients.push(await SimClient.start(clientOptions(String(users[i]?._id))));
  }
  const isGM = (c: SimClient): boolean => (server.user(c.userId)?.role as number) >= ROLES.ASSISTANT;
  const gm = clients.find(isGM);
  const sim: Sim = {
    server,
    get gm(): SimClient {
      if (!gm) throw new Error("No GM client in this sim");
      return gm;
    },
    players: clients.filter((c) => !isGM(c)),
    clients,
    dice: server.dice,
    generation,
    get clock(): ManualClock {
      if (!clock) throw new Error("This sim runs on the wall clock: create it with { manualClock: true }");
      return clock;
    },
    settle: () => server.settle(),
    client(userId: string): SimClient {
      const c = clients.find((x) => x.userId === userId);
      if (!c) throw new Error(`No client for ${userId}`);
      return c;
    },
    async connect(userId: string): Promise<SimClient> {
      const existing = clients.find((x) => x.userId === userId);
      if (existing) {
        if (!existing.connected) await existing.reload();
        return existing;
      }
      const c = await SimClient.start(clientOptions(userId));
      clients.push(c);
      if (!isGM(c)) sim.players.push(c);
      return c;
    },
  };
  created.push(sim);
  await server.settle();
  return sim;
}
