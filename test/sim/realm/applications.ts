/**
 * The realm's applications: `ApplicationV2` with `HandlebarsApplicationMixin` here, built on the
 * templates (./templates.ts); `ContextMenu` (./context-menu.ts), `DialogV2.confirm` (./dialog.ts)
 * and core's combat tracker (./tracker.ts: v13's sidebar tab, with its popout, re-rendered after
 * changes to encounters).
 */
import type { RealmOptions, RealmTransport, SimCombat, SimUser } from "../runtime.js";
import { classChain, type Fn } from "./constants.js";
import { createContextMenu } from "./context-menu.js";
import { createDialog } from "./dialog.js";
import type { SimHooks } from "./hooks.js";
import type { SimI18n } from "./i18n.js";
import { createTemplates } from "./templates.js";
import { createCombatTracker } from "./tracker.js";
import { deepClone, isPlainObject, mergeObject, randomID, type Dict } from "../utils.js";

/** What the applications need from their realm; `late` is read when used (the realm builds it later). */
export interface ApplicationsRealm {
  g: Dict;
  t: RealmTransport;
  opts: RealmOptions;
  v14: boolean;
  logCompatibilityWarning: (message: string) => void;
  recordError: (where: string, err: unknown) => void;
  Hooks: SimHooks;
  i18n: SimI18n;
  late: {
    readonly game: {
      readonly ready: boolean;
      readonly release?: { generation?: number };
      readonly combats: { readonly viewed: SimCombat | null };
    };
    readonly ui: { readonly combat: unknown };
    currentUser(): SimUser | null;
  };
}

/** One realm's application classes and template functions. */
export function createApplications(realm: ApplicationsRealm) {
  const { g, t, opts, v14, logCompatibilityWarning, recordError, Hooks, i18n, late } = realm;
  const { hb, getTemplate, renderTemplate, loadTemplates } = createTemplates(t, i18n);
  /** The realm's DOM document when it has one and renders templates (the browser playground), else null. */
  function domDocument(): Document | null {
    const doc = g.document as Document | undefined;
    return opts.renderTemplates && doc !== undefined && "createElement" in doc ? doc : null;
  }
  const ContextMenu = createContextMenu({ v14, logCompatibilityWarning, recordError, i18n, domDocument });
  const DialogV2 = createDialog(domDocument);
  const ApplicationV2 = createApplicationV2({ Hooks, domDocument, late });
  const HandlebarsApplicationMixin = createHandlebarsApplicationMixin({
    opts,
    recordError,
    renderTemplate,
    domDocument,
  });
  const { CombatTracker, scheduleRender } = createCombatTracker({
    ApplicationV2,
    HandlebarsApplicationMixin,
    recordError,
    domDocument,
    late,
  });
  return {
    hb,
    getTemplate,
    renderTemplate,
    loadTemplates,
    ContextMenu,
    DialogV2,
    ApplicationV2,
    HandlebarsApplicationMixin,
    CombatTracker,
    scheduleRender,
  };
}

