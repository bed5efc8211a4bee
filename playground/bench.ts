/**
 * Render benchmark page (driven by scripts/bench-render.mjs in headless Chromium): the `?mode=`
 * mode's sample encounter of `?n=` combatants (`src/modes/<id>/sample.ts`, field `bench`), started and mid-round,
 * seen by the GM or (`?view=player`) by a player who owns one PC. Times tracker renders (context,
 * templates, DOM, layout) after a turn advance, without a change and from scratch, against a bare
 * Handlebars list of the same rows; times the turn advance's render patched and done whole in
 * pairs, each with the frame that follows it; and checks that the tracker fits the sidebar without
 * horizontal overflow. With `?check=<steps>` it times nothing: it checks that the patched tracker
 * shows what a new tracker's first render shows after each turn advance (test/e2e/render-check).
 */
import "./bench-tasks.js";
import "../dist/styles/structured-initiative.css";
import { ROLES, SimServer } from "../test/sim/server.js";
import type { SimCombat } from "../test/sim/runtime.js";
import type { JsonObject } from "../test/sim/utils.js";
import type { SimRealm } from "../test/sim/runtime.js";
import { decodeArrays, type Json } from "../src/core/patch.js";
import { DRIVERS, STEP_LABELS } from "./bench-modes.js";
import { bootRealm, MODULE_ID } from "./realm.js";
import { portrait, SAMPLES } from "./world.js";

const GM = "gmUser0000000001";
const PLAYER = "player0000000001";
const BOB = "player0000000002";
const SCENE = "scene00000000001";
const params = new URLSearchParams(location.search);
const n = Number(params.get("n") ?? "10");
/** The mode benched (`?mode=`), with its sample encounter (`src/modes/<id>/sample.ts`, field `bench`). */
const mode = params.get("mode") ?? "individual";
/** Whose tracker is timed (`?view=gm` or `player`: Alice, who owns one PC). */
const view = params.get("view") === "player" ? "player" : "gm";
const id = (prefix: string, i: number): string => `${prefix}${String(i).padStart(16 - prefix.length, "0")}`;

/** The result the driver reads (milliseconds, medians). */
export interface BenchResult {
  n: number;
  mode: string;
  view: string;
  /** What this mode's turn advance is. */
  step: string;
  /** How long the GM took to bring the encounter to its mid-round state (not a target). */
  setupMs: number;
  /** The render a turn advance triggers (the update a table sees most). */
  changeMs: number;
  /**
   * The same turn advance's render done whole: the module's own parts are rendered from their
   * templates for the same state and replace the live ones, nothing patched or kept (what
   * patching must beat).
   */
  fullMs: number;
  /**
   * The main thread's work in the frame after a turn advance's render (its rendering update:
   * style, layout, the first layout of rows that `content-visibility: auto` left out of the
   * forced layout, paint), patched and whole; and each render with that frame (`changeMs` or
   * `fullMs` plus the frame, per sample, then the median): what "patching pays" compares.
   */
  changeFrameMs: number;
  fullFrameMs: number;
  changeToFrameMs: number;
  fullToFrameMs: number;
  /**
   * Patched minus whole, render with its frame, sample by sample (the two renders of a pair are
   * timed one after the other): the median and a 95% interval of that median (sign test).
   */
  patchDiffMs: number;
  patchDiffLowMs: number;
  patchDiffHighMs: number;
  /** The whole render by step (medians), to set beside `changePhases`. */
  fullPhases: Record<string, number>;
  /** A turn advance's command up to every client having it (rules, store, the sim's messages), render held. */
  commandMs: number;
  /** The turn advance's render by step (medians; `templates` includes parsing the HTML). */
  changePhases: Record<string, number>;
  /** A re-render without a change (Foundry re-renders the tracker on many unrelated updates). */
  warmMs: number;
  /** A first render: no live parts to patch (opening the tab, switching encounters). */
  firstMs: number;
  /** The first render by step (medians). */
  firstPhases: Record<string, number>;
  /** The same rows through a bare template, replaced wholesale, after the same preparation. */
  changeBareMs: number;
  warmBareMs: number;
  firstBareMs: number;
  changeRatio: number;
  warmRatio: number;
  firstRatio: number;
  /** Whether the timer had microsecond resolution. */
  isolated: boolean;
  overflowX: boolean;
  scrollable: boolean;
}

