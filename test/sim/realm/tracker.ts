/**
 * Core's combat tracker (v13's sidebar tab, with its popout), re-rendered after changes to
 * encounters (`scheduleRender`).
 */
import { macrotask, type Dict } from "../utils.js";
import type { ApplicationsRealm, createApplicationV2, createHandlebarsApplicationMixin } from "./applications.js";
import type { SimCombat } from "../runtime.js";

/** What the tracker needs: the application classes it is built on and its realm. */
export interface TrackerRealm {
  ApplicationV2: ReturnType<typeof createApplicationV2>;
  HandlebarsApplicationMixin: ReturnType<typeof createHandlebarsApplicationMixin>;
  recordError: (where: string, err: unknown) => void;
  domDocument: () => Document | null;
  late: ApplicationsRealm["late"];
}

/** One realm's `CombatTracker` class and the re-render it schedules. */
export function createCombatTracker({
  ApplicationV2,
  HandlebarsApplicationMixin,
  recordError,
  domDocument,
  late,
}: TrackerRealm) {
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
  return { CombatTracker, scheduleRender };
}
