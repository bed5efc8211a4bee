/**
 * Shared set-up of the browser tests: the playground's Vite server and Debian's Chromium driven by
 * playwright-core (headless, the launch flags of TOOLCHAIN.md), both started once per run by
 * test/e2e/global-setup.ts; each file gets a fresh browser context (its own storage).
 */
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type BrowserContext, type Frame, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, inject } from "vitest";
import type { OracleHandle } from "../../playground/host.js";

/** The repository root. */
export const ROOT = path.resolve(import.meta.dirname, "../..");
/** Where screenshots go (git-ignored). */
export const ARTEFACTS = path.join(ROOT, "test-artefacts");

/** A web server serving the playground. */
export interface Served {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The playground's Vite dev server (`npm start`'s), on the built module: the one the run's global
 * set-up started (test/e2e/global-setup.ts), which outlives the file.
 */
export function servePlayground(): Promise<Served> {
  return Promise.resolve({ url: inject("playgroundUrl"), close: () => Promise.resolve() });
}

/** A running browser on a running playground. */
export interface Session {
  readonly url: string;
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors and uncaught exceptions seen in any frame. */
  readonly errors: string[];
  close(): Promise<void>;
}

/**
 * Start the playground (the module must be built; by default the run's Vite dev server, or what
 * `serve` starts) and a fresh browser context with one page in the run's headless Chromium.
 */
export async function openSession(serve: () => Promise<Served> = servePlayground): Promise<Session> {
  if (!existsSync(path.join(ROOT, "dist/scripts/structured-initiative.js")))
    throw new Error("Build the module first (npm run build).");
  const server = await serve();
  const url = server.url;
  const browser = await chromium.connect(inject("browserEndpoint"));
  const context = await browser.newContext({ viewport: { width: 1180, height: 860 } });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => {
    errors.push(error.message);
  });
  mkdirSync(ARTEFACTS, { recursive: true });
  return {
    url,
    context,
    page,
    errors,
    async close() {
      await context.close();
      await browser.close();
      await server.close();
    },
  };
}

/**
 * One session for the tests of a file: opened before them, closed after them. Its members are read
 * when a test runs (the session does not exist yet where the file calls this).
 */
export function useSession(serve?: () => Promise<Served>): Session {
  let open: Session | null = null;
  beforeAll(async () => {
    open = await openSession(serve);
  });
  // The render oracle of every view (`?oracle=1`, set by `loadViews`): after every step of every
  // test, each view's tracker equalled a fresh render of the same state (test/oracle/render-oracle.ts).
  afterEach(async () => {
    if (open !== null) expect(await oracleMismatches(open.page), "the render oracle").toEqual([]);
  });
  afterAll(async () => {
    await open?.close();
  });
  const current = (): Session => {
    if (open === null) throw new Error("The browser session is not open yet.");
    return open;
  };
  return {
    get url() {
      return current().url;
    },
    get context() {
      return current().context;
    },
    get page() {
      return current().page;
    },
    get errors() {
      return current().errors;
    },
    close: () => current().close(),
  };
}

/**
 * What the render oracles of the page's views found since they were last asked, after checking each
 * tracker once more; every view's list is emptied.
 */
export async function oracleMismatches(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const frame of page.frames()) {
    const taken = await frame
      .evaluate(async () => (await (globalThis as { siRenderOracle?: OracleHandle }).siRenderOracle?.take()) ?? [])
      .catch((error: unknown) => [`the oracle of ${frame.url()} could not be read: ${String(error)}`]);
    found.push(...taken);
  }
  return found;
}

/** User ids of the playground's views. */
export const USERS = { gm: "gmUser0000000001", alice: "player0000000001", bob: "player0000000002" } as const;
/** A view's name. */
export type View = keyof typeof USERS;
/** Every view. */
export const VIEWS: readonly View[] = ["gm", "alice", "bob"];

/** Wait two animation frames in the view: whatever the last render or style change started is laid out and painted. */
export function twoFrames(frame: Frame): Promise<void> {
  return frame.evaluate(
    () =>
      new Promise<void>((resolve) => {
        requestAnimationFrame(() => {
          requestAnimationFrame(() => {
            resolve();
          });
        });
      }),
  );
}

/** The frame of one view, once its client has booted. */
export async function frameOf(page: Page, view: View): Promise<Frame> {
  const handle = await page.waitForSelector(`iframe[data-user="${USERS[view]}"]`);
  const frame = await handle.contentFrame();
  if (frame === null) throw new Error(`no frame for ${view}`);
  await frame.waitForSelector("body[data-ready=true]");
  return frame;
}

/**
 * The Foundry generation the playground emulates in this run: `SIM_GENERATION` (13 or 14), so
 * `npm test` runs the e2e suite once per flavour; 13 by default.
 */
export const GENERATION: 13 | 14 = process.env.SIM_GENERATION === "14" ? 14 : 13;

/**
 * Open the playground with `query` (on this run's Foundry generation unless the query names one)
 * and wait for every view's client to boot; the views' frames.
 */
export async function loadViews(session: Session, query: string): Promise<Record<View, Frame>> {
  const params = new URLSearchParams(query);
  if (!params.has("generation")) params.set("generation", String(GENERATION));
  // Every view of every browser test runs the render oracle.
  params.set("oracle", "1");
  await session.page.goto(`${session.url}?${params.toString()}`);
  const entries = await Promise.all(VIEWS.map(async (view) => [view, await frameOf(session.page, view)] as const));
  return Object.fromEntries(entries) as Record<View, Frame>;
}

