/**
 * The step tour (issue 29): the playground's sample of each of the five modes is walked through every
 * step a table meets, and a callback sees each step in every view (to measure it, screenshot it,
 * audit it). The tour drives the rules through the module's API from the GM's view (typed checks,
 * declarations, turns), so every run reaches the same steps whatever the dice; it waits at each step
 * until every view has the state and shows it.
 *
 * Also here: the window the measurements assume (1000 px high, each view's sidebar combat tab 772 px
 * high, as Foundry's is in such a window: {@link sizeWindow}) and {@link spaceAboveList}, the height
 * above the combatant list.
 */
import path from "node:path";
import { mkdirSync } from "node:fs";
import type { Frame, Page } from "playwright-core";
import { agreedOn, loadViews, twoFrames, USERS, type Session, type View } from "./browser.js";

/** The five modes, in the order the tour walks them. */
export const MODES = ["individual", "sides", "slots", "declare-resolve", "phases"] as const;
/** A mode's id. */
export type Mode = (typeof MODES)[number];

/** Every step the tour stops at, per mode, in the order it meets them. */
export const TOUR_STEPS = {
  individual: ["setup", "turn"],
  sides: ["setup", "initiative", "declare-npc", "declare-pc", "resolve", "slow-down"],
  slots: ["setup", "pc-open", "taken", "npc-open"],
  "declare-resolve": ["setup", "declare-npc", "declare-pc", "resolve", "extra-attacks", "upkeep"],
  phases: ["setup", "foes-declare", "heroes", "hero-turn", "foes-resolve", "next-round"],
} as const satisfies Record<Mode, readonly string[]>;
/** A step of a mode. */
export type Step<M extends Mode = Mode> = (typeof TOUR_STEPS)[M][number];

/** What the tour calls at each step, with every view's frame. */
export type OnStep = (mode: Mode, step: string, frames: Record<View, Frame>) => Promise<void>;

/** The views a table has: the GM, and a player (Bob, who owns Brom: the tour gives Brom the player's turns). */
export const TABLE_VIEWS = { gm: "gm", player: "bob" } as const satisfies Record<string, View>;

/** The height of the window the layout is measured in. */
export const WINDOW_HEIGHT = 1000;
/** The height of Foundry's sidebar at a {@link WINDOW_HEIGHT} px high window. */
export const SIDEBAR_HEIGHT = 772;

/**
 * Size the page's window, `width` × {@link WINDOW_HEIGHT}, and each booted view so that its sidebar's
 * combat tab is {@link SIDEBAR_HEIGHT} px high, as Foundry's is in such a window (the playground's
 * views would otherwise fill what is left of the page under its bar and titles, about 710 px).
 */
export async function sizeWindow(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: WINDOW_HEIGHT });
  await page.evaluate((sidebar) => {
    for (const frame of Array.from(document.querySelectorAll<HTMLIFrameElement>("iframe.pg-view__frame"))) {
      const combat = frame.contentDocument?.querySelector("#pg-combat");
      if (combat === null || combat === undefined) continue;
      frame.style.flex = "none";
      frame.style.height = `${String(frame.clientHeight + sidebar - combat.getBoundingClientRect().height)}px`;
    }
  }, SIDEBAR_HEIGHT);
}

/**
 * The space in px between the top of the tracker's sidebar tab (the tracker application's element, in
 * the sidebar or its window) and the top of the combatant list (`.si-list`), as laid out unscrolled:
 * what the user scrolls past, or loses, before the first combatant. -1 when there is no list.
 */
export function spaceAboveList(frame: Frame): Promise<number> {
  return frame.evaluate(() => {
    const list = document.querySelector<HTMLElement>("#pg-combat .si-list");
    const top = document.querySelector<HTMLElement>("#pg-combat");
    if (list === null || top === null) return -1;
    // Whatever scrolls between the two is counted as if at its top.
    let scrolled = 0;
    for (let el = list.parentElement; el !== null && el !== top; el = el.parentElement) scrolled += el.scrollTop;
    return Math.round(list.getBoundingClientRect().top - top.getBoundingClientRect().top + scrolled);
  });
}

/** The height of a view's sidebar combat tab, in px (772 in Foundry at a 1000 px window). */
export function sidebarHeight(frame: Frame): Promise<number> {
  return frame.evaluate(() => Math.round(document.querySelector("#pg-combat")?.getBoundingClientRect().height ?? -1));
}

/** The seed each mode's sample is loaded with. */
export const SEEDS: Record<Mode, number> = { individual: 3, sides: 5, slots: 7, "declare-resolve": 11, phases: 3 };

