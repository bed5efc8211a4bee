/** The realm's actors and their Active Effects (with v14's timed effects, ./effects.ts). */
import { type DocumentName } from "../server.js";
import {
  createEffectRegistry,
  effectDuration,
  effectStartView,
  effectStartNow,
  isExpiryEvent,
  prepareEffectCreation,
  type EffectRealm,
} from "../effects.js";
import { deepClone, isPlainObject, type Dict } from "../utils.js";
import { CONST } from "./constants.js";
import type { Collection, DocumentBase, RealmBag, User } from "./types.js";

export function createActorClasses(r: RealmBag, { ClientDocument }: Pick<DocumentBase, "ClientDocument">) {
  const { v14, effectRefreshes, i18n } = r;
  /** https://foundryvtt.com/api/classes/foundry.documents.Actor.html */
  class Actor extends ClientDocument {
    static override documentName: DocumentName = "Actor";
    get type(): string {
      return String(this._source.type ?? "");
    }
    get img(): string {
      return typeof this._source.img === "string" ? this._source.img : "icons/svg/mystery-man.svg";
    }
    get ownership(): Dict {
      return isPlainObject(this._source.ownership) ? this._source.ownership : {};
    }
    /** The actor's embedded effects (https://foundryvtt.com/api/classes/foundry.documents.Actor.html#effects). */
    get effects(): Collection<ActiveEffect> {
      return this._embedded.ActiveEffect as Collection<ActiveEffect>;
    }
    /**
     * The status ids applied to the actor (https://foundryvtt.com/api/classes/foundry.documents.Actor.html#statuses):
     * derived from the `statuses` of its active (not disabled) effects, never stored on the actor.
     */
    get statuses(): Set<string> {
      return new Set(this.effects.filter((e) => e.active).flatMap((e) => [...e.statuses]));
    }
    override getUserLevel(user: User | null | undefined): number {
      if (!user) return 0;
      if (user.isGM) return CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER;
      const explicit = this.ownership[String(user.id)];
      if (typeof explicit === "number" && explicit >= 0) return explicit;
      return typeof this.ownership.default === "number" ? this.ownership.default : 0;
    }
    get hasPlayerOwner(): boolean {
      return r.game.users.some((u) => !u.isGM && this.testUserPermission(u, "OWNER"));
    }
    getRollData(): Dict {
      return deepClone(this.system);
    }
    /**
     * https://foundryvtt.com/api/classes/foundry.documents.Actor.html#toggleStatusEffect: the status
     * is an ActiveEffect embedded in the actor — created from its `CONFIG.statusEffects` entry (name,
     * img, `statuses: [statusId]`; `overlay` kept as the `core.overlay` flag) to turn it on, the
     * effects carrying it deleted to turn it off; the actor itself is not updated. Resolves to the
     * created effect, `false` once deleted, `true` when already on, undefined when nothing changed.
     */
    async toggleStatusEffect(
      statusId: string,
      { active, overlay = false }: { active?: boolean; overlay?: boolean } = {},
    ): Promise<ActiveEffect | boolean | undefined> {
      const config = r.CONFIG.statusEffects.find((s) => s.id === statusId);
      if (config === undefined) throw new Error(`Invalid status ID "${statusId}" provided to Actor#toggleStatusEffect`);
      const existing = this.effects.filter((e) => e.statuses.has(statusId));
      const on = active ?? existing.length === 0;
      if (!on) {
        if (existing.length === 0) return undefined;
        await this.deleteEmbeddedDocuments(
          "ActiveEffect",
          existing.map((e) => String(e.id)),
        );
        return false;
      }
      if (existing.length > 0) return true;
      const data: Dict = { name: i18n.localize(String(config.name)), img: config.img, statuses: [statusId] };
      if (overlay) data.flags = { core: { overlay: true } };
      const [created] = await this.createEmbeddedDocuments("ActiveEffect", [data]);
      return created as ActiveEffect | undefined;
    }
  }

  /**
   * An effect embedded in an actor (https://foundryvtt.com/api/classes/foundry.documents.ActiveEffect.html),
   * reduced to its statuses and whether it applies; permission follows its actor.
   */
  class ActiveEffect extends ClientDocument {
    static override documentName: DocumentName = "ActiveEffect";
    get img(): string | null {
      return typeof this._source.img === "string" ? this._source.img : null;
    }
    get disabled(): boolean {
      return this._source.disabled === true;
    }
    /** https://foundryvtt.com/api/interfaces/foundry.documents.types.ActiveEffectData.html#statuses */
    get statuses(): Set<string> {
      return new Set(Array.isArray(this._source.statuses) ? this._source.statuses.map(String) : []);
    }
    /** No system logic suppresses effects in the sim (https://foundryvtt.com/api/classes/foundry.documents.ActiveEffect.html#isSuppressed). */
    get isSuppressed(): boolean {
      return false;
    }
    /** Whether it applies (https://foundryvtt.com/api/classes/foundry.documents.ActiveEffect.html#active): not disabled, not suppressed. */
    get active(): boolean {
      return !this.disabled && !this.isSuppressed;
    }
    override getUserLevel(user: User | null | undefined): number {
      return this.parent instanceof Actor ? this.parent.getUserLevel(user) : super.getUserLevel(user);
    }
    // v14's timed effects (./effects.ts, each behaviour with its source); the v13 flavour has none of them.
    /** v14: the start record and the duration with its expiry event, filled on creation. */
    override async _preCreate(data: Dict, options: Dict, user: User): Promise<unknown> {
      const result = await super._preCreate(data, options, user);
      if (v14) this.updateSource(prepareEffectCreation(effectRealm, this._source));
      return result;
    }
    /** v14 `ActiveEffect#start`, its combat the document (./effects.ts). */
    get start(): Dict | undefined {
      return v14 ? effectStartView(effectRealm, this._source) : undefined;
    }
    /** The prepared duration: v14's with what remains (./effects.ts); v13's stored fields as they are. */
    get duration(): Dict {
      if (v14) return { ...effectDuration(effectRealm, this._source) };
      return (this._source.duration ?? {}) as Dict;
    }
    /** v14 `ActiveEffect#isExpiryEvent(event, context)` (./effects.ts). */
    isExpiryEvent(event: string, context: Dict = {}): boolean {
      return isExpiryEvent(this._source, event, context);
    }
    /** v14 `ActiveEffect.getEffectStart()` (./effects.ts). */
    static getEffectStart(): Dict {
      return { ...effectStartNow(effectRealm) };
    }
  }
  /** The parts of this realm the v14 effect machinery reads (./effects.ts). */
  const effectRealm: EffectRealm = {
    get game() {
      return r.game as unknown as EffectRealm["game"];
    },
    get CONFIG() {
      return r.CONFIG as unknown as EffectRealm["CONFIG"];
    },
  };
  /** v14 `ActiveEffect.registry` (./effects.ts); the v13 flavour has no registry. */
  if (v14)
    Object.defineProperty(ActiveEffect, "registry", { value: createEffectRegistry(effectRealm, effectRefreshes) });
  const effectRegistry = (): { refresh(event: string, context?: Dict): Promise<void> } | undefined =>
    (ActiveEffect as unknown as { registry?: { refresh(event: string, context?: Dict): Promise<void> } }).registry;

  return { Actor, ActiveEffect, effectRegistry };
}
