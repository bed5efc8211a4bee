/**
 * End to end, in Chromium (issue 29 item 4): the keyboard and the screen reader's live region, in
 * every mode, with one playground load per mode (the step tour of `tour.ts`).
 *
 * - **Keyboard order**, at every step of the tour, in the GM's and the player's view: Tab from the
 *   tracker's first control reaches every visible, enabled control of the tracker once, in the order
 *   they are seen (top to bottom; what shares a line, in document order), and nothing hidden; no
 *   positive tabindex. An open ⋯ menu is entered by Tab and closed by Escape, which gives the focus
 *   back to its button. The focus stays on its control when another user's update re-renders the
 *   tracker.
 * - **Live region**: a MutationObserver in every view records each text written into the tracker's
 *   live regions. A turn change is announced once in each view (naming who acts now), an update that
 *   changes no turn (another user's write, a re-render as a setting's change makes, a resize) writes
 *   nothing, and an undo announces the new current combatant once. Where the turn passes to nobody
 *   (an open slot, an upkeep, the heroes' choice) the region says so, not that a round begins.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import { agreedOn, useSession, VIEWS, type View } from "./browser.js";
import { MODES, read, send, tourMode, TABLE_VIEWS, type Mode, type Reading } from "./tour.js";

const session = useSession();

/** What a Tab walk found in one view. */
interface Walk {
  /** The tracker's controls a user can reach: visible, enabled, not in a closed disclosure. */
  controls: string[];
  /** What took the focus, in order, until it left the tracker. */
  reached: string[];
  /** Pairs (earlier, later) of the walk where the later one is seen above the earlier one. */
  backwards: string[];
  /** Elements with a positive tabindex. */
  positive: string[];
}

/**
 * Prepare a Tab walk in a view: the tracker's reachable controls (kept in the page, so the walk's
 * focus can be told apart without marking the DOM, which the render oracle compares), a focus log,
 * and the first control focused. Returns how many controls there are.
 */
function prepareWalk(frame: Frame): Promise<number> {
  return frame.evaluate(() => {
    const root = (window as unknown as { ui: { combat: { element: HTMLElement } } }).ui.combat.element;
    const FOCUSABLE = 'button, input, select, textarea, summary, a[href], [tabindex="0"]';
    const reachable = (el: HTMLElement): boolean => {
      if ((el as HTMLButtonElement).disabled) return false;
      if (el.closest('[aria-hidden="true"], [inert], [hidden]') !== null) return false;
      if (!el.checkVisibility({ visibilityProperty: true })) return false;
      // Drawn at all: not the 1 px, clipped box of text kept for screen readers only.
      const box = el.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) return false;
      // Inside a closed disclosure only its summary shows.
      const closed = el.closest("details:not([open])");
      if (closed !== null && !(el.tagName === "SUMMARY" && el.parentElement === closed)) return false;
      // A summary that is not its disclosure's first summary is no control.
      return !(el.tagName === "SUMMARY" && el.parentElement?.querySelector(":scope > summary") !== el);
    };
    const controls = Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(reachable);
    const log: Element[] = [];
    const state = { root, controls, log };
    (window as unknown as { siWalk: typeof state }).siWalk = state;
    document.addEventListener("focusin", (event) => {
      if ((window as unknown as { siWalk?: typeof state }).siWalk === state && event.target instanceof Element)
        log.push(event.target);
    });
    controls[0]?.focus();
    return controls.length;
  });
}