/** A command as the tour sends it: `@Name` in a field (or a list field) stands for that combatant's id. */
export type Command = Record<string, unknown>;

/** What the tour reads of the encounter in a view. */
export interface Reading {
  /** The rules' view (`api.view`), as JSON. */
  view: string;
  /** The current combatant's name by the rules, and as the tracker marks it. */
  current: string;
  marked: string;
  round: string;
  rows: number;
}

/** Read the encounter in a view: the rules' view, who acts now by the rules and as the tracker marks it. */
export function read(frame: Frame): Promise<Reading> {
  return frame.evaluate(() => {
    interface Doc {
      id: string;
      name: string;
      combatants: { contents: Doc[] };
    }
    const { game } = globalThis as unknown as {
      game: {
        combats: { contents: Doc[] };
        modules: { get(id: string): { api: { view(c: Doc): { current: string | null } | null } } };
      };
    };
    const combat = game.combats.contents[0];
    const view = combat === undefined ? null : game.modules.get("structured-initiative").api.view(combat);
    const current = combat?.combatants.contents.find((c) => c.id === view?.current)?.name ?? "";
    const text = (el: Element | null): string => (el?.textContent ?? "").replace(/\s+/g, " ").trim();
    return {
      view: JSON.stringify(view),
      current,
      marked: text(document.querySelector(".si-row--current .si-row__name")),
      round: text(document.querySelector(".sim-round")),
      rows: document.querySelectorAll(".si-row").length,
    };
  });
}

/** Wait until every view has the same state, shows it (the current row marked), and `ready` holds in each view. */
export async function settle(
  frames: Record<View, Frame>,
  ready: Partial<Record<View, string>> = {},
  timeout = 10_000,
): Promise<Reading> {
  const reading = await agreedOn(frames, read, {
    check: (s) => s.view !== "null" && s.marked === s.current && s.rows > 0,
    timeout,
  });
  for (const [view, selector] of Object.entries(ready) as [View, string][])
    await frames[view].waitForSelector(selector, { state: "attached", timeout });
  // Two frames: whatever the last render started is laid out.
  for (const frame of Object.values(frames)) await twoFrames(frame);
  return reading;
}

/**
 * Send commands through the module's API from a view (the tour's are the GM's; a player's go as their
 * requests); a refused one throws with its code.
 */
export async function send(from: Frame, commands: readonly Command[]): Promise<void> {
  const refused = await from.evaluate(async (commands) => {
    interface Doc {
      id: string;
      name: string;
      combatants: { contents: Doc[] };
    }
    const { game } = globalThis as unknown as {
      game: {
        combats: { contents: Doc[] };
        modules: {
          get(id: string): { api: { command(c: Doc, command: object): Promise<{ ok: boolean; code?: string }> } };
        };
      };
    };
    const combat = game.combats.contents[0] as Doc;
    const idOf = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(idOf)
        : typeof value === "string" && value.startsWith("@")
          ? (combat.combatants.contents.find((c) => c.name === value.slice(1))?.id ?? value)
          : value;
    for (const command of commands) {
      const resolved = Object.fromEntries(Object.entries(command).map(([k, v]) => [k, idOf(v)]));
      const result = await game.modules.get("structured-initiative").api.command(combat, resolved);
      if (!result.ok) return `${JSON.stringify(command)}: ${result.code ?? "refused"}`;
    }
    return null;
  }, commands);
  if (refused !== null) throw new Error(`the tour's command was refused: ${refused}`);
}

const PCS = new Set(["Aria", "Brom"]);

/** `declare-resolve`: each combatant's typed IP, Aria fastest (15) to Trooper 3 slowest (4). */
export function recordIPs(): Command[] {
  const ips: [string, number][] = [
    ["Aria", 15],
    ["Brom", 12],
    ["Officer", 10],
    ["Trooper 1", 8],
    ["Trooper 2", 6],
    ["Trooper 3", 4],
  ];
  return ips.map(([name, total]) => ({ type: "recordIP", combatantId: `@${name}`, total, modifier: 0 }));
}

/** `slots`: each combatant's typed check, Aria first and Brom third: slots PC, NPC, PC, NPC, NPC, NPC. */
export function recordChecks(): Command[] {
  const checks: [string, number][] = [
    ["Aria", 5],
    ["Officer", 4],
    ["Brom", 3],
    ["Trooper 1", 2],
    ["Trooper 2", 1],
    ["Trooper 3", 0],
  ];
  return checks.map(([name, primary]) => ({ type: "recordCheck", combatantId: `@${name}`, primary, secondary: 0 }));
}

/** One mode's walk. */
type Walk = (frames: Record<View, Frame>, at: (step: string) => Promise<void>) => Promise<void>;

