/**
 * Boot a simulated Foundry client in this window (the realm): install the simulated globals, run
 * the built module bundle as a classic script (as Foundry loads it) and connect to a shared
 * simulated server. Used by every playground view and by the render benchmark.
 */
import bundle from "../dist/scripts/structured-initiative.js?raw";
import { createRealm, type SimRealm } from "../test/sim/runtime.js";
import { answeredRequest, type ClientRequest, type ServerMessage, type SimServer } from "../test/sim/server.js";
import type { Dict, Json } from "../test/sim/utils.js";

// The language files as the build copies them into dist/ (read from their source so lint and type check need no build).
// Each is loaded when a client boots in it, so a page holds only the language it shows.
const LANGUAGES = import.meta.glob<Dict>("../lang/*.json", { import: "default" });

/** The module's texts in `lang` (a code of module.json's `languages`); English for an unknown code. */
export async function translationsOf(lang: string): Promise<Dict> {
  const load = LANGUAGES[`../lang/${lang}.json`] ?? LANGUAGES["../lang/en.json"];
  return load === undefined ? {} : load();
}

const TEMPLATES = import.meta.glob<string>("../dist/templates/**/*.hbs", {
  query: "?raw",
  import: "default",
  eager: true,
});

/** The module id. */
export const MODULE_ID = "structured-initiative";

/** Copy data into this realm (messages come from the realm that holds the server). */
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * Start the client of `userId` on `server`, emulating Foundry `generation`, in the language `lang`.
 * `prepare` runs once the globals exist and before the module's bundle does (install UI stand-ins there).
 */
export async function bootRealm(
  server: SimServer,
  userId: string,
  prepare: (api: SimRealm) => void = () => undefined,
  generation: 13 | 14 = 13,
  lang = "en",
): Promise<SimRealm> {
  let seq = 0;
  const pending = new Map<string, { resolve: (m: ServerMessage) => void; reject: (e: Error) => void }>();
  const queries = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const translations = await translationsOf(lang);
  const api = createRealm(
    window as unknown as Dict,
    {
      userId,
      clientStorage: new Map<string, Json>(),
      submit: (req: ClientRequest) =>
        new Promise<ServerMessage>((resolve, reject) => {
          if (!server.isConnected(userId)) {
            reject(new Error("Not connected to the server"));
            return;
          }
          const id = `${userId}:${++seq}`;
          pending.set(id, { resolve, reject });
          server.request(userId, id, copy(req));
        }),
      drawDie: (faces) => server.dice.next(faces),
      query: (targetId, name, data, timeout) =>
        new Promise<unknown>((resolve, reject) => {
          const id = `${userId}:q${++seq}`;
          queries.set(id, { resolve, reject });
          if (timeout !== undefined)
            setTimeout(() => {
              if (queries.delete(id)) reject(new Error(`Query "${name}" timed out`));
            }, timeout);
          server.query(userId, targetId, id, name, copy(data));
        }),
      queryResponse: (queryId, ok, result, error) => {
        server.queryResponse(queryId, ok, copy(result), error);
      },
      socketEmit: (event, data) => {
        server.socket(userId, event, copy(data));
      },
      loadTemplate: (path) => TEMPLATES[`../dist/${path.replace(/^modules\/[^/]+\//, "")}`] ?? null,
    },
    {
      translations: copy(translations),
      lang,
      modules: [MODULE_ID],
      system: { id: "sim-system", title: "Simulated System", initiative: "1d20" },
      renderTemplates: true,
      generation,
    },
  );

  // A deprecation the realm's Foundry logs is a console error here, so the browser tests (which
  // fail on console errors) fail on it, as the integration tests do (test/sim/setup.ts).
  const warnings = api.compatWarnings;
  warnings.push = (...messages: string[]): number => {
    for (const message of messages)
      console.error(`[playground ${userId}] deprecated on Foundry v${String(generation)}: ${message}`);
    return Array.prototype.push.apply(warnings, messages);
  };

  const handle = (raw: ServerMessage): void => {
    const msg = copy(raw);
    if (msg.type === "reject") {
      pending.get(msg.requestId)?.reject(new Error(msg.error));
      pending.delete(msg.requestId);
      return;
    }
    if (msg.type === "queryResult") {
      const q = queries.get(msg.queryId);
      queries.delete(msg.queryId);
      if (msg.ok) q?.resolve(msg.result);
      else q?.reject(new Error(msg.error));
      return;
    }
    try {
      api.receive(msg);
    } catch (err) {
      api.errors.push(err);
      console.error(`[playground ${userId}] failed to apply`, err);
    }
    const answered = answeredRequest(msg, userId);
    if (answered !== null) {
      pending.get(answered)?.resolve(msg);
      pending.delete(answered);
    }
  };

  prepare(api);
  // Take the snapshot and connect in one step so that no broadcast is missed or applied twice.
  const buffer: ServerMessage[] = [];
  let buffering = true;
  const world = copy(server.snapshot());
  // The world a client loads already has its own user logged in (https://foundryvtt.com/api/classes/foundry.documents.User.html#active).
  const self = world.users.find((u) => u._id === userId);
  if (self) self.active = true;
  if (server.isConnected(userId)) server.disconnect(userId);
  server.connect(userId, (msg) => {
    if (buffering) buffer.push(msg);
    else handle(msg);
  });
  window.addEventListener("pagehide", () => {
    server.disconnect(userId);
  });
  const script = document.createElement("script");
  script.textContent = bundle;
  document.head.append(script);
  await api.boot(world);
  buffering = false;
  for (const msg of buffer) handle(msg);
  return api;
}
