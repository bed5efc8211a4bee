/**
 * The world's collections (`game.users`, `game.actors`, `game.scenes`, `game.combats`,
 * `game.messages`), with the collection classes core names (`Users`, `Scenes`, `Combats`), and the
 * look-ups the realm's other rooms make in them.
 */
import { isEmbedded, type DocumentName, type TopLevelName, type WorldData } from "../server.js";
import type { JsonObject } from "../utils.js";
import type {
  Actor,
  ChatMessage,
  ClientDocument,
  Collection as SimCollection,
  Combat,
  DocumentBase,
  RealmBag,
  Scene,
  User,
} from "./types.js";

/** One realm's world collections; `game` is read when used (the realm builds it later). */
export function createWorld(r: RealmBag, { Collection }: Pick<DocumentBase, "Collection">) {
  const { t } = r;
  class Users extends Collection<User> {
    /**
     * "One User who is an active Gamemaster (non-assistant if possible)"
     * (https://foundryvtt.com/api/classes/foundry.documents.collections.Users.html#activeGM,
     * https://github.com/foundryvtt/foundryvtt/issues/11242); ties broken by the lowest id.
     */
    get activeGM(): User | null {
      const gms = this.filter((u) => u.active && u.isGM).sort(
        (a, b) => b.role - a.role || (String(a.id) < String(b.id) ? -1 : 1),
      );
      return gms[0] ?? null;
    }
    get current(): User | null {
      return this.get(t.userId) ?? null;
    }
    get players(): User[] {
      return this.filter((u) => !u.isGM);
    }
  }
  class Scenes extends Collection<Scene> {
    get active(): Scene | undefined {
      return this.find((s) => s.active);
    }
    get viewed(): Scene | undefined {
      return this.active;
    }
  }
  class Combats extends Collection<Combat> {
    /** The combat the tracker shows: the active one in the viewed scene, else the first there. */
    get viewed(): Combat | null {
      const sceneId = r.game.scenes.viewed?.id ?? null;
      const here = this.filter((c) => c._source.scene == null || c._source.scene === sceneId);
      return here.find((c) => c.active) ?? here[0] ?? null;
    }
    get active(): Combat | undefined {
      return this.find((c) => c.active);
    }
  }
  const collections = {
    User: new Users(),
    Actor: new Collection<Actor>(),
    Scene: new Scenes(),
    Combat: new Combats(),
    ChatMessage: new Collection<ChatMessage>(),
  };
  function worldCollection(name: TopLevelName): SimCollection<ClientDocument> {
    return collections[name];
  }
  const currentUser = (): User | null => collections.User.get(t.userId) ?? null;
  /** The user whose id a broadcast names, or null. */
  const userOf = (userId: string): User | null => collections.User.get(userId) ?? null;
  const replicaWorld = (): WorldData => ({
    users: collections.User.map((u) => u._source as JsonObject),
    actors: collections.Actor.map((a) => a._source as JsonObject),
    scenes: [],
    combats: [],
    messages: [],
    settings: {},
  });
  function findDoc(name: DocumentName, parent: ClientDocument | null, id: string): ClientDocument | undefined {
    if (isEmbedded(name)) return parent?._embedded[name]?.get(id);
    return worldCollection(name).get(id);
  }
  return { Users, Scenes, Combats, collections, worldCollection, currentUser, userOf, replicaWorld, findDoc };
}
