/** The realm's combatants: Combatant (v13's groups, v14's `roundJoined`) and v13's CombatantGroup. */
import { type DocumentName } from "../server.js";
import { type RollInstance } from "../roll.js";
import { isPlainObject, type Dict } from "../utils.js";
import { CONST } from "./constants.js";
import type { createChat } from "./chat.js";
import type { createCombatClass } from "./combat.js";
import type { Actor, Collection, Combat, DocumentBase, RealmBag, TokenDocument, User } from "./types.js";

/** What the combatants need besides the realm: their base, the dice and the Combat class they join. */
export type CombatantNeeds = Pick<DocumentBase, "ClientDocument"> &
  Pick<ReturnType<typeof createChat>, "Roll"> &
  Pick<ReturnType<typeof createCombatClass>, "Combat">;

/** One realm's Combatant and CombatantGroup classes. */
export function createCombatantClasses(r: RealmBag, needs: CombatantNeeds) {
  const { ClientDocument, Roll, Combat } = needs;
  const { v14, preparedInitiative, opts } = r;
  /** https://foundryvtt.com/api/classes/foundry.documents.Combatant.html */
  class Combatant extends ClientDocument {
    static override documentName: DocumentName = "Combatant";
    /**
     * The operation's `combatTurn` (`Combat#_computeCombatTurn`), whatever its `turnEvents`
     * (https://github.com/foundryvtt/foundryvtt/issues/12990; the static pre-operation methods:
     * https://foundryvtt.com/api/classes/foundry.abstract.Document.html#_preUpdateOperation). The sim
     * passes `documents` empty: nothing of its own reads them.
     */
    static async _preCreateOperation(_documents: Combatant[], operation: Dict, _user: User): Promise<void> {
      Combatant.attachCombatTurn(operation, "create", operation.data as Dict[]);
    }
    static async _preUpdateOperation(_documents: Combatant[], operation: Dict, _user: User): Promise<void> {
      Combatant.attachCombatTurn(operation, "update", operation.updates as Dict[]);
    }
    static async _preDeleteOperation(_documents: Combatant[], operation: Dict, _user: User): Promise<void> {
      Combatant.attachCombatTurn(operation, "delete", operation.ids as string[]);
    }
    private static attachCombatTurn(
      operation: Dict,
      action: "create" | "update" | "delete",
      payload: Dict[] | string[],
    ): void {
      const combat = operation.parent;
      if (!(combat instanceof Combat)) return;
      const turn = combat._computeCombatTurn(action, payload);
      if (turn !== null) operation.combatTurn = turn;
    }
    get combat(): Combat {
      return this.parent as Combat;
    }
    /**
     * @behaviour v14 `CombatantData.roundJoined`: the round a combatant joined, set when it is created
     * (the Combat's round; before the start, round 1). The v13 flavour has no such field.
     * @source https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.CombatantData.html
     * ("The round this Combatant joined Combat (i.e., was created). A Combatant created before the
     * Combat starts is considered to have joined in round 1.")
     */
    override async _preCreate(data: Dict, options: Dict, user: User): Promise<unknown> {
      const result = await super._preCreate(data, options, user);
      if (v14 && typeof this._source.roundJoined !== "number") {
        const round = this.parent instanceof Combat ? this.parent.round : 0;
        this.updateSource({ roundJoined: Math.max(round, 1) });
      }
      return result;
    }
    get roundJoined(): number | undefined {
      return v14 && typeof this._source.roundJoined === "number" ? this._source.roundJoined : undefined;
    }
    get actorId(): string | null {
      return typeof this._source.actorId === "string" ? this._source.actorId : null;
    }
    get tokenId(): string | null {
      return typeof this._source.tokenId === "string" ? this._source.tokenId : null;
    }
    get sceneId(): string | null {
      return typeof this._source.sceneId === "string" ? this._source.sceneId : null;
    }
    /**
     * The prepared initiative: the group's when the combatant's CombatantGroup has one ("The
     * initiative value that will be used for all group members",
     * https://foundryvtt.com/api/interfaces/foundry.documents.types.CombatantGroupData.html), else its
     * own. Core applies that override while preparing the combatant (`Combatant#_prepareGroup`, which
     * draw-steel overrides "to remove initiative override" and which assigns `this.initiative`:
     * https://github.com/MetaMorphic-Digital/draw-steel/blob/1aa726b7ea13674bc949d2737acee4fcae282e75/src/module/documents/combatant.mjs).
     */
    get initiative(): number | null {
      const prepared = preparedInitiative.get(this);
      if (prepared !== undefined) return prepared;
      return typeof this._source.initiative === "number" ? this._source.initiative : null;
    }
    /** Prepared data may be assigned, as a DataModel's fields may (what draw-steel's `_prepareGroup` does). */
    set initiative(value: number | null) {
      preparedInitiative.set(this, typeof value === "number" ? value : null);
    }
    override prepareBaseData(): void {
      super.prepareBaseData();
      this._prepareGroup();
    }
    /** Core's group preparation: a group's initiative, when it has one, is its members'. */
    _prepareGroup(): void {
      const own = typeof this._source.initiative === "number" ? this._source.initiative : null;
      const groupInitiative = this.group?._source.initiative;
      this.initiative = typeof groupInitiative === "number" ? groupInitiative : own;
    }
    get hidden(): boolean {
      return this._source.hidden === true;
    }
    get defeated(): boolean {
      return this._source.defeated === true;
    }
    /** v13: the CombatantGroup this combatant belongs to (https://foundryvtt.com/api/interfaces/foundry.documents.types.CombatantData.html). */
    get group(): CombatantGroup | null {
      const id = this._source.group;
      // While the Combat is being built its groups are not there yet (they are prepared after).
      const groups = this.combat._embedded.CombatantGroup as Collection<CombatantGroup> | undefined;
      return typeof id === "string" ? (groups?.get(id) ?? null) : null;
    }
    get actor(): Actor | null {
      return r.game.actors.get(String(this.actorId)) ?? this.token?.actor ?? null;
    }
    get token(): TokenDocument | null {
      const scene = r.game.scenes.get(String(this.sceneId ?? this.combat._source.scene));
      return scene?.tokens.get(String(this.tokenId)) ?? null;
    }
    override get name(): string {
      const n = this._source.name;
      return typeof n === "string" && n ? n : (this.token?.name ?? this.actor?.name ?? "Unknown");
    }
    get img(): string {
      return typeof this._source.img === "string" && this._source.img
        ? this._source.img
        : (this.actor?.img ?? "icons/svg/mystery-man.svg");
    }
    get isDefeated(): boolean {
      const dead = r.CONFIG.specialStatusEffects.DEFEATED;
      return this.defeated || (this.actor?.statuses.has(dead) ?? false);
    }
    get visible(): boolean {
      return this.isOwner || !this.hidden;
    }
    get hasPlayerOwner(): boolean {
      return this.actor?.hasPlayerOwner ?? false;
    }
    get isNPC(): boolean {
      return !this.actor || !this.hasPlayerOwner;
    }
    get players(): User[] {
      return r.game.users.filter((u) => !u.isGM && this.testUserPermission(u, "OWNER"));
    }
    /** Combatant permission follows its actor. */
    override getUserLevel(user: User | null | undefined): number {
      if (user?.isGM) return CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER;
      return this.actor ? this.actor.getUserLevel(user) : CONST.DOCUMENT_OWNERSHIP_LEVELS.NONE;
    }
    _getInitiativeFormula(): string {
      return r.CONFIG.Combat.initiative.formula || opts.system.initiative || "1d20";
    }
    getInitiativeRoll(formula?: string | null): RollInstance {
      return new Roll(formula || this._getInitiativeFormula(), this.actor?.getRollData() ?? {});
    }
    async rollInitiative(formula?: string | null): Promise<Combat> {
      return this.combat.rollInitiative([String(this.id)], { formula: formula ?? null });
    }
  }

  /**
   * v13 CombatantGroup (https://foundryvtt.com/api/interfaces/foundry.documents.types.CombatData.html#groups),
   * with its fields (https://foundryvtt.com/api/interfaces/foundry.documents.types.CombatantGroupData.html,
   * the same in v14: https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.CombatantGroupData.html).
   */
  class CombatantGroup extends ClientDocument {
    static override documentName: DocumentName = "CombatantGroup";
    get img(): string | null {
      return typeof this._source.img === "string" ? this._source.img : null;
    }
    get type(): string {
      return typeof this._source.type === "string" ? this._source.type : "base";
    }
    /** "The initiative value that will be used for all group members" (null: none, members keep theirs). */
    get initiative(): number | null {
      return typeof this._source.initiative === "number" ? this._source.initiative : null;
    }
    get ownership(): Dict {
      return isPlainObject(this._source.ownership) ? this._source.ownership : {};
    }
    /** The combatants whose `group` is this group. */
    get members(): Set<Combatant> {
      const combat = this.parent as Combat;
      return new Set(combat.combatants.filter((c) => c._source.group === this.id));
    }
    /**
     * "An object which configures ownership of this group" (v13.340,
     * https://github.com/MetaMorphic-Digital/draw-steel/issues/354): read as an actor's ownership.
     */
    override getUserLevel(user: User | null | undefined): number {
      if (!user) return CONST.DOCUMENT_OWNERSHIP_LEVELS.NONE;
      if (user.isGM) return CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER;
      const explicit = this.ownership[String(user.id)];
      if (typeof explicit === "number" && explicit >= 0) return explicit;
      return typeof this.ownership.default === "number" ? this.ownership.default : 0;
    }
  }

  return { Combatant, CombatantGroup };
}
