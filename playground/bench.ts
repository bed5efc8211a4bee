/**
 * Render benchmark page (driven by scripts/bench-render.mjs in headless Chromium): an `individual`
 * encounter of `?n=` combatants, started, seen by the GM. Times a full tracker render (context,
 * templates, DOM, layout) against a bare Handlebars list of the same rows, and checks that the
 * tracker fits the sidebar without horizontal overflow.
 */
import "../dist/styles/structured-initiative.css";
import { ROLES, SimServer } from "../test/sim/server.js";
import type { SimCombat } from "../test/sim/runtime.js";
import type { JsonObject } from "../test/sim/utils.js";
import { bootRealm, MODULE_ID } from "./realm.js";

const GM = "gmUser0000000001";
const PLAYER = "player0000000001";
const SCENE = "scene00000000001";
const n = Number(new URLSearchParams(location.search).get("n") ?? "10");
const id = (prefix: string, i: number): string => `${prefix}${String(i).padStart(16 - prefix.length, "0")}`;

/** The result the driver reads. */
export interface BenchResult {
  n: number;
  /** First render after a change. */
  trackerMs: number;
  /** Re-render without a change. */
  warmMs: number;
  bareMs: number;
  ratio: number;
  warmRatio: number;
  overflowX: boolean;
  scrollable: boolean;
}

declare global {
  interface Window {
    benchResult?: BenchResult;
    benchError?: string;
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function time(fn: () => Promise<void> | void, runs: number): Promise<number> {
  for (let i = 0; i < 5; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

async function run(): Promise<BenchResult> {
  const actors: JsonObject[] = Array.from({ length: n }, (_, i): JsonObject => ({
    _id: id("actor", i),
    name: i === 0 ? "Aria the Unexpectedly Long-Named Duelist of the Northern Reaches" : `Combatant ${i + 1}`,
    type: i === 0 ? "character" : "npc",
    ownership: i === 0 ? { default: 0, [PLAYER]: 3 } : { default: 0 },
    system: { attributes: { init: { mod: i % 5 } } },
  }));
  const server = new SimServer({
    users: [
      { _id: GM, name: "Gamemaster", role: ROLES.GAMEMASTER },
      { _id: PLAYER, name: "Alice", role: ROLES.PLAYER },
    ],
    actors,
    scenes: [
      {
        _id: SCENE,
        name: "Bench",
        active: true,
        tokens: actors.map((a, i) => ({ _id: id("token", i), actorId: a._id ?? null, name: a.name ?? null })),
      },
    ],
    settings: { "structured-initiative.defaultMode": "individual" },
    seed: 1,
  });
  const api = await bootRealm(server, GM);
  const tracker = api.ui.combat as { element: HTMLElement; render(): Promise<unknown> };
  document.getElementById("pg-combat")?.append(tracker.element);
  tracker.element.classList.add("pg-tracker");

  const Combat = api.classes.Combat.implementation;
  const combat = (await Combat.create({
    scene: SCENE,
    active: true,
    flags: { [MODULE_ID]: { mode: "individual" } },
  })) as unknown as SimCombat;
  await combat.createEmbeddedDocuments(
    "Combatant",
    actors.map((a, i) => ({ actorId: a._id ?? null, tokenId: id("token", i), sceneId: SCENE })),
  );
  await server.settle();
  const moduleApi = api.game.modules.get(MODULE_ID)?.api as {
    command(combat: unknown, command: unknown): Promise<{ ok: boolean }>;
  };
  for (const [i, c] of combat.combatants.contents.entries())
    await moduleApi.command(combat, { type: "recordInitiative", combatantId: c.id, total: 1000 - i, modifier: 0 });
  await moduleApi.command(combat, { type: "start" });
  await server.settle();

  const layout = (el: Element): void => {
    el.getBoundingClientRect();
  };
  // Warm: a re-render with no change (Foundry re-renders the tracker on many unrelated updates).
  const warmMs = await time(async () => {
    await tracker.render();
    layout(tracker.element);
  }, 30);
  // Cold: the first render after a change (a new stored revision, as every write brings).
  const flags = (combat as unknown as { _source: { flags: Record<string, Record<string, unknown>> } })._source.flags;
  const trackerMs = await time(async () => {
    const own = flags[MODULE_ID];
    const stored = own?.encounter as { rev: number } | undefined;
    if (own !== undefined && stored !== undefined) own.encounter = { ...stored, rev: stored.rev + 1 };
    await tracker.render();
    layout(tracker.element);
  }, 30);

  const Handlebars = (window as unknown as { Handlebars: { compile(src: string): (data: object) => string } })
    .Handlebars;
  const bare = Handlebars.compile(
    '<ol class="combat-tracker">{{#each rows}}<li class="combatant"><img src="{{img}}" alt="" width="32" height="32">' +
      '<span class="name">{{name}}</span> <span class="initiative">{{initiative}}</span></li>{{/each}}</ol>',
  );
  const bareRoot = document.getElementById("pg-bare");
  if (bareRoot === null) throw new Error("no bare root");
  const bareMs = await time(() => {
    const rows = combat.turns.map((c) => ({ name: c.name, img: c.img, initiative: c.initiative }));
    const template = document.createElement("template");
    template.innerHTML = bare({ rows });
    bareRoot.replaceChildren(template.content);
    layout(bareRoot);
  }, 30);

  const list = tracker.element.querySelector<HTMLElement>(".si-list");
  const overflowX = Array.from(tracker.element.querySelectorAll<HTMLElement>(".structured-initiative, .si-row")).some(
    (el) => el.scrollWidth > el.clientWidth + 1,
  );
  const scrollable = list !== null && (n < 20 || list.scrollHeight > list.clientHeight);
  return { n, trackerMs, warmMs, bareMs, ratio: trackerMs / bareMs, warmRatio: warmMs / bareMs, overflowX, scrollable };
}

run()
  .then((result) => {
    window.benchResult = result;
  })
  .catch((err: unknown) => {
    window.benchError = err instanceof Error ? `${err.message}\n${err.stack ?? ""}` : String(err);
  });
