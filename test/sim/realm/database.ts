/**
 * The database operations as the initiating client runs them: `create`, `update` and `delete`
 * (the pre-operation callbacks and `pre<Op>` hooks, then one request to the server, resolved once
 * the broadcast is applied here), and v14's `foundry.documents.modifyBatch`. The update request has
 * v13's and v14's shapes: v14's key deletion (`ForcedDeletion`) goes through `warnLegacyKeys`.
 */
import {
  EMBEDDED,
  isEmbedded,
  type DocOperation,
  type DocumentName,
  type EmbeddedName,
  type TopLevelName,
} from "../server.js";
import { deepClone, diffObject, expandObject, isEmpty, isPlainObject, toJsonObject, type Dict } from "../utils.js";
import type { createCombatClasses } from "./combat.js";
import type { createOperators } from "./operators.js";
import type { createSceneClasses } from "./scenes.js";
import type { ClientDocument, ClientDocumentClass, DocumentBase, OpOptions, RealmBag, User } from "./types.js";

/** What the operations need besides the realm: the document classes they test for, and the world's look-up. */
export type DatabaseNeeds = Pick<DocumentBase, "ClientDocument" | "EMBED_FIELDS"> &
  Pick<ReturnType<typeof createCombatClasses>, "Combat"> &
  Pick<ReturnType<typeof createSceneClasses>, "Scene"> &
  Pick<ReturnType<typeof createOperators>, "warnLegacyKeys"> & {
    findDoc: (name: DocumentName, parent: ClientDocument | null, id: string) => ClientDocument | undefined;
  };

type CombatantClass = ReturnType<typeof createCombatClasses>["Combatant"];

/** One realm's database operations (the initiating client's side). */
export function createDatabase(r: RealmBag, needs: DatabaseNeeds) {
  const createDocuments = createOperation(r, needs);
  const { updateDocuments, modifyBatch } = updateOperations(r, needs);
  const deleteDocuments = deleteOperation(r, needs);
  return { createDocuments, updateDocuments, deleteDocuments, modifyBatch };
}

const splitOptions = (options: OpOptions): { parent: ClientDocument | null; rest: Dict } => {
  const { parent = null, ...rest } = options;
  return { parent, rest };
};
const embeddedCheck = (name: DocumentName, parent: ClientDocument | null): void => {
  if (isEmbedded(name) && !parent)
    throw new Error(`${name} documents must be created with a parent ${EMBEDDED[name].parent}`);
};

/** `create`: `_preCreate` and the `preCreate` hooks per document, the Combatant pre-operation, one request. */
function createOperation(r: RealmBag, { ClientDocument, Combat, findDoc }: DatabaseNeeds) {
  const { t, Hooks } = r;
  async function createDocuments(
    cls: ClientDocumentClass,
    data: Dict[],
    options: OpOptions,
  ): Promise<ClientDocument[]> {
    const { parent, rest } = splitOptions(options);
    const name = cls.documentName;
    embeddedCheck(name, parent);
    const user = r.currentUser() as User;
    const sources: Dict[] = [];
    for (const d of data) {
      const src = expandObject(d instanceof ClientDocument ? d.toObject() : isPlainObject(d) ? d : {});
      if (name === "ChatMessage" && Array.isArray(src.rolls))
        src.rolls = src.rolls.map((r) => (typeof r === "string" ? r : JSON.stringify(r)));
      const tmp = new cls(deepClone(src), { parent });
      if ((await tmp._preCreate(src, rest, user)) === false) continue;
      if (!Hooks.call(`preCreate${name}`, tmp, src, rest, t.userId)) continue;
      sources.push(tmp._source);
    }
    if (!sources.length) return [];
    if (name === "Combatant" && parent instanceof Combat) {
      const operation: Dict = { ...rest, data: sources, parent };
      await (cls as CombatantClass)._preCreateOperation([], operation, user);
      if (typeof operation.combatTurn === "number") rest.combatTurn = operation.combatTurn;
      else delete rest.combatTurn;
    }
    const msg = await t.submit({
      action: "create",
      documentName: name,
      parentId: parent?.id ?? null,
      data: sources.map(toJsonObject),
      options: toJsonObject(rest),
    });
    const created = msg.type === "broadcast" ? (msg.data ?? []) : [];
    return created.map((d) => findDoc(name, parent, String(d._id))).filter((d): d is ClientDocument => d !== undefined);
  }
  return createDocuments;
}