/** One realm's `ApplicationV2` class. */
export function createApplicationV2({
  Hooks,
  domDocument,
  late,
}: Pick<ApplicationsRealm, "Hooks" | "late"> & { domDocument: () => Document | null }) {
  /** Minimal ApplicationV2 (https://foundryvtt.com/api/classes/foundry.applications.api.ApplicationV2.html). */
  class ApplicationV2 {
    static DEFAULT_OPTIONS: Dict = { id: "app-{id}", classes: [], tag: "div", window: {}, actions: {}, position: {} };
    static inheritanceChain(this: typeof ApplicationV2): Array<typeof ApplicationV2> {
      return classChain(this, ApplicationV2);
    }
    options: Dict;
    element: unknown = null;
    rendered = false;
    renderCount = 0;
    constructor(options: Dict = {}) {
      const chain = [...(this.constructor as typeof ApplicationV2).inheritanceChain()].reverse();
      const merged: Dict = {};
      for (const cls of chain)
        if (Object.prototype.hasOwnProperty.call(cls, "DEFAULT_OPTIONS")) mergeObject(merged, cls.DEFAULT_OPTIONS);
      this.options = mergeObject(merged, options);
    }
    get id(): string {
      return String(this.options.id).replace("{id}", randomID(8));
    }
    /** Prepares context, renders, then fires `render<ClassName>` for each class of the chain. */
    async render(options: boolean | Dict = {}): Promise<this> {
      const o: Dict = typeof options === "boolean" ? { force: options } : options;
      /**
       * @behaviour A render's options say whether it is the application's first (`isFirstRender`).
       * The page does not say whether a value the caller gives is overridden: the sim keeps it (the
       * render bench asks for first renders that way).
       * @source https://foundryvtt.com/api/interfaces/foundry.applications.types.ApplicationRenderOptions.html
       * ("isFirstRender: Is this render the first one for the application? This property is populated automatically.")
       */
      o.isFirstRender ??= !this.rendered;
      const context = await this._prepareContext(o);
      const result = await this._renderHTML(context, o);
      this._replaceHTML(result, this.element, o);
      this.rendered = true;
      this.renderCount++;
      const detached = (o.window as Dict | undefined)?.detached;
      if (typeof detached === "boolean") await this.#setDetached(detached);
      await this._onRender(context, o);
      this._callHooks("render", this.element, context, o);
      return this;
    }
    /**
     * v14 detaches an application into its own browser window: `render({window: {detached: true}})`,
     * and `detached: false` brings it back (https://foundryvtt.com/api/v14/interfaces/foundry.applications.types.ApplicationWindowRenderOptions.html;
     * hook `closeDetachedWindow(id, window)`, https://foundryvtt.com/api/functions/hookEvents.closeDetachedWindow.html).
     * The sim's window is an iframe on the page holding copies of the page's styles: another
     * document and another realm (its own `window`, `document` and element classes), as a browser
     * window is. v13 has no detached windows: the option does nothing there.
     */
    #detachedWindow: HTMLIFrameElement | null = null;
    #home: { parent: Node; next: Node | null } | null = null;
    get detachedWindow(): Window | null {
      return this.#detachedWindow?.contentWindow ?? null;
    }
    async #setDetached(detached: boolean): Promise<void> {
      const release = late.game.release;
      const doc = domDocument();
      const el = this.element as HTMLElement | null;
      if ((release?.generation ?? 13) < 14 || doc === null || el === null) return;
      if (detached && this.#detachedWindow === null) {
        const frame = doc.createElement("iframe");
        frame.className = "sim-detached-window";
        frame.title = el.id;
        await new Promise<void>((resolve) => {
          frame.addEventListener("load", () => {
            resolve();
          });
          frame.srcdoc = "<!doctype html><html><head></head><body></body></html>";
          doc.body.append(frame);
        });
        const win = frame.contentDocument as Document;
        for (const style of Array.from(doc.head.querySelectorAll("style, link[rel=stylesheet]")))
          win.head.append(win.importNode(style, true));
        win.documentElement.className = doc.documentElement.className;
        win.body.className = doc.body.className;
        if (el.parentNode !== null) this.#home = { parent: el.parentNode, next: el.nextSibling };
        win.body.append(el);
        this.#detachedWindow = frame;
      } else if (!detached && this.#detachedWindow !== null) {
        const frame = this.#detachedWindow;
        const home = this.#home;
        if (home !== null) home.parent.insertBefore(el, home.next?.parentNode === home.parent ? home.next : null);
        else doc.body.append(el);
        this.#detachedWindow = null;
        Hooks.callAll("closeDetachedWindow", el.id, frame.contentWindow);
        frame.remove();
      }
    }
    async _prepareContext(_options: Dict): Promise<Dict> {
      return {};
    }
    async _renderHTML(_context: Dict, _options: Dict): Promise<unknown> {
      return null;
    }
    _replaceHTML(_result: unknown, _content: unknown, _options: Dict): void {}
    async _onRender(_context: Dict, _options: Dict): Promise<void> {}
    /** Closing removes the application's element (https://foundryvtt.com/api/classes/foundry.applications.api.ApplicationV2.html#close). */
    async close(): Promise<this> {
      this.rendered = false;
      (this.element as { remove?: () => void } | null)?.remove?.();
      this._callHooks("close", this.element);
      return this;
    }
    _callHooks(prefix: string, ...args: unknown[]): void {
      for (const cls of (this.constructor as typeof ApplicationV2).inheritanceChain())
        if (cls.name) Hooks.callAll(`${prefix}${cls.name}`, this, ...args);
    }
  }
  return ApplicationV2;
}

/** What the Handlebars mixin needs from its realm. */
export interface HandlebarsMixinRealm {
  opts: RealmOptions;
  recordError: (where: string, err: unknown) => void;
  renderTemplate: (path: string, data?: Dict) => Promise<string>;
  domDocument: () => Document | null;
}

