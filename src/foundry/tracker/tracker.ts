/**
 * The module's combat tracker, derived from the tracker class `CONFIG.ui.combat` holds at `init`.
 * A "system default" encounter renders exactly what the parent class renders. A structured one
 * keeps the parent's header, adds an "at a glance" strip and replaces the combatant list and the
 * footer with the module's own templates; its buttons go through `actions` to the rules.
 */
import {
  HOOKS,
  I18N,
  MODULE_ID,
  SIDES_PANEL_TEMPLATE,
  SLOTS_LIST_TEMPLATE,
  TEMPLATES,
  TRACKER_PARTS,
} from "../../constants";
import { setSlotsSkill } from "../../modes/slots/glue";
import { isStructured } from "../authority/controller";
import {
  chooseMode,
  command,
  createEncounter,
  group,
  reset,
  rollAll,
  rollFor,
  rollGroup,
  rollOff,
  setMode,
  DEFAULT_GROUP,
} from "./actions";
import { buildTrackerContext, type TrackerContext } from "./context";
import { SIDES_ACTIONS } from "../../modes/sides/actions";
import { tickCountdowns } from "../../modes/sides/glue";
import { tryPatchParts } from "./dom-patch";
import { moduleHooks } from "../hooks";
import { activateRow, openRowSheet, rowMenuEntries, rowOf, ROW_SELECTOR } from "./rows";

/** The key of the module's data in the render context. */
export const CONTEXT_KEY = "structuredInitiative";

type TrackerClass = typeof foundry.applications.sidebar.tabs.CombatTracker;

/** Handlebars part configuration, as `_configureRenderParts` returns it. */
interface PartConfig {
  template: string;
  templates?: string[];
  scrollable?: string[];
  classes?: string[];
}

/** The parts a structured encounter renders from the module's own templates. */
const OWN_PARTS = [TRACKER_PARTS.glance, TRACKER_PARTS.tracker, TRACKER_PARTS.footer];

let partialsLoaded: Promise<unknown> | null = null;

/** The partials the module's parts use: the button and every mode's row partial. */
const PARTIALS: string[] = [
  TEMPLATES.control,
  ...Object.values(TEMPLATES.modeRows),
  SLOTS_LIST_TEMPLATE,
  SIDES_PANEL_TEMPLATE,
];

/** Register the partials once (Foundry registers loaded templates as partials by their path). */
function loadPartials(): Promise<unknown> {
  partialsLoaded ??= foundry.applications.handlebars.loadTemplates(PARTIALS);
  return partialsLoaded;
}

function dataOf(target: HTMLElement): { combatantId: string; groupId: string } {
  return { combatantId: target.dataset.combatantId ?? "", groupId: target.dataset.groupId ?? "" };
}

