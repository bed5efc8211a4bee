/**
 * The realm's encounters: Combat, with v13's and v14's turn events, and its combatants
 * (./combatants.ts: Combatant and CombatantGroup).
 */
import { type DocumentName } from "../server.js";
import { deepClone, isPlainObject, mergeObject, type Dict } from "../utils.js";
import { CONST } from "./constants.js";
import { createCombatantClasses } from "./combatants.js";
import { modernMode } from "./generations.js";
import { refreshTurnMarkers, regionRoundEvent, regionTurnEvent } from "./turn-events.js";
import type { createActorClasses } from "./actors.js";
import type { createChat } from "./chat.js";
import type {
  ClientDocument,
  Collection,
  Combatant,
  CombatantGroup,
  DocumentBase,
  RealmBag,
  Scene,
  TokenDocument,
  User,
} from "./types.js";

type CombatNeeds = Pick<DocumentBase, "ClientDocument"> &
  Pick<ReturnType<typeof createActorClasses>, "effectRegistry"> &
  ReturnType<typeof createChat>;
type CombatantClass = ReturnType<typeof createCombatantClasses>["Combatant"];

interface CombatHistoryData {
  round: number;
  turn: number | null;
  tokenId: string | null;
  combatantId: string | null;
}

/** One realm's encounter classes: Combat first, then the combatants, which test for it. */
export function createCombatClasses(r: RealmBag, needs: CombatNeeds) {
  const { Combat } = createCombatClass(r, needs);
  const { Combatant, CombatantGroup } = createCombatantClasses(r, { ...needs, Combat });
  return { Combat, Combatant, CombatantGroup };
}

/** One realm's Combat class. */
export function createCombatClass(r: RealmBag, { ClientDocument, effectRegistry, ChatMessage }: CombatNeeds) {
  const { v14, logCompatibilityWarning, recordError, Hooks, ui, DialogV2, opts } = r;
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
      refreshTurnMarkers(Hooks, prior.combatantId, this.current.combatantId, this);
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
      const cls = r.docClass("Combatant") as CombatantClass;
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
  return { Combat };
}
