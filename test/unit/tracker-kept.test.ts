/**
 * What a tracker render keeps (src/foundry/tracker/kept.ts): a row or a keyed entry of a mode's
 * panel or list is marked `kept` only when its context equals the one last rendered and its live
 * element is there; anything that changed, has no live element, or shares its key renders again.
 */
import { describe, expect, it } from "vitest";
import type { RowContext, TrackerContext } from "../../src/foundry/tracker/context";
import { entryKey, markKept, rowKey, sameData } from "../../src/foundry/tracker/kept";

const row = (id: string, name: string, isCurrent = false): RowContext => ({
  id,
  name,
  img: "",
  hasImg: false,
  initiative: "",
  hasInitiative: false,
  isCurrent,
  currentLabel: "STRUCTURED_INITIATIVE.Tracker.Current",
  isNext: false,
  owned: false,
  hidden: false,
  defeated: false,
  css: isCurrent ? "si-row--current" : "",
  controls: [],
  hasControls: false,
  ready: null,
  mode: { badges: [name] },
});

const slot = (n: number, current = false): { keepKey: string; number: string; current: boolean } => ({
  keepKey: `slot:${n}`,
  number: String(n),
  current,
});

/** A tracker context with these rows and a list of slots (the rest as a mode would leave it). */
function context(rows: RowContext[], slots: ReturnType<typeof slot>[], panel: object | null = null): TrackerContext {
  return { rows, list: { status: "", slots }, panel } as unknown as TrackerContext;
}

const keptIds = (data: TrackerContext): string[] => data.rows.filter((r) => r.kept === true).map((r) => r.id);
const keptSlots = (data: TrackerContext): string[] =>
  (data.list as { slots: { keepKey: string; kept?: boolean }[] }).slots
    .filter((s) => s.kept === true)
    .map((s) => s.keepKey);

describe("what a tracker render keeps", () => {
  it("keeps the rows and entries whose context is unchanged and whose element is live, and renders the others", () => {
    const first = markKept(
      context([row("a", "Aria", true), row("b", "Brom")], [slot(1, true), slot(2)]),
      new Map(),
      new Set(),
    );
    expect(keptIds(first.data)).toEqual([]);
    expect(keptSlots(first.data)).toEqual([]);
    const live = new Set([rowKey("a"), rowKey("b"), entryKey("slot:1"), entryKey("slot:2")]);
    // The turn moves on: Aria's row and slot 1 change, Brom's row and slot 2 do not.
    const next = markKept(context([row("a", "Aria"), row("b", "Brom")], [slot(1), slot(2)]), first.rendered, live);
    expect(keptIds(next.data)).toEqual(["b"]);
    expect(keptSlots(next.data)).toEqual(["slot:2"]);
    // The kept ones keep their data; the context the next render compares with is the unmarked one.
    expect(next.data.rows[1]).toEqual({ ...row("b", "Brom"), kept: true });
    expect(next.rendered.get(rowKey("b"))).toEqual(row("b", "Brom"));
  });

  it("renders again what has no live element (removed or changed by someone else)", () => {
    const data = (): TrackerContext => context([row("a", "Aria"), row("b", "Brom")], [slot(1), slot(2)]);
    const first = markKept(data(), new Map(), new Set());
    const next = markKept(data(), first.rendered, new Set([rowKey("b"), entryKey("slot:1")]));
    expect(keptIds(next.data)).toEqual(["b"]);
    expect(keptSlots(next.data)).toEqual(["slot:1"]);
  });

  it("keeps no entry whose key another entry shares", () => {
    const twice = (): TrackerContext => context([], [slot(1), { ...slot(1), number: "x" }, slot(2)]);
    const first = markKept(twice(), new Map(), new Set());
    const live = new Set([entryKey("slot:1"), entryKey("slot:2")]);
    const next = markKept(twice(), first.rendered, live);
    expect(keptSlots(next.data)).toEqual(["slot:2"]);
  });

  it("marks keyed entries of every array directly in the panel and the list, and leaves other data alone", () => {
    const panel = { queue: [slot(7)], names: ["x"], deep: { inner: [slot(8)] } };
    const first = markKept(context([], [], panel), new Map(), new Set());
    const live = new Set([entryKey("slot:7"), entryKey("slot:8")]);
    const next = markKept(context([], [], structuredClone(panel)), first.rendered, live);
    const marked = next.data.panel as typeof panel & { queue: { kept?: boolean }[] };
    expect(marked.queue[0]?.kept).toBe(true);
    expect(marked.names).toEqual(["x"]);
    expect((marked.deep.inner[0] as { kept?: boolean }).kept).toBeUndefined();
  });
});

describe("equal contexts", () => {
  it("are equal key by key, in any key order, and unequal for any other value or key", () => {
    expect(sameData({ a: 1, b: [true, "x", null] }, { b: [true, "x", null], a: 1 })).toBe(true);
    expect(sameData({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameData({ a: [1, 2] }, { a: [1, 2, 3] })).toBe(false);
    expect(sameData({ a: "1" }, { a: 1 })).toBe(false);
    expect(sameData([], {})).toBe(false);
    expect(sameData(Number.NaN, Number.NaN)).toBe(false);
    expect(sameData(undefined, { a: 1 })).toBe(false);
    expect(sameData(new Map(), new Map())).toBe(false);
  });
});
