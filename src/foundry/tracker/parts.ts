/**
 * The tracker's part set, the same in every mode (issue 14 item 4): the parent's header, the glance
 * strip, then the parent's other parts. Switching the viewed encounter between "system default" and
 * a structured mode then never adds or removes a part (so no part lands out of order and none is
 * left behind); only the templates of the parent's list and footer change.
 */
import { TEMPLATES, TRACKER_PARTS } from "../../constants";

/** Handlebars part configuration, as `_configureRenderParts` returns it. */
export interface PartConfig {
  template: string;
  templates?: string[];
  scrollable?: string[];
  classes?: string[];
}

/** Which configured part plays which role in this render. */
export interface PartRoles {
  /** The parent's header (its first part), or null when the parent configures none. */
  readonly header: string | null;
  /** The parent's part the structured list renders in, or null for a system-default encounter. */
  readonly list: string | null;
  /** The parent's part the structured footer renders in, or null for a system-default encounter. */
  readonly footer: string | null;
  /** The parts the module renders (patched in place after the first render). */
  readonly own: readonly string[];
}

/**
 * The parts to configure, from the parts the parent class configures for this render (core's
 * `header`/`tracker`/`footer`, or a system's own ids, such as draw-steel's `dsTracker`/`dsFooter`).
 * The parent's first part is its header and stays; the glance strip follows it. For a structured
 * encounter the parent's next part renders the module's list, its last the module's footer, and
 * any between them render empty; otherwise the parent's parts render as the parent configured them.
 */
export function trackerParts(
  parent: Readonly<Record<string, PartConfig>>,
  structured: boolean,
  partials: readonly string[],
): { parts: Record<string, PartConfig>; roles: PartRoles } {
  const ids = Object.keys(parent).filter((id) => id !== TRACKER_PARTS.glance);
  const [header = null, ...rest] = ids;
  const parts: Record<string, PartConfig> = {};
  const glance: PartConfig = { template: TEMPLATES.glance, templates: [...partials] };
  if (header !== null) parts[header] = parent[header] as PartConfig;
  parts[TRACKER_PARTS.glance] = glance;
  if (!structured) {
    for (const id of rest) parts[id] = parent[id] as PartConfig;
    return { parts, roles: { header, list: null, footer: null, own: [TRACKER_PARTS.glance] } };
  }
  const list = rest[0] ?? TRACKER_PARTS.tracker;
  const footer = rest.length > 1 ? (rest[rest.length - 1] as string) : TRACKER_PARTS.footer;
  parts[list] = { template: TEMPLATES.tracker, templates: [...partials], scrollable: [""] };
  for (const id of rest.slice(1, -1)) parts[id] = { template: TEMPLATES.emptyPart };
  parts[footer] = { template: TEMPLATES.footer, templates: [...partials] };
  return { parts, roles: { header, list, footer, own: [TRACKER_PARTS.glance, list, footer] } };
}
