/**
 * The tracker's screen-reader live regions (`aria-live="polite"`, outside the re-rendered parts): one
 * for the tracker's turn announcements, one for the players' notices. Each text is written once, when
 * it is new: a turn change whose notice comes just before its announcement is heard as the notice and
 * the announcement, each once, and neither silences the other.
 */
import { MODULE_ID } from "../../constants";

/** What a region says: the tracker's turn announcements, or the user's notices. */
export type LiveKind = "live" | "notice";

/** One of the tracker's live regions, created on first use. */
export function liveRegion(root: HTMLElement, kind: LiveKind = "live"): HTMLElement {
  let region = root.querySelector<HTMLElement>(`.${MODULE_ID}-${kind}`);
  if (region === null) {
    region = root.ownerDocument.createElement("div");
    region.className = `${MODULE_ID}-${kind} ${MODULE_ID}-visually-hidden`;
    region.setAttribute("aria-live", "polite");
    region.setAttribute("role", "status");
    root.append(region);
  }
  return region;
}

/** Say a notice in the tracker's notice region. */
export function speak(text: string): void {
  const root = (ui.combat as { element?: HTMLElement | null } | undefined)?.element ?? null;
  if (root !== null) liveRegion(root, "notice").textContent = text;
}
