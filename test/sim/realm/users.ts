/** The realm's users. */
import { hasPermission, isGMRole, type DocumentName } from "../server.js";
import { toJson, type JsonObject } from "../utils.js";
import { CONST } from "./constants.js";
import type { Actor, DocumentBase, RealmBag } from "./types.js";

export function createUserClass(r: RealmBag, { ClientDocument }: Pick<DocumentBase, "ClientDocument">) {
  const { t, worldSettings } = r;
  /** https://foundryvtt.com/api/classes/foundry.documents.User.html */
  class User extends ClientDocument {
    static override documentName: DocumentName = "User";
    get role(): number {
      return typeof this._source.role === "number" ? this._source.role : 0;
    }
    get isGM(): boolean {
      return isGMRole(this.role);
    }
    get active(): boolean {
      return this._source.active === true;
    }
    get isSelf(): boolean {
      return this.id === t.userId;
    }
    get character(): Actor | null {
      return r.game.actors.get(String(this._source.character)) ?? null;
    }
    hasRole(role: string | number, { exact = false }: { exact?: boolean } = {}): boolean {
      const r = typeof role === "string" ? ((CONST.USER_ROLES as Record<string, number>)[role] ?? 99) : role;
      return exact ? this.role === r : this.role >= r;
    }
    /**
     * Whether the user's role has a user permission (https://foundryvtt.com/api/v14/variables/CONST.USER_PERMISSIONS.html;
     * the server's `hasPermission` decides, from the world's configured roles).
     */
    hasPermission(permission: string): boolean {
      return hasPermission(
        {
          ...r.replicaWorld(),
          settings: { "core.permissions": toJson(worldSettings.get("core.permissions") ?? null) },
        },
        this._source as JsonObject,
        permission,
      );
    }
    /** https://foundryvtt.com/api/classes/foundry.documents.User.html#can: a permission of the user's role. */
    can(action: string): boolean {
      return this.hasPermission(action);
    }
    /**
     * v13 `User#query` (https://github.com/foundryvtt/foundryvtt/issues/11235); the server refuses a
     * sender without the `QUERY_USER` permission.
     */
    async query(name: string, data: unknown, { timeout }: { timeout?: number } = {}): Promise<unknown> {
      return t.query(String(this.id), name, toJson(data), timeout);
    }
  }

  return { User };
}
