/** The realm's scenes, their Regions, tokens and the tokens' placeables on the canvas. */
import { type DocumentName } from "../server.js";
import { type Dict } from "../utils.js";
import type { Actor, Collection, Combatant, DocumentBase, RealmBag, User } from "./types.js";

export function createSceneClasses(
  r: RealmBag,
  { ClientDocument, Collection }: Pick<DocumentBase, "ClientDocument" | "Collection">,
) {
  class Scene extends ClientDocument {
    static override documentName: DocumentName = "Scene";
    get active(): boolean {
      return this._source.active === true;
    }
    get isView(): boolean {
      return r.game.scenes.viewed === this;
    }
    get tokens(): Collection<TokenDocument> {
      return this._embedded.Token as Collection<TokenDocument>;
    }
    #regions = new Map<string, Region>();
    /**
     * The scene's Regions (https://foundryvtt.com/api/classes/foundry.documents.RegionDocument.html),
     * reduced to rectangles from the scene source's `regions` (no Region CRUD in the sim); each keeps
     * the events triggered on it in `events`.
     */
    get regions(): Collection<Region> {
      const list = Array.isArray(this._source.regions) ? (this._source.regions as Dict[]) : [];
      const coll = new Collection<Region>();
      for (const data of list) {
        const id = String(data._id);
        let region = this.#regions.get(id);
        if (region === undefined) this.#regions.set(id, (region = new Region(data)));
        coll.set(id, region);
      }
      return coll;
    }
  }

  /** A Region of the sim: a rectangle in canvas pixels and the log of events triggered on it. */
  class Region {
    readonly events: Array<{ name: string; tokenId: string | null; combatantId: string | null; round: unknown }> = [];
    constructor(readonly data: Dict) {}
    get id(): string {
      return String(this.data._id);
    }
    contains(point: { x: number; y: number }): boolean {
      const n = (v: unknown): number => (typeof v === "number" ? v : 0);
      const { x, y, width, height } = this.data;
      return point.x >= n(x) && point.x < n(x) + n(width) && point.y >= n(y) && point.y < n(y) + n(height);
    }
    /** https://foundryvtt.com/api/classes/foundry.documents.RegionDocument.html#_triggerEvent */
    async _triggerEvent(name: string, data: Dict): Promise<void> {
      const token = data.token as TokenDocument | undefined;
      const combatant = data.combatant as Combatant | undefined;
      this.events.push({ name, tokenId: token?.id ?? null, combatantId: combatant?.id ?? null, round: data.round });
      await Promise.resolve();
    }
  }

  class TokenDocument extends ClientDocument {
    static override documentName: DocumentName = "Token";
    get actorId(): string | null {
      return typeof this._source.actorId === "string" ? this._source.actorId : null;
    }
    get actor(): Actor | null {
      return r.game.actors.get(String(this.actorId)) ?? null;
    }
    override get name(): string {
      return typeof this._source.name === "string" && this._source.name ? this._source.name : (this.actor?.name ?? "");
    }
    get disposition(): number {
      return typeof this._source.disposition === "number" ? this._source.disposition : 0;
    }
    get hidden(): boolean {
      return this._source.hidden === true;
    }
    override getUserLevel(user: User | null | undefined): number {
      return this.actor ? this.actor.getUserLevel(user) : super.getUserLevel(user);
    }
    /**
     * The Regions this token is in (https://foundryvtt.com/api/classes/foundry.documents.TokenDocument.html#regions):
     * those of its scene holding its centre (grid size 100).
     */
    get regions(): Set<Region> | null {
      const scene = this.parent instanceof Scene ? this.parent : null;
      if (scene === null) return null;
      const src = this._source;
      const n = (v: unknown, d: number): number => (typeof v === "number" ? v : d);
      const centre = { x: n(src.x, 0) + n(src.width, 1) * 50, y: n(src.y, 0) + n(src.height, 1) * 50 };
      return new Set(scene.regions.filter((r) => r.contains(centre)));
    }
    /**
     * The token on the canvas (https://foundryvtt.com/api/classes/foundry.documents.TokenDocument.html#object):
     * there only while its scene is the one the canvas shows.
     */
    get object(): Token | null {
      return r.canvas.ready && this.parent !== null && this.parent === r.canvas.scene
        ? r.canvas.tokens.placeable(this)
        : null;
    }
  }

  /**
   * A token on the canvas (https://foundryvtt.com/api/classes/foundry.canvas.placeables.Token.html),
   * reduced to what the tracker uses: its centre, whether this user may see and control it, and
   * control itself. A user controls only tokens they own (the GM any token).
   */
  class Token {
    constructor(readonly document: TokenDocument) {}
    get id(): string | null {
      return this.document.id;
    }
    get isOwner(): boolean {
      return this.document.isOwner;
    }
    /**
     * Whether the current user can see it (https://foundryvtt.com/api/classes/foundry.canvas.placeables.Token.html#isVisible):
     * in the sim, a hidden token only for the GM (no vision or fog).
     */
    get isVisible(): boolean {
      return !this.document.hidden || r.currentUser()?.isGM === true;
    }
    get controlled(): boolean {
      return r.canvas.tokens.controlled.includes(this);
    }
    /** The centre in canvas pixels (grid size 100, as a new scene's default). */
    get center(): { x: number; y: number } {
      const src = this.document._source;
      const size = 100;
      const x = typeof src.x === "number" ? src.x : 0;
      const y = typeof src.y === "number" ? src.y : 0;
      const w = typeof src.width === "number" ? src.width : 1;
      const h = typeof src.height === "number" ? src.height : 1;
      return { x: x + (w * size) / 2, y: y + (h * size) / 2 };
    }
    /** https://foundryvtt.com/api/classes/foundry.canvas.placeables.PlaceableObject.html#control */
    control({ releaseOthers = true }: { releaseOthers?: boolean } = {}): boolean {
      if (!this.isOwner) return false;
      if (releaseOthers) r.canvas.tokens.releaseAll();
      if (!this.controlled) r.canvas.tokens.controlled.push(this);
      return true;
    }
    release(): boolean {
      const list = r.canvas.tokens.controlled;
      const at = list.indexOf(this);
      if (at >= 0) list.splice(at, 1);
      return true;
    }
  }

  return { Scene, Region, TokenDocument, Token };
}