/** The slot index a slot button acts on (-1 when missing: the rules refuse it). */
function slotOf(target: HTMLElement): number {
  const value = Number(target.dataset.slot);
  return Number.isInteger(value) ? value : -1;
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
        siRoll: SICombatTracker.#onRoll,
        siRollAll: SICombatTracker.#onRollAll,
        siRollGroup: SICombatTracker.#onRollGroup,
        siRollOff: SICombatTracker.#onRollOff,
        siAware: SICombatTracker.#onAware,
        siGroup: SICombatTracker.#onGroup,
        siUngroup: SICombatTracker.#onUngroup,
        siStart: SICombatTracker.#onStart,
        siStartSurprise: SICombatTracker.#onStartSurprise,
        siNextTurn: SICombatTracker.#onNextTurn,
        siPreviousTurn: SICombatTracker.#onPreviousTurn,
        siNextRound: SICombatTracker.#onNextRound,
        siPreviousRound: SICombatTracker.#onPreviousRound,
        siDelay: SICombatTracker.#onDelay,
        siEndDelay: SICombatTracker.#onEndDelay,
        siReady: SICombatTracker.#onReady,
        siTriggerReady: SICombatTracker.#onTriggerReady,
        siReset: SICombatTracker.#onReset,
        ...SIDES_ACTIONS,
        siSlotClaim: SICombatTracker.#onSlotClaim,
        siSlotRelease: SICombatTracker.#onSlotRelease,
        siSlotFill: SICombatTracker.#onSlotFill,
        siSlotAssign: SICombatTracker.#onSlotAssign,
        siSlotCool: SICombatTracker.#onSlotCool,
        siSlotVigilance: SICombatTracker.#onSlotVigilance,
      },
    };

    /** The last turn announced to screen readers. */
    #announced = "";

    /** Whether renders patch the module's parts in place (off after a patch failed). */
    #patching = true;

    /** The application element the tracker's listeners are bound to. */
    #rootBound: HTMLElement | null = null;

    /** The viewed combat when the module runs it, else null. */
    get structuredCombat(): Combat.Implementation | null {
      const combat = this.viewed;
      return combat !== null && isStructured(combat) ? combat : null;
    }

    /**
     * For a structured encounter: the parent's header, then the glance strip, the module's list
     * and footer. Otherwise exactly the parent's parts.
     */
    protected override _configureRenderParts(
      options: Parameters<InstanceType<TrackerClass>["_configureRenderParts"]>[0],
    ): ReturnType<InstanceType<TrackerClass>["_configureRenderParts"]> {
      const parts = super._configureRenderParts(options);
      if (this.structuredCombat === null) return parts;
      const out: Record<string, PartConfig> = {};
      for (const [id, part] of Object.entries(parts as Record<string, PartConfig>)) {
        if (id === TRACKER_PARTS.tracker) {
          out[TRACKER_PARTS.glance] = { template: TEMPLATES.glance, templates: PARTIALS };
          out[id] = { template: TEMPLATES.tracker, templates: PARTIALS, scrollable: [""] };
        } else if (id === TRACKER_PARTS.footer) out[id] = { template: TEMPLATES.footer, templates: PARTIALS };
        else out[id] = part;
      }
      return out;
    }

    /** Adds the structured tracker's data (computed once per render) for a structured encounter. */
    override async _prepareContext(
      options: Parameters<InstanceType<TrackerClass>["_prepareContext"]>[0],
    ): ReturnType<InstanceType<TrackerClass>["_prepareContext"]> {
      const context = await super._prepareContext(options);
      const combat = this.structuredCombat;
      if (combat === null) return context;
      await loadPartials();
      const data = buildTrackerContext(combat, game.user, game.i18n, game.users.activeGM !== null);
      return Object.assign(context, { [CONTEXT_KEY]: data });
    }

    /**
     * The module's own parts are patched into the live ones (only changed rows are rebuilt, and
     * what the user typed, chose or focused survives); the parent's parts render as usual.
     */
    protected override _replaceHTML(
      result: Parameters<InstanceType<TrackerClass>["_replaceHTML"]>[0],
      content: Parameters<InstanceType<TrackerClass>["_replaceHTML"]>[1],
      options: Parameters<InstanceType<TrackerClass>["_replaceHTML"]>[2],
    ): void {
      const patchable = this.#patching && this.structuredCombat !== null && typeof result === "object";
      if (
        patchable &&
        result !== null &&
        !tryPatchParts(this.parts, result as Record<string, unknown>, OWN_PARTS, MODULE_ID)
      ) {
        // A part may be half patched: stop patching and render once more, whole.
        this.#patching = false;
        void this.render();
      }
      super._replaceHTML(result, content, options);
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
      tickCountdowns(root);
      let region = root.querySelector<HTMLElement>(`.${MODULE_ID}-live`);
      if (region === null) {
        region = root.ownerDocument.createElement("div");
        region.className = `${MODULE_ID}-live ${MODULE_ID}-visually-hidden`;
        region.setAttribute("aria-live", "polite");
        region.setAttribute("role", "status");
        root.append(region);
      }
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
        void setMode(combat, choice.value).then((result) => {
          if (!result.ok) choice.value = Array.from(choice.options).find((o) => o.defaultSelected)?.value ?? "";
        });
      });
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
      if (!game.user.isGM) return;
      const entries = rowMenuEntries(() => this.structuredCombat);
      moduleHooks.callAll(HOOKS.rowMenu, this, entries);
      new foundry.applications.ux.ContextMenu(root, ROW_SELECTOR, entries, { jQuery: false, fixed: true });
    }

    /** The combat an action applies to, or null (nothing to do). */
    #combat(): Combat.Implementation | null {
      return this.structuredCombat;
    }

    /** Creating an encounter offers the mode choice first. */
    static async #onCreate(this: SICombatTracker): Promise<void> {
      const mode = await chooseMode();
      if (mode !== null) await createEncounter(mode);
    }

    static async #onRoll(this: SICombatTracker, _event: Event, target: HTMLElement): Promise<void> {
      const combat = this.#combat();
      if (combat !== null) await rollFor(combat, [dataOf(target).combatantId]);
    }

    static async #onRollAll(this: SICombatTracker): Promise<void> {
      const combat = this.#combat();
      if (combat !== null) await rollAll(combat);
    }

    static async #onRollGroup(this: SICombatTracker, _event: Event, target: HTMLElement): Promise<void> {
      const combat = this.#combat();
      if (combat !== null) await rollGroup(combat, dataOf(target).groupId);
    }

    static async #onRollOff(this: SICombatTracker, _event: Event, target: HTMLElement): Promise<void> {
      const combat = this.#combat();
      if (combat !== null) await rollOff(combat, dataOf(target).combatantId);
    }

    static async #onAware(this: SICombatTracker, _event: Event, target: HTMLElement): Promise<void> {
      const combat = this.#combat();
      if (combat === null) return;
      const aware = target.getAttribute("aria-pressed") !== "true";
      await command(combat, { type: "setAware", combatantId: dataOf(target).combatantId, aware });
    }

    static async #onGroup(this: SICombatTracker, _event: Event, target: HTMLElement): Promise<void> {
      const combat = this.#combat();
      if (combat === null) return;
      const input = this.element.querySelector<HTMLInputElement>(`input[name="${MODULE_ID}-group"]`);
      await group(combat, dataOf(target).combatantId, input?.value ?? DEFAULT_GROUP);
    }

    static async #onUngroup(this: SICombatTracker, _event: Event, target: HTMLElement): Promise<void> {
      const combat = this.#combat();
      if (combat !== null)
        await command(combat, { type: "setGroup", combatantId: dataOf(target).combatantId, groupId: null });
    }

    static async #onStart(this: SICombatTracker): Promise<void> {
      const combat = this.#combat();
      if (combat !== null) await command(combat, { type: "start", surprise: false });
    }

    static async #onStartSurprise(this: SICombatTracker): Promise<void> {
      const combat = this.#combat();
      if (combat !== null) await command(combat, { type: "start", surprise: true });
    }

    static async #onNextTurn(this: SICombatTracker): Promise<void> {
      const combat = this.#combat();
      if (combat !== null) await command(combat, { type: "nextTurn" });
    }

    static async #onPreviousTurn(this: SICombatTracker): Promise<void> {
      const combat = this.#combat();
      if (combat !== null) await command(combat, { type: "previousTurn" });
    }

    static async #onNextRound(this: SICombatTracker): Promise<void> {
      const combat = this.#combat();
      if (combat !== null) await command(combat, { type: "nextRound" });
    }

    static async #onPreviousRound(this: SICombatTracker): Promise<void> {
      const combat = this.#combat();
      if (combat !== null) await command(combat, { type: "previousRound" });
    }

    static async #onDelay(this: SICombatTracker, _event: Event, target: HTMLElement): Promise<void> {
      const combat = this.#combat();
      if (combat !== null) await command(combat, { type: "delay", combatantId: dataOf(target).combatantId });
    }

    static async #onEndDelay(this: SICombatTracker, _event: Event, target: HTMLElement): Promise<void> {
      const combat = this.#combat();
      if (combat !== null) await command(combat, { type: "endDelay", combatantId: dataOf(target).combatantId });
    }

    static async #onReady(this: SICombatTracker, _event: Event, target: HTMLElement): Promise<void> {
      const combat = this.#combat();
      if (combat === null) return;
      const { combatantId } = dataOf(target);
      const input = this.element.querySelector<HTMLInputElement>(
        `input[name="${MODULE_ID}-trigger"][data-combatant-id="${CSS.escape(combatantId)}"]`,
      );
      const trigger = input?.value.trim() ?? "";
      if (trigger === "") {
        ui.notifications.warn(game.i18n.localize(`${I18N}.Tracker.TriggerMissing`));
        input?.focus();
        return;
      }
      await command(combat, { type: "ready", combatantId, trigger });
    }

    static async #onTriggerReady(this: SICombatTracker, _event: Event, target: HTMLElement): Promise<void> {
      const combat = this.#combat();
      if (combat !== null) await command(combat, { type: "triggerReady", combatantId: dataOf(target).combatantId });
    }

    static async #onSlotClaim(this: SICombatTracker, _event: Event, target: HTMLElement): Promise<void> {
      const combat = this.#combat();
      if (combat !== null)
        await command(combat, { type: "claimSlot", slot: slotOf(target), combatantId: dataOf(target).combatantId });
    }

    static async #onSlotRelease(this: SICombatTracker, _event: Event, target: HTMLElement): Promise<void> {
      const combat = this.#combat();
      if (combat !== null) await command(combat, { type: "releaseClaim", slot: slotOf(target) });
    }

    static async #onSlotFill(this: SICombatTracker, _event: Event, target: HTMLElement): Promise<void> {
      const combat = this.#combat();
      if (combat !== null)
        await command(combat, { type: "fillSlot", slot: slotOf(target), combatantId: dataOf(target).combatantId });
    }

    /** The GM's assign button next to the select of eligible combatants. */
    static async #onSlotAssign(this: SICombatTracker, _event: Event, target: HTMLElement): Promise<void> {
      const combat = this.#combat();
      if (combat === null) return;
      const slot = slotOf(target);
      const select = this.element.querySelector<HTMLSelectElement>(
        `select[name="${MODULE_ID}-assign"][data-slot="${String(slot)}"]`,
      );
      if (select !== null) await command(combat, { type: "fillSlot", slot, combatantId: select.value });
    }

    static async #onSlotCool(this: SICombatTracker, _event: Event, target: HTMLElement): Promise<void> {
      const combat = this.#combat();
      if (combat !== null) await setSlotsSkill(combat, dataOf(target).combatantId, "cool");
    }

    static async #onSlotVigilance(this: SICombatTracker, _event: Event, target: HTMLElement): Promise<void> {
      const combat = this.#combat();
      if (combat !== null) await setSlotsSkill(combat, dataOf(target).combatantId, "vigilance");
    }

    static async #onReset(this: SICombatTracker): Promise<void> {
      const combat = this.viewed;
      if (combat !== null) await reset(combat);
    }
  }
  return SICombatTracker;
}
