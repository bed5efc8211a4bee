/**
 * The module's combat tracker, derived from the tracker class `CONFIG.ui.combat` holds at `init`.
 * A "system default" encounter renders exactly what the parent class renders. A structured one
 * keeps the parent's header, adds an "at a glance" strip and replaces the combatant list and the
 * footer with the module's own templates; its buttons go through `actions` to the rules.
 */
import { HOOKS, MODULE_ID, TEMPLATES } from "../../constants";
import { isStructured, moduleOfCombat } from "../authority/encounters";
import { installedModes } from "../modes";
import { changeMode } from "../authority/controller";
import { chooseMode, createEncounter, SHARED_ACTIONS } from "./actions";
import { hintsShown } from "../settings";
import { buildModeSwitch, buildTrackerContext, type TrackerContext } from "./context";
import { tryPatchParts } from "./dom-patch";
import { trackerParts, type PartConfig, type PartRoles } from "./parts";
import { moduleHooks } from "../hooks";
import { liveRegion } from "./live";
import { ShownRows } from "./shown-rows";
import { contextMenu, menuEntries } from "../compat";
import { activateRow, openRowSheet, rowMenuEntries, rowOf, ROW_SELECTOR } from "./rows";

/** The attribute of a disclosure filled on use: its kind (see `#opened`). */
const FILL_ATTRIBUTE = "data-si-fill";

/** A ⋯ menu: a disclosure whose summary is drawn as the small ⋯ button (`.si-more`). */
const MENU_BUTTON = ":scope > summary.si-more";

/** Escape inside an open ⋯ menu (or on its button) closes it and puts the focus back on its button. */
function closeMenuOnEscape(event: KeyboardEvent): void {
  if (event.key !== "Escape" || !(event.target instanceof Element)) return;
  for (
    let menu = event.target.closest("details[open]");
    menu !== null;
    menu = menu.parentElement?.closest("details[open]") ?? null
  ) {
    const button = menu.querySelector<HTMLElement>(MENU_BUTTON);
    if (button === null) continue;
    event.preventDefault();
    event.stopPropagation();
    (menu as HTMLDetailsElement).open = false;
    button.focus();
    return;
  }
}

/** The key of the module's data in the render context. */
export const CONTEXT_KEY = "structuredInitiative";
/** The key of a system-default encounter's mode select data in the render context. */
export const SWITCH_KEY = "structuredInitiativeMode";

type TrackerClass = typeof foundry.applications.sidebar.tabs.CombatTracker;

let partialsLoaded: Promise<unknown> | null = null;

/** The partials the module's parts use: the button and every installed mode's partials. */
function partials(): string[] {
  const own = installedModes().flatMap((mode) =>
    [mode.tracker.rowPartial, mode.tracker.rowBodyPartial, mode.tracker.panelPartial, mode.tracker.listPartial].filter(
      (path): path is string => path !== undefined,
    ),
  );
  return [TEMPLATES.control, TEMPLATES.row, ...own];
}

/** Register the partials once (Foundry registers loaded templates as partials by their path). */
function loadPartials(): Promise<unknown> {
  partialsLoaded ??= foundry.applications.handlebars.loadTemplates(partials());
  return partialsLoaded;
}

/**
 * Every `data-action` a tracker button can carry: the shared ones and each installed mode's. Each is
 * wired to one dispatcher, which runs the viewed encounter's mode's entry (or the shared one).
 */
function actionNames(): string[] {
  return [...new Set([...Object.keys(SHARED_ACTIONS), ...installedModes().flatMap((m) => Object.keys(m.actions))])];
}