declare global {
  interface Window {
    benchResult?: BenchResult | { check: RenderCheck };
    benchError?: string;
    /** The benchmark's world, for profiling by hand from the console. */
    benchWorld?: { tracker: unknown; combat: unknown; server: unknown };
  }
}

/** The render steps timed for the breakdown (ApplicationV2's methods, as the sim implements them). */
const STEPS = {
  context: "_prepareContext",
  templates: "_renderHTML",
  replace: "_replaceHTML",
  after: "_onRender",
} as const;

/** Turn advances of the render check (`?check=`; 0: time renders instead). */
const CHECK_STEPS = Math.max(0, Number(params.get("check") ?? "0"));

/** What the render check found. */
export interface RenderCheck {
  readonly steps: number;
  /** Parts compared. */
  readonly compared: number;
  /** Where the patched tracker differed from a first render. */
  readonly mismatches: readonly string[];
}

/** Samples per figure. */
const RUNS = Math.max(5, Number(params.get("runs") ?? "40"));

/**
 * Portraits as in the playground, served from blob URLs: a short address like a Foundry image path
 * and no request after the first (as a cached image in Foundry).
 */
const PORTRAITS = ["#7a4a2a", "#8e2f2f", "#2f5f8e", "#2f7a4f", "#5f3f7a"].map((colour) => {
  const svg = decodeURIComponent(portrait("C", colour).replace(/^data:image\/svg\+xml,/, ""));
  return URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
});

/** `?only=change` times the turn advance alone (to profile it by hand). */
const only = (): string | null => params.get("only");

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/**
 * The median of `a[i] - b[i]` over paired samples, and a distribution-free 95% interval of that
 * median (the sign test's order statistics: the k-th smallest and largest differences, with
 * k = (n - 1.96 sqrt(n)) / 2).
 */
function pairedMedian(a: readonly number[], b: readonly number[]): { median: number; low: number; high: number } {
  const d = a.map((x, i) => x - (b[i] ?? Number.NaN)).filter((x) => !Number.isNaN(x));
  d.sort((x, y) => x - y);
  const k = Math.max(0, Math.floor((d.length - 1.96 * Math.sqrt(d.length)) / 2));
  return { median: median(d), low: d[k] ?? Number.NaN, high: d[d.length - 1 - k] ?? Number.NaN };
}

/** A command through the module's API on the GM's client; a refusal stops the bench. */
type Command = { type: string } & Record<string, unknown>;

/** The parts of a tracker element as markup, by part id. */
function partsOf(element: HTMLElement): Record<string, string> {
  return Object.fromEntries(
    Array.from(element.querySelectorAll<HTMLElement>("[data-application-part]")).map((part) => [
      part.dataset.applicationPart ?? "",
      canonicalMarkup(part),
    ]),
  );
}

/**
 * An element's inner markup with each element's attributes in name order: the order of attributes
 * means nothing to a browser or a user, and a patch that adds one (say `aria-current`) to a kept
 * element puts it last, where a fresh render may write it earlier.
 */
function canonicalMarkup(part: HTMLElement): string {
  const copy = part.cloneNode(true) as HTMLElement;
  for (const el of copy.querySelectorAll("*")) {
    const attributes = Array.from(el.attributes, (a) => [a.name, a.value] as const).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    for (const [name] of attributes) el.removeAttribute(name);
    for (const [name, value] of attributes) el.setAttribute(name, value);
  }
  return copy.innerHTML;
}

/** The first place where two markups differ, with some context. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `at ${i}: ${JSON.stringify(a.slice(Math.max(0, i - 120), i + 120))} vs ${JSON.stringify(b.slice(Math.max(0, i - 120), i + 120))}`;
}

/**
 * The render check (`?check=<steps>`): after each of `steps` turn advances (and after a re-render
 * without a change), the live tracker, patched render after render with its rows kept in place,
 * must show exactly what a new tracker shows on its first render, part by part.
 */