/** `update` and v14's `modifyBatch`, both prepared by `prepareUpdate`. */
function updateOperations(r: RealmBag, { EMBED_FIELDS, Combat, warnLegacyKeys, findDoc }: DatabaseNeeds) {
  const { t, Hooks } = r;
  async function updateDocuments(
    cls: ClientDocumentClass,
    updates: Dict[],
    options: OpOptions,
  ): Promise<ClientDocument[]> {
    const prepared = await prepareUpdate(cls, updates, options);
    if (prepared.request === null) return [];
    await t.submit(prepared.request);
    return prepared.documents();
  }

  /**
   * An update operation as the initiating client prepares it (diffs, `_preUpdate`, the `preUpdate`
   * hooks, the Combatant pre-operation): the request to send (null when nothing is left to write),
   * whether a pre-update returned false, and the documents it names once applied.
   */
  async function prepareUpdate(
    cls: ClientDocumentClass,
    updates: Dict[],
    options: OpOptions,
  ): Promise<{ request: DocOperation | null; cancelled: boolean; documents: () => ClientDocument[] }> {
    const { parent, rest } = splitOptions(options);
    const name = cls.documentName;
    embeddedCheck(name, parent);
    const user = r.currentUser() as User;
    const diffs: Dict[] = [];
    let cancelled = false;
    for (const u of updates) {
      const id = String(u._id);
      const doc = findDoc(name, parent, id);
      if (!doc) throw new Error(`${name} [${id}] does not exist`);
      warnLegacyKeys(u);
      const data = expandObject(u);
      delete data._id;
      // Embedded documents changed through the parent's update, merged by id (the server's
      // `mergeEmbedded` names the sources); each entry is diffed against its document.
      const embedded: Dict = {};
      for (const [child, field] of Object.entries(EMBED_FIELDS[name as TopLevelName] ?? {})) {
        if (!(field in data)) continue;
        const list = data[field];
        Reflect.deleteProperty(data, field);
        if (!Array.isArray(list) || rest.diff === false)
          throw new Error(`The sim emulates ${name}#update with ${field} only as an array of changes, diffed`);
        const coll = doc._embedded[child as EmbeddedName];
        const entries = (list as unknown[]).flatMap((entry) => {
          const e = expandObject(entry as Dict);
          const target = coll?.get(String(e._id));
          if (!target) throw new Error(`The sim does not emulate creating embedded ${field} through ${name}#update`);
          const d = diffObject(target._source, { ...e, _id: target._source._id });
          delete d._id;
          return isEmpty(d) ? [] : [{ _id: e._id, ...d }];
        });
        if (entries.length) embedded[field] = entries;
      }
      const changes = rest.diff === false ? data : { ...diffObject(doc._source, data), ...embedded };
      if (isEmpty(changes)) continue;
      changes._id = id;
      if (
        (await doc._preUpdate(changes, rest, user)) === false ||
        !Hooks.call(`preUpdate${name}`, doc, changes, rest, t.userId)
      ) {
        cancelled = true;
        continue;
      }
      diffs.push(changes);
    }
    const documents = (): ClientDocument[] =>
      diffs.map((d) => findDoc(name, parent, String(d._id))).filter((d): d is ClientDocument => d !== undefined);
    if (!diffs.length) return { request: null, cancelled, documents };
    if (name === "Combatant" && parent instanceof Combat) {
      const operation: Dict = { ...rest, updates: diffs, parent };
      await (cls as CombatantClass)._preUpdateOperation([], operation, user);
      if (typeof operation.combatTurn === "number") rest.combatTurn = operation.combatTurn;
      else delete rest.combatTurn;
    }
    const request: DocOperation = {
      action: "update",
      documentName: name,
      parentId: parent?.id ?? null,
      updates: diffs.map(toJsonObject),
      options: toJsonObject(rest),
    };
    return { request, cancelled, documents };
  }

  /**
   * @behaviour v14 only: `foundry.documents.modifyBatch(operations)`. Each operation
   * `{action, documentName, updates, parent?, ...options}` is prepared as its own `update` would be;
   * one cancelled by its `_preUpdate` (or a `preUpdate` hook) cancels the whole batch and nothing is
   * written; the rest go to the server in one request (`BatchRequest`, test/sim/server.ts) and are
   * applied in order on every client as ordinary updates, each with its own `_onUpdate` and hooks.
   * Resolves with each operation's documents. The sim emulates update operations only.
   * @source https://foundryvtt.com/api/functions/foundry.documents.modifyBatch.html (the v14 API page:
   * one batched request, the operations' shape, applied in sequence, a cancellation or error in one
   * cancels the whole batch); https://github.com/foundryvtt/foundryvtt/issues/11898 (requested for
   * v13, shipped with v14); https://github.com/foundryvtt/foundryvtt/issues/14174 (a batch's
   * modifications are broadcast to the other clients).
   */
  async function modifyBatch(operations: Dict[]): Promise<ClientDocument[][]> {
    const prepared = [];
    for (const operation of operations) {
      const { action, documentName, updates, ...options } = operation;
      if (action !== "update" || typeof documentName !== "string" || !Array.isArray(updates))
        throw new Error("The sim emulates foundry.documents.modifyBatch for update operations only");
      prepared.push(await prepareUpdate(r.docClass(documentName as DocumentName), updates as Dict[], options));
    }
    if (prepared.some((p) => p.cancelled)) return prepared.map(() => []);
    const requests = prepared.flatMap((p) => (p.request === null ? [] : [p.request]));
    if (requests.length > 0) await t.submit({ action: "batch", operations: requests });
    return prepared.map((p) => (p.request === null ? [] : p.documents()));
  }
  return { updateDocuments, modifyBatch };
}

