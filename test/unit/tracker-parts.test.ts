/**
 * A stable part set (issue 14 item 4): the same part ids in every mode, the glance part always
 * configured right after the parent's header, and the parent's list and footer found among the
 * parts it configures, whatever they are named (core's `tracker`/`footer`, draw-steel's
 * `dsTracker`/`dsFooter`).
 */
import { describe, expect, it } from "vitest";
import { trackerParts } from "../../src/foundry/tracker/parts.js";

const CORE = {
  header: { template: "core/header.hbs" },
  tracker: { template: "core/tracker.hbs" },
  footer: { template: "core/footer.hbs" },
};
// draw-steel 1.0.0 in its default initiative mode: core's list and footer deleted, its own kept.
const DRAW_STEEL = {
  header: { template: "core/header.hbs" },
  dsTracker: { template: "ds/tracker.hbs" },
  dsFooter: { template: "ds/footer.hbs" },
};
const GLANCE = "structuredInitiativeGlance";
const own = (path: string): string => `modules/structured-initiative/templates/tracker/${path}`;

describe("the tracker's parts", () => {
  it.each([
    ["core", CORE, ["header", GLANCE, "tracker", "footer"]],
    ["draw-steel", DRAW_STEEL, ["header", GLANCE, "dsTracker", "dsFooter"]],
  ] as const)(
    "with %s's parts: the same ids structured or not, the glance part after the header",
    (_name, parent, ids) => {
      const system = trackerParts(parent, false, []);
      const structured = trackerParts(parent, true, []);
      expect(Object.keys(system.parts)).toEqual(ids);
      expect(Object.keys(structured.parts)).toEqual(ids);
      expect(system.parts[GLANCE]?.template).toBe(own("glance.hbs"));
      // System default: the parent's own list and footer.
      expect(system.parts[ids[2]]).toEqual(parent[ids[2] as keyof typeof parent]);
      expect(system.roles.own).toEqual([GLANCE]);
      // Structured: the module's list and footer in the parent's list and footer parts.
      expect(structured.parts[ids[2]]?.template).toBe(own("tracker.hbs"));
      expect(structured.parts[ids[3]]?.template).toBe(own("footer.hbs"));
      expect(structured.parts.header).toEqual(parent.header);
      expect(structured.roles).toMatchObject({ header: "header", list: ids[2], footer: ids[3] });
    },
  );

  it("a parent part between the list and the footer renders empty, and the order holds", () => {
    const parent = { header: CORE.header, tracker: CORE.tracker, extra: { template: "x.hbs" }, footer: CORE.footer };
    const { parts } = trackerParts(parent, true, []);
    expect(Object.keys(parts)).toEqual(["header", GLANCE, "tracker", "extra", "footer"]);
    expect(parts.extra?.template).toBe(own("empty.hbs"));
  });
});