/** One realm's `HandlebarsApplicationMixin`. */
export function createHandlebarsApplicationMixin({
  opts,
  recordError,
  renderTemplate,
  domDocument,
}: HandlebarsMixinRealm) {
  /**
   * Handlebars parts (https://foundryvtt.com/api/functions/foundry.applications.api.HandlebarsApplicationMixin.html).
   * As documented, `_renderHTML` resolves with "a single rendered HTMLElement for each requested part"
   * and `parts` is "a record of all rendered template parts". Without a DOM (the Node realms) the
   * parts stay HTML strings, which the integration tests read.
   */
  function HandlebarsApplicationMixin(Base: ReturnType<typeof createApplicationV2>) {
    return class HandlebarsApplication extends Base {
      static PARTS: Record<string, { template: string }> = {};
      parts: Record<string, unknown> = {};
      /** The part ids of the current render, in order (a part no longer configured is removed). */
      #partIds: string[] = [];
      /** "Allow subclasses to dynamically configure render parts": a copy of the static PARTS. */
      _configureRenderParts(_options: Dict): Record<string, { template: string }> {
        const parts = (this.constructor as unknown as { PARTS: Record<string, { template: string }> }).PARTS;
        return deepClone(parts);
      }
      async _preparePartContext(_partId: string, context: Dict, _options: Dict): Promise<Dict> {
        return context;
      }
      override async _renderHTML(context: Dict, options: Dict): Promise<unknown> {
        const out: Record<string, unknown> = {};
        const parts = this._configureRenderParts(options);
        this.#partIds = Object.keys(parts);
        const doc = domDocument();
        for (const [id, part] of Object.entries(parts)) {
          const ctx = await this._preparePartContext(id, { ...context, partId: id }, options);
          const html = opts.renderTemplates ? await renderTemplate(part.template, ctx) : "";
          if (doc === null) {
            out[id] = html;
            continue;
          }
          const template = doc.createElement("template");
          template.innerHTML = html.trim();
          const el = template.content.firstElementChild ?? doc.createElement("div");
          el.setAttribute("data-application-part", id);
          out[id] = el;
        }
        return out;
      }
      /**
       * Each part in `result` replaces its prior element on its own; a configured part missing from
       * `result` keeps its prior element (as a partial render does); other children of the
       * application element (a live region) survive re-renders, as in Foundry.
       */
      override _replaceHTML(result: unknown, _content: unknown, _options: Dict): void {
        const rendered = isPlainObject(result) ? (result as Record<string, unknown>) : {};
        const doc = domDocument();
        if (doc === null) {
          this.parts = Object.fromEntries(this.#partIds.map((id) => [id, rendered[id] ?? this.parts[id]]));
          return;
        }
        let root = this.element as HTMLElement | null;
        if (root === null) {
          root = doc.createElement(String(this.options.tag ?? "div"));
          root.id = String(this.options.id ?? "");
          root.classList.add("application", ...((this.options.classes as string[] | undefined) ?? []));
          root.addEventListener("click", (event) => {
            this._onClickAction(event);
          });
          // A form application submits to `options.form.handler(event, form, formData)`
          // (https://foundryvtt.com/api/interfaces/foundry.applications.types.ApplicationFormConfiguration.html).
          if (this.options.tag === "form")
            root.addEventListener("submit", (event) => {
              this._onSubmitForm(event);
            });
          this.element = root;
        }
        const ids = this.#partIds;
        for (const old of Array.from(root.querySelectorAll<HTMLElement>(":scope > [data-application-part]")))
          if (!ids.includes(old.dataset.applicationPart ?? "")) old.remove();
        const parts: Record<string, unknown> = {};
        let previous: Element | null = null;
        for (const id of ids) {
          const existing = root.querySelector(`:scope > [data-application-part="${id}"]`);
          const el = rendered[id] as Element | undefined;
          if (el === undefined) {
            parts[id] = existing;
            previous = existing ?? previous;
            continue;
          }
          if (existing) existing.replaceWith(el);
          else if (previous) previous.after(el);
          else root.prepend(el);
          parts[id] = el;
          previous = el;
        }
        this.parts = parts;
      }
      /** The form's submit handler, with the app as `this`; the sim passes the browser's FormData. */
      _onSubmitForm(event: Event): void {
        event.preventDefault();
        const handler = (this.options.form as { handler?: unknown } | undefined)?.handler;
        if (typeof handler !== "function") return;
        const form = this.element as HTMLFormElement;
        Promise.resolve((handler as Fn).call(this, event, form, new FormData(form))).catch((err: unknown) => {
          recordError("form submit", err);
        });
      }
      /** ApplicationV2 click actions: `[data-action]` runs `options.actions[name]` with the app as `this`. */
      _onClickAction(event: Event): void {
        const target = (event.target as Element | null)?.closest("[data-action]") as HTMLElement | null;
        const root = this.element as HTMLElement | null;
        if (!target || !root?.contains(target)) return;
        const actions = (this.options.actions ?? {}) as Dict;
        const action = actions[target.dataset.action ?? ""];
        const fn = typeof action === "function" ? action : (action as { handler?: unknown } | undefined)?.handler;
        if (typeof fn !== "function") return;
        event.preventDefault();
        Promise.resolve((fn as Fn).call(this, event, target)).catch((err: unknown) => {
          recordError(`action ${target.dataset.action ?? ""}`, err);
        });
      }
    };
  }
  return HandlebarsApplicationMixin;
}