/** Save a screenshot of each view under test-artefacts/<scenario>-<view>.png. */
export async function screenshots(page: Page, scenario: string): Promise<string[]> {
  const files: string[] = [];
  for (const view of VIEWS) {
    const file = path.join(ARTEFACTS, `${scenario}-${view}.png`);
    await page.locator(`iframe[data-user="${USERS[view]}"]`).screenshot({ path: file });
    files.push(file);
  }
  return files;
}

/** What a view's tracker shows at a glance, for comparing views. */
export interface Shown {
  order: string[];
  current: string;
  next: string;
  round: string;
  step: string;
  badges: Record<string, string[]>;
}

/** Read what a view shows. */
export async function shown(frame: Frame): Promise<Shown> {
  return frame.evaluate(() => {
    const text = (selector: string): string => (document.querySelector(selector)?.textContent ?? "").trim();
    const badges: Record<string, string[]> = {};
    const order: string[] = [];
    for (const row of Array.from(document.querySelectorAll(".si-row"))) {
      const name = (row.querySelector(".si-row__name")?.textContent ?? "").trim();
      order.push(name);
      badges[name] = Array.from(row.querySelectorAll(".si-badge:not(.si-badge--mine)")).map((b) =>
        b.textContent.replace(/\s+/g, " ").trim(),
      );
    }
    return {
      order,
      current: text("[data-si=current]"),
      next: text("[data-si=next]"),
      round: text(".sim-round"),
      step: text("[data-si=step]"),
      badges,
    };
  });
}

/** How {@link agreedOn} waits. */
export interface AgreeOptions<T> {
  /** What the agreed reading must also satisfy (default anything). */
  check?: (s: T) => boolean;
  /** The part of a reading the views must share (default all of it). */
  key?: (s: T) => unknown;
  /** How long to wait, in milliseconds (default 5000). */
  timeout?: number;
  /** More to say when the views never agree (the session's errors, the toasts…). */
  detail?: () => string | Promise<string>;
}

/**
 * The "views agree" poll every browser test shares: wait until `read` gives the same (`key`) in all
 * three views and the first satisfies `check`; return that reading. Fails with every view's last
 * reading when they never agree.
 */
export async function agreedOn<T>(
  frames: Record<View, Frame>,
  read: (frame: Frame) => Promise<T>,
  { check = () => true, key = (s) => s, timeout = 5000, detail }: AgreeOptions<T> = {},
): Promise<T> {
  let last: T[] = [];
  const same = (a: T, b: T): boolean => JSON.stringify(key(a)) === JSON.stringify(key(b));
  await expect
    .poll(
      async () => {
        last = await Promise.all(VIEWS.map((view) => read(frames[view])));
        const [first, ...rest] = last;
        return first !== undefined && rest.every((s) => same(s, first)) && check(first);
      },
      { timeout, interval: 50, message: "views agree" },
    )
    .toBe(true)
    .catch(async (error: unknown) => {
      const more = detail === undefined ? "" : ` ${await detail()}`;
      throw new Error(`the views did not agree: ${JSON.stringify(last)}${more}`, { cause: error });
    });
  const first = last[0];
  if (first === undefined) throw new Error("no views");
  return first;
}

/** Wait until all three views show the same thing (and it satisfies `check`); return it. */
export function agreedIn(frames: Record<View, Frame>, check: (s: Shown) => boolean = () => true): Promise<Shown> {
  return agreedOn(frames, shown, { check });
}

/** Elements of the tracker wider than the sidebar allows (horizontal overflow). */
export async function overflowing(frame: Frame): Promise<string[]> {
  return frame.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>(".structured-initiative, .si-row"))
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.className),
  );
}

/**
 * The GM types each `individual` combatant's check (by name, modifier 0) through the module's API,
 * starts the encounter and moves on `turns` turns.
 */
export async function startIndividual(gm: Frame, totals: Record<string, number>, turns: number): Promise<void> {
  await gm.evaluate(
    async ({ totals, turns }) => {
      interface Doc {
        id: string;
        name: string;
        combatants: { contents: Doc[] };
      }
      const { game } = globalThis as unknown as {
        game: {
          combats: { contents: Doc[] };
          modules: { get(id: string): { api: { command(c: Doc, command: object): Promise<unknown> } } };
        };
      };
      const api = game.modules.get("structured-initiative").api;
      const combat = game.combats.contents[0] as Doc;
      for (const c of combat.combatants.contents)
        await api.command(combat, { type: "recordInitiative", combatantId: c.id, total: totals[c.name], modifier: 0 });
      await api.command(combat, { type: "start" });
      for (let i = 0; i < turns; i++) await api.command(combat, { type: "nextTurn" });
    },
    { totals, turns },
  );
}

/**
 * The form fields, lists and buttons of the row named `name` in a view: inside its badges' `<span>`
 * (there should be none) and in its body region (`.si-row__body`, the mode's body partial); -1 when
 * the view has no such row.
 */
export function formsInRow(frame: Frame, name: string): Promise<{ inBadges: number; inBody: number }> {
  return frame.evaluate((rowName) => {
    const FORMS = "input, select, textarea, ol, ul, details, button";
    const row = Array.from(document.querySelectorAll(".si-row")).find(
      (r) => r.querySelector(".si-row__name")?.textContent.trim() === rowName,
    );
    return {
      inBadges: row?.querySelectorAll(`.si-badges :is(${FORMS})`).length ?? -1,
      inBody: row?.querySelectorAll(`.si-row__body :is(${FORMS})`).length ?? -1,
    };
  }, name);
}
