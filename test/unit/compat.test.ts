/**
 * The compatibility seam on each generation, with just the globals it reads: the row menu takes
 * entries of either shape and hands Foundry's ContextMenu the running generation's shape; updates
 * delete keys the running generation's way.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { contextMenu, deletePath, menuEntries, updateData, type MenuEntry } from "../../src/foundry/compat";

class ForcedDeletion {
  readonly operator = "ForcedDeletion";
}
let built: Array<{ selector: string; items: Array<Record<string, unknown>> }> = [];

function install(generation: 13 | 14): void {
  const g = globalThis as Record<string, unknown>;
  g.game = { release: { generation } };
  g.foundry = {
    applications: {
      ux: {
        ContextMenu: function (_root: unknown, selector: string, items: Array<Record<string, unknown>>) {
          built.push({ selector, items });
        },
      },
    },
    ...(generation === 14 ? { data: { operators: { ForcedDeletion } } } : {}),
  };
  // Node has no PointerEvent; a v14 entry run on v13 gets one.
  g.PointerEvent ??= class extends Event {};
}

const row = { dataset: { combatantId: "c1" } } as unknown as HTMLElement;
const ran: string[] = [];
const neutral: MenuEntry = {
  label: "KEY.Hide",
  icon: "fa-solid fa-eye-slash",
  visible: () => true,
  run: (r) => {
    ran.push(`module:${r.dataset.combatantId ?? ""}`);
    return Promise.resolve();
  },
};
const v13Entry = {
  name: "Macro13",
  icon: '<i class="fa-solid fa-star"></i>',
  condition: () => true,
  callback: () => ran.push("v13"),
};
const v14Entry = { label: "Macro14", icon: "fa-solid fa-moon", visible: () => true, onClick: () => ran.push("v14") };

beforeEach(() => {
  built = [];
  ran.length = 0;
});
afterEach(() => {
  const g = globalThis as Record<string, unknown>;
  delete g.game;
  delete g.foundry;
});

describe("v13", () => {
  beforeEach(() => {
    install(13);
  });

  it("the row menu hook sees v13 entries; a listener's v14 entry is turned into one", async () => {
    const entries: unknown[] = menuEntries([neutral]);
    expect(entries[0]).toMatchObject({
      name: "KEY.Hide",
      icon: '<i class="fa-solid fa-eye-slash" aria-hidden="true"></i>',
    });
    entries.push(v13Entry, v14Entry, { nonsense: true });
    contextMenu({} as HTMLElement, ".row", entries);
    const items = built[0]?.items ?? [];
    expect(items.map((i) => i.name)).toEqual(["KEY.Hide", "Macro13", "Macro14"]);
    expect(items[2]).toMatchObject({ icon: '<i class="fa-solid fa-moon" aria-hidden="true"></i>' });
    for (const item of items) await (item.callback as (li: HTMLElement) => unknown)(row);
    expect(ran).toEqual(["module:c1", "v13", "v14"]);
  });

  it("deletes with -=key: null", () => {
    expect(deletePath("flags.m.req")).toEqual({ "flags.m.-=req": null });
    const update = { flags: { m: { "-=old": null, keep: 1 } } };
    expect(updateData(update)).toBe(update);
  });
});

describe("v14", () => {
  beforeEach(() => {
    install(14);
  });

  it("the row menu hook sees v14 entries; a listener's v13 entry is turned into one", async () => {
    const entries: unknown[] = menuEntries([neutral]);
    expect(entries[0]).toMatchObject({ label: "KEY.Hide", icon: "fa-solid fa-eye-slash" });
    entries.push(v13Entry, v14Entry);
    contextMenu({} as HTMLElement, ".row", entries);
    const items = built[0]?.items ?? [];
    expect(items.map((i) => i.label)).toEqual(["KEY.Hide", "Macro13", "Macro14"]);
    expect(items[1]).toMatchObject({ icon: "fa-solid fa-star" });
    expect(items.every((i) => !("name" in i) && !("callback" in i))).toBe(true);
    for (const item of items) await (item.onClick as (e: Event, t: HTMLElement) => unknown)(new Event("click"), row);
    expect(ran).toEqual(["module:c1", "v13", "v14"]);
  });

  it("deletes with ForcedDeletion, also where the pure layer wrote -=key", () => {
    const [[key, value]] = Object.entries(deletePath("flags.m.req")) as [[string, unknown]];
    expect(key).toBe("flags.m.req");
    expect(value).toBeInstanceOf(ForcedDeletion);
    const converted = updateData({ flags: { m: { "-=old": null, keep: { "-=x": null, y: 2 } } } });
    expect(Object.keys(converted.flags.m)).toEqual(["old", "keep"]);
    expect((converted.flags.m as Record<string, unknown>).old).toBeInstanceOf(ForcedDeletion);
    expect((converted.flags.m.keep as Record<string, unknown>).x).toBeInstanceOf(ForcedDeletion);
    expect(converted.flags.m.keep.y).toBe(2);
  });
});
