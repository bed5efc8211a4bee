// @vitest-environment jsdom
/**
 * Patching a re-rendered tracker part into the live one (src/foundry/dom-patch.ts): the live part
 * ends with the fresh markup exactly, keeps what did not change, and keeps what the user typed,
 * chose or focused.
 */
import fc from "fast-check";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { patchChildren, patchParts, tryPatchParts } from "../../src/foundry/tracker/dom-patch";

/** One element from markup. */
function el(html: string): HTMLElement {
  const template = document.createElement("template");
  template.innerHTML = html.trim();
  const first = template.content.firstElementChild;
  if (!(first instanceof HTMLElement)) throw new Error("no element");
  return first;
}

const row = (id: string, name: string, extra = "", controls = ""): string =>
  `<li class="si-row${extra}" data-combatant-id="${id}"><span class="si-row__name">${name}</span>` +
  `<span class="si-badges"></span>${controls}</li>`;

const list = (...rows: string[]): string => `<ol class="si-list">${rows.join("")}</ol>`;

const delay = (id: string): string =>
  `<div class="si-controls"><button type="button" data-action="siDelay" data-combatant-id="${id}">Delay</button>` +
  `<input type="text" name="trigger" data-combatant-id="${id}"></div>`;

/** Patch a live copy of `before` to `after`; return the live element and the result. */
function patched(before: string, after: string, live = el(before)) {
  if (!live.isConnected) document.body.append(live);
  const result = patchChildren(live, el(after));
  return { live, result };
}

beforeEach(() => {
  document.body.replaceChildren();
});

