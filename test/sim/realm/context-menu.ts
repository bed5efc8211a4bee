/** The realm's right-click menus: `foundry.applications.ux.ContextMenu`, with v13's and v14's entries. */
import type { SimI18n } from "./i18n.js";
import type { Dict } from "../utils.js";

/** What the context menu needs from its realm. */
export interface ContextMenuRealm {
  v14: boolean;
  logCompatibilityWarning: (message: string) => void;
  recordError: (where: string, err: unknown) => void;
  i18n: SimI18n;
  /** The realm's DOM document when it has one and renders templates, else null. */
  domDocument: () => Document | null;
}

/** One realm's `ContextMenu` class. */
export function createContextMenu({ v14, logCompatibilityWarning, recordError, i18n, domDocument }: ContextMenuRealm) {
  /**
   * A context menu entry: v13 `{name, icon: "<i…>", condition(li), callback(li)}`
   * (https://foundryvtt.com/api/v13/interfaces/foundry.ContextMenuEntry.html); v14
   * `{label, icon: "fa-…" (a className; full HTML accepted), visible(target), onClick(event, target)}`
   * (https://foundryvtt.com/api/v14/interfaces/foundry.ContextMenuEntry.html,
   * https://foundryvtt.com/api/v14/types/foundry.ContextMenuCallback.html).
   */
  interface ContextMenuEntry {
    name?: string;
    label?: string;
    icon?: string;
    condition?: boolean | ((target: HTMLElement) => boolean);
    visible?: boolean | ((target: HTMLElement) => boolean);
    callback?: (target: HTMLElement) => unknown;
    onClick?: (event: Event, target: HTMLElement) => unknown;
  }
  /**
   * @behaviour A context menu entry read the running generation's way; v14 still takes a v13 entry
   * (`name`, `condition`, `callback`) and logs a deprecation warning for it.
   * @source https://foundryvtt.com/api/v14/interfaces/foundry.ContextMenuEntry.html (the new keys);
   * public v14 modules' notes, read through the search index: Beneos ("V14 deprecates
   * ContextMenuEntry#name in favour of #label and warns when only `name` is present") and others
   * ("ContextMenuEntry#callback is deprecated -> #onClick (support removed in v16)").
   */
  const menuItem = (
    item: ContextMenuEntry,
  ): { text: string; icon: string; shown: (t: HTMLElement) => boolean; run: (e: Event, t: HTMLElement) => unknown } => {
    const test = (c: ContextMenuEntry["visible"]) => (target: HTMLElement) =>
      typeof c === "function" ? c(target) : c !== false;
    if (!v14 || item.label === undefined) {
      if (v14)
        logCompatibilityWarning(
          "ContextMenuEntry#name, #condition and #callback are deprecated in favor of #label, #visible and #onClick",
        );
      return {
        text: item.name ?? "",
        icon: item.icon ?? "",
        shown: test(item.condition),
        run: (_e, target) => item.callback?.(target),
      };
    }
    const icon = item.icon ?? "";
    return {
      text: item.label,
      icon: icon === "" || icon.trimStart().startsWith("<") ? icon : `<i class="${icon}"></i>`,
      shown: test(item.visible),
      run: (event, target) => item.onClick?.(event, target),
    };
  };
  /**
   * Right-click menus (https://foundryvtt.com/api/classes/foundry.applications.ux.ContextMenu.html):
   * built on a container for targets matching a selector, it shows the entries whose condition
   * holds for the target (names localised) and runs the chosen one's callback with the target. In
   * the sim the menu is a `nav#context-menu` of `li.context-item`s on the page; it closes on a
   * choice, a click elsewhere or Escape. Realms without a DOM never open it.
   */
  const isDomElement = (value: unknown): value is HTMLElement =>
    typeof value === "object" && value !== null && (value as Partial<Node>).nodeType === 1;
  class ContextMenu {
    readonly menuItems: ContextMenuEntry[];
    constructor(
      readonly container: unknown,
      readonly selector: string,
      menuItems: ContextMenuEntry[],
      readonly options: Dict = {},
    ) {
      this.menuItems = menuItems;
      const doc = domDocument();
      if (doc === null || !isDomElement(container)) return;
      container.addEventListener(String(options.eventName ?? "contextmenu"), (event) => {
        const target = (event.target as Element | null)?.closest<HTMLElement>(selector) ?? null;
        if (target === null || !container.contains(target)) return;
        event.preventDefault();
        this.render(target, event as MouseEvent);
      });
    }
    static close(): void {
      domDocument()?.getElementById("context-menu")?.remove();
    }
    render(target: HTMLElement, event: MouseEvent): void {
      const doc = domDocument();
      if (doc === null) return;
      ContextMenu.close();
      const shown = this.menuItems.map(menuItem).filter((item) => item.shown(target));
      if (shown.length === 0) return;
      const nav = doc.createElement("nav");
      nav.id = "context-menu";
      nav.style.cssText = `position:fixed;left:${String(event.clientX)}px;top:${String(event.clientY)}px;z-index:100`;
      const menu = doc.createElement("menu");
      menu.className = "context-items";
      for (const item of shown) {
        const li = doc.createElement("li");
        li.className = "context-item";
        li.innerHTML = `${item.icon}<span>${i18n.localize(item.text)}</span>`;
        li.addEventListener("click", (clicked) => {
          clicked.preventDefault();
          clicked.stopPropagation();
          ContextMenu.close();
          Promise.resolve(item.run(clicked, target)).catch((err: unknown) => {
            recordError("context menu", err);
          });
        });
        menu.append(li);
      }
      nav.append(menu);
      doc.body.append(nav);
      // Keep the menu on screen (it opens at the pointer).
      const view = doc.defaultView;
      if (view !== null) {
        const box = nav.getBoundingClientRect();
        nav.style.left = `${String(Math.max(0, Math.min(event.clientX, view.innerWidth - box.width - 4)))}px`;
        nav.style.top = `${String(Math.max(0, Math.min(event.clientY, view.innerHeight - box.height - 4)))}px`;
      }
      const dismiss = (other: Event): void => {
        if (other.type === "keydown" && (other as KeyboardEvent).key !== "Escape") return;
        if (other.type === "pointerdown" && nav.contains(other.target as Node)) return;
        nav.remove();
        doc.removeEventListener("pointerdown", dismiss, true);
        doc.removeEventListener("keydown", dismiss, true);
      };
      doc.addEventListener("pointerdown", dismiss, true);
      doc.addEventListener("keydown", dismiss, true);
    }
  }
  return ContextMenu;
}
