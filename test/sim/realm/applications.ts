/**
 * The realm's applications: Handlebars templates and helpers, `ContextMenu`, `DialogV2.confirm`,
 * `ApplicationV2` with `HandlebarsApplicationMixin`, and core's combat tracker (v13's sidebar tab,
 * with its popout), re-rendered after changes to encounters.
 */
import Handlebars from "handlebars";
import type { RealmOptions, RealmTransport, SimCombat, SimUser } from "../runtime.js";
import { classChain, type Fn } from "./constants.js";
import type { SimHooks } from "./hooks.js";
import type { SimI18n } from "./i18n.js";
import { deepClone, isPlainObject, macrotask, mergeObject, randomID, type Dict } from "../utils.js";

/**
 * Stand-ins for the core tracker's part templates, written for the simulation (not Foundry's): just
 * enough for a "system default" encounter to render and be driven in the playground.
 */
const CORE_TEMPLATES: Record<string, string> = {
  "templates/sidebar/tabs/combat/header.hbs": [
    '<header class="sim-combat-header">',
    '{{#if user.isGM}}<button type="button" data-action="createCombat" aria-label="Create encounter">+</button>{{/if}}',
    '<span class="sim-round">{{#if hasCombat}}Round {{round}}{{else}}No encounter{{/if}}</span>',
    "</header>",
  ].join(""),
  "templates/sidebar/tabs/combat/tracker.hbs": [
    '<ol class="combat-tracker plain">',
    '{{#each turns}}<li class="combatant{{#if active}} active{{/if}}" data-combatant-id="{{id}}">',
    // Core's rows show the token image (dnd5e 5.3.3's renderGroups reads each row's `img`).
    '<img class="token-image" src="{{img}}" alt="{{name}}"> ',
    '<span class="name">{{name}}</span> <span class="initiative">{{initiative}}</span></li>{{/each}}',
    "</ol>",
  ].join(""),
  "templates/sidebar/tabs/combat/footer.hbs": [
    '<nav class="combat-controls">{{#if hasCombat}}{{#if user.isGM}}{{#if started}}',
    '<button type="button" data-action="previousTurn">Previous turn</button>',
    '<button type="button" data-action="nextTurn">Next turn</button>',
    '{{else}}<button type="button" data-action="startCombat">Begin combat</button>{{/if}}{{/if}}{{/if}}</nav>',
  ].join(""),
};

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
export function createApplications({
  g,
  t,
  opts,
  v14,
  logCompatibilityWarning,
  recordError,
  Hooks,
  i18n,
  late,
}: ApplicationsRealm) {
  const hb = Handlebars.create();
  const templateCache = new Map<string, Handlebars.TemplateDelegate>();
  function getTemplate(path: string): Handlebars.TemplateDelegate {
    let tpl = templateCache.get(path);
    if (!tpl) {
      const src = t.loadTemplate(path) ?? CORE_TEMPLATES[path] ?? null;
      if (src === null) throw new Error(`Template ${path} not found`);
      tpl = hb.compile(src);
      templateCache.set(path, tpl);
    }
    return tpl;
  }
  /** The realm's DOM document when it has one and renders templates (the browser playground), else null. */
  function domDocument(): Document | null {
    const doc = g.document as Document | undefined;
    return opts.renderTemplates && doc !== undefined && "createElement" in doc ? doc : null;
  }
  /** https://foundryvtt.com/api/functions/foundry.applications.handlebars.renderTemplate.html */
  async function renderTemplate(path: string, data: Dict = {}): Promise<string> {
    return getTemplate(path)(data, { allowProtoPropertiesByDefault: true, allowProtoMethodsByDefault: true });
  }
  /** Registers each template as a partial under its path (or under the given names). */
  async function loadTemplates(paths: string[] | Record<string, string>): Promise<void> {
    const entries = Array.isArray(paths) ? paths.map((p) => [p, p] as const) : Object.entries(paths);
    for (const [name, path] of entries) hb.registerPartial(name, getTemplate(path));
  }
  const helperOpts = (args: unknown[]): Dict => (args[args.length - 1] as { hash?: Dict }).hash ?? {};
  hb.registerHelper({
    localize: (key: unknown, ...rest: unknown[]) => {
      const hash = helperOpts(rest);
      return Object.keys(hash).length ? i18n.format(String(key), hash) : i18n.localize(String(key));
    },
    eq: (a: unknown, b: unknown) => a === b,
    ne: (a: unknown, b: unknown) => a !== b,
    lt: (a: unknown, b: unknown) => Number(a) < Number(b),
    gt: (a: unknown, b: unknown) => Number(a) > Number(b),
    and: (...args: unknown[]) => args.slice(0, -1).every(Boolean),
    or: (...args: unknown[]) => args.slice(0, -1).some(Boolean),
    not: (a: unknown) => !a,
    concat: (...args: unknown[]) => args.slice(0, -1).map(String).join(""),
    ifThen: (c: unknown, a: unknown, b: unknown) => (c ? a : b),
    checked: (v: unknown) => (v ? "checked" : ""),
    disabled: (v: unknown) => (v ? "disabled" : ""),
  });

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

  /**
   * A minimal `DialogV2.confirm` (https://foundryvtt.com/api/classes/foundry.applications.api.DialogV2.html#confirm):
   * it resolves true for Yes and false for No. With a DOM a `dialog.sim-dialog` (the title, the
   * content, Yes and No buttons) opens on the page and answers when clicked; a realm without a DOM
   * answers `DialogV2.answer` (yes unless a test says otherwise). The titles asked are kept in
   * `DialogV2.asked`. Only `confirm` exists: code that needs more of DialogV2 finds it missing.
   */
  const DialogV2 = {
    answer: true,
    asked: [] as string[],
    confirm(config: Dict = {}): Promise<boolean> {
      const title = String((config.window as Dict | undefined)?.title ?? "");
      DialogV2.asked.push(title);
      const doc = domDocument();
      if (doc === null) return Promise.resolve(DialogV2.answer);
      return new Promise((resolve) => {
        const dialog = doc.createElement("dialog");
        dialog.className = "sim-dialog";
        dialog.setAttribute("aria-label", title);
        dialog.innerHTML = `<h2></h2><div class="sim-dialog__content">${String(config.content ?? "")}</div>`;
        (dialog.querySelector("h2") as HTMLElement).textContent = title;
        const footer = doc.createElement("footer");
        for (const [action, label, value] of [
          ["yes", "Yes", true],
          ["no", "No", false],
        ] as const) {
          const button = doc.createElement("button");
          button.type = "button";
          button.dataset.action = action;
          button.textContent = label;
          button.addEventListener("click", () => {
            dialog.remove();
            resolve(value);
          });
          footer.append(button);
        }
        dialog.append(footer);
        doc.body.append(dialog);
        if (typeof dialog.showModal === "function") dialog.showModal();
        else dialog.setAttribute("open", "");
      });
    },
  };

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
  /**
   * Handlebars parts (https://foundryvtt.com/api/functions/foundry.applications.api.HandlebarsApplicationMixin.html).
   * As documented, `_renderHTML` resolves with "a single rendered HTMLElement for each requested part"
   * and `parts` is "a record of all rendered template parts". Without a DOM (the Node realms) the
   * parts stay HTML strings, which the integration tests read.
   */
  function HandlebarsApplicationMixin(Base: typeof ApplicationV2) {
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
  /** v13 tracker: ApplicationV2 with parts header/tracker/footer (ARCHITECTURE.md "Known platform facts"). */
  class CombatTracker extends HandlebarsApplicationMixin(ApplicationV2) {
    static override DEFAULT_OPTIONS: Dict = {
      id: "combat",
      actions: {
        startCombat: async function (this: CombatTracker) {
          await this.viewed?.startCombat();
        },
        endCombat: async function (this: CombatTracker) {
          await this.viewed?.endCombat();
        },
        nextTurn: async function (this: CombatTracker) {
          await this.viewed?.nextTurn();
        },
        previousTurn: async function (this: CombatTracker) {
          await this.viewed?.previousTurn();
        },
        nextRound: async function (this: CombatTracker) {
          await this.viewed?.nextRound();
        },
        previousRound: async function (this: CombatTracker) {
          await this.viewed?.previousRound();
        },
        rollAll: async function (this: CombatTracker) {
          await this.viewed?.rollAll();
        },
        rollNPC: async function (this: CombatTracker) {
          await this.viewed?.rollNPC();
        },
        resetAll: async function (this: CombatTracker) {
          await this.viewed?.resetAll();
        },
      },
    };
    static override PARTS = {
      header: { template: "templates/sidebar/tabs/combat/header.hbs" },
      tracker: { template: "templates/sidebar/tabs/combat/tracker.hbs" },
      footer: { template: "templates/sidebar/tabs/combat/footer.hbs" },
    };
    get viewed(): SimCombat | null {
      return late.game.combats.viewed;
    }
    /**
     * v13 sidebar tabs pop out (https://foundryvtt.com/api/classes/foundry.applications.sidebar.AbstractSidebarTab.html):
     * `renderPopout()` renders a second instance of the same class, `popout` names it and its
     * `isPopout` is true; its element's id is `combat-popout` (pf2e's EncounterTrackerPF2e
     * `refreshTargetDisplay` looks up `#combat, #combat-popout`). The sim renders the popout whenever
     * it renders the sidebar tab, so both show the viewed encounter; closing it clears `popout`.
     */
    #popout: CombatTracker | null = null;
    #original: CombatTracker | null = null;
    get isPopout(): boolean {
      return this.#original !== null;
    }
    get popout(): CombatTracker | undefined {
      return this.#popout ?? undefined;
    }
    async renderPopout(): Promise<CombatTracker> {
      if (this.#popout === null) {
        const Cls = this.constructor as new (options: Dict) => CombatTracker;
        const popout = new Cls({ id: `${String(this.options.id)}-popout`, classes: ["sidebar-popout"] });
        popout.#original = this;
        this.#popout = popout;
      }
      const popout = this.#popout;
      await popout.render({ force: true });
      const doc = domDocument();
      const el = popout.element as HTMLElement | null;
      if (doc !== null && el !== null && !el.isConnected) doc.body.append(el);
      return popout;
    }
    override async close(): Promise<this> {
      await super.close();
      if (this.#original !== null && this.#original.#popout === this) this.#original.#popout = null;
      return this;
    }
    override async _prepareContext(_options: Dict): Promise<Dict> {
      const combat = this.viewed;
      const user = late.currentUser();
      return {
        user,
        combat,
        hasCombat: combat !== null,
        round: combat?.round ?? 0,
        started: combat?.started ?? false,
      };
    }
    /**
     * The tracker part's context comes from `_prepareTrackerContext` (the header's and footer's from
     * the shared context here), as v13 prepares each part
     * (https://foundryvtt.com/api/v13/classes/foundry.applications.sidebar.tabs.CombatTracker.html#_preparetrackercontext).
     */
    override async _preparePartContext(partId: string, context: Dict, options: Dict): Promise<Dict> {
      const ctx = await super._preparePartContext(partId, context, options);
      if (partId === "tracker") await this._prepareTrackerContext(ctx, options);
      return ctx;
    }
    /** The visible turns of the viewed encounter, as `context.turns`. */
    async _prepareTrackerContext(context: Dict, _options: Dict): Promise<void> {
      const combat = this.viewed;
      context.turns = (combat?.turns ?? []).flatMap((c, i) =>
        c.visible
          ? [
              {
                id: c.id,
                name: c.name,
                img: c.img,
                initiative: c.initiative,
                hidden: c.hidden,
                defeated: c.isDefeated,
                owner: c.isOwner,
                active: combat?.turn === i,
              },
            ]
          : [],
      );
    }
  }
  let renderScheduled = false;
  function scheduleRender(): void {
    if (renderScheduled) return;
    renderScheduled = true;
    macrotask(() => {
      renderScheduled = false;
      const app = late.ui.combat as CombatTracker | null;
      for (const tab of [app, app?.popout ?? null])
        if (late.game.ready && tab?.rendered)
          tab.render().catch((err: unknown) => {
            recordError("render combat tracker", err);
          });
    });
  }
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
