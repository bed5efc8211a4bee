/**
 * The accessibility audit of the browser tests (issue 29, "accessible"): axe-core, from the
 * project's own node_modules (no CDN), run in a view's frame over the module's markup only (the
 * tracker's sidebar tab and its pop-out, not the playground's chrome), in the dark and the light
 * theme. A `serious` or `critical` violation is a failure.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Frame } from "playwright-core";
import "../../playground/host.js";

/** axe-core's bundle, injected into each frame before its first audit. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** The elements audited: the tracker's sidebar tab and its pop-out (when open). */
const TRACKER = ["#pg-combat", "#combat-popout"] as const;

/** The sidebar themes the playground has (as Foundry's). */
export const THEMES = ["dark", "light"] as const;
/** A sidebar theme. */
export type Theme = (typeof THEMES)[number];

/** The impacts that fail the audit. */
const FAILING = new Set(["serious", "critical"]);

/** One element that breaks one rule. */
export interface Violation {
  /** axe's rule id, e.g. `color-contrast`. */
  rule: string;
  impact: string;
  /** axe's one-line summary of the rule. */
  help: string;
  /** The element's selector path (through shadow roots, if any). */
  target: string;
  /** axe's account of what is wrong with it (e.g. the contrast ratio and colours). */
  summary: string;
}

/** Switch a view's sidebar theme (the playground's `siClient.setTheme`) and wait until it is painted. */
export async function setTheme(frame: Frame, theme: Theme): Promise<void> {
  await frame.evaluate(
    (theme) =>
      new Promise<void>((resolve) => {
        const client = window.siClient;
        if (client === undefined) throw new Error("the view's client has not booted");
        client.setTheme(theme);
        requestAnimationFrame(() => {
          requestAnimationFrame(() => {
            resolve();
          });
        });
      }),
    theme,
  );
}

/** The serious and critical violations axe-core finds in the view's tracker, as it is shown now. */
export async function auditTracker(frame: Frame): Promise<Violation[]> {
  if (!(await frame.evaluate(() => "axe" in window))) await frame.addScriptTag({ content: AXE_SOURCE });
  const found = await frame.evaluate(async (selectors) => {
    interface Result {
      id: string;
      help: string;
      nodes: { impact?: string | null; target: unknown[]; failureSummary?: string }[];
    }
    const { axe } = window as unknown as {
      axe: { run(context: object, options: object): Promise<{ violations: Result[] }> };
    };
    const include = selectors.filter((s) => document.querySelector(s) !== null);
    if (include.length === 0) throw new Error("no tracker to audit");
    const { violations } = await axe.run({ include }, { resultTypes: ["violations"] });
    return violations.flatMap((v) =>
      v.nodes.map((node) => ({
        rule: v.id,
        impact: node.impact ?? "",
        help: v.help,
        target: node.target.map((t) => (Array.isArray(t) ? t.join(" >>> ") : String(t))).join(" "),
        summary: (node.failureSummary ?? "").replace(/\s+/g, " ").trim(),
      })),
    );
  }, TRACKER);
  return found.filter((v) => FAILING.has(v.impact));
}

/** One line per violation, for a failure message: `<where>: <rule> (<impact>) at <target>: <help>. <summary>`. */
export function describeViolations(where: string, violations: readonly Violation[]): string[] {
  return violations.map((v) => `${where}: ${v.rule} (${v.impact}) at ${v.target}: ${v.help}. ${v.summary}`);
}
