/** The realm's encounters: Combat, Combatant and CombatantGroup, with v13's and v14's turn events. */
import { type DocumentName } from "../server.js";
import { type RollInstance } from "../roll.js";
import { deepClone, isPlainObject, mergeObject, type Dict } from "../utils.js";
import { CONST } from "./constants.js";
import { modernMode } from "./generations.js";
import type { createActorClasses } from "./actors.js";
import type { createChat } from "./chat.js";
import type { Actor, ClientDocument, Collection, DocumentBase, RealmBag, Scene, TokenDocument, User } from "./types.js";

type CombatNeeds = Pick<DocumentBase, "ClientDocument"> &
  Pick<ReturnType<typeof createActorClasses>, "effectRegistry"> &
  ReturnType<typeof createChat>;

export function createCombatClasses(r: RealmBag, { ClientDocument, effectRegistry, ChatMessage, Roll }: CombatNeeds) {
  const { v14, logCompatibilityWarning, recordError, preparedInitiative, Hooks, ui, DialogV2, opts } = r;
  interface CombatHistoryData {
    round: number;
    turn: number | null;
    tokenId: string | null;
    combatantId: string | null;
  }

  /**
   * Core's Region turn events for a combatant's token, on the active GM with the turn events
   * (CONST.REGION_EVENTS.TOKEN_TURN_START/END, https://foundryvtt.com/api/variables/CONST.REGION_EVENTS.html;
   * event data https://foundryvtt.com/api/interfaces/foundry.documents.types.RegionTokenTurnEventData.html).
   */
  async function regionTurnEvent(combatant: Combatant, name: string, context: Dict): Promise<void> {
    const token = combatant.token;
    if (!token) return;
    for (const region of token.regions ?? []) {
      await region._triggerEvent(name, { token, combatant, combat: combatant.combat, ...context });
    }
  }

  /**
   * Core's Region round events, for every combatant's token, on the active GM with the round events
   * (CONST.REGION_EVENTS.TOKEN_ROUND_START/END, "Triggered when a Token starts/ends the Combat round in
   * a Region", https://foundryvtt.com/api/variables/CONST.REGION_EVENTS.html; event data {combat,
   * combatant, round, skipped, token}:
   * https://foundryvtt.com/api/interfaces/foundry.documents.types.RegionTokenRoundEventData.html). The
   * order among combatants is not documented: the sim goes down `combat.turns`.
   */
  async function regionRoundEvent(combat: Combat, name: string, round: number): Promise<void> {
    for (const combatant of combat.turns) {
      const token = combatant.token;
      for (const region of token?.regions ?? [])
        await region._triggerEvent(name, { token, combatant, combat, round, skipped: false });
    }
  }

  /**
   * Each client's token turn marker follows the acting combatant
   * (https://foundryvtt.com/api/v14/classes/foundry.canvas.placeables.tokens.TokenTurnMarker.html): the
   * token that loses it and the one that gains it refresh, seen as the `refreshToken` hook with
   * `refreshTurnMarker` (https://foundryvtt.com/api/functions/hookEvents.refreshObject.html).
   */
  function refreshTurnMarkers(priorId: string | null, currentId: string | null, combat: Combat): void {
    if (priorId === currentId) return;
    for (const id of [priorId, currentId]) {
      const object = id === null ? null : (combat.combatants.get(id)?.token?.object ?? null);
      if (object) Hooks.callAll("refreshToken", object, { refreshTurnMarker: true });
    }
  }

  /** https://foundryvtt.com/api/classes/foundry.documents.Combat.html */
  class Combat extends ClientDocument {
    static override documentName: DocumentName = "Combat";
    static CONFIG_SETTING = "combatTrackerConfig";
    declare round: number;
    declare turn: number | null;
    declare turns: Combatant[];
    declare current: CombatHistoryData;
    declare previous: CombatHistoryData | undefined;

    override _initialize(): void {
      const s = this._source;
      this.round = typeof s.round === "number" ? s.round : 0;
      this.turn = typeof s.turn === "number" ? s.turn : null;
      super._initialize();
    }
    override prepareDerivedData(): void {
      if (!(this as { turns?: unknown }).turns) this.setupTurns();
    }
    get combatants(): Collection<Combatant> {
      return this._embedded.Combatant as Collection<Combatant>;
    }
    get groups(): Collection<CombatantGroup> {
      return this._embedded.CombatantGroup as Collection<CombatantGroup>;
    }
    get active(): boolean {
      return this._source.active === true;
    }
    get scene(): Scene | null {
      return r.game.scenes.get(String(this._source.scene)) ?? null;
    }
    get started(): boolean {
      return this.round > 0;
    }
    get isActive(): boolean {
      return this.active && (this.scene === null || this.scene.isView);
    }
    get combatant(): Combatant | undefined {
      return this.turn === null ? undefined : this.turns[this.turn];
    }
    get nextCombatant(): Combatant | undefined {
      return this.turn === null ? this.turns[0] : this.turns[this.turn + 1];
    }
    get settings(): Dict {
      const v = r.game.settings.get("core", Combat.CONFIG_SETTING);
      return isPlainObject(v) ? v : {};
    }
    override getUserLevel(user: User | null | undefined): number {
      return user?.isGM ? CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER : CONST.DOCUMENT_OWNERSHIP_LEVELS.LIMITED;
    }

    /** Core order: initiative descending (none last), then name, then id (Combat#_sortCombatants). */
    _sortCombatants(a: Combatant, b: Combatant): number {
      const ia = typeof a.initiative === "number" ? a.initiative : -Infinity;
      const ib = typeof b.initiative === "number" ? b.initiative : -Infinity;
      // -Infinity - -Infinity is NaN (falsy): ties fall through to name, then id.
      return ib - ia || a.name.localeCompare(b.name) || String(a.id).localeCompare(String(b.id));
    }
    /** https://foundryvtt.com/api/classes/foundry.documents.Combat.html#setupTurns */
    setupTurns(): Combatant[] {
      const turns = this.combatants.contents.sort((a, b) => this._sortCombatants(a, b));
      if (this.turn !== null) this.turn = turns.length ? Math.min(Math.max(this.turn, 0), turns.length - 1) : null;
      this.turns = turns;
      const c = this.combatant;
      this.current = { round: this.round, turn: this.turn, combatantId: c?.id ?? null, tokenId: c?.tokenId ?? null };
      return turns;
    }

    /** Hooks combatStart/combatTurn/combatRound fire on the initiating client before the update (hookEvents docs). */
    async startCombat(): Promise<this> {
      const updateData = { round: 1, turn: 0 };
      Hooks.callAll("combatStart", this, updateData);
      await this.update(updateData);
      /**
       * @behaviour v14: starting a combat announces "combatStart" to the effect registry.
       * @source https://foundryvtt.com/api/variables/CONST.ACTIVE_EFFECT_EXPIRY_EVENTS.html (a core
       * event); a public v14 system whose own `startCombat` skips core's sends it itself after its
       * update (the "EncounterCombat" class found through the search index: `ActiveEffect.registry.refresh("combatStart", {combat: this})`).
       */
      if (v14) await effectRegistry()?.refresh("combatStart", { combat: this });
      return this;
    }
    /**
     * "Display a dialog querying the GM whether they wish to end the combat encounter. If confirmed,
     * the encounter is deleted" (https://foundryvtt.com/api/classes/foundry.documents.Combat.html#endcombat).
     */
    async endCombat(): Promise<this | undefined> {
      const confirmed = await DialogV2.confirm({
        // The sim's own words: core's texts are core's language file's.
        window: { title: "End the encounter?" },
        content: "<p>The encounter ends and is deleted.</p>",
      });
      return confirmed ? this.delete() : undefined;
    }
    /** Skips defeated combatants when core's combatTrackerConfig.skipDefeated is set (Combat#settings). */
    async nextTurn(): Promise<this> {
      const turn = this.turn ?? -1;
      const skip = this.settings.skipDefeated === true;
      let next: number | null = null;
      for (let i = turn + 1; i < this.turns.length; i++) {
        if (skip && this.turns[i]?.isDefeated) continue;
        next = i;
        break;
      }
      if (this.round === 0 || next === null) return this.nextRound();
      const updateData = { round: this.round, turn: next };
      const updateOptions = { direction: 1, worldTime: { delta: r.CONFIG.time.turnTime } };
      Hooks.callAll("combatTurn", this, updateData, updateOptions);
      await this.update(updateData, updateOptions);
      return this;
    }
    async previousTurn(): Promise<this> {
      if (this.turn === 0 && this.round === 0) return this;
      if (this.turn !== null && this.turn <= 0) return this.previousRound();
      const updateData = { round: this.round, turn: (this.turn ?? this.turns.length) - 1 };
      const updateOptions = { direction: -1, worldTime: { delta: -r.CONFIG.time.turnTime } };
      Hooks.callAll("combatTurn", this, updateData, updateOptions);
      await this.update(updateData, updateOptions);
      return this;
    }
    async nextRound(): Promise<this> {
      let turn: number | null = this.turn === null ? null : 0;
      if (this.settings.skipDefeated === true && turn !== null) {
        turn = this.turns.findIndex((c) => !c.isDefeated);
        if (turn === -1) {
          ui.notifications.warn("COMBAT.NoneRemaining", { localize: true });
          turn = 0;
        }
      }
      const updateData = { round: this.round + 1, turn };
      const updateOptions = { direction: 1, worldTime: { delta: r.CONFIG.time.roundTime } };
      Hooks.callAll("combatRound", this, updateData, updateOptions);
      await this.update(updateData, updateOptions);
      return this;
    }
    async previousRound(): Promise<this> {
      const turn = this.round === 0 ? 0 : Math.max(this.turns.length - 1, 0);
      const updateData = { round: Math.max(this.round - 1, 0), turn: this.turn === null ? null : turn };
      const updateOptions = { direction: -1, worldTime: { delta: -r.CONFIG.time.roundTime } };
      Hooks.callAll("combatRound", this, updateData, updateOptions);
      await this.update(updateData, updateOptions);
      return this;
    }
    async activate(): Promise<ClientDocument[]> {
      const updates = r.game.combats.map((c) => ({ _id: c.id, active: c === this }));
      return Combat.updateDocuments(updates);
    }

    /**
     * https://foundryvtt.com/api/classes/foundry.documents.Combat.html#rollInitiative. v13 takes the
     * mode in `messageOptions.rollMode`. v14 takes it as the top-level `messageMode` option; the old
     * `messageOptions.rollMode` still works, mapped to v14's words, with a deprecation warning
     * (since 14, until 16): dnd5e PR #7370 ("Fixes deprecation warning") moves its initiative
     * dialog to `initiativeOptions: {messageMode}`, and a public v14 system's override of this
     * method (`SciFiCombat#rollInitiative`, in the search tool's code index) repeats core's warning.
     */
    async rollInitiative(
      ids: string | string[],
      {
        formula = null,
        updateTurn = true,
        messageMode,
        messageOptions = {},
      }: { formula?: string | null; updateTurn?: boolean; messageMode?: string; messageOptions?: Dict } = {},
    ): Promise<this> {
      const list = typeof ids === "string" ? [ids] : ids;
      const currentId = this.combatant?.id;
      const modeKey = v14 ? "messageMode" : "rollMode";
      const chatMode = r.game.settings.get("core", modeKey);
      // v13 reads `messageOptions.rollMode` only; v14 the top-level `messageMode`, or the old form.
      let asked: unknown = v14 ? messageMode : messageOptions.rollMode;
      const extra: Dict = { ...messageOptions };
      if (v14 && "rollMode" in messageOptions) {
        logCompatibilityWarning(
          "The rollMode option of Combat#rollInitiative messageOptions is deprecated in favor of the `messageMode` option, a string key of CONFIG.ChatMessage.modes",
          { since: 14, until: 16 },
        );
        asked = modernMode(String(messageOptions.rollMode));
        delete extra.rollMode;
      }
      const updates: Dict[] = [];
      const messages: Dict[] = [];
      for (const [i, id] of list.entries()) {
        const combatant = this.combatants.get(id);
        if (!combatant?.isOwner) continue;
        const roll = combatant.getInitiativeRoll(formula);
        await roll.evaluate();
        updates.push({ _id: id, initiative: roll.total ?? null });
        const speaker = ChatMessage.getSpeaker({
          actor: combatant.actor,
          token: combatant.token,
          alias: combatant.name,
        });
        const messageData = mergeObject(
          {
            speaker,
            flavor: r.game.i18n.format("COMBAT.RollsInitiative", { name: combatant.name }),
            flags: { "core.initiativeRoll": true },
          },
          extra,
        );
        const chatData = (await roll.toMessage(messageData, { create: false })) as Dict;
        chatData[modeKey] =
          typeof asked === "string"
            ? asked
            : combatant.hidden
              ? v14
                ? "gm"
                : CONST.DICE_ROLL_MODES.PRIVATE
              : chatMode;
        if (i > 0) chatData.sound = null;
        messages.push(chatData);
      }
      if (!updates.length) return this;
      await this.updateEmbeddedDocuments("Combatant", updates);
      if (updateTurn && currentId) {
        const turn = this.turns.findIndex((c) => c.id === currentId);
        if (turn !== this.turn) await this.update({ turn });
      }
      await ChatMessage.implementation.createDocuments(messages);
      return this;
    }
    async rollAll(options: Dict = {}): Promise<this> {
      const ids = this.combatants.filter((c) => c.isOwner && c.initiative === null).map((c) => String(c.id));
      return this.rollInitiative(ids, options);
    }
    async rollNPC(options: Dict = {}): Promise<this> {
      const ids = this.combatants.filter((c) => c.isOwner && c.isNPC && c.initiative === null).map((c) => String(c.id));
      return this.rollInitiative(ids, options);
    }
    async resetAll(): Promise<this> {
      const updates = this.combatants.map((c) => ({ _id: c.id, initiative: null }));
      await this.updateEmbeddedDocuments("Combatant", updates, { turnEvents: false });
      if (this.turn !== null && this.turn !== 0) await this.update({ turn: 0 });
      return this;
    }

    /**
     * Recompute turns; fire combatTurnChange on all clients and turn events on the active GM only.
     * With `turnEventsOnCombatantChange`, also when only the acting combatant changed at the same
     * index (https://github.com/foundryvtt/foundryvtt/issues/9741).
     */
    override _onUpdate(changed: Dict, options: Dict, userId: string): void {
      super._onUpdate(changed, options, userId);
      const prior = this.current;
      this.setupTurns();
      refreshTurnMarkers(prior.combatantId, this.current.combatantId, this);
      const moved = "turn" in changed || "round" in changed;
      const swapped = opts.turnEventsOnCombatantChange === true && prior.combatantId !== this.current.combatantId;
      if (!moved && !swapped) return;
      this.previous = prior;
      // https://foundryvtt.com/api/functions/hookEvents.combatTurnChange.html
      Hooks.callAll("combatTurnChange", this, prior, this.current);
      if (r.game.users.activeGM?.isSelf && options.turnEvents !== false) void this._manageTurnEvents();
    }
    /**
     * _onEndTurn/_onEndRound/_onStartRound/_onStartTurn "only execute for one designated GM user"
     * (https://foundryvtt.com/api/classes/foundry.documents.Combat.html#_onStartTurn); not on rewinds.
     */
    async _manageTurnEvents(): Promise<void> {
      // Core compares the previous and the current turn state (no arguments in its signature).
      const prior = this.previous;
      if (!this.started || prior === undefined) return;
      const advanceRound = this.round > prior.round;
      const sameIndex =
        opts.turnEventsOnCombatantChange === true &&
        this.round === prior.round &&
        this.turn === prior.turn &&
        this.current.combatantId !== prior.combatantId;
      const advanceTurn =
        advanceRound || sameIndex || (this.round === prior.round && (this.turn ?? -1) > (prior.turn ?? -1));
      if (!advanceTurn) return;
      try {
        const priorCombatant = prior.combatantId ? this.combatants.get(prior.combatantId) : undefined;
        const ctx = { round: this.round, turn: this.turn, skipped: false };
        const priorCtx = { round: prior.round, turn: prior.turn, skipped: false };
        /**
         * @behaviour v14: core's own turn dispatch announces each event to the effect registry after
         * the event's handler: turnEnd, roundEnd, roundStart, turnStart.
         * @source draw-steel-combat-tools src/squad-turns.mjs (commit c3a61b8164c7fc6c733e22db082435923bfd562e)
         * refreshes "turnStart"/"turnEnd" by hand only for the squad members core's dispatch leaves
         * out, after the member's start and `_onEndTurn`; https://github.com/MetaMorphic-Digital/torgeternity/issues/668
         * ("`roundStart` and `roundEnd` are handled by core Foundry").
         */
        const announce = async (event: string, context: Dict): Promise<void> => {
          if (v14) await effectRegistry()?.refresh(event, { ...context, combat: this });
        };
        if (priorCombatant && prior.round > 0) {
          await this._onEndTurn(priorCombatant, priorCtx);
          await announce("turnEnd", priorCtx);
          await regionTurnEvent(priorCombatant, "tokenTurnEnd", priorCtx);
        }
        if (advanceRound) {
          if (prior.round > 0) {
            await this._onEndRound(priorCtx);
            await announce("roundEnd", priorCtx);
            await regionRoundEvent(this, "tokenRoundEnd", prior.round);
          }
          await this._onStartRound(ctx);
          await announce("roundStart", ctx);
          await regionRoundEvent(this, "tokenRoundStart", this.round);
        }
        if (this.combatant) {
          await this._onStartTurn(this.combatant, ctx);
          await announce("turnStart", ctx);
          await regionTurnEvent(this.combatant, "tokenTurnStart", ctx);
        }
      } catch (err) {
        recordError("combat turn events", err);
      }
    }
    async _onStartTurn(_combatant: Combatant, _context: Dict): Promise<void> {}
    async _onEndTurn(_combatant: Combatant, _context: Dict): Promise<void> {}
    async _onStartRound(_context: Dict): Promise<void> {}
    async _onEndRound(_context: Dict): Promise<void> {}

    override _onCreateDescendantDocuments(_parent: ClientDocument, collection: string): void {
      this.prepareGroupMembers(collection);
      this.setupTurns();
    }
    override _onUpdateDescendantDocuments(_parent: ClientDocument, collection: string): void {
      this.prepareGroupMembers(collection);
      this.setupTurns();
    }
    override _onDeleteDescendantDocuments(_parent: ClientDocument, collection: string): void {
      this.prepareGroupMembers(collection);
      this.setupTurns();
    }
    /**
     * @behaviour v14: a combat that ends (is deleted) announces "combatEnd" to the effect registry,
     * once, on the active GM.
     * @source https://foundryvtt.com/api/variables/CONST.ACTIVE_EFFECT_EXPIRY_EVENTS.html (a core
     * event) and https://foundryvtt.com/api/classes/foundry.documents.Combat.html#endcombat (ending
     * deletes the encounter). Where core sends it is on no public page: the sim sends it on deletion.
     */
    override _onDelete(options: Dict, userId: string): void {
      super._onDelete(options, userId);
      if (v14 && r.game.users.activeGM?.isSelf) void effectRegistry()?.refresh("combatEnd", { combat: this });
    }
    /**
     * A group changed: its members prepare their data again, so the group's initiative is theirs
     * before the turns are sorted (what the group's documented initiative means, seen on every client;
     * how core schedules it is not documented).
     */
    prepareGroupMembers(collection: string): void {
      if (collection !== "groups") return;
      for (const combatant of this.combatants.values()) combatant.prepareData();
    }

    /**
     * The combatants of a token (https://foundryvtt.com/api/v13/classes/foundry.documents.Combat.html#getcombatantsbytoken,
     * https://github.com/foundryvtt/foundryvtt/issues/10672: an array).
     */
    getCombatantsByToken(token: string | TokenDocument): Combatant[] {
      const id = typeof token === "string" ? token : token.id;
      return this.combatants.filter((c) => c.tokenId === id);
    }
    /**
     * @behaviour `Combat#getCombatantByToken`: deprecated for the plural, still working with a
     * deprecation warning, in both flavours (no public source says v14 removed it).
     * @source https://github.com/foundryvtt/foundryvtt/issues/9241 ("Deprecate … `Combat#getCombatantByToken`
     * in favor of pluralized versions"); https://github.com/foundryvtt/foundryvtt/issues/10672 (v12:
     * the singular still calls the plural).
     */
    getCombatantByToken(token: string | TokenDocument): Combatant | undefined {
      logCompatibilityWarning("Combat#getCombatantByToken is deprecated in favor of Combat#getCombatantsByToken");
      return this.getCombatantsByToken(token)[0];
    }

    /**
     * v13 keeps the current combatant current when combatants are added, removed or re-ordered
     * (operation.combatTurn, https://github.com/foundryvtt/foundryvtt/issues/12990): the index the
     * requesting client computes, from its own copy, for whoever acts now. Core's Combatant
     * `_preUpdateOperation` adds it even to a `turnEvents: false` operation (#12990, and #11531 for
     * v12); that it is left out when the index does not move is nowhere documented, so the sim takes
     * the harsher reading and always adds it once the combat has a current combatant.
     */
    _computeCombatTurn(action: "create" | "update" | "delete", payload: Dict[] | string[]): number | null {
      const currentId = this.combatant?.id;
      if (!this.started || this.turn === null || !currentId) return null;
      const cls = r.docClass("Combatant") as typeof Combatant;
      let sources = this.combatants.map((c) => c.toObject());
      if (action === "create") sources = sources.concat((payload as Dict[]).map((d) => deepClone(d)));
      if (action === "update") {
        for (const d of payload as Dict[]) {
          const src = sources.find((s) => s._id === d._id);
          if (src) mergeObject(src, deepClone(d), { performDeletions: true });
        }
      }
      if (action === "delete") sources = sources.filter((s) => !(payload as string[]).includes(String(s._id)));
      const temp = sources.map((s) => new cls(s, { parent: this })).sort((a, b) => this._sortCombatants(a, b));
      const idx = temp.findIndex((c) => c.id === currentId);
      return idx >= 0 ? idx : Math.min(this.turn, Math.max(temp.length - 1, 0));
    }
  }

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

  return { Combat, Combatant, CombatantGroup };
}