async function checkRenders(
  tracker: { element: HTMLElement },
  render: () => Promise<unknown>,
  driver: { step: () => Promise<void> },
  server: { settle: () => Promise<void> },
  hold: { active: boolean; asked: boolean },
): Promise<RenderCheck> {
  const Tracker = tracker.constructor as new (options: object) => {
    element: HTMLElement;
    render: (options: object) => Promise<unknown>;
    close: () => Promise<unknown>;
  };
  const mismatches: string[] = [];
  let compared = 0;
  const compare = async (when: string): Promise<void> => {
    const fresh = new Tracker({ id: "combat-check" });
    await fresh.render({ force: true });
    const want = partsOf(fresh.element);
    await fresh.close();
    fresh.element.remove();
    const got = partsOf(tracker.element);
    for (const id of new Set([...Object.keys(want), ...Object.keys(got)])) {
      compared++;
      if (got[id] !== want[id])
        mismatches.push(`${when}, part ${id}: ${firstDifference(got[id] ?? "", want[id] ?? "")}`);
    }
  };
  await render();
  await compare("after the set-up");
  for (let i = 1; i <= CHECK_STEPS; i++) {
    Object.assign(hold, { active: true, asked: false });
    await driver.step();
    await server.settle();
    hold.active = false;
    await render();
    await compare(`after step ${i}`);
    if (i % 3 === 0) {
      await render();
      await compare(`after step ${i} and a re-render`);
    }
  }
  return { steps: CHECK_STEPS, compared, mismatches };
}

