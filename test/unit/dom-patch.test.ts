// @vitest-environment jsdom
/**
 * Patching a re-rendered tracker part into the live one (src/foundry/dom-patch.ts): the live part
 * ends with the fresh markup exactly, keeps what did not change, and keeps what the user typed,
 * chose or focused.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { patchChildren, patchParts } from "../../src/foundry/dom-patch";

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
    expect(result.kept).toBeGreaterThanOrEqual(1);
    expect(result.replaced).toBe(1); // Brom's new controls
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

  it("carries a pending choice in a select while the option still exists, and drops it otherwise", () => {
    const select = (options: string[], selected: string): string =>
      `<div><select name="assign" data-slot="0">${options
        .map((o) => `<option value="${o}"${o === selected ? " selected" : ""}>${o}</option>`)
        .join("")}</select></div>`;
    const wrap = (inner: string): string => `<section>${inner}</section>`;
    const live = el(wrap(select(["a", "b", "c"], "a")));
    document.body.append(live);
    const choice = live.querySelector("select");
    if (choice === null) throw new Error("no select");
    choice.value = "c";
    // The select's container is rebuilt (a new tag); the choice follows it.
    patched("", wrap(select(["a", "b", "c"], "a").replace(/div/g, "p")), live);
    expect(live.querySelector("select")?.value).toBe("c");
    const again = live.querySelector("select");
    if (again === null) throw new Error("no select");
    patched("", wrap(select(["a", "b"], "a").replace(/p>/g, "div>")), live);
    expect(live.querySelector("select")?.value).toBe("a");
  });
});

describe("patching an application's parts", () => {
  it("patches the module's own connected parts and leaves the rest to the application", () => {
    const glance = el(`<section data-application-part="glance"><dd>Aria</dd></section>`);
    const header = el(`<header data-application-part="header">Round 1</header>`);
    document.body.append(header, glance);
    const rendered: Record<string, unknown> = {
      header: el(`<header data-application-part="header">Round 2</header>`),
      glance: el(`<section data-application-part="glance"><dd>Brom</dd></section>`),
    };
    patchParts({ header, glance }, rendered, ["glance"]);
    expect(Object.keys(rendered)).toEqual(["header"]);
    expect(glance.isConnected).toBe(true);
    expect(glance.textContent).toBe("Brom");
    expect(header.textContent).toBe("Round 1");
  });

  it("does not patch a part that is no longer in the document or whose tag changed", () => {
    const detached = el(`<ol data-application-part="tracker"><li>old</li></ol>`);
    const other = el(`<section data-application-part="footer"></section>`);
    document.body.append(other);
    const rendered: Record<string, unknown> = {
      tracker: el(`<ol data-application-part="tracker"><li>new</li></ol>`),
      footer: el(`<nav data-application-part="footer"></nav>`),
    };
    patchParts({ tracker: detached, footer: other }, rendered, ["tracker", "footer"]);
    expect(Object.keys(rendered).sort()).toEqual(["footer", "tracker"]);
    expect(detached.textContent).toBe("old");
  });

  it("ignores parts rendered as strings (no DOM)", () => {
    const rendered: Record<string, unknown> = { tracker: "<ol></ol>" };
    expect(patchParts({ tracker: "<ol></ol>" }, rendered, ["tracker"])).toEqual({ kept: 0, patched: 0, replaced: 0 });
    expect(rendered.tracker).toBe("<ol></ol>");
  });
});
