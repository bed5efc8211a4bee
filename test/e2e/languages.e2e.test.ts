/**
 * The module in every language it ships (issue 31 item 1): the playground's language switch loads each
 * language module.json lists, and the tracker shows that language's texts with no key left raw. In a
 * long-word language (German) and a CJK one (Japanese), each mode, started, is photographed for the GM
 * and a player (test-artefacts/lang-<code>-<mode>-<view>.png) and no text runs out of the sidebar or
 * is cut inside its own box.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Frame } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ARTEFACTS, GENERATION, loadViews, ROOT, useSession } from "./browser.js";

interface Language {
  lang: string;
  name: string;
  path: string;
}
const manifest = JSON.parse(readFileSync(path.join(ROOT, "module.json"), "utf8")) as { languages: Language[] };
type Tree = { [key: string]: string | Tree };
const textsOf = (language: Language): Tree =>
  (JSON.parse(readFileSync(path.join(ROOT, language.path), "utf8")) as { STRUCTURED_INITIATIVE: Tree })
    .STRUCTURED_INITIATIVE;

const session = useSession();

/**
 * The texts, the templates and the styles are the same on both Foundry generations (what differs sits
 * behind src/foundry/compat.ts, which the other browser tests cover on both), so the languages are
 * checked once, on v13: on v14 they would repeat the same pages and cost `npm test` a minute.
 */
const V14 = GENERATION === 14;

/** The GM rolls what the sample needs and starts the combat. */
async function start(gm: Frame): Promise<void> {
  const started = await gm.evaluate(async () => {
    const g = globalThis as unknown as {
      game: { combat: { rollAll(): Promise<unknown>; startCombat(): Promise<unknown>; started: boolean } | null };
    };
    const combat = g.game.combat;
    if (combat === null) return false;
    await combat.rollAll();
    await combat.startCombat();
    return combat.started;
  });
  expect(started).toBe(true);
}

/**
 * Every visible element of the tracker whose box runs past the sidebar's sides, or whose text is cut
 * inside its own box (wider content than box, in an element that does not scroll); described briefly.
 */
function overflowing(frame: Frame): Promise<string[]> {
  return frame.evaluate(() => {
    const root = document.querySelector("#pg-combat");
    if (root === null) return ["no tracker"];
    const side = root.getBoundingClientRect();
    const found: string[] = [];
    const describe = (el: Element): string =>
      `${el.tagName.toLowerCase()}.${Array.from(el.classList).join(".")} "${el.textContent.trim().slice(0, 40)}"`;
    for (const el of Array.from(root.querySelectorAll<HTMLElement>("*"))) {
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || style.visibility === "hidden") continue;
      // Visually hidden texts for screen readers are clipped on purpose.
      if (style.position === "absolute" && box.width <= 1) continue;
      if (el.closest("details:not([open]) > :not(summary)")) continue;
      if (box.right > side.right + 1 || box.left < side.left - 1) found.push(`outside the sidebar: ${describe(el)}`);
      else if (
        el.scrollWidth > el.clientWidth + 1 &&
        !["auto", "scroll"].includes(style.overflowX) &&
        el.clientWidth > 0 &&
        style.display !== "inline"
      )
        found.push(`cut: ${describe(el)} (${String(el.scrollWidth)} > ${String(el.clientWidth)})`);
    }
    return found;
  });
}

describe.skipIf(V14)("every language module.json lists loads in the playground (?lang=<code>)", () => {
  it.each(manifest.languages)("$name ($lang): the tracker shows its texts, no raw key", async (language) => {
    const texts = textsOf(language);
    const frames = await loadViews(session, `lang=${language.lang}&sample=individual`);
    const html = await frames.gm.locator("#pg-combat").innerHTML();
    expect(html).not.toMatch(/STRUCTURED_INITIATIVE\./);
    const mode = (texts.Mode as Tree).individual as string;
    expect(await frames.gm.locator("#pg-combat").textContent()).toContain(mode);
    expect(await frames.gm.evaluate(() => document.documentElement.lang)).toBe(language.lang);
    // The switch names every language and shows the one in use.
    const options = await session.page.locator("#pg-lang option").allTextContents();
    expect(options).toEqual(manifest.languages.map((l) => l.name));
    expect(await session.page.locator("#pg-lang").inputValue()).toBe(language.lang);
    expect(session.errors).toEqual([]);
  });
});

const MODES = ["individual", "sides", "slots", "declare-resolve", "phases"] as const;

describe.skipIf(V14).each(["de", "ja"])("long words and CJK text fit the sidebar (%s)", (lang) => {
  it.each(MODES)("%s, started: the GM's and a player's trackers have no overflow", async (mode) => {
    const frames = await loadViews(session, `lang=${lang}&sample=${mode}`);
    await start(frames.gm);
    // Let every view render the started combat.
    await expect.poll(() => frames.alice.locator(".si-row").count(), { timeout: 5000 }).toBeGreaterThan(0);
    for (const view of ["gm", "alice"] as const) {
      const file = path.join(ARTEFACTS, `lang-${lang}-${mode}-${view}.png`);
      await frames[view].locator("#pg-combat").screenshot({ path: file });
      expect(await overflowing(frames[view]), `${lang} ${mode} ${view}`).toEqual([]);
      expect(await frames[view].locator("#pg-combat").innerHTML()).not.toMatch(/STRUCTURED_INITIATIVE\./);
    }
    expect(session.errors).toEqual([]);
  });
});
