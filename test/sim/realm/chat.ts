/** The realm's rolls and chat messages (the dice are ./roll.ts; message modes differ in v14). */
import { type DocumentName } from "../server.js";
import { createRollClass, type RollInstance } from "../roll.js";
import { isPlainObject, mergeObject, type Dict } from "../utils.js";
import { CONST } from "./constants.js";
import { LEGACY_MODES, modernMode } from "./generations.js";
import type { createActorClasses } from "./actors.js";
import type { createSceneClasses } from "./scenes.js";
import type { DocumentBase, RealmBag, User } from "./types.js";

type ChatNeeds = Pick<DocumentBase, "ClientDocument"> &
  Pick<ReturnType<typeof createActorClasses>, "Actor"> &
  Pick<ReturnType<typeof createSceneClasses>, "Scene" | "TokenDocument">;

export function createChat(r: RealmBag, { ClientDocument, Actor, Scene, TokenDocument }: ChatNeeds) {
  const { t, v14, logCompatibilityWarning, settings, ui } = r;
  /** https://foundryvtt.com/api/classes/foundry.documents.ChatMessage.html */
  class ChatMessage extends ClientDocument {
    static override documentName: DocumentName = "ChatMessage";
    get author(): User | null {
      return r.game.users.get(String(this._source.author)) ?? null;
    }
    get content(): string {
      return String(this._source.content ?? "");
    }
    get flavor(): string {
      return String(this._source.flavor ?? "");
    }
    get speaker(): Dict {
      return isPlainObject(this._source.speaker) ? this._source.speaker : {};
    }
    get whisper(): string[] {
      return Array.isArray(this._source.whisper) ? this._source.whisper.map(String) : [];
    }
    get blind(): boolean {
      return this._source.blind === true;
    }
    get rolls(): RollInstance[] {
      const list = Array.isArray(this._source.rolls) ? this._source.rolls : [];
      return list.map((r) => Roll.fromData(r));
    }
    get isRoll(): boolean {
      return this.rolls.length > 0;
    }
    get isAuthor(): boolean {
      return this._source.author === t.userId;
    }
    get visible(): boolean {
      const w = this.whisper;
      return !w.length || r.currentUser()?.isGM === true || w.includes(t.userId) || this.isAuthor;
    }
    override getUserLevel(user: User | null | undefined): number {
      return user?.isGM || user?.id === this._source.author
        ? CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER
        : CONST.DOCUMENT_OWNERSHIP_LEVELS.OBSERVER;
    }
    /**
     * @behaviour The mode in the data or the options decides who sees the message: v13 `rollMode`;
     * v14 `messageMode`. On v14 an old `rollMode` is still read, without a warning of its own: no
     * public source quotes core warning about the `rollMode` creation option (the fallout issue the
     * sim once cited is about the `core.rollMode` setting).
     * @source https://github.com/foundryvtt/foundryvtt/issues/11442 (v13 roll modes at creation);
     * v14 creation with `{messageMode}`: a public v14 system's roll class
     * (`cls.create(msg.toObject(), {messageMode: rollMode})`, read through the search index) and
     * https://foundryvtt.com/api/v14/variables/CONFIG.ChatMessage.html (the modes).
     */
    override async _preCreate(data: Dict, options: Dict, _user: User): Promise<unknown> {
      const read = (key: string): string | null =>
        typeof data[key] === "string" ? data[key] : typeof options[key] === "string" ? options[key] : null;
      const modern = v14 ? read("messageMode") : null;
      const legacy = read("rollMode");
      delete this._source.rollMode;
      delete this._source.messageMode;
      // Each generation reads only its own words: "gm" is no v13 roll mode, "gmroll" no v14 message
      // mode; an unknown mode shows the message to everyone.
      const mode = v14
        ? (modern ?? (legacy === null ? null : modernMode(legacy)))
        : legacy === null
          ? null
          : LEGACY_MODES[legacy];
      if (mode !== null) this.updateSource(visibility({}, mode ?? "public"));
      return undefined;
    }
    static getSpeaker({
      scene,
      actor,
      token,
      alias,
    }: { scene?: unknown; actor?: unknown; token?: unknown; alias?: unknown } = {}): Dict {
      const a = actor instanceof Actor ? actor : token instanceof TokenDocument ? token.actor : null;
      const tk = token instanceof TokenDocument ? token : null;
      return {
        scene: scene instanceof Scene ? scene.id : (tk?.parent?.id ?? r.game.scenes.viewed?.id ?? null),
        actor: a?.id ?? null,
        token: tk?.id ?? null,
        alias: typeof alias === "string" ? alias : (tk?.name ?? a?.name ?? r.currentUser()?.name ?? ""),
      };
    }
    /**
     * @behaviour `ChatMessage.applyRollMode`: who sees each v13 roll mode; v14 deprecates it for
     * `applyMode`, with a warning.
     * @source https://foundryvtt.com/api/v11/enums/foundry.CONST.DICE_ROLL_MODES.html;
     * https://github.com/JohanFalt/Foundry_WoD20/issues/1396 (v14's warning, since 14, until 16).
     */
    static applyRollMode(chatData: Dict, rollMode: string): Dict {
      if (v14) logCompatibilityWarning("ChatMessage.applyRollMode is deprecated in favor of ChatMessage.applyMode.");
      const mode = rollMode === "roll" ? String(settings.get("core", v14 ? "messageMode" : "rollMode")) : rollMode;
      return visibility(chatData, modernMode(mode));
    }
    /**
     * v14: apply a message mode, a key of `CONFIG.ChatMessage.modes`, to message data; without one,
     * the user's `core.messageMode` (https://foundryvtt.com/api/v14/variables/CONFIG.ChatMessage.html,
     * teriock's and draw-steel's v14 calls). v13 has no such method.
     */
    static applyMode(chatData: Dict, mode?: string): Dict {
      return visibility(chatData, mode ?? String(settings.get("core", "messageMode")));
    }

    static getWhisperRecipients(name: string): User[] {
      if (name.toLowerCase() === "gm") return r.game.users.filter((u) => u.isGM);
      return r.game.users.filter((u) => u.name === name);
    }
  }
  if (!v14) Reflect.deleteProperty(ChatMessage, "applyMode");
  if (v14)
    Object.defineProperty(ChatMessage.prototype, "applyMode", {
      /**
       * @behaviour v14 `ChatMessage#applyMode(mode)`: the instance form, applying a message mode to
       * the message's own data (the static form's work); v13 has neither.
       * @source draw-steel's v14 `DSRoll#toMessage` (MetaMorphic-Digital/draw-steel src/module/rolls/base.mjs,
       * the version with `PART_TYPE = "roll"`: `const msg = new Cls(messageData); msg.applyMode(messageMode)`),
       * as do the Ryuutama system's `BaseRoll#toMessage` (systems/ryuutama) and Delta Green's
       * `createDGRollChatMessage` (each read through the search index). draw-steel 68856d45 (1.0.0) still calls the v13
       * `core.rollMode` and `ChatMessage.applyRollMode`: it is no source for this.
       */
      value(this: ChatMessage, mode?: string): ChatMessage {
        this.updateSource(visibility({}, mode ?? String(settings.get("core", "messageMode"))));
        return this;
      },
    });
  /**
   * Who sees a message in each mode, in v14's words (v13's `publicroll`, `gmroll`, `blindroll` and
   * `selfroll` are the same modes): public to all, gm and blind whispered to the GMs (blind hides it
   * from its author too), self to its author (https://github.com/foundryvtt/foundryvtt/issues/11442).
   */
  function visibility(chatData: Dict, mode: string): Dict {
    if (mode === "gm" || mode === "blind") chatData.whisper = ChatMessage.getWhisperRecipients("GM").map((u) => u.id);
    else if (mode === "self") chatData.whisper = [t.userId];
    else chatData.whisper = [];
    chatData.blind = mode === "blind";
    return chatData;
  }

  const Roll = createRollClass({
    drawDie: (faces) => t.drawDie(faces),
    lookupDie(denomination) {
      const cls = (r.CONFIG.Dice as { terms?: Record<string, unknown> }).terms?.[denomination];
      if (typeof cls !== "function") return null;
      const faces = (cls as { FACES?: unknown }).FACES;
      return { className: cls.name, faces: typeof faces === "number" && faces > 0 ? faces : 6 };
    },
    rollClassOf(name) {
      const rolls = (r.CONFIG.Dice as { rolls?: unknown[] }).rolls ?? [];
      return rolls.find((cls) => typeof cls === "function" && cls.name === name);
    },
    warn: (message) => ui.notifications.warn(message),
    /**
     * @behaviour v13 `Roll#toMessage(data, {rollMode})`; v14 `{messageMode}`, the `rollMode` option
     * deprecated with a warning (since 14, until 16), its mode mapped to the new words.
     * @source draw-steel's v14 `DSRoll#toMessage` (src/module/rolls/base.mjs, the version with
     * `PART_TYPE = "roll"`, read through the search index) repeats core's warning word for word
     * ("The rollMode option of Roll#toMessage is deprecated in favor of messageMode, a string value
     * in CONFIG.ChatMessage.modes", `{since: 14, until: 16}`); a public v14 module's notes quote the
     * same warning from core's log. draw-steel 68856d45 does not: its `toMessage` still takes `rollMode`.
     */
    async toMessage(roll, messageData, options, create) {
      const data: Dict = mergeObject<Dict>(
        {
          author: t.userId,
          content: String((roll as RollInstance).total),
          sound: "sounds/dice.wav",
          speaker: ChatMessage.getSpeaker(),
        },
        messageData,
        { inplace: false },
      );
      data.rolls = [roll];
      const key = v14 ? "messageMode" : "rollMode";
      let asked = typeof options[key] === "string" ? options[key] : undefined;
      if (v14 && asked === undefined && typeof options.rollMode === "string") {
        logCompatibilityWarning(
          "The rollMode option of Roll#toMessage is deprecated in favor of messageMode, a string value in CONFIG.ChatMessage.modes",
        );
        asked = modernMode(options.rollMode);
      }
      const mode = asked ?? (typeof data[key] === "string" ? data[key] : String(settings.get("core", key)));
      if (!create) return Object.assign(data, { [key]: mode });
      Reflect.deleteProperty(data, key);
      return ChatMessage.implementation.create(data, { [key]: mode });
    },
  });
  return { ChatMessage, Roll };
}