describe("patching a part in place", () => {
  it("ends with the fresh markup and touches only the rows that changed", () => {
    const before = list(row("a", "Aria", " si-row--current", delay("a")), row("b", "Brom"), row("c", "Cora"));
    const after = list(row("a", "Aria"), row("b", "Brom", " si-row--current", delay("b")), row("c", "Cora"));
    const live = el(before);
    document.body.append(live);
    const [a, b, c] = Array.from(live.children);
    const { result } = patched(before, after, live);
    expect(live.outerHTML).toBe(el(after).outerHTML);
    // The same elements, updated in place; Cora's row untouched.
    expect(Array.from(live.children)).toEqual([a, b, c]);
    expect(result.replaced).toBe(1); // Brom's new controls
    const cora = c?.firstElementChild;
    const { result: again } = patched("", list(row("a", "Aria"), row("b", "Brom"), row("c", "Cora!")), live);
    expect(c?.firstElementChild).toBe(cora); // a text change updates the text node, not the row
    expect(c?.textContent).toBe("Cora!");
    expect(again.replaced).toBe(0); // nothing new: Brom's controls were only removed
    expect(b?.querySelector(".si-controls")).toBeNull();
  });

  it("follows a new order by combatant id, keeping each row's element", () => {
    const live = el(list(row("a", "Aria"), row("b", "Brom"), row("c", "Cora")));
    document.body.append(live);
    const byId = new Map(Array.from(live.children, (r) => [(r as HTMLElement).dataset.combatantId, r] as const));
    const after = list(row("c", "Cora"), row("a", "Aria"), row("b", "Brom"));
    const { result } = patched("", after, live);
    expect(live.outerHTML).toBe(el(after).outerHTML);
    expect(Array.from(live.children)).toEqual([byId.get("c"), byId.get("a"), byId.get("b")]);
    expect(result.replaced).toBe(0);
  });

  /** A block of a mode's panel (no identity: matched by its place among blocks) holding a list of keyed entries. */
  const block = (data: string, ...entries: string[]): string =>
    `<div class="si-block"><h4>${data}</h4><ol data-si="${data}">${entries.join("")}</ol></div>`;
  const entry = (key: string, text: string): string => `<li data-si-key="${key}"><span>${text}</span></li>`;

  it("shows every entry of a block that a new block before it pushed along (issue 26: phases' intents after a roll)", () => {
    const live = el(
      `<section>${block("pools")}${block("intents", entry("i1", "Blaster"), entry("i2", "Grab"))}</section>`,
    );
    document.body.append(live);
    const after = `<section>${block("roll")}${block("pools")}${block("intents", entry("i1", "Blaster"), entry("i2", "Grab"))}</section>`;
    patched("", after, live);
    expect(live.outerHTML).toBe(el(after).outerHTML);
  });

  it("shows every entry of a block that takes the place of one that went (issue 26: declare-resolve's extra attacks)", () => {
    const live = el(
      `<section>${block("queue", entry("t:a:1", "Aria"))}${block("extra", entry("t:a:2", "Aria 2"), entry("t:b:2", "Brom 2"))}</section>`,
    );
    document.body.append(live);
    const after = `<section>${block("extra", entry("t:a:2", "Aria 2"), entry("t:b:2", "Brom 2"))}</section>`;
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    patched("", after, live);
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
    expect(live.outerHTML).toBe(el(after).outerHTML);
  });

  it("adds and removes rows", () => {
    const live = el(list(row("a", "Aria"), row("b", "Brom")));
    document.body.append(live);
    const after = list(row("b", "Brom"), row("d", "Dax"));
    patched("", after, live);
    expect(live.outerHTML).toBe(el(after).outerHTML);
  });

  it("keeps text typed into a field whose row did not change", () => {
    const before = list(row("a", "Aria", " si-row--current", delay("a")), row("b", "Brom"));
    const live = el(before);
    document.body.append(live);
    const input = live.querySelector("input");
    if (input === null) throw new Error("no input");
    input.value = "when the door opens";
    const after = list(row("a", "Aria", " si-row--current", delay("a")), row("b", "Brom", " si-row--next"));
    patched(before, after, live);
    expect(live.querySelector("input")).toBe(input);
    expect(input.value).toBe("when the door opens");
  });

  it("carries typed text into the same field when its row had to be rebuilt", () => {
    const before = list(row("a", "Aria", "", delay("a")));
    const live = el(before);
    document.body.append(live);
    const input = live.querySelector("input");
    if (input === null) throw new Error("no input");
    input.value = "on the signal";
    // The controls' container changes tag: the subtree is rebuilt, not morphed.
    const after = list(row("a", "Aria", "", delay("a").replace(/div/g, "span")));
    patched(before, after, live);
    expect(live.querySelector("input")).not.toBe(input);
    expect(live.querySelector("input")?.value).toBe("on the signal");
  });

  it("gives a field for another combatant none of the text typed for the previous one", () => {
    const form = (id: string): string =>
      `<div class="si-sides-declare"><textarea name="actions" data-combatant-id="${id}"></textarea></div>`;
    const live = el(form("a"));
    document.body.append(live);
    const text = live.querySelector("textarea");
    if (text === null) throw new Error("no textarea");
    text.value = "Shoot";
    patched("", form("b"), live);
    expect(live.querySelector("textarea")).not.toBe(text);
    expect(live.querySelector("textarea")?.value).toBe("");
  });

  it("keeps focus on the same control when the element holding it is rebuilt", () => {
    const before = list(row("a", "Aria", "", delay("a")));
    const live = el(before);
    document.body.append(live);
    live.querySelector("button")?.focus();
    const after = list(row("a", "Aria", "", delay("a").replace(/div/g, "span")));
    patched(before, after, live);
    const button = live.querySelector("button");
    expect(button?.textContent).toBe("Delay");
    expect(document.activeElement).toBe(button);
  });

  it("does not reuse a control for another combatant", () => {
    const before = list(row("a", "Aria", "", delay("a")));
    const live = el(before);
    document.body.append(live);
    const button = live.querySelector("button");
    // Same row element, but the button now acts for someone else: a new button.
    const after = list(row("a", "Aria", "", delay("b")));
    patched(before, after, live);
    expect(live.querySelector("button")).not.toBe(button);
    expect(live.querySelector("button")?.dataset.combatantId).toBe("b");
  });

  it("keeps a pending choice in a select while that option exists, whatever comes and goes around it", () => {
    const select = (id: string, options: string[]): string =>
      `<span class="si-sides-choice"><select name="after" data-combatant-id="${id}">${options
        .map((o) => `<option value="${o}">${o}</option>`)
        .join("")}</select></span>`;
    const live = el(list(row("a", "Aria", "", select("a", ["b", "c", "d"]))));
    document.body.append(live);
    const choice = live.querySelector("select");
    if (choice === null) throw new Error("no select");
    choice.value = "c";
    // "b" finishes and leaves the list: the choice stays "c" (not the option now in its place).
    patched("", list(row("a", "Aria", "", select("a", ["c", "d"]))), live);
    expect(live.querySelector("select")).toBe(choice);
    expect(choice.value).toBe("c");
    // "c" leaves too: back to what the render selects.
    patched("", list(row("a", "Aria", "", select("a", ["d"]))), live);
    expect(choice.value).toBe("d");
  });

  it("hands a rebuilt control's choice and focus to the same control in the same row, never another row's", () => {
    // Controls named alike in every row (no id of their own): the row tells them apart.
    const choice = `<span class="si-sides-choice"><select name="side"><option value="s1" selected>s1</option><option value="s2">s2</option></select></span>`;
    const sideRow = (id: string, badge = ""): string =>
      `<li class="si-row" data-combatant-id="${id}">${badge}${choice}</li>`;
    const live = el(list(sideRow("a"), sideRow("b")));
    document.body.append(live);
    const inRow = (id: string): HTMLSelectElement | null =>
      live.querySelector<HTMLSelectElement>(`[data-combatant-id="${id}"] select`);
    const select = inRow("b");
    if (select === null) throw new Error("no select");
    select.value = "s2";
    select.focus();
    // A badge appears before the choice in row b: the span there is rebuilt (matched by position).
    patched("", list(sideRow("a"), sideRow("b", `<span class="si-sides-choice">Next</span>`)), live);
    expect(inRow("b")).not.toBe(select);
    expect(inRow("b")?.value).toBe("s2");
    expect(inRow("a")?.value).toBe("s1");
    expect(document.activeElement).toBe(inRow("b"));
  });

  it("hands typed text to its field inside the right one of two entries sharing an identity (issue 26: a side's name as the sides fold)", () => {
    // The sides panel names each side twice: in the list (with a number field to correct its roll)
    // and in the GM's "Edit sides" form (with its name field). Starting the encounter wraps both in a
    // fold: the form is rebuilt, and the name typed in it must land in the form's field again.
    const sideList = `<ol><li data-si-key="side:s1"><span>Heroes</span><input type="number" data-si-key="side:s1"></li></ol>`;
    const editForm = `<details class="si-sides-edit"><ul><li data-si-key="side:s1"><span><input type="text" value="Heroes" data-si-key="side:s1"></span></li></ul></details>`;
    const live = el(`<section>${sideList}${editForm}</section>`);
    document.body.append(live);
    const name = live.querySelector<HTMLInputElement>('input[type="text"]');
    if (name === null) throw new Error("no name field");
    name.value = "Rebels";
    name.focus();
    patched(
      "",
      `<section><details class="si-sides-fold"><summary>Round 1</summary>${sideList}${editForm}</details></section>`,
      live,
    );
    const now = live.querySelector<HTMLInputElement>('input[type="text"]');
    expect(now).not.toBe(name);
    expect(now?.value).toBe("Rebels");
    expect(document.activeElement).toBe(now);
    expect(live.querySelector<HTMLInputElement>('input[type="number"]')?.value).toBe("");
  });

  it("keeps focus and the text selection in a field whose row moves", () => {
    const live = el(list(row("a", "Aria"), row("b", "Brom"), row("c", "Cora", "", delay("c"))));
    document.body.append(live);
    const input = live.querySelector("input");
    if (input === null) throw new Error("no input");
    input.value = "when hit";
    input.focus();
    input.setSelectionRange(2, 4);
    const rows = Array.from(live.children);
    const moves = new MutationObserver(() => undefined);
    moves.observe(live, { childList: true });
    // Cora's readied action triggers: her row moves to the top; Aria's and Brom's stay put.
    patched("", list(row("c", "Cora", "", delay("c")), row("a", "Aria"), row("b", "Brom")), live);
    expect(Array.from(live.children)).toEqual([rows[2], rows[0], rows[1]]);
    const moved = moves.takeRecords().flatMap((r) => Array.from(r.removedNodes));
    expect(moved).toEqual([rows[2]]);
    expect(document.activeElement).toBe(input);
    expect(input.value).toBe("when hit");
    expect([input.selectionStart, input.selectionEnd]).toEqual([2, 4]);
  });

  it("leaves open a disclosure the user opened", () => {
    const panel = `<section><details class="si-sides-edit"><summary>Edit sides</summary><p>Heroes</p></details></section>`;
    const live = el(panel);
    document.body.append(live);
    live.querySelector("details")?.setAttribute("open", "");
    patched("", panel.replace("Heroes", "Rebels"), live);
    expect(live.querySelector("details")?.hasAttribute("open")).toBe(true);
    expect(live.textContent).toContain("Rebels");
  });

  it("drops an attribute the fresh element lacks, also when another takes its place (as many as before)", () => {
    const live = el(`<p><span class="si-badge" title="Next" aria-hidden="true">Next</span></p>`);
    document.body.append(live);
    const span = live.querySelector("span");
    patched("", `<p><span class="si-badge" data-tone="now" aria-hidden="true">Now</span></p>`, live);
    expect(live.querySelector("span")).toBe(span);
    expect(span?.getAttributeNames().sort()).toEqual(["aria-hidden", "class", "data-tone"]);
    patched("", `<p><span class="si-badge">Now</span></p>`, live);
    expect(span?.getAttributeNames()).toEqual(["class"]);
  });

  it("rebuilds a field whose type changes rather than keep what was typed in it", () => {
    const live = el(`<p><input type="text"></p>`);
    document.body.append(live);
    const input = live.querySelector("input");
    if (input === null) throw new Error("no input");
    input.value = "typed";
    patched("", `<p><input type="checkbox"></p>`, live);
    expect(live.querySelector("input")).not.toBe(input);
    expect(live.querySelector("input")?.type).toBe("checkbox");
  });
});