const WALKS: Record<Mode, Walk> = {
  async individual(frames, at) {
    await settle(frames);
    await at("setup");
    const totals: Record<string, number> = { Aria: 20, Brom: 18, Officer: 16, "Trooper 1": 14, "Trooper 2": 12 };
    totals["Trooper 3"] = 10;
    await send(frames.gm, [
      ...Object.entries(totals).map(([name, total]) => ({
        type: "recordInitiative",
        combatantId: `@${name}`,
        total,
        modifier: 0,
      })),
      { type: "start" },
      { type: "nextTurn" },
    ]);
    // Brom's turn: the player's own controls (Delay, Ready) on his row.
    await settle(frames, { bob: 'button[data-action="siReady"]' });
    await at("turn");
  },

  async sides(frames, at) {
    await settle(frames);
    await at("setup");
    await frames.gm.locator('button[data-action="siStart"]').click();
    await settle(frames, { bob: '[data-si="step"]' });
    await at("initiative");
    // The GM types both sides' rolls (no tie, whatever the dice): the foes declare first.
    const sides = await frames.gm.evaluate(() =>
      Array.from(document.querySelectorAll(".si-sides__list .si-side")).map((side) => ({
        id: (side.getAttribute("data-si-key") ?? "").replace(/^side:/u, ""),
        foes: (side.querySelector(".si-side__name")?.textContent ?? "").includes("Foes"),
      })),
    );
    await send(
      frames.gm,
      sides.map((side) => ({ type: "recordSideRoll", sideId: side.id, total: side.foes ? 8 : 14 })),
    );
    const seen = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const { current: who } = await settle(frames);
      const step = await frames.gm.evaluate(() => document.querySelector("[data-si=step]")?.textContent ?? "");
      if (!step.includes("Declaration")) break;
      const isPC = PCS.has(who);
      const name = isPC ? "declare-pc" : "declare-npc";
      if (!seen.has(name)) {
        seen.add(name);
        await settle(frames, isPC ? { [who === "Brom" ? "bob" : "alice"]: ".si-sides-declare" } : {});
        await at(name);
      }
      const actions = who === "Brom" ? [{ text: "Fire" }, { text: "Run to the door" }] : [{ text: "Fire" }];
      await send(frames.gm, [{ type: "declare", combatantId: `@${who}`, actions, forcePoint: false }]);
    }
    const { current: now } = await settle(frames);
    await at("resolve");
    // A character still to act slows down to follow the one acting now (a player's, if one is left).
    const order = await frames.gm.evaluate(() =>
      Array.from(document.querySelectorAll(".si-row:not(.si-row--current) .si-row__name")).map((n) =>
        n.textContent.trim(),
      ),
    );
    const slow = ["Brom", "Aria", ...order].find((name) => name !== now && order.includes(name)) ?? "";
    await send(frames.gm, [{ type: "slowDown", combatantId: `@${slow}`, after: `@${now}` }]);
    await settle(frames);
    await at("slow-down");
  },

  async slots(frames, at) {
    await settle(frames);
    await at("setup");
    await send(frames.gm, [...recordChecks(), { type: "start" }]);
    await settle(frames, { bob: 'button[data-action="siSlotClaim"]' });
    await at("pc-open");
    await send(frames.gm, [{ type: "fillSlot", slot: 0, combatantId: "@Aria" }]);
    await settle(frames, { gm: ".si-slot--current.si-slot--filled" });
    await at("taken");
    await send(frames.gm, [{ type: "nextTurn" }]);
    await settle(frames, { gm: ".si-slot--current.si-slot--npc" });
    await at("npc-open");
  },

  async "declare-resolve"(frames, at) {
    await settle(frames);
    await at("setup");
    await send(frames.gm, [...recordIPs(), { type: "start" }]);
    // The slowest declare first: the troopers (the GM), the Officer with two jabs, Brom (Bob), Aria.
    await settle(frames, { gm: ".si-dr-declare" });
    await at("declare-npc");
    const attack = (name: string, cost: number): Command => ({ name, cost, kind: "attack", def: 0 });
    await send(frames.gm, [
      { type: "declare", combatantId: "@Trooper 3", actions: [attack("Melee Attack", 4)] },
      { type: "declare", combatantId: "@Trooper 2", actions: [attack("Melee Attack", 4)] },
      { type: "declare", combatantId: "@Trooper 1", actions: [] },
      { type: "declare", combatantId: "@Officer", actions: [attack("Jab", 1), attack("Jab", 1)] },
    ]);
    await settle(frames, { bob: ".si-dr-declare" });
    await at("declare-pc");
    await send(frames.gm, [
      { type: "declare", combatantId: "@Brom", actions: [attack("Melee Attack", 4)] },
      { type: "declare", combatantId: "@Aria", actions: [{ name: "Dodge", cost: 2, kind: "defence", def: 0 }] },
    ]);
    await settle(frames);
    await at("resolve");
    for (let i = 0; i < 8; i++) {
      const step = await frames.gm.evaluate(() => document.querySelector("[data-si=step]")?.textContent ?? "");
      if (step.includes("Extra attacks")) break;
      await send(frames.gm, [{ type: "nextTurn" }]);
      await settle(frames);
    }
    await at("extra-attacks");
    await send(frames.gm, [{ type: "nextTurn" }]);
    await settle(frames, { gm: 'button[data-action="siDrUpkeep"]' });
    await at("upkeep");
  },

  async phases(frames, at) {
    await settle(frames);
    await at("setup");
    await send(frames.gm, [{ type: "start", surprise: false }]);
    await settle(frames, { gm: ".si-phases-form[open]" });
    await at("foes-declare");
    await send(frames.gm, [
      { type: "declareIntent", foeId: "@Officer", text: "Blaster at Brom", kind: "attack", targets: ["@Brom"] },
      { type: "declareIntent", foeId: "@Trooper 1", text: "Knife at Aria", kind: "attack", targets: ["@Aria"] },
      { type: "nextPhase" },
    ]);
    await settle(frames, { bob: 'button[data-action="siPhasesTakeTurn"]' });
    await at("heroes");
    await send(frames.gm, [{ type: "startTurn", combatantId: "@Brom" }]);
    await settle(frames, { bob: ".si-phases-turn" });
    await at("hero-turn");
    await send(frames.gm, [{ type: "nextTurn" }, { type: "nextPhase" }]);
    await settle(frames);
    await at("foes-resolve");
    for (let i = 0; i < 6; i++) {
      const { round } = await settle(frames);
      if (round.includes("2")) break;
      await send(frames.gm, [{ type: "nextTurn" }]);
    }
    await settle(frames, { gm: ".si-phases-form[open]" });
    await at("next-round");
  },
};