async function run(): Promise<BenchResult | { check: RenderCheck }> {
  const sample = SAMPLES.find((s) => s.id === mode);
  if (sample === undefined) throw new Error(`no sample for mode ${mode}`);
  // Every fifth combatant is a PC (player-owned): the first is Alice's, the others Bob's. The
  // others are NPCs. Each carries the traits the mode's sample gives its namesake.
  const isPC = (i: number): boolean => i % 5 === 0;
  const namesake = (i: number): string =>
    i === 0 ? "Aria" : isPC(i) ? "Brom" : i === 1 ? "Officer" : `Trooper ${1 + (i % 3)}`;
  const actors: JsonObject[] = Array.from({ length: n }, (_, i): JsonObject => ({
    _id: id("actor", i),
    name: i === 0 ? "Aria the Unexpectedly Long-Named Duelist of the Northern Reaches" : `Combatant ${i + 1}`,
    type: isPC(i) ? "character" : "npc",
    img: PORTRAITS[i % PORTRAITS.length] ?? "",
    ownership: i === 0 ? { default: 0, [PLAYER]: 3 } : isPC(i) ? { default: 0, [BOB]: 3 } : { default: 0 },
    system: { attributes: { init: { mod: i % 5 } }, ...(sample.actors?.[namesake(i)] ?? {}) },
  }));
  const settings = Object.fromEntries(
    Object.entries({
      ...sample.settings,
      // No wall-clock countdown in a benchmark (it would hesitate declarers between samples).
      ...(mode === "sides" ? { sidesCountdown: 0 } : {}),
    }).map(([k, v]) => [`${MODULE_ID}.${k}`, v]),
  );
  const server = new SimServer({
    users: [
      { _id: GM, name: "Gamemaster", role: ROLES.GAMEMASTER },
      { _id: PLAYER, name: "Alice", role: ROLES.PLAYER, character: id("actor", 0) },
      { _id: BOB, name: "Bob", role: ROLES.PLAYER },
    ],
    actors,
    scenes: [
      {
        _id: SCENE,
        name: "Bench",
        active: true,
        tokens: actors.map((a, i) => ({
          _id: id("token", i),
          actorId: a._id ?? null,
          name: a.name ?? null,
          disposition: isPC(i) ? 1 : -1,
        })),
      },
    ],
    settings: { [`${MODULE_ID}.defaultMode`]: mode, ...settings },
    seed: 1,
  });
  // The GM drives the encounter. In the GM's view it is also the client whose tracker is timed; in
  // a player's view the GM runs in a hidden frame and Alice's client (owner of one PC) is timed.
  let gm: SimRealm;
  let viewer: SimRealm;
  if (view === "player") {
    window.benchServer = server;
    const frame = document.createElement("iframe");
    frame.hidden = true;
    frame.src = "./bench-gm.html";
    document.body.append(frame);
    const frameWindow = (): Window => {
      if (frame.contentWindow === null) throw new Error("no GM frame");
      return frame.contentWindow;
    };
    for (let i = 0; frameWindow().benchGM === undefined; i++) {
      if (frameWindow().benchGMError !== undefined) throw new Error(frameWindow().benchGMError);
      if (i > 600) throw new Error("the GM's client did not boot");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    gm = frameWindow().benchGM as SimRealm;
    // The GM's own tracker is another machine's work at a table: it does not render here.
    const gmTracker = gm.ui.combat as { render: () => Promise<unknown> };
    gmTracker.render = () => Promise.resolve(gmTracker);
    viewer = await bootRealm(server, PLAYER);
  } else {
    gm = await bootRealm(server, GM);
    viewer = gm;
  }
  const tracker = viewer.ui.combat as { element: HTMLElement; render: (options?: object) => Promise<unknown> };
  document.getElementById("pg-combat")?.append(tracker.element);
  tracker.element.classList.add("pg-tracker");

  const Combat = gm.classes.Combat.implementation;
  const gmCombat = (await Combat.create({
    scene: SCENE,
    active: true,
    flags: { [MODULE_ID]: { mode } },
  })) as unknown as SimCombat;
  await gmCombat.createEmbeddedDocuments(
    "Combatant",
    actors.map((a, i) => ({ actorId: a._id ?? null, tokenId: id("token", i), sceneId: SCENE })),
  );
  await server.settle();
  await server.settle();
  const moduleApi = gm.game.modules.get(MODULE_ID)?.api as {
    command(combat: unknown, command: unknown): Promise<{ ok: boolean; code?: string }>;
  };
  const cmd = async (command: Command): Promise<void> => {
    const result = await moduleApi.command(gmCombat, command);
    if (!result.ok) throw new Error(`${mode}: ${command.type} refused (${result.code ?? "?"})`);
  };
  const state = (): unknown => {
    const stored = gmCombat.getFlag(MODULE_ID, "encounter") as { state: Json } | undefined;
    if (stored === undefined) throw new Error("no stored encounter");
    return decodeArrays(stored.state);
  };
  const ids = gmCombat.combatants.contents.map((c) => c.id ?? "");
  const setUp = DRIVERS[mode];
  if (setUp === undefined) throw new Error(`no bench driver for mode ${mode}`);
  // Renders are timed up to a forced layout. The render an update asks for is held until the
  // update has settled, then timed alone (timing it in place would count the update's own work,
  // which runs between the render's awaits). The set-up's renders are held too (none is timed).
  const render = tracker.render.bind(tracker);
  // (The simulated client asks for a full render, with no options, as the held one is done.)
  const hold = { active: true, asked: false };
  tracker.render = async (): Promise<unknown> => {
    if (!hold.active) return render();
    hold.asked = true;
    return tracker;
  };
  const setupStart = performance.now();
  const driver = await setUp({ cmd, state, ids });
  await server.settle();
  const setupMs = performance.now() - setupStart;
  hold.active = false;
  const combat = viewer.game.combats.get(gmCombat.id ?? "") as unknown as SimCombat;

  window.benchWorld = { tracker, combat, server };
  if (CHECK_STEPS > 0) return { check: await checkRenders(tracker, render, driver, server, hold) };
  /** Force style and layout (reading a size does). */
  const layout = (el: HTMLElement): number => el.offsetHeight;
  // Where a render's time goes: each step of ApplicationV2's render, timed on the tracker itself.
  const phases: Record<string, number> = {};
  const phased = tracker as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const [step, name] of Object.entries(STEPS)) {
    const original = phased[name];
    if (typeof original !== "function") continue;
    phased[name] = function (this: unknown, ...args: unknown[]): unknown {
      const t0 = performance.now();
      const out = original.apply(this, args);
      const add = (): void => {
        phases[step] = (phases[step] ?? 0) + performance.now() - t0;
      };
      if (out instanceof Promise) return out.finally(add);
      add();
      return out;
    };
  }
  // The render options of the next timed render: a render done whole, and a first render, are
  // first renders (ApplicationRenderOptions' `isFirstRender`): the tracker reuses no row of an
  // earlier render for them, so they stay the baselines of what a patch and the rows' reuse save.
  let renderOptions: { isFirstRender?: boolean } = {};
  const timedRender = async (): Promise<number> => {
    const options = renderOptions;
    renderOptions = {};
    const t0 = performance.now();
    await render(options);
    const t1 = performance.now();
    // The render's time outside its steps (between their awaits).
    const inSteps = Object.keys(STEPS).reduce((sum, step) => sum + (phases[step] ?? 0), 0);
    phases.between = t1 - t0 - inSteps;
    layout(tracker.element);
    phases.layout = performance.now() - t1;
    return performance.now() - t0;
  };
  /**
   * The main thread's work in the next frame: from the frame's start (its animation-frame
   * callbacks, which run before the frame's style, layout and paint) to the first task after it.
   * A forced layout is not all of a render's layout: a new row with `content-visibility: auto`
   * (the tracker's rows, slots, queue entries and intents) is left out of it until the frame
   * decides whether it is on screen, and is laid out then.
   */
  const frameWork = (): Promise<number> =>
    new Promise((resolve) => {
      requestAnimationFrame(() => {
        const t0 = performance.now();
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          resolve(performance.now() - t0);
        };
        channel.port2.postMessage(null);
      });
    });
  // The bare list: the same rows (portrait, name, initiative) through a bare template, replaced
  // wholesale, timed under the same conditions as the tracker: after the same preparation (the
  // same settled update, say), in turns first and second, so neither always finds the caches warm.
  const Handlebars = (window as unknown as { Handlebars: { compile(src: string): (data: object) => string } })
    .Handlebars;
  const bare = Handlebars.compile(
    '<ol class="combat-tracker">{{#each rows}}<li class="combatant"><img src="{{img}}" alt="" width="32" height="32">' +
      '<span class="name">{{name}}</span> <span class="initiative">{{initiative}}</span></li>{{/each}}</ol>',
  );
  const bareRoot = document.getElementById("pg-bare");
  if (bareRoot === null) throw new Error("no bare root");
  const bareOnce = (): number => {
    const t0 = performance.now();
    const rows = combat.turns.map((c) => ({ name: c.name, img: c.img, initiative: c.initiative }));
    const template = document.createElement("template");
    template.innerHTML = bare({ rows });
    bareRoot.replaceChildren(template.content);
    layout(bareRoot);
    return performance.now() - t0;
  };
  type Timed = {
    ms: number;
    bare: number;
    prepare: number;
    phases: Record<string, number>;
    /** With `frames`: the next frame's work, and the render with it (medians; NaN without). */
    frame: number;
    toFrame: number;
    /** With `frames`: each sample's render with its frame, in sample order (for pairing series). */
    toFrames: number[];
  };
  /**
   * `runs` samples (after 5 warm-up ones) of the tracker's render and of the bare list, each
   * after `prepare` (untimed), for each preparation in `prepares`: the series take turns sample by
   * sample (each going first in turn), so a spell of load on this machine falls on all of them
   * alike. Medians of each series, and the tracker's render steps. With `frames`, the frame
   * before each render is waited for (untimed: what the preparation left to draw is drawn), and
   * the frame after it is timed too ({@link frameWork}); the bare list is timed outside those.
   */
  const timeTogether = async (
    prepares: ReadonlyArray<() => Promise<void>>,
    runs: number,
    frames = false,
  ): Promise<Timed[]> => {
    const series = prepares.map(() => {
      const steps: Record<string, number[]> = {};
      return {
        tracked: [] as number[],
        prepared: [] as number[],
        bares: [] as number[],
        frames: [] as number[],
        toFrames: [] as number[],
        steps,
      };
    });
    for (let i = 0; i < runs + 5; i++) {
      const shift = i % prepares.length;
      const order = prepares.map((_, k) => (k + shift) % prepares.length);
      for (const k of order) {
        const prepare = prepares[k];
        const out = series[k];
        if (prepare === undefined || out === undefined) continue;
        const p0 = performance.now();
        await prepare();
        const preparedMs = performance.now() - p0;
        for (const key of Object.keys(phases)) Reflect.deleteProperty(phases, key);
        let ms: number;
        let bareMs: number;
        let frameMs = Number.NaN;
        if (i % 2 === 0) {
          if (frames) await frameWork();
          ms = await timedRender();
          if (frames) frameMs = await frameWork();
          bareMs = bareOnce();
        } else {
          bareMs = bareOnce();
          if (frames) await frameWork();
          for (const key of Object.keys(phases)) Reflect.deleteProperty(phases, key);
          ms = await timedRender();
          if (frames) frameMs = await frameWork();
        }
        if (i < 5) continue;
        out.tracked.push(ms);
        out.bares.push(bareMs);
        out.prepared.push(preparedMs);
        out.frames.push(frameMs);
        out.toFrames.push(ms + frameMs);
        for (const [step, value] of Object.entries(phases)) (out.steps[step] ??= []).push(value);
      }
    }
    return series.map((out) => ({
      ms: median(out.tracked),
      bare: median(out.bares),
      prepare: median(out.prepared),
      phases: Object.fromEntries(Object.entries(out.steps).map(([k, v]) => [k, median(v)])),
      frame: median(out.frames),
      toFrame: median(out.toFrames),
      toFrames: out.toFrames,
    }));
  };
  const time = async (prepare: () => Promise<void>, runs: number): Promise<Timed> => {
    const [timed] = await timeTogether([prepare], runs);
    if (timed === undefined) throw new Error("nothing timed");
    return timed;
  };
  const advance = async (): Promise<void> => {
    Object.assign(hold, { active: true, asked: false });
    await driver.step();
    await server.settle();
    hold.active = false;
    if (!hold.asked) throw new Error("A turn advance did not ask the tracker to render.");
  };
  /** Take the module's parts out of the page: the next render has no live part to patch. */
  const dropParts = async (): Promise<void> => {
    for (const part of tracker.element.querySelectorAll("[data-application-part]")) part.remove();
    renderOptions = { isFirstRender: true };
    await Promise.resolve();
  };
  /**
   * The tracker forgets its live parts (ApplicationV2's `parts` record): the next render has
   * nothing to patch, so the application replaces each live part with its fresh one, as a render
   * without the patch does (the old parts' removal is the render's, as it would be).
   */
  const forgetParts = (): void => {
    (tracker as unknown as { parts: Record<string, unknown> }).parts = {};
    renderOptions = { isFirstRender: true };
  };
  // `?only=change` times the turn advance alone (to profile it by hand); the other figures read 0.
  const skip: Timed = { ms: 0, bare: 1, prepare: 0, phases: {}, frame: 0, toFrame: 0, toFrames: [] };
  // The turn advance patched, and the same turn advance rendered whole (the patch's baseline),
  // taking turns sample by sample, each with the frame that follows it.
  const [change = skip, full = skip] =
    only() === "change"
      ? [await timeTogether([advance], RUNS, true).then(([timed]) => timed ?? skip), skip]
      : await timeTogether(
          [
            advance,
            async () => {
              await advance();
              forgetParts();
            },
          ],
          RUNS,
          true,
        );
  const diff = pairedMedian(change.toFrames, full.toFrames);
  const warm = only() === "change" ? skip : await time(() => Promise.resolve(), RUNS);
  const first = only() === "change" ? skip : await time(dropParts, RUNS);

  const list = tracker.element.querySelector<HTMLElement>(".si-list");
  const overflowX = Array.from(tracker.element.querySelectorAll<HTMLElement>(".structured-initiative, .si-row")).some(
    (el) => el.scrollWidth > el.clientWidth + 1,
  );
  const scrollable = list !== null && (n < 20 || list.scrollHeight > list.clientHeight);
  return {
    n,
    mode,
    view,
    step: STEP_LABELS[mode] ?? "next turn",
    setupMs,
    changeMs: change.ms,
    fullMs: full.ms,
    changeFrameMs: change.frame,
    fullFrameMs: full.frame,
    changeToFrameMs: change.toFrame,
    fullToFrameMs: full.toFrame,
    patchDiffMs: diff.median,
    patchDiffLowMs: diff.low,
    patchDiffHighMs: diff.high,
    fullPhases: full.phases,
    commandMs: change.prepare,
    changeBareMs: change.bare,
    changePhases: change.phases,
    warmMs: warm.ms,
    warmBareMs: warm.bare,
    firstMs: first.ms,
    firstBareMs: first.bare,
    firstPhases: first.phases,
    changeRatio: change.ms / change.bare,
    warmRatio: warm.ms / warm.bare,
    firstRatio: first.ms / first.bare,
    isolated: crossOriginIsolated,
    overflowX,
    scrollable,
  };
}

run()
  .then((result) => {
    window.benchResult = result;
  })
  .catch((err: unknown) => {
    window.benchError = err instanceof Error ? `${err.message}\n${err.stack ?? ""}` : String(err);
  });
