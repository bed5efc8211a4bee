/**
 * A DOM for a Node realm of the simulated Foundry: a jsdom window's document and element classes
 * installed on the realm's global object, so that the tracker renders real elements (as in the
 * browser playground) and a system's render listeners can query them. Used by the system fixtures,
 * whose listeners read the tracker's DOM the way the systems do in a real browser.
 */
import { JSDOM } from "jsdom";
import type { Dict } from "../utils.js";

/** The window globals the module, the sim and the fixtures use. */
const GLOBALS = [
  "document",
  "Node",
  "Element",
  "HTMLElement",
  "HTMLInputElement",
  "HTMLSelectElement",
  "HTMLTextAreaElement",
  "HTMLFormElement",
  "HTMLTemplateElement",
  "HTMLButtonElement",
  "DocumentFragment",
  "Text",
  "Event",
  "MouseEvent",
  "KeyboardEvent",
  "FocusEvent",
  "CustomEvent",
  "FormData",
  "MutationObserver",
  "getComputedStyle",
] as const;

/** Give the realm a document (call from `systemSetup`, before the bundle runs). */
export function installDom(realm: Dict): void {
  const dom = new JSDOM("<!doctype html><html><head></head><body></body></html>", {
    pretendToBeVisual: true,
    url: "http://localhost/",
  });
  const win = dom.window as unknown as Dict;
  for (const name of GLOBALS) {
    const value = win[name];
    realm[name] = typeof value === "function" && name === "getComputedStyle" ? value.bind(win) : value;
  }
  realm.requestAnimationFrame = (fn: (t: number) => void): number => {
    setTimeout(() => {
      fn(0);
    }, 0);
    return 0;
  };
}