/** What the prepared walk saw, described. */
function walkResult(frame: Frame): Promise<Walk> {
  return frame.evaluate(() => {
    const { root, controls, log } = (
      window as unknown as { siWalk: { root: HTMLElement; controls: HTMLElement[]; log: Element[] } }
    ).siWalk;
    const describe = (el: Element): string => {
      const action = el.getAttribute("data-action");
      const label = (el.getAttribute("aria-label") ?? el.textContent).replace(/\s+/g, " ").trim().slice(0, 40);
      return `${el.tagName.toLowerCase()}${action === null ? "" : `[${action}]`} "${label}"`;
    };
    // The walk until the focus left the tracker.
    const inside: Element[] = [];
    for (const el of log) {
      if (!root.contains(el)) break;
      inside.push(el);
    }
    const scrolls = (el: Element): boolean => {
      const style = getComputedStyle(el);
      return /(auto|scroll)/.test(style.overflowY) && el.scrollHeight > el.clientHeight;
    };
    /**
     * Where `el` is seen, compared with `other`: its own box, or, when it sits in a scrolling box
     * that `other` is not in, that box's (what is scrolled away is seen where the box is).
     */
    const box = (el: Element, other: Element): DOMRect => {
      let shown = el;
      for (let up = el.parentElement; up !== null && !up.contains(other); up = up.parentElement)
        if (scrolls(up)) shown = up;
      return shown.getBoundingClientRect();
    };
    const backwards: string[] = [];
    for (let i = 0; i < inside.length; i++)
      for (let j = i + 1; j < inside.length; j++) {
        const a = inside[i] as Element;
        const b = inside[j] as Element;
        const ra = box(a, b);
        const rb = box(b, a);
        // `b` comes later but is wholly above `a` (a line apart, not merely taller or shorter).
        if (rb.bottom <= ra.top + 1) backwards.push(`${describe(b)} is above ${describe(a)}`);
      }
    const positive = Array.from(root.querySelectorAll("[tabindex]"))
      .filter((el) => Number(el.getAttribute("tabindex")) > 0)
      .map(describe);
    const index = new Map(controls.map((el, i) => [el, i]));
    const name = (el: Element): string => `${String(index.get(el as HTMLElement) ?? "hidden")} ${describe(el)}`;
    return { controls: controls.map(name), reached: inside.map(name), backwards, positive };
  });
}

/** Tab through a view's tracker from its first control and check the walk. */
async function checkTabOrder(frames: Record<View, Frame>, view: View, where: string): Promise<void> {
  const frame = frames[view];
  const count = await prepareWalk(frame);
  if (count === 0) return;
  // One more press than there are controls: the last leaves the tracker.
  for (let i = 0; i < count; i++) await session.page.keyboard.press("Tab");
  const walk = await walkResult(frame);
  // Tab reaches each control once, in document order, which follows what is seen; no positive tabindex.
  expect({ reached: walk.reached, backwards: walk.backwards, positive: walk.positive }, where).toEqual({
    reached: walk.controls,
    backwards: [],
    positive: [],
  });
}

/** Each ⋯ menu of a view: Enter opens it, Tab enters it, Escape closes it and gives the focus back. */
async function checkMenus(frames: Record<View, Frame>, view: View, where: string): Promise<void> {
  const frame = frames[view];
  const menus = frame.locator("details:not([open]) > summary.si-more");
  const count = await menus.count();
  for (let i = 0; i < count; i++) {
    // A handle: the selector would find the next closed menu once this one opens.
    const summary = await frame.locator("details:not([open]) > summary.si-more").first().elementHandle();
    const label = await summary.innerText();
    await summary.focus();
    await session.page.keyboard.press("Enter");
    await expect.poll(() => summary.evaluate((s) => (s.parentElement as HTMLDetailsElement).open)).toBe(true);
    const controls = await summary.evaluate(
      (s) =>
        Array.from(
          // A disclosure inside the menu (a foe's extra attack in `phases`) is entered by its summary.
          (s.parentElement as HTMLElement).querySelectorAll<HTMLElement>(
            "button, input, select, textarea, a[href], details > summary:not(.si-more)",
          ),
        ).filter((el) => el.checkVisibility({ visibilityProperty: true })).length,
    );
    await session.page.keyboard.press("Tab");
    const inMenu = await summary.evaluate((s) => {
      const active = document.activeElement;
      return active !== null && active !== s && (s.parentElement as HTMLElement).contains(active);
    });
    // A menu that only tells (a player's view of the sides' details) has nothing to enter.
    expect(inMenu, `${where}: Tab from the opened menu "${label}" goes into it`).toBe(controls > 0);
    if (!inMenu) await summary.focus();
    await session.page.keyboard.press("Escape");
    const after = await frame.evaluate(() => {
      const active = document.activeElement;
      return { summary: active?.tagName === "SUMMARY", open: document.querySelector("details[open] > .si-more") };
    });
    expect(after, `${where}: Escape closes the menu "${label}", the focus back on its button`).toEqual({
      summary: true,
      open: null,
    });
  }
}