/** `delete`: `_preDelete` and the `preDelete` hooks per document, the Combatant pre-operation, one request. */
function deleteOperation(r: RealmBag, { Combat, Scene, findDoc }: DatabaseNeeds) {
  const { t, Hooks } = r;
  async function deleteDocuments(
    cls: ClientDocumentClass,
    ids: string[],
    options: OpOptions,
  ): Promise<ClientDocument[]> {
    const { parent, rest } = splitOptions(options);
    const name = cls.documentName;
    embeddedCheck(name, parent);
    const user = r.currentUser() as User;
    const docs: ClientDocument[] = [];
    for (const id of ids) {
      const doc = findDoc(name, parent, id);
      if (!doc) throw new Error(`${name} [${id}] does not exist`);
      if ((await doc._preDelete(rest, user)) === false) continue;
      if (!Hooks.call(`preDelete${name}`, doc, rest, t.userId)) continue;
      docs.push(doc);
    }
    if (!docs.length) return [];
    const delIds = docs.map((d) => String(d.id));
    if (name === "Combatant" && parent instanceof Combat) {
      const operation: Dict = { ...rest, ids: delIds, parent };
      await (cls as CombatantClass)._preDeleteOperation([], operation, user);
      if (typeof operation.combatTurn === "number") rest.combatTurn = operation.combatTurn;
      else delete rest.combatTurn;
    }
    await t.submit({
      action: "delete",
      documentName: name,
      parentId: parent?.id ?? null,
      ids: delIds,
      options: toJsonObject(rest),
    });
    // Deleting a token deletes its combatants, done by the deleting client
    // (https://github.com/foundryvtt/foundryvtt/issues/11295, https://github.com/pokemon-tabletop-reunited/ptr1e/issues/576).
    if (name === "Token" && parent instanceof Scene) {
      for (const combat of r.game.combats.contents) {
        const gone = combat.combatants
          .filter(
            (c) =>
              c.tokenId !== null && delIds.includes(c.tokenId) && (c.sceneId ?? combat._source.scene) === parent.id,
          )
          .map((c) => String(c.id));
        if (gone.length) await combat.deleteEmbeddedDocuments("Combatant", gone);
      }
    }
    return docs;
  }
  return deleteDocuments;
}
