// @vitest-environment jsdom
/**
 * The render oracle itself can fail (issue 26): fed a tracker whose patched parts were broken by
 * hand — an entry left without its content (the two bugs of the removed kept-rows layer), a stale
 * attribute, a field's typed text wiped by a render, a field showing a value nobody gave it — it
 * reports each, saying where; fed the same tracker unbroken, it reports nothing.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { patchChildren } from "../../src/foundry/tracker/dom-patch";
import { RenderOracle, type OracleTracker } from "../oracle/render-oracle";

/** One element from markup. */
function el(html: string): HTMLElement {
  const template = document.createElement("template");
  template.innerHTML = html.trim();
  const first = template.content.firstElementChild;
  if (!(first instanceof HTMLElement)) throw new Error("no element");
  return first;
}

/** A phases-like glance part: the foes' intents, each an entry with its content, and a hero's field. */
const glance = (intents: readonly string[], button = `<button type="button" data-action="siNext">Next</button>`) =>
  `<section class="structured-initiative si-glance" data-application-part="glance">` +
  `<ol class="si-phases-intents">${intents
    .map((text, i) => `<li class="si-phases-intent" data-si-key="intent:${String(i)}"><span>${text}</span></li>`)
    .join("")}</ol>` +
  `<p><input type="text" name="note" data-combatant-id="aria" value=""></p>${button}</section>`;

/**
 * A tracker as the oracle sees it: its element holds one part, patched in place by the real patch
 * on each `_replaceHTML`; a fresh render (`_renderHTML`) renders the state's markup (`state.markup`) aside.
 */
function trackerOf(markup: string): OracleTracker & { state: { markup: string; wipe: boolean } } {
  const element = el(`<div id="combat">${markup}</div>`);
  document.body.append(element);
  const state = { markup, wipe: false };
  const tracker = {
    state,
    element,
    get parts(): Record<string, unknown> {
      return { glance: element.firstElementChild };
    },
    _configureRenderParts: (): unknown => ({ glance: {} }),
    _prepareContext: (options: unknown): unknown => options,
    _renderHTML: (): unknown => Promise.resolve({ glance: el(state.markup) }),
    _replaceHTML(): void {
      const live = element.firstElementChild;
      if (live !== null) patchChildren(live, el(state.markup));
      // Broken on demand: the render resets the field the user typed in.
      const field = element.querySelector("input");
      if (state.wipe && field !== null) field.value = "";
    },
  };
  return tracker;
}

/** The state changes and the tracker renders (patched in place), then the oracle compares. */
async function render(oracle: RenderOracle, tracker: ReturnType<typeof trackerOf>, markup: string): Promise<string[]> {
  tracker.state.markup = markup;
  tracker._replaceHTML();
  return oracle.afterRender(tracker);
}

beforeEach(() => {
  document.body.replaceChildren();
});

describe("the render oracle reports a patched tracker that differs from a fresh render", () => {
  it("reports nothing for a tracker the patch left right", async () => {
    const oracle = new RenderOracle("gm");
    const tracker = trackerOf(glance(["Blaster at Aria"]));
    expect(await render(oracle, tracker, glance(["Blaster at Aria", "Grab Brom"]))).toEqual([]);
    expect(oracle.compared).toBe(1);
  });

  it("an entry left empty (phases' intents after a hero's roll; declare-resolve's extra attacks)", async () => {
    const oracle = new RenderOracle("gm");
    const tracker = trackerOf(glance(["Blaster at Aria"]));
    await render(oracle, tracker, glance(["Blaster at Aria", "Grab Brom"]));
    // Broken by hand: the second intent keeps its element and loses its content.
    (tracker.element as Element).querySelector('[data-si-key="intent:1"]')?.replaceChildren();
    const found = await oracle.check(tracker, "after the roll");
    expect(found).toHaveLength(1);
    expect(found[0]).toContain("gm, combat, after the roll: part glance > ol:0 > li[data-si-key=intent:1]:1");
    expect(found[0]).toContain("0 children where a fresh render has 1");
    expect(found[0]).toContain("Grab Brom");
  });

  it("a stale attribute (a button left disabled)", async () => {
    const oracle = new RenderOracle("player");
    const tracker = trackerOf(glance([]));
    (tracker.element as Element).querySelector("button")?.setAttribute("disabled", "");
    const found = await oracle.check(tracker, "after a step");
    expect(found).toEqual([
      expect.stringContaining(
        'part glance > button[data-action=siNext]:2: attribute disabled="" where a fresh render has null',
      ),
    ]);
  });

  it("a field showing a value the user never gave it", async () => {
    const oracle = new RenderOracle("player");
    const tracker = trackerOf(glance([]));
    const field = (tracker.element as Element).querySelector("input");
    if (field === null) throw new Error("no field");
    field.value = "from another render";
    const found = await oracle.check(tracker, "after a step");
    expect(found).toEqual([
      expect.stringContaining('the field holds "from another render", which the user never gave it'),
    ]);
  });

  it("what the user typed, wiped by a render; kept, it is no difference", async () => {
    const oracle = new RenderOracle("player");
    const tracker = trackerOf(glance(["Blaster at Aria"]));
    await oracle.afterRender(tracker); // watched from now on
    const field = (tracker.element as Element).querySelector("input");
    if (field === null) throw new Error("no field");
    field.value = "when the door opens";
    field.dispatchEvent(new Event("input", { bubbles: true }));
    // The real patch keeps it: nothing to report.
    expect(await render(oracle, tracker, glance(["Grab Brom"]))).toEqual([]);
    expect(oracle.mismatches).toEqual([]);
    // A render that wipes it (broken by hand).
    tracker.state.wipe = true;
    await render(oracle, tracker, glance(["Blaster at Aria"]));
    expect(oracle.mismatches).toEqual([
      expect.stringContaining(
        "a render wiped what the user gave div[id=combat] > section[data-application-part=glance]",
      ),
    ]);
    expect(oracle.mismatches[0]).toContain('it held "when the door opens", now ""');
  });
});
