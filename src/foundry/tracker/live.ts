/**
 * The tracker's screen-reader live region (`aria-live="polite"`, outside the re-rendered parts) and
 * what is said in it: the tracker's turn announcements and the players' notices.
 */
import { MODULE_ID } from "../../constants";

/** A notice said since the tracker last announced, to say again with its next announcement. */
let pending = "";

/** The tracker's live region, created on first use. */
export function liveRegion(root: HTMLElement): HTMLElement {
  let region = root.querySelector<HTMLElement>(`.${MODULE_ID}-live`);
  if (region === null) {
    region = root.ownerDocument.createElement("div");
    region.className = `${MODULE_ID}-live ${MODULE_ID}-visually-hidden`;
    region.setAttribute("aria-live", "polite");
    region.setAttribute("role", "status");
    root.append(region);
  }
  return region;
}

/**
 * Say a notice in the tracker's live region now, and keep it for the tracker's next announcement:
 * a turn change re-renders the tracker after the notice, and its announcement must not silence it.
 */
export function speak(text: string): void {
  pending = text;
  const root = (ui.combat as { element?: HTMLElement | null } | undefined)?.element ?? null;
  if (root !== null) liveRegion(root).textContent = text;
}

/** The tracker's announcement with the notice said since the last one (which is then forgotten). */
export function withPendingNotice(announcement: string): string {
  const notice = pending;
  pending = "";
  return notice === "" || notice === announcement ? announcement : `${announcement} ${notice}`.trim();
}