/**
 * Walk one mode's sample from a fresh playground (one load), calling `onStep` at each of its steps
 * ({@link TOUR_STEPS}); the steps met, in order.
 */
export async function tourMode(session: Session, mode: Mode, onStep: OnStep): Promise<string[]> {
  const frames = await loadViews(session, `sample=${mode}&seed=${String(SEEDS[mode])}`);
  await sizeWindow(session.page, session.page.viewportSize()?.width ?? 1000);
  const met: string[] = [];
  await WALKS[mode](frames, async (step) => {
    met.push(step);
    await onStep(mode, step, frames);
  });
  return met;
}

/** Where {@link shootStep} writes, from `SI_TOUR_SHOTS` (unset: no screenshots). */
export const SHOTS_DIR: string | null = process.env.SI_TOUR_SHOTS ?? null;
/** The window widths the screenshots are taken at. */
export const SHOT_WIDTHS = [1000, 1800] as const;

/**
 * Screenshots of a step: the GM's and the player's view, each alone across a window of each width of
 * {@link SHOT_WIDTHS}, 1000 px high (the other views, and the view's toasts, are hidden meanwhile), as
 * `<dir>/<mode>-<step>-<view>-<width>.png`. The window is left at the last width.
 */
export async function shootStep(
  page: Page,
  dir: string,
  mode: Mode,
  step: string,
  frames: Record<View, Frame>,
): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const width of SHOT_WIDTHS) {
    await sizeWindow(page, width);
    for (const [name, view] of Object.entries(TABLE_VIEWS)) {
      await page.evaluate((user) => {
        for (const column of Array.from(document.querySelectorAll<HTMLElement>(".pg-view")))
          column.style.display = column.querySelector(`iframe[data-user="${user}"]`) === null ? "none" : "";
      }, USERS[view]);
      // The toasts of the step's turn notices would cover the top of the tracker.
      await frames[view].evaluate(() =>
        document.getElementById("pg-notifications")?.style.setProperty("visibility", "hidden"),
      );
      await twoFrames(frames[view]);
      const file = path.join(dir, `${mode}-${step}-${name}-${String(width)}.png`);
      await page.locator(`iframe[data-user="${USERS[view]}"]`).screenshot({ path: file });
      await frames[view].evaluate(() =>
        document.getElementById("pg-notifications")?.style.removeProperty("visibility"),
      );
      files.push(file);
    }
  }
  await page.evaluate(() => {
    for (const column of Array.from(document.querySelectorAll<HTMLElement>(".pg-view"))) column.style.display = "";
  });
  return files;
}