/** Start recording, in a view, every text written into the tracker's live regions, and count renders. */
function recordLive(frame: Frame): Promise<void> {
  return frame.evaluate(() => {
    const w = window as unknown as {
      siLive?: { writes: string[]; renders: number };
      Hooks: { on(name: string, fn: () => void): void };
      ui: { combat: { element: HTMLElement } };
    };
    if (w.siLive !== undefined) return;
    const live = { writes: [] as string[], renders: 0 };
    w.siLive = live;
    w.Hooks.on("renderSICombatTracker", () => {
      live.renders++;
    });
    const LIVE = '[aria-live]:not([aria-live="off"])';
    const regionOf = (node: Node): Element | null =>
      (node.nodeType === 1 ? (node as Element) : node.parentElement)?.closest(LIVE) ?? null;
    const name = (region: Element): string => region.getAttribute("data-si") ?? region.className.split(" ")[0] ?? "";
    // The document: the tracker's region sits in the application's element, which a render may replace.
    new MutationObserver((records) => {
      const written = new Set<Element>();
      for (const record of records) {
        const region = regionOf(record.target);
        if (region !== null) written.add(region);
        // A region inserted with text says it too.
        for (const node of Array.from(record.addedNodes))
          if (node.nodeType === 1) {
            const el = node as Element;
            for (const inserted of [el, ...Array.from(el.querySelectorAll(LIVE))])
              if (inserted.matches(LIVE) && inserted.textContent.trim() !== "") written.add(inserted);
          }
      }
      for (const region of written)
        if (w.ui.combat.element.contains(region)) live.writes.push(`${name(region)}: ${region.textContent.trim()}`);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

/** The writes a view recorded since the last call (which are then forgotten). */
function takeLive(frame: Frame): Promise<string[]> {
  return frame.evaluate(() => (window as unknown as { siLive: { writes: string[] } }).siLive.writes.splice(0));
}

/** The writes of a view's tracker announcement region (`.structured-initiative-live`). */
const announced = (writes: readonly string[]): string[] =>
  writes.filter((w) => w.startsWith("structured-initiative-live:"));

/**
 * A turn change: run `change`, wait until every view shows the new turn and has announced it, then
 * check that each view announced it exactly once, naming who acts now (or the round when nobody does).
 */
async function turnChange(frames: Record<View, Frame>, what: string, change: () => Promise<void>): Promise<void> {
  const round = (r: Reading): unknown => (JSON.parse(r.view) as { round?: unknown } | null)?.round;
  const before = await read(frames.gm);
  await change();
  const turn = await agreedOn(frames, read, {
    check: (t) => t.marked === t.current && (t.current !== before.current || round(t) !== round(before)),
  });
  const said = turn.current === "" ? `Round ${String(round(turn))}` : turn.current;
  const region = (frame: Frame): Promise<string> =>
    frame.evaluate(() => document.querySelector(".structured-initiative-live")?.textContent ?? "");
  await Promise.all(VIEWS.map((view) => expect.poll(() => region(frames[view]), { interval: 20 }).toContain(said)));
  // Another render in every view, so that anything a later render would say again is said.
  await rerenderAll(frames);
  for (const view of VIEWS) {
    const writes = await takeLive(frames[view]);
    const turnWrites = announced(writes);
    expect(turnWrites, `${what}: ${view} announces the turn once: ${JSON.stringify(writes)}`).toHaveLength(1);
    expect(turnWrites[0], `${what}: ${view} names who acts now`).toContain(said);
  }
}

/** A view's render count (of its tracker, since its recording began). */
function renders(frame: Frame): Promise<number> {
  return frame.evaluate(() => (window as unknown as { siLive: { renders: number } }).siLive.renders);
}

/** Run `action`, then wait until every view's tracker has rendered since, and two frames more. */
async function afterRenders(frames: Record<View, Frame>, action: () => Promise<unknown>): Promise<void> {
  const counts = await Promise.all(VIEWS.map((view) => renders(frames[view])));
  await action();
  await Promise.all(
    VIEWS.map(async (view, i) => {
      await expect.poll(() => renders(frames[view]), { interval: 20 }).toBeGreaterThan(counts[i] ?? 0);
      await frames[view].evaluate(
        () =>
          new Promise<void>((resolve) => {
            requestAnimationFrame(() => {
              requestAnimationFrame(() => {
                resolve();
              });
            });
          }),
      );
    }),
  );
}

/** Re-render every view's tracker (as a setting's change does) and wait until each has. */
function rerenderAll(frames: Record<View, Frame>): Promise<void> {
  return afterRenders(frames, async () => {
    for (const view of VIEWS)
      await frames[view].evaluate(() => {
        void (window as unknown as { ui: { combat: { render(): Promise<unknown> } } }).ui.combat.render();
      });
  });
}

/** Update the combatant named `name` with `data`, in a view. */
function updateCombatant(frame: Frame, name: string, data: Record<string, unknown>): Promise<void> {
  return frame.evaluate(
    async ({ name, data }) => {
      interface Doc {
        name: string;
        update(data: object): Promise<unknown>;
      }
      const { game } = globalThis as unknown as {
        game: { combats: { contents: { combatants: { contents: Doc[] } }[] } };
      };
      const combatant = game.combats.contents[0]?.combatants.contents.find((c) => c.name === name);
      if (combatant === undefined) throw new Error(`no combatant ${name}`);
      await combatant.update(data);
    },
    { name, data },
  );
}

/** Focus a view's last control (the GM's footer, the player's own row), remembered to check later. */
function focusLast(frame: Frame): Promise<void> {
  return frame.evaluate(() => {
    const root = (window as unknown as { ui: { combat: { element: HTMLElement } } }).ui.combat.element;
    const controls = Array.from(root.querySelectorAll<HTMLElement>("button, input, select, textarea, summary"))
      .filter((el) => el.checkVisibility({ visibilityProperty: true }) && el.closest("details:not([open])") === null)
      .filter((el) => !(el as HTMLButtonElement).disabled);
    const last = controls.at(-1) ?? null;
    last?.focus();
    (window as unknown as { siFocused: Element | null }).siFocused = last;
  });
}

/** Whether a view's control focused by {@link focusLast} still has the focus (or what has it). */
async function expectFocusKept(frame: Frame, what: string): Promise<void> {
  const kept = await frame.evaluate(() => {
    const focused = (window as unknown as { siFocused: Element | null }).siFocused;
    const describe = (el: Element | null): string =>
      el === null ? "nothing" : `${el.isConnected ? "" : "(removed) "}${el.outerHTML.slice(0, 160)}`;
    return focused === null || (focused.isConnected && document.activeElement === focused)
      ? "kept"
      : `${describe(focused)} lost the focus to ${describe(document.activeElement)}`;
  });
  expect(kept, what).toBe("kept");
}

/**
 * Updates that change no turn: the GM renames the player's character and back (what the player sees
 * changes around their focus), the player writes on their character (another user's write, which
 * re-renders every view), every tracker re-renders (as a setting's change does), the window is
 * resized. The focus stays where the user had it (one view at a time: the page has one focus); no
 * live region says anything.
 */
async function unrelatedUpdates(frames: Record<View, Frame>, what: string): Promise<void> {
  await focusLast(frames.bob);
  await afterRenders(frames, () => updateCombatant(frames.gm, "Brom", { name: "Brom Stone" }));
  await expectFocusKept(frames.bob, `${what}: the player keeps the focus through the GM's update`);
  await focusLast(frames.gm);
  await afterRenders(frames, () => updateCombatant(frames.bob, "Brom Stone", { "flags.world.note": what }));
  await expectFocusKept(frames.gm, `${what}: the GM keeps the focus through the player's update`);
  await afterRenders(frames, () => updateCombatant(frames.gm, "Brom Stone", { name: "Brom" }));
  const width = session.page.viewportSize()?.width ?? 1000;
  await session.page.setViewportSize({ width: width + 120, height: 1000 });
  await session.page.setViewportSize({ width, height: 1000 });
  await rerenderAll(frames);
  await expectFocusKept(frames.gm, `${what}: the GM keeps the focus through re-renders and resizes`);
  for (const view of VIEWS) {
    const writes = await takeLive(frames[view]);
    expect(writes, `${what}: ${view}'s live regions say nothing`).toEqual([]);
  }
}

/** Where each mode's live check runs, and its turn changes (commands from the GM's view). */
const LIVE_AT: Record<Mode, { step: string; advance: Record<string, unknown>[][]; undo: number }> = {
  // Brom's turn: on to the Officer, then Trooper 1; back twice, to Brom's turn (his player's notice too).
  individual: { step: "turn", advance: [[{ type: "nextTurn" }], [{ type: "nextTurn" }]], undo: 2 },
  sides: { step: "slow-down", advance: [[{ type: "nextTurn" }], [{ type: "nextTurn" }]], undo: 2 },
  // The Officer fills the open NPC slot; Brom's claimed slot comes up.
  slots: {
    step: "npc-open",
    advance: [[{ type: "fillSlot", slot: 1, combatantId: "@Officer" }], [{ type: "nextTurn" }]],
    undo: 1,
  },
  "declare-resolve": { step: "resolve", advance: [[{ type: "nextTurn" }], [{ type: "nextTurn" }]], undo: 2 },
  phases: { step: "foes-resolve", advance: [[{ type: "nextTurn" }], [{ type: "nextTurn" }]], undo: 2 },
};

/** The live region's check at a step: a turn change, updates that change no turn, a turn change, undo. */
async function checkLive(frames: Record<View, Frame>, mode: Mode): Promise<void> {
  const plan = LIVE_AT[mode];
  for (const view of VIEWS) await takeLive(frames[view]);
  const [first, second] = plan.advance;
  await turnChange(frames, `${mode}: a turn change`, () => send(frames.gm, first ?? []));
  if (mode === "slots") await send(frames.bob, [{ type: "claimSlot", slot: 2, combatantId: "@Brom" }]);
  await unrelatedUpdates(frames, `${mode}: updates that change no turn`);
  await turnChange(frames, `${mode}: another turn change`, () => send(frames.gm, second ?? []));
  for (let i = 0; i < plan.undo; i++)
    await turnChange(frames, `${mode}: undo ${String(i + 1)}`, () => send(frames.gm, [{ type: "previousTurn" }]));
}

/**
 * What the live region says at the tour's steps where the turn passed to nobody: the round and what
 * happens instead (not "Round 1 begins." in the middle or at the end of round 1).
 */
const IDLE_SAID: Record<string, string> = {
  "slots pc-open": "Round 1: Slot 1 (PC) is open.",
  "slots npc-open": "Round 1: Slot 2 (NPC) is open.",
  "declare-resolve upkeep": "Round 1: Upkeep",
  "phases heroes": "Round 1: Heroes act",
};

describe("the keyboard and the live region in every mode (issue 29)", () => {
  for (const mode of MODES)
    it(`${mode}: Tab order, ⋯ menus, focus kept, turn changes announced once`, async () => {
      await tourMode(session, mode, async (_mode, step, frames) => {
        for (const view of VIEWS) await recordLive(frames[view]);
        const idle = IDLE_SAID[`${mode} ${step}`];
        if (idle !== undefined)
          for (const view of VIEWS)
            await expect
              .poll(() =>
                frames[view].evaluate(() => document.querySelector(".structured-initiative-live")?.textContent),
              )
              .toBe(idle);
        for (const [name, view] of Object.entries(TABLE_VIEWS)) {
          await checkTabOrder(frames, view, `${mode} ${step} ${name}`);
          await checkMenus(frames, view, `${mode} ${step} ${name}`);
        }
        if (step === LIVE_AT[mode].step) await checkLive(frames, mode);
      });
      expect(session.errors).toEqual([]);
    });
});
