/**
 * A stand-in for what dnd5e 5.3.3 does to combat and the combat tracker, written for the sim from a
 * reading of the system's public code (github.com/foundryvtt/dnd5e, tag release-5.3.3); no code is
 * copied. What it emulates, and where dnd5e does it:
 *
 * - `dnd5e.mjs` (a `renderCombatTracker` listener) and `module/applications/combat/combat-tracker.mjs`
 *   (`CombatTracker5e#renderGroups`): on every render of the tracker, the combatants that share a
 *   grouping key and number two or more are moved into a collapsible group row. The rows are looked
 *   up inside `html.querySelector(".directory-list, .combat-tracker")`, which is used without a null
 *   check: a tracker with groups but without such a list throws.
 * - `module/documents/combat.mjs` (`Combat5e#createGroups`, `_sortCombatants`): the groups are keyed by
 *   `Combatant5e#getGroupingKey`; equal initiative is broken by base actor, then name.
 * - `module/documents/combatant.mjs` (`getGroupingKey`, static `_onUpdateOperation`): the key is the
 *   combatant's CombatantGroup id when it has one, else `floor(initiative):disposition:baseActor` for
 *   unlinked tokens with an initiative; after any update a client made, the updated combatants'
 *   `initiative` (the update's value, even when the update did not touch it) is written to their
 *   CombatantGroups, then the turns are set up again and the tracker re-rendered.
 * - `module/documents/combatant-group.mjs` (`CombatantGroup5e#activeCombatant`).
 *
 * Core's own part of group initiative (a CombatantGroup's `initiative` "will be used for all group
 * members", https://foundryvtt.com/api/interfaces/foundry.documents.types.CombatantGroupData.html) is
 * the sim's, not this fixture's.
 */
import type { SimClasses } from "../runtime.js";
import type { Dict } from "../utils.js";

type Fn = (...args: unknown[]) => unknown;
type CombatClass = SimClasses["Combat"];
type CombatantClass = SimClasses["Combatant"];
type Combatant = InstanceType<CombatantClass>;

/** The system as `game.system` names it. */
export const DND5E_SYSTEM = { id: "dnd5e", title: "Dungeons & Dragons Fifth Edition", initiative: "1d20" };