/** The module's combat tracker class, derived from `Base`. */
export function createTrackerClass(Base: TrackerClass) {
  /**
   * The combat tracker: the system's own for system-default encounters, the module's rows and
   * controls for structured ones. Its name gives the render hook `renderSICombatTracker`.
   */
  class SICombatTracker extends Base {
    /** The module's buttons (a click on `[data-action]` runs the handler with `this` the tracker). */
    static override DEFAULT_OPTIONS = {
      actions: {
        createCombat: SICombatTracker.#onCreate,
        ...Object.fromEntries(actionNames().map((name) => [name, SICombatTracker.#onAction])),
      },
    };

    /** The last turn announced to screen readers. */
    #announced = "";

    /** Whether renders patch the module's parts in place (off after a patch failed). */
    #patching = true;

    /**
     * The disclosures filled on use that the user opened, by kind (`data-si-fill`) then combatant
     * id: rarely used forms (the GM's edits of a row) render their summary only until opened, then
     * stay filled (what was typed in them survives closing) while the encounter and mode stay.
     */
    #opened = new Map<string, Set<string>>();

    /** The application element the tracker's listeners are bound to. */
    #rootBound: HTMLElement | null = null;

    /** The viewed combat when the module runs it, else null. */
    get structuredCombat(): Combat.Implementation | null {
      const combat = this.viewed;
      return combat !== null && isStructured(combat) ? combat : null;
    }

    /**
     * The parts this render configures, by role: the parent's header, the module's glance strip,
     * then the parent's list and footer (their own parts for a system-default encounter, the
     * module's templates under the same ids for a structured one). See {@link trackerParts}.
     */
    #roles: PartRoles | null = null;

    /**
     * A stable part set in every mode: the parent's header, the glance strip (always configured,
     * empty when the encounter has nothing to show there), then the parent's other parts. The
     * parent's part ids are discovered from what it configures, never assumed: dnd5e keeps core's
     * `tracker`/`footer`, draw-steel configures `dsTracker`/`dsFooter` instead. A structured
     * encounter renders the module's list and footer in the parent's first and last of those.
     */
    protected override _configureRenderParts(
      options: Parameters<InstanceType<TrackerClass>["_configureRenderParts"]>[0],
    ): ReturnType<InstanceType<TrackerClass>["_configureRenderParts"]> {
      const parent = super._configureRenderParts(options) as Record<string, PartConfig>;
      const { parts, roles } = trackerParts(parent, this.structuredCombat !== null, partials());
      this.#roles = roles;
      return parts;
    }

    /** Adds the structured tracker's data (computed once per render) for a structured encounter. */
    override async _prepareContext(
      options: Parameters<InstanceType<TrackerClass>["_prepareContext"]>[0],
    ): ReturnType<InstanceType<TrackerClass>["_prepareContext"]> {
      const context = await super._prepareContext(options);
      const combat = this.structuredCombat;
      await loadPartials();
      if (combat === null) {
        const viewed = this.viewed;
        const modeSwitch = viewed === null ? null : buildModeSwitch(viewed, game.user);
        return modeSwitch === null ? context : Object.assign(context, { [SWITCH_KEY]: modeSwitch });
      }
      const opened = (kind: string, id: string): boolean => this.#opened.get(kind)?.has(id) === true;
      const data = buildTrackerContext(
        combat,
        game.user,
        game.i18n,
        game.users.activeGM !== null,
        hintsShown(),
        opened,
      );
      if (data === null) return Object.assign(context, { [CONTEXT_KEY]: null });
      const shown = this.#withOpened(combat, data);
      // A first render shows every row as the state makes it: no row stands for a live one. Nor
      // does any while the parts are rendered whole (a patch failed).
      const reuse = (options as { isFirstRender?: boolean }).isFirstRender !== true && this.#patching;
      const rowsShown = await this.#rows.render(shown, reuse);
      return Object.assign(context, { [CONTEXT_KEY]: { ...shown, rowsShown, rowsInList: !reuse } });
    }

    /** The rows this view shows, kept in place while unchanged (see `shown-rows.ts`). */
    readonly #rows = new ShownRows();

    /** The module's parts as `_renderHTML` makes them; the rows of this render are remembered with them. */
    protected override async _renderHTML(
      context: Parameters<InstanceType<TrackerClass>["_renderHTML"]>[0],
      options: Parameters<InstanceType<TrackerClass>["_renderHTML"]>[1],
    ): Promise<Record<string, HTMLElement>> {
      // The parts by id (HandlebarsApplicationMixin's documented result; the typings' overloads say unknown).
      const result = (await super._renderHTML(context, options)) as Record<string, HTMLElement>;
      const data = (context as { [CONTEXT_KEY]?: TrackerContext | null })[CONTEXT_KEY];
      this.#rows.rendered(result, data?.rowsShown ?? []);
      return result;
    }

    /**
     * The data with the disclosures filled on use that the user opened (`opened`, by kind then
     * combatant id); they are forgotten when the encounter, its mode or its partials change.
     */
    #withOpened(combat: Combat.Implementation, data: TrackerContext): TrackerContext {
      const scope = `${combat.id ?? ""}|${data.mode}|${data.rowPartial}|${data.panelPartial}|${data.listPartial}`;
      if (this.#openedScope !== scope) this.#opened.clear();
      this.#openedScope = scope;
      const opened = Object.fromEntries(
        Array.from(this.#opened, ([kind, ids]) => [
          kind,
          Object.fromEntries(Array.from(ids, (id) => [id, true as const])),
        ]),
      );
      return { ...data, opened };
    }

    /** The encounter, mode and partials {@link #opened} belongs to. */
    #openedScope = "";

    /**
     * The module's own parts are patched into the live ones (only changed rows are rebuilt, and
     * what the user typed, chose or focused survives); the parent's parts render as usual.
     */
    protected override _replaceHTML(
      result: Parameters<InstanceType<TrackerClass>["_replaceHTML"]>[0],
      content: Parameters<InstanceType<TrackerClass>["_replaceHTML"]>[1],
      options: Parameters<InstanceType<TrackerClass>["_replaceHTML"]>[2],
    ): void {
      const listId = this.#roles?.list ?? null;
      const rows = this.#rows.beforeLive(result, listId);
      const patchable = this.#patching && this.structuredCombat !== null && typeof result === "object";
      if (
        patchable &&
        result !== null &&
        !tryPatchParts(this.parts, result as Record<string, unknown>, this.#roles?.own ?? [], MODULE_ID)
      ) {
        // A part may be half patched: stop patching and render once more, whole.
        this.#patching = false;
        void this.render();
      }
      super._replaceHTML(result, content, options);
      if (rows !== null && listId !== null) this.#rows.afterLive(rows, this.parts[listId]);
    }

    /** Announce a turn change to screen readers through a live region outside the re-rendered parts. */
    protected override async _onRender(
      context: Parameters<InstanceType<TrackerClass>["_onRender"]>[0],
      options: Parameters<InstanceType<TrackerClass>["_onRender"]>[1],
    ): Promise<void> {
      await super._onRender(context, options);
      const data = (context as { [CONTEXT_KEY]?: TrackerContext | null })[CONTEXT_KEY] ?? null;
      const root = this.element as HTMLElement | null;
      if (root === null) return;
      this.#bindRoot(root);
      const combat = this.structuredCombat;
      if (combat !== null) moduleOfCombat(combat)?.tracker.afterRender?.(root);
      const region = liveRegion(root);
      // The notices' region is there before its first notice: a region is heard when its text changes.
      liveRegion(root, "notice");
      if (data === null || data.announcement === "") return;
      if (data.announceKey !== this.#announced) {
        this.#announced = data.announceKey;
        region.textContent = data.announcement;
      }
    }

    /**
     * Listeners on the application element, bound once: renders patch the parts in place, so a
     * listener bound to an element inside them on every render would pile up. The mode select;
     * a row's click (pan to and select its token) and double click (the actor's sheet); the GM's
     * right-click menu on rows.
     */
    #bindRoot(root: HTMLElement): void {
      if (this.#rootBound === root) return;
      this.#rootBound = root;
      root.addEventListener("change", (event) => {
        const select = event.target as Element | null;
        if (select?.tagName !== "SELECT" || select.getAttribute("name") !== `${MODULE_ID}-mode`) return;
        const combat = this.viewed;
        if (combat === null) return;
        const choice = select as HTMLSelectElement;
        // Refused (with a message): show the encounter's mode again, not the choice that failed.
        void changeMode(combat, choice.value).then((result) => {
          if (!result.ok) choice.value = Array.from(choice.options).find((o) => o.defaultSelected)?.value ?? "";
        });
      });
      root.addEventListener("keydown", closeMenuOnEscape);
      root.addEventListener("click", (event) => {
        // The second click of a double click is the double click's (the sheet), not another pan.
        if (event.detail > 1) return;
        const id = rowOf(event);
        const combat = this.structuredCombat;
        if (id !== null && combat !== null) void activateRow(combat, id, event.shiftKey);
      });
      root.addEventListener("dblclick", (event) => {
        const id = rowOf(event);
        const combat = this.structuredCombat;
        if (id !== null && combat !== null) openRowSheet(combat, id);
      });
      // A disclosure filled on use is filled as it opens (a click or a key on its summary): its row
      // renders again with the form inside. `toggle` does not bubble: it is caught on the way down.
      root.addEventListener(
        "toggle",
        (event) => {
          const details = event.target as HTMLDetailsElement | null;
          if (details?.tagName !== "DETAILS" || !details.open) return;
          const kind = details.getAttribute(FILL_ATTRIBUTE);
          const id = details.getAttribute("data-combatant-id");
          if (kind === null || id === null || this.#opened.get(kind)?.has(id) === true) return;
          this.#opened.set(kind, new Set([...(this.#opened.get(kind) ?? []), id]));
          void this.render();
        },
        true,
      );
      if (!game.user.isGM) return;
      // Listeners see (and may add) entries in the running generation's shape; either shape works.
      const entries: unknown[] = menuEntries(rowMenuEntries(() => this.structuredCombat));
      moduleHooks.callAll(HOOKS.rowMenu, this, entries);
      contextMenu(root, ROW_SELECTOR, entries);
    }

    /** Creating an encounter offers the mode choice first. */
    static async #onCreate(this: SICombatTracker): Promise<void> {
      const mode = await chooseMode();
      if (mode !== null) await createEncounter(mode);
    }

    /**
     * A button of a structured encounter: its `data-action` entry in the encounter's mode's table,
     * else in the shared table. Refusals are shown by the command path.
     */
    static async #onAction(this: SICombatTracker, _event: Event, target: HTMLElement): Promise<void> {
      const combat = this.structuredCombat;
      const name = target.dataset.action ?? "";
      if (combat === null) return;
      const action = moduleOfCombat(combat)?.actions[name] ?? SHARED_ACTIONS[name];
      if (action !== undefined) await action(combat, target, this.element);
    }
  }
  return SICombatTracker;
}
