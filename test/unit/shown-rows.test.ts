// @vitest-environment jsdom
/**
 * Rows kept in place (src/foundry/tracker/shown-rows.ts, issue 26): a row whose data did not change
 * stands for its live row and the patch keeps that row; no stand-in ever reaches the page, even
 * when two renders overlap (the later one was made against rows the earlier one has changed since)
 * or when the list goes live whole. The random plays of the render oracle prove the common path
 * (test/integration/render-oracle.test.ts); these prove the two rare ones, which those plays do not
 * reach.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { RowContext, RowShown, TrackerContext } from "../../src/foundry/tracker/context";
import { patchChildren, SAME_ATTRIBUTE } from "../../src/foundry/tracker/dom-patch";
import { ShownRows } from "../../src/foundry/tracker/shown-rows";

/** A row's template for these tests: its id and its name. */
const rowHtml = (row: RowContext): string =>
  `<li class="si-row" data-combatant-id="${row.id}"><span class="si-row__name">${row.name}</span></li>`;

/** The row's compiled template (what `getTemplate` resolves with). */
const template = vi.fn((row: RowContext) => rowHtml(row));

beforeEach(() => {
  template.mockClear();
  vi.stubGlobal("foundry", { applications: { handlebars: { getTemplate: () => Promise.resolve(template) } } });
});

/** Tracker data with rows of these names, by id. */
function data(names: Record<string, string>): TrackerContext {
  const rows = Object.entries(names).map(([id, name]) => ({ id, name }) as unknown as RowContext);
  return { rows, rowPartial: "", rowBodyPartial: "" } as unknown as TrackerContext;
}

/**
 * The list part as the tracker's template makes it from `rows` of `names`: a stand-in where a row is
 * `same`, the row's own HTML, or (a first render) the row as the list's template renders it.
 */
function listOf(rows: readonly RowShown[], names: Record<string, string>): HTMLElement {
  const list = document.createElement("ol");
  list.className = "si-list";
  const inList = (id: string): string => rowHtml({ id, name: names[id] ?? "" } as unknown as RowContext);
  list.innerHTML = rows
    .map((row) =>
      row.same
        ? `<li class="si-row" data-combatant-id="${row.id}" ${SAME_ATTRIBUTE}></li>`
        : row.html !== ""
          ? row.html
          : inList(row.id),
    )
    .join("");
  return list;
}

/** A render of `names` (`reuse`: not a first render): its rows and its result (the list part), remembered as a render is. */
async function renderOf(shown: ShownRows, names: Record<string, string>, reuse = true) {
  const rows = await shown.render(data(names), reuse);
  const result = { list: listOf(rows, names) };
  shown.rendered(result, rows);
  return { rows, result };
}

/** `render` goes live by a patch of `live`, as the tracker's `_replaceHTML` does. */
function patchLive(shown: ShownRows, render: { result: { list: HTMLElement } }, live: HTMLElement): void {
  const rows = shown.beforeLive(render.result, "list");
  if (rows === null) throw new Error("the list part was not rendered");
  patchChildren(live, render.result.list);
  shown.afterLive(rows, live);
}

const names = (list: Element): string[] => Array.from(list.querySelectorAll(".si-row"), (row) => row.textContent);

describe("rows kept in place", () => {
  it("renders only the rows whose data changed, and the patch keeps the others as they are", async () => {
    const shown = new ShownRows();
    const first = await renderOf(shown, { a: "Ann", b: "Bob", c: "Cy" });
    const live = first.result.list;
    shown.afterLive(first.rows, live);
    const bob = live.querySelector('[data-combatant-id="b"]');
    template.mockClear();
    const next = await renderOf(shown, { a: "Ann", b: "Bob", c: "Cyd" });
    expect(next.rows.map((row) => row.same)).toEqual([true, true, false]);
    expect(template).toHaveBeenCalledTimes(1);
    patchLive(shown, next, live);
    expect(names(live)).toEqual(["Ann", "Bob", "Cyd"]);
    expect(live.querySelector('[data-combatant-id="b"]')).toBe(bob);
  });

  it("a first render leaves every row to the list's template; once live, its rows are reused", async () => {
    const shown = new ShownRows();
    const first = await renderOf(shown, { a: "Ann", b: "Bob" }, false);
    expect(first.rows.map((row) => row.html)).toEqual(["", ""]);
    expect(template).not.toHaveBeenCalled();
    const live = first.result.list;
    const rows = shown.beforeLive(first.result, "list");
    if (rows === null) throw new Error("the list part was not rendered");
    shown.afterLive(rows, live);
    const next = await renderOf(shown, { a: "Ann", b: "Bo" });
    expect(next.rows.map((row) => row.same)).toEqual([true, false]);
    // An overlapping render changed Ann's row meanwhile: the stand-in gets its HTML, made now.
    patchLive(shown, await renderOf(shown, { a: "Anna", b: "Bo" }), live);
    patchLive(shown, next, live);
    expect(names(live)).toEqual(["Ann", "Bo"]);
  });

  it("two overlapping renders: a stand-in for a row the earlier one changed gets its own HTML back", async () => {
    const shown = new ShownRows();
    const first = await renderOf(shown, { a: "Ann", b: "Bob" });
    const live = first.result.list;
    shown.afterLive(first.rows, live);
    // Both made against the live rows: the earlier renames Ann, the later (an undo) has her back.
    const earlier = await renderOf(shown, { a: "Anna", b: "Bob" });
    const later = await renderOf(shown, { a: "Ann", b: "Bob" });
    expect(later.rows.map((row) => row.same)).toEqual([true, true]);
    patchLive(shown, earlier, live);
    expect(names(live)).toEqual(["Anna", "Bob"]);
    patchLive(shown, later, live);
    expect(names(live)).toEqual(["Ann", "Bob"]);
    expect(live.querySelector(`[${SAME_ATTRIBUTE}]`)).toBeNull();
  });

  it("a list that goes live whole (nothing to patch) gets every stand-in's HTML", async () => {
    const shown = new ShownRows();
    const first = await renderOf(shown, { a: "Ann", b: "Bob" });
    shown.afterLive(first.rows, first.result.list);
    const next = await renderOf(shown, { a: "Ann", b: "Bo" });
    const rows = shown.beforeLive(next.result, "list");
    if (rows === null) throw new Error("the list part was not rendered");
    // The application replaces the live list with the fresh one (a patch failed, or no live part).
    shown.afterLive(rows, next.result.list);
    expect(names(next.result.list)).toEqual(["Ann", "Bo"]);
    expect(next.result.list.querySelector(`[${SAME_ATTRIBUTE}]`)).toBeNull();
  });

  it("a row's HTML made later shows the row as its JSON says, whatever changed the row's object since", async () => {
    const shown = new ShownRows();
    const first = data({ a: "Ann" });
    const [row] = await shown.render(first, false);
    (first.rows[0] as { name: string }).name = "Changed";
    expect(row?.made()).toContain(">Ann<");
  });

  it("a list that goes live without a live element (no DOM) leaves no row to reuse", async () => {
    const shown = new ShownRows();
    const first = await renderOf(shown, { a: "Ann" });
    shown.afterLive(first.rows, first.result.list);
    const text = await shown.render(data({ a: "Ann" }), true);
    shown.afterLive(text, "<ol></ol>");
    const again = await shown.render(data({ a: "Ann" }), true);
    expect(again.map((row) => row.same)).toEqual([false]);
  });
});
