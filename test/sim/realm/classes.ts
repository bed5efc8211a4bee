/**
 * The realm's document classes, built in order (the base, then users, actors, scenes, chat and
 * encounters, each room reading the ones before it), and the class a document name resolves to:
 * `CONFIG[name].documentClass` when a system or module set one, else the sim's own.
 */
import type { DocumentName } from "../server.js";
import { createActorClasses } from "./actors.js";
import { createChat } from "./chat.js";
import { createCombatClasses } from "./combat.js";
import { createDocumentBase } from "./documents.js";
import { createSceneClasses } from "./scenes.js";
import type { RealmBag } from "./types.js";
import { createUserClass } from "./users.js";

/** One realm's document classes, with core's tracker configuration setting registered. */
export function createDocumentClasses(r: RealmBag) {
  const { Collection, ClientDocument, EMBED_FIELDS } = createDocumentBase(r);
  const { User } = createUserClass(r, { ClientDocument });
  const { Actor, ActiveEffect, effectRegistry } = createActorClasses(r, { ClientDocument });
  const { Scene, TokenDocument, Token } = createSceneClasses(r, { ClientDocument, Collection });
  const { ChatMessage, Roll } = createChat(r, { ClientDocument, Actor, Scene, TokenDocument });
  const { Combat, Combatant, CombatantGroup } = createCombatClasses(r, {
    ClientDocument,
    effectRegistry,
    ChatMessage,
    Roll,
  });
  r.settings.register("core", Combat.CONFIG_SETTING, {
    scope: "world",
    default: { resource: "", skipDefeated: false },
    type: Object,
    config: false,
  });
  const defaultClasses = {
    Actor,
    ActiveEffect,
    User,
    Scene,
    Token: TokenDocument,
    Combat,
    Combatant,
    CombatantGroup,
    ChatMessage,
  };
  function docClass(name: DocumentName): typeof ClientDocument {
    const entry = (r.CONFIG as unknown as Record<string, { documentClass?: unknown }>)[name];
    const cls = entry?.documentClass;
    return typeof cls === "function" ? (cls as typeof ClientDocument) : defaultClasses[name];
  }
  return {
    Collection,
    ClientDocument,
    EMBED_FIELDS,
    User,
    Actor,
    ActiveEffect,
    Scene,
    TokenDocument,
    Token,
    ChatMessage,
    Roll,
    Combat,
    Combatant,
    CombatantGroup,
    defaultClasses,
    docClass,
  };
}
