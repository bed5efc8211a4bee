// @vitest-environment jsdom
/**
 * Selects filled when used (src/foundry/tracker/lazy-options.ts): a lazy select renders its first
 * option and hidden width hints, takes the full list (without its own row) from the shared datalist
 * when the user reaches for it, and keeps the user's choice through a patch that renders it lazy again.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { patchChildren } from "../../src/foundry/tracker/dom-patch";
import { bindLazyOptions, fillOptions, isLazySelect, primeLazySelects } from "../../src/foundry/tracker/lazy-options";

const targets = ["a", "b", "c", "d"];
const datalist = (ids: readonly string[]): string =>
  `<datalist data-si-options="after">${ids.map((id) => `<option value="${id}">Name ${id}</option>`).join("")}</datalist>`;
/** A row's lazy select: the first target other than itself, and one hidden hint. */
const lazy = (self: string, first: string): string =>
  `<select name="after" data-combatant-id="${self}" data-si-options="after" data-si-except="${self}">` +
  `<option value="${first}">Name ${first}</option><option value="" hidden disabled>Name longest</option></select>`;
const tracker = (ids: readonly string[], first: string): string =>
  `<div class="app"><section>${datalist(ids)}</section><ol><li data-combatant-id="b">${lazy("b", first)}</li></ol></div>`;

function el(html: string): HTMLElement {
  const template = document.createElement("template");
  template.innerHTML = html;
  const first = template.content.firstElementChild;
  if (!(first instanceof HTMLElement)) throw new Error("no element");
  return first;
}

const values = (select: HTMLSelectElement): string[] => Array.from(select.options, (o) => o.value);

beforeEach(() => {
  document.body.replaceChildren();
});

describe("lazy options", () => {
  it("renders the first option only, and fills the full list without its own row", () => {
    const root = el(tracker(targets, "a"));
    document.body.append(root);
    const select = root.querySelector("select") as HTMLSelectElement;
    expect(isLazySelect(select)).toBe(true);
    expect(select.value).toBe("a");
    expect(fillOptions(select)).toBe(true);
    expect(values(select)).toEqual(["a", "c", "d"]);
    expect(select.value).toBe("a");
    expect(Array.from(select.options).some((o) => o.hidden)).toBe(false);
    // Filled once: a second call changes nothing.
    expect(fillOptions(select)).toBe(false);
  });

  it("fills when the user reaches for the select (pointer down or focus)", () => {
    const root = el(tracker(targets, "a"));
    document.body.append(root);
    bindLazyOptions(root);
    const select = root.querySelector("select") as HTMLSelectElement;
    select.dispatchEvent(new Event("mousedown", { bubbles: true }));
    expect(values(select)).toEqual(["a", "c", "d"]);
    const other = el(tracker(targets, "a"));
    document.body.append(other);
    bindLazyOptions(other);
    const second = other.querySelector("select") as HTMLSelectElement;
    second.focus();
    expect(values(second)).toEqual(["a", "c", "d"]);
  });

  it("keeps the user's choice through a patch that renders the select lazy again", () => {
    const root = el(tracker(targets, "a"));
    document.body.append(root);
    const select = root.querySelector("select") as HTMLSelectElement;
    fillOptions(select);
    select.value = "d";
    // A re-render: "a" has acted, the first target is now "c".
    patchChildren(root, el(tracker(["b", "c", "d"], "c")));
    const after = root.querySelector("select") as HTMLSelectElement;
    expect(after.value).toBe("d");
    expect(values(after)).toEqual(["c", "d"]);
  });

  it("a select nobody touched is patched to its fresh first option", () => {
    const root = el(tracker(targets, "a"));
    document.body.append(root);
    patchChildren(root, el(tracker(["b", "c", "d"], "c")));
    const after = root.querySelector("select") as HTMLSelectElement;
    expect(after.value).toBe("c");
    expect(after.options).toHaveLength(2);
  });
});

describe("a first option left to the page", () => {
  /** A row's lazy select whose first option the page fills (`data-si-first`), with one hidden hint. */
  const unprimed = (self: string): string =>
    `<li data-combatant-id="${self}"><select name="after" data-combatant-id="${self}" data-si-options="after" data-si-except="${self}">` +
    `<option value="" data-si-first></option><option value="" hidden disabled>Name longest</option></select></li>`;
  const page = (ids: readonly string[], rows: readonly string[]): string =>
    `<div class="app"><section>${datalist(ids)}</section><ol>${rows.map(unprimed).join("")}</ol></div>`;
  const selectOf = (root: Element, id: string): HTMLSelectElement =>
    root.querySelector(`select[data-combatant-id="${id}"]`) as HTMLSelectElement;

  it("shows the list's first entry other than its own row, and takes it as its value", () => {
    const root = el(page(targets, ["a", "b"]));
    document.body.append(root);
    primeLazySelects(root);
    expect(selectOf(root, "b").value).toBe("a");
    expect(selectOf(root, "b").options[0]?.text).toBe("Name a");
    // The first entry's own row shows the next one.
    expect(selectOf(root, "a").value).toBe("b");
    expect(selectOf(root, "a").options[0]?.text).toBe("Name b");
  });

  it("follows the list when it changes (who acts now), and fills in full when used", () => {
    const root = el(page(targets, ["c"]));
    document.body.append(root);
    primeLazySelects(root);
    expect(selectOf(root, "c").value).toBe("a");
    // "a" has acted: the shared list now starts at "b"; the row's markup did not change.
    root.querySelector("datalist")?.replaceWith(el(datalist(["b", "c", "d"])));
    primeLazySelects(root);
    expect(selectOf(root, "c").value).toBe("b");
    expect(fillOptions(selectOf(root, "c"))).toBe(true);
    expect(values(selectOf(root, "c"))).toEqual(["b", "d"]);
    expect(selectOf(root, "c").value).toBe("b");
  });
});
