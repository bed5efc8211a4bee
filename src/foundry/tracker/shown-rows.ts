/**
 * Rows kept in place (issue 26, item 4: no regression at table sizes). A turn advance changes one
 * or two rows of fifty; rendering, parsing and morphing the other rows again was most of its time.
 *
 * A row's template (`templates/tracker/row.hbs`) reads the row's data, the mode's row partials and
 * the disclosures the user opened, and nothing else (its text is localised once per page load). So
 * a row whose JSON of those is the same as the live row's shows the same HTML: the render gives it
 * a stand-in (`<li data-si-same>`) instead, and the patch keeps the live row as it is
 * (`dom-patch.ts`). No stand-in ever reaches the page: before the patch, a stand-in for a live row
 * that another render has changed since gets its HTML back; after it, a stand-in the patch could
 * not match (no live row, a list replaced whole) does too. The live rows are remembered only when
 * a render's list goes live, so a render made aside (the render oracle's first render) changes
 * nothing here.
 *
 * One object per tracker view, as the rows depend on the viewing user. What it rests on is proven
 * by the render oracle, which compares every render with a first render, which reuses no row
 * (`test/oracle/render-oracle.ts`), after every step of every browser test and of random plays.
 */
import { TEMPLATES } from "../../constants";
import type { RowShown, TrackerContext } from "./context";
import { isElement, SAME_ATTRIBUTE } from "./dom-patch";

/** `make`, called once, when first asked. */
function once(make: () => string): () => string {
  let made: string | undefined;
  return () => (made ??= make());
}

/**
 * Put `html` in place of the stand-in `element`. `html` is the row template's output, every text in
 * it escaped by Handlebars, parsed as Foundry parses a rendered part (STYLE.md: no `innerHTML` built
 * from strings that carry unescaped user text).
 */
function fill(element: Element, html: string): void {
  const template = element.ownerDocument.createElement("template");
  template.innerHTML = html;
  element.replaceWith(template.content);
}

/** The stand-ins among `list`'s children, by combatant id. */
function standIns(list: Element): Map<string, Element> {
  const found = new Map<string, Element>();
  for (const element of Array.from(list.children))
    if (element.hasAttribute(SAME_ATTRIBUTE)) found.set(element.getAttribute("data-combatant-id") ?? "", element);
  return found;
}

/** The rows of one tracker view: those its live list shows, and those of each render until it goes live. */
export class ShownRows {
  /** The rows the live list shows, by combatant id (set when a render's list goes live). */
  #live = new Map<string, RowShown>();

  /** Each render's rows, by the render's result, for the moment it goes live. */
  readonly #renders = new WeakMap<object, readonly RowShown[]>();

  /**
   * Every row of `data` with its JSON. With `reuse`, each is rendered on its own, or is a stand-in
   * where the live row shows what this row would (the same JSON). Without (a first render), the
   * list's template renders every row (`TrackerContext.rowsInList`): the render oracle's first
   * renders make the rows another way than the renders it checks.
   */
  async render(data: TrackerContext, reuse: boolean): Promise<RowShown[]> {
    const template = await foundry.applications.handlebars.getTemplate(TEMPLATES.row);
    const { rowPartial, rowBodyPartial } = data;
    const shared = JSON.stringify({ rowPartial, rowBodyPartial, opened: data.opened ?? {} });
    const rows: RowShown[] = [];
    for (const row of data.rows) {
      const json = JSON.stringify(row);
      const key = shared + json;
      const live = this.#live.get(row.id);
      // The row is the template's context and its root holds the tracker's data, as in the list's
      // loop; both are read back from the JSON, so what the HTML shows is what the key says, even
      // when it is made later and something changed `row` or `data` since.
      const made = once(() =>
        template({ ...(JSON.parse(json) as object), structuredInitiative: JSON.parse(shared) as unknown }),
      );
      if (!reuse) rows.push({ id: row.id, key, same: false, html: "", made });
      else if (live?.key === key) rows.push({ ...live, same: true, html: "" });
      else rows.push({ id: row.id, key, same: false, html: made(), made });
    }
    return rows;
  }

  /** `result` is the render of `rows` (its parts as `_renderHTML` made them). */
  rendered(result: unknown, rows: readonly RowShown[]): void {
    if (typeof result === "object" && result !== null) this.#renders.set(result, rows);
  }

  /**
   * Before `result` goes live: its rows when its list part (`listId`) was rendered, else null. Each
   * stand-in whose live row another render has changed since gets its HTML back.
   */
  beforeLive(result: unknown, listId: string | null): readonly RowShown[] | null {
    const rows = typeof result === "object" && result !== null ? this.#renders.get(result) : undefined;
    const list = listId === null ? undefined : (result as Record<string, unknown>)[listId];
    if (rows === undefined || !isElement(list)) return null;
    const found = standIns(list);
    for (const row of rows) {
      const element = found.get(row.id);
      if (element !== undefined && this.#live.get(row.id)?.key !== row.key) fill(element, row.made());
    }
    return rows;
  }

  /**
   * After the list went live (patched or replaced whole) as `live`: a stand-in left in it (no live
   * row matched it) gets its HTML; its rows are remembered. Without a live element (no DOM), nothing
   * is remembered.
   */
  afterLive(rows: readonly RowShown[], live: unknown): void {
    if (!isElement(live)) {
      this.#live = new Map();
      return;
    }
    const found = standIns(live);
    for (const row of rows) {
      const element = found.get(row.id);
      if (element !== undefined) fill(element, row.made());
    }
    this.#live = new Map(rows.map((row) => [row.id, row]));
  }
}