/** Install the stand-in in a realm (as `systemSetup`, before the module's bundle runs). */
export function installDnd5e(realm: Dict): void {
  const CONFIG = realm.CONFIG as {
    Combat: { documentClass: CombatClass };
    Combatant: { documentClass: CombatantClass };
    CombatantGroup: { documentClass: new (...args: never[]) => object };
    ui: { combat: new (...args: never[]) => object };
  };
  const Hooks = realm.Hooks as { on(name: string, fn: Fn): number };
  const game = realm.game as { userId: string; i18n: { lang?: string } };
  const ui = realm.ui as { combat: { render(): unknown } | null };

  const CombatBase = CONFIG.Combat.documentClass;
  class Combat5e extends CombatBase {
    /** Which grouping keys the user expanded. */
    expandedGroups = new Set<string>();

    /** Equal initiative: base actor, then name. */
    override _sortCombatants(a: Combatant, b: Combatant): number {
      if (a.initiative !== b.initiative) return super._sortCombatants(a, b);
      const baseA = a.token?.actor ?? null;
      const baseB = b.token?.actor ?? null;
      if (baseA === null || baseB === null || baseA !== baseB) {
        const key = (actor: { name: string; id: string | null } | null): string =>
          `${actor?.name ?? ""}.${actor?.id ?? ""}`;
        return key(baseA).localeCompare(key(baseB));
      }
      return a.name.localeCompare(b.name);
    }

    /** The groups of two or more combatants, by grouping key. */
    createGroups(): Map<string, { combatants: Combatant[]; expanded: boolean }> {
      const groups = new Map<string, { combatants: Combatant[]; expanded: boolean }>();
      for (const combatant of this.combatants.contents) {
        const key = (combatant as Combatant5e).getGroupingKey();
        if (key === null) continue;
        let entry = groups.get(key);
        if (entry === undefined) {
          entry = { combatants: [], expanded: this.expandedGroups.has(key) };
          groups.set(key, entry);
        }
        entry.combatants.push(combatant);
      }
      for (const [key, entry] of groups) if (entry.combatants.length < 2) groups.delete(key);
      return groups;
    }
  }

  const CombatantBase = CONFIG.Combatant.documentClass;
  class Combatant5e extends CombatantBase {
    /** The combatant's group id, else a key for same-actor unlinked tokens with the same initiative. */
    getGroupingKey(): string | null {
      const group = this.group;
      if (group !== null) return String(group.id);
      const token = this.token;
      const linked = (token?._source as { actorLink?: unknown } | undefined)?.actorLink === true;
      const base = token?.actor ?? null;
      if (linked || base === null || this.initiative === null) return null;
      const disposition = String((token?._source as { disposition?: unknown } | undefined)?.disposition ?? 0);
      return `${String(Math.floor(this.initiative)).padStart(4, "0")}:${disposition}:${String(base.id)}`;
    }

    /** Each updated member's `initiative` goes to its group, for the client that made the update. */
    static override async _onUpdateOperation(
      documents: Combatant[],
      operation: { updates: Array<Record<string, unknown>>; parent?: InstanceType<CombatClass> | null },
      user: { readonly id: string | null } | null,
    ): Promise<void> {
      const parentOp = (CombatantBase as unknown as { _onUpdateOperation?: Fn })._onUpdateOperation;
      if (typeof parentOp === "function") await parentOp.call(this, documents, operation, user);
      const combat = operation.parent ?? null;
      if (user?.id !== game.userId || combat === null) return;
      const updates: Record<string, unknown> = {};
      documents.forEach((combatant, i) => {
        const group = combatant.group;
        if (group !== null) updates[String(group.id)] = operation.updates[i]?.initiative;
      });
      if (Object.keys(updates).length === 0) return;
      await combat.updateEmbeddedDocuments(
        "CombatantGroup",
        Object.entries(updates).map(([id, initiative]) => ({ _id: id, initiative })),
      );
      combat.setupTurns();
      void ui.combat?.render();
    }
  }

  const GroupBase = CONFIG.CombatantGroup.documentClass as new (...args: never[]) => {
    members: Set<Combatant>;
  };
  class CombatantGroup5e extends GroupBase {
    /** The member with the lowest id acts for the group. */
    get activeCombatant(): Combatant | null {
      let nominated: Combatant | null = null;
      for (const candidate of this.members)
        if (nominated === null || String(nominated.id) > String(candidate.id)) nominated = candidate;
      return nominated;
    }
  }

  const TrackerBase = CONFIG.ui.combat as unknown as new (...args: never[]) => {
    viewed: InstanceType<CombatClass> | null;
  };
  class CombatTracker5e extends TrackerBase {
    /** Moves the rows of each group of two or more into one collapsible group row. */
    renderGroups(html: HTMLElement): void {
      const combat = this.viewed as Combat5e | null;
      if (combat === null) return;
      const groups = combat.createGroups();
      // dnd5e uses the list without checking it exists.
      const list = html.querySelector(".directory-list, .combat-tracker") as HTMLElement;
      for (const [key, { combatants, expanded }] of groups) {
        const children = list.querySelectorAll(
          combatants.map((c) => `[data-combatant-id="${String(c.id)}"]`).join(", "),
        );
        if (children.length === 0) continue;
        const doc = html.ownerDocument;
        const container = doc.createElement("li");
        container.classList.add("combatant", "combatant-group", "collapsible", "dnd5e2-collapsible");
        if (!expanded) container.classList.add("collapsed");
        container.dataset.groupKey = key;
        const header = doc.createElement("div");
        header.className = "group-header flexrow";
        const img = children[0]?.querySelector("img") as HTMLImageElement;
        const image = doc.createElement("img");
        image.className = "token-image";
        image.alt = img.alt;
        image.src = img.src;
        const name = doc.createElement("strong");
        name.className = "name";
        name.textContent = `${combatants[0]?.name ?? ""} (${children.length})`;
        header.append(image, name);
        const inner = doc.createElement("ol");
        inner.className = "group-children";
        container.append(header, inner);
        children[0]?.before(container);
        inner.replaceChildren(...Array.from(children));
      }
    }
  }

  CONFIG.Combat.documentClass = Combat5e;
  CONFIG.Combatant.documentClass = Combatant5e;
  CONFIG.CombatantGroup.documentClass = CombatantGroup5e;
  CONFIG.ui.combat = CombatTracker5e;
  Hooks.on("renderCombatTracker", (app, html) => {
    (app as CombatTracker5e).renderGroups(html as HTMLElement);
  });
}
