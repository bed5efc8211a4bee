/**
 * Applying a server broadcast to this client's documents, on every client: the sources change, then
 * per document `_on<Op>`, the operation's `_on<Op>Operation`, the `<op><Name>` hooks and the parent's
 * descendant callback, in Foundry's order; `userConnected` for logins and logouts; the tracker
 * re-renders after a change to an encounter.
 */
import {
  EMBEDDED,
  isEmbedded,
  type DocumentName,
  type EmbeddedName,
  type ServerMessage,
  type TopLevelName,
} from "../server.js";
import { mergeObject, type Dict } from "../utils.js";
import type { createCombatClasses } from "./combat.js";
import type { createWorld } from "./world.js";
import type { ClientDocument, Collection, DocumentBase, RealmBag } from "./types.js";

/** What applying a broadcast needs besides the realm. */
export type BroadcastNeeds = Pick<DocumentBase, "EMBED_FIELDS"> &
  Pick<ReturnType<typeof createCombatClasses>, "Combat"> &
  Pick<ReturnType<typeof createWorld>, "collections" | "userOf"> & {
    safe: (where: string, fn: () => unknown) => void;
    /** Re-renders the combat tracker soon (./applications.ts). */
    scheduleRender: () => void;
  };

/** The documents whose changes re-render the combat tracker. */
const TRACKED = new Set<DocumentName>(["Combat", "Combatant", "CombatantGroup"]);

/** One realm's `applyDocOp`: a server broadcast applied to this client's documents. */
export function createBroadcasts(
  r: RealmBag,
  { EMBED_FIELDS, Combat, collections, userOf, safe, scheduleRender }: BroadcastNeeds,
) {
  const { Hooks, opts } = r;
  function applyDocOp(msg: Extract<ServerMessage, { type: "broadcast" }>): void {
    const name = msg.documentName;
    const cls = r.docClass(name);
    const options: Dict = msg.options;
    const userId = msg.userId;
    const where = isEmbedded(name) ? EMBEDDED[name] : null;
    const parent = where ? (r.worldCollection(where.parent).get(String(msg.parentId)) ?? null) : null;
    if (where && !parent) return;
    const coll = parent
      ? (parent._embedded[name as EmbeddedName] as Collection<ClientDocument>)
      : r.worldCollection(name as TopLevelName);
    const parentList = (): Dict[] => (parent && where ? (parent._source[where.field] as Dict[]) : []);
    const setParentTurn = (): void => {
      if (parent instanceof Combat && typeof options.combatTurn === "number") {
        parent._source.turn = options.combatTurn;
        parent._initialize();
      }
    };
    const field = where?.field ?? "";
    // Who was logged in before this broadcast: `userConnected` fires for a change only
    // (https://foundryvtt.com/api/functions/hookEvents.userConnected.html), so not for a client's own
    // login, which the world it loaded already shows.
    const wasActive = new Map(name === "User" ? collections.User.map((u) => [String(u.id), u.active]) : []);
    // Post-operation hooks fire on every client; per document _on<Op> then the hook, then the parent's
    // descendant callback (https://foundryvtt.com/api/classes/foundry.abstract.Document.html#_onCreate).
    if (msg.action === "create") {
      const data = (msg.data ?? []) as Dict[];
      const docs = data.map((src) => {
        if (parent) parentList().push(src);
        const doc = new cls(src, { parent });
        coll.set(String(src._id), doc);
        return doc;
      });
      setParentTurn();
      for (const doc of docs)
        safe(`_onCreate ${name}`, () => {
          doc._onCreate(doc._source, options, userId);
        });
      safe(`_onCreateOperation ${name}`, () => cls._onCreateOperation(docs, { ...options, data }, userOf(userId)));
      for (const doc of docs) Hooks.callAll(`create${name}`, doc, options, userId);
      if (parent)
        safe("_onCreateDescendantDocuments", () => {
          parent._onCreateDescendantDocuments(parent, field, docs, data, options, userId);
        });
    } else if (msg.action === "update") {
      const diffs = (msg.updates ?? []) as Dict[];
      const docs: ClientDocument[] = [];
      const applied: Dict[] = [];
      for (const diff of diffs) {
        const doc = coll.get(String(diff._id));
        if (!doc) continue;
        // Embedded changes carried by the parent's update update those documents' sources; only the
        // parent's `_onUpdate` and `update<Parent>` hook fire, with the changes in `changed` (the
        // module relies on nothing more; see the server's `mergeEmbedded` for the sources).
        const own: Dict = { ...diff };
        for (const [child, field] of Object.entries(EMBED_FIELDS[name as TopLevelName] ?? {})) {
          const list = own[field];
          if (!Array.isArray(list)) continue;
          Reflect.deleteProperty(own, field);
          for (const change of list as Dict[]) {
            const target = doc._embedded[child as EmbeddedName]?.get(String(change._id));
            if (!target) continue;
            mergeObject(target._source, change, { performDeletions: true });
            target._initialize();
          }
        }
        mergeObject(doc._source, own, { performDeletions: true, recursive: options.recursive !== false });
        doc._initialize();
        docs.push(doc);
        applied.push(diff);
      }
      setParentTurn();
      docs.forEach((doc, i) => {
        safe(`_onUpdate ${name}`, () => {
          doc._onUpdate(applied[i] as Dict, options, userId);
        });
      });
      // Once per operation, on every client, with all its documents, before the update hooks
      // (https://foundryvtt.com/api/classes/foundry.abstract.Document.html#_onUpdateOperation).
      safe(`_onUpdateOperation ${name}`, () =>
        cls._onUpdateOperation(docs, { ...options, updates: applied, parent }, userOf(userId)),
      );
      docs.forEach((doc, i) => {
        Hooks.callAll(`update${name}`, doc, applied[i], options, userId);
      });
      if (parent)
        safe("_onUpdateDescendantDocuments", () => {
          parent._onUpdateDescendantDocuments(parent, field, docs, applied, options, userId);
        });
    } else {
      const ids = msg.ids ?? [];
      const docs = ids.map((id) => coll.get(id)).filter((d): d is ClientDocument => d !== undefined);
      for (const doc of docs) {
        coll.delete(String(doc.id));
        if (parent) {
          const list = parentList();
          const i = list.indexOf(doc._source);
          if (i >= 0) list.splice(i, 1);
        }
      }
      setParentTurn();
      for (const doc of docs)
        safe(`_onDelete ${name}`, () => {
          doc._onDelete(options, userId);
        });
      safe(`_onDeleteOperation ${name}`, () => cls._onDeleteOperation(docs, { ...options, ids }, userOf(userId)));
      for (const doc of docs) Hooks.callAll(`delete${name}`, doc, options, userId);
      if (parent)
        safe("_onDeleteDescendantDocuments", () => {
          parent._onDeleteDescendantDocuments(parent, field, docs, ids, options, userId);
        });
    }
    if (name === "User") {
      for (const u of msg.updates ?? [])
        if ("active" in u && wasActive.get(String(u._id)) !== (u.active === true))
          Hooks.callAll("userConnected", collections.User.get(String(u._id)), u.active === true);
    }
    if (TRACKED.has(name) && opts.renderTemplates) scheduleRender();
  }
  return applyDocOp;
}