describe("patching, for any two renders", () => {
  const rowSpec = fc.record({
    id: fc.constantFrom("a", "b", "c", "d", "e", "f"),
    name: fc.constantFrom("Aria", "Brom", "Cora", ""),
    current: fc.boolean(),
    controls: fc.boolean(),
    badge: fc.constantFrom("", "Next", "Delaying"),
  });
  const render = (rows: { id: string; name: string; current: boolean; controls: boolean; badge: string }[]): string =>
    list(
      ...rows.map((r) =>
        row(
          r.id,
          r.name,
          r.current ? " si-row--current" : "",
          (r.badge === "" ? "" : `<span class="si-badge">${r.badge}</span>`) + (r.controls ? delay(r.id) : ""),
        ),
      ),
    );
  const rows = fc.uniqueArray(rowSpec, { selector: (r) => r.id, maxLength: 6 });

  it("the live part ends with exactly the fresh markup", () => {
    fc.assert(
      fc.property(rows, rows, (before, after) => {
        document.body.replaceChildren();
        const { live } = patched(render(before), render(after));
        expect(live.outerHTML).toBe(el(render(after)).outerHTML);
      }),
      { numRuns: 300 },
    );
  }, 30_000); // a property test of many renders: room for a loaded machine (it is not a timing test)
});

describe("patching an application's parts", () => {
  it("patches the module's own connected parts and leaves the rest to the application", () => {
    const glance = el(`<section class="mine" data-application-part="glance"><dd>Aria</dd></section>`);
    const header = el(`<header data-application-part="header">Round 1</header>`);
    document.body.append(header, glance);
    const rendered: Record<string, unknown> = {
      header: el(`<header data-application-part="header">Round 2</header>`),
      glance: el(`<section class="mine" data-application-part="glance"><dd>Brom</dd></section>`),
    };
    patchParts({ header, glance }, rendered, ["glance"], "mine");
    expect(Object.keys(rendered)).toEqual(["header"]);
    expect(glance.isConnected).toBe(true);
    expect(glance.textContent).toBe("Brom");
    expect(header.textContent).toBe("Round 1");
  });

  it("does not patch a part that is no longer in the document, whose tag changed or that the parent rendered", () => {
    const detached = el(`<ol class="mine" data-application-part="tracker"><li>old</li></ol>`);
    const other = el(`<section class="mine" data-application-part="footer"></section>`);
    // The system's own list, rendered before the encounter became structured: same tag, same row keys.
    const parents = el(`<ol data-application-part="list"><li data-combatant-id="a">Aria</li></ol>`);
    document.body.append(other, parents);
    const rendered: Record<string, unknown> = {
      tracker: el(`<ol class="mine" data-application-part="tracker"><li>new</li></ol>`),
      footer: el(`<nav class="mine" data-application-part="footer"></nav>`),
      list: el(`<ol class="mine" data-application-part="list"><li data-combatant-id="a">Aria</li></ol>`),
    };
    patchParts({ tracker: detached, footer: other, list: parents }, rendered, ["tracker", "footer", "list"], "mine");
    expect(Object.keys(rendered).sort()).toEqual(["footer", "list", "tracker"]);
    expect(detached.textContent).toBe("old");
    expect(parents.classList.contains("mine")).toBe(false);
  });

  it("ignores parts rendered as strings (no DOM)", () => {
    const rendered: Record<string, unknown> = { tracker: "<ol></ol>" };
    expect(patchParts({ tracker: "<ol></ol>" }, rendered, ["tracker"], "mine")).toEqual({
      kept: 0,
      patched: 0,
      replaced: 0,
    });
    expect(rendered.tracker).toBe("<ol></ol>");
  });

  it("reports a patch that failed part-way instead of throwing, so the tracker can render whole", () => {
    const live = el(`<ol class="mine" data-application-part="tracker"><li>old</li></ol>`);
    document.body.append(live);
    live.isEqualNode = () => {
      throw new Error("a page changed in an unexpected way");
    };
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const rendered: Record<string, unknown> = { tracker: el(`<ol class="mine"><li>new</li></ol>`) };
    expect(tryPatchParts({ tracker: live }, rendered, ["tracker"], "mine")).toBe(false);
    expect(Object.keys(rendered)).toEqual(["tracker"]); // left for the application to replace
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
    const fine: Record<string, unknown> = { tracker: el(`<ol class="mine"><li>new</li></ol>`) };
    const other = el(`<ol class="mine"><li>old</li></ol>`);
    document.body.append(other);
    expect(tryPatchParts({ tracker: other }, fine, ["tracker"], "mine")).toBe(true);
    expect(other.textContent).toBe("new");
  });
});
