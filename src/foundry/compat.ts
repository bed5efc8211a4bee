/**
 * The one place that knows which Foundry generation runs: every call whose shape differs between
 * v13 and v14 goes through here, chosen by `game.release.generation`
 * (https://foundryvtt.com/api/v14/classes/foundry.Game.html#release). A unit test fails when one of
 * these names appears anywhere else in src/ (test/unit/compat-boundary.test.ts).
 *
 * The v14 shapes are typed here (the Foundry types package has no v14 build) and each names its
 * public source:
 * - context menu entries: v13 `{name, icon: "<i …>", condition(li), callback(li)}`
 *   (https://foundryvtt.com/api/v13/interfaces/foundry.ContextMenuEntry.html); v14
 *   `{label, icon: "fa-…", visible(target), onClick(event, target)}`
 *   (https://foundryvtt.com/api/v14/interfaces/foundry.ContextMenuEntry.html,
 *   https://foundryvtt.com/api/v14/types/foundry.ContextMenuCallback.html);
 * - key deletion: v13 `{"-=key": null}` (https://foundryvtt.com/api/v13/functions/foundry.utils.mergeObject.html);
 *   v14 `{key: new foundry.data.operators.ForcedDeletion()}`, the `-=` form "deprecated since
 *   Version 14" (https://foundryvtt.com/api/v14/modules/foundry.data.operators.html,
 *   https://github.com/sun-dragon-cult/fvtt-system-rqg/issues/890);
 * - the message mode: v13 `core.rollMode` with `CONST.DICE_ROLL_MODES` (`publicroll`, `gmroll`,
 *   `blindroll`, `selfroll`) and `Roll#toMessage(data, {rollMode})`; v14 `core.messageMode` with the
 *   keys of `CONFIG.ChatMessage.modes` (`public`, `gm`, `blind`, `self`) and `{messageMode}`, the old
 *   setting, option and `ChatMessage.applyRollMode` deprecated for `applyMode`
 *   (https://foundryvtt.com/api/v14/variables/CONFIG.ChatMessage.html,
 *   https://github.com/foundryvtt/dnd5e/issues/6958, https://github.com/JohanFalt/Foundry_WoD20/issues/1395,
 *   https://github.com/JohanFalt/Foundry_WoD20/issues/1396; the `Roll#toMessage` warning and the
 *   instance `ChatMessage#applyMode` as draw-steel's v14 `DSRoll#toMessage` uses them, in the
 *   versions of src/module/rolls/base.mjs after 1.0.0: at 68856d45 it still calls the v13 forms);
 * - the options of `combatRound`/`combatTurn`: v13 documents `{advanceTime, direction}`
 *   (https://foundryvtt.com/api/v13/functions/hookEvents.combatTurn.html) while its Combat updates
 *   already take `worldTime: {delta}` (https://github.com/foundryvtt/foundryvtt/issues/10924), so v13
 *   listeners get both; v14 documents `{direction, worldTime: {delta}}`
 *   (https://foundryvtt.com/api/v14/functions/hookEvents.combatRound.html);
 * - combatants of a token: `Combat#getCombatantsByToken` on both, the singular
 *   `getCombatantByToken` deprecated (https://github.com/foundryvtt/foundryvtt/issues/9241).
 */
import { MIRROR_OPTION } from "../constants";

/** The Foundry generations the module runs on. */
export type Generation = 13 | 14;

/** The running generation: 14 from `game.release.generation` 14 on, else 13. */
export function generation(): Generation {
  const release = (game as { release?: { generation?: unknown } }).release;
  return typeof release?.generation === "number" && release.generation >= 14 ? 14 : 13;
}

// ---------------------------------------------------------------------------------------------
// Context menus

/** A menu entry as the module writes it, in neither generation's shape. */
export interface MenuEntry {
  /** A localisation key. */
  readonly label: string;
  /** Font Awesome classes, such as `"fa-solid fa-eye"`. */
  readonly icon: string;
  /** Whether the entry shows for this row. */
  readonly visible: (row: HTMLElement) => boolean;
  /** What choosing it does for this row. */
  readonly run: (row: HTMLElement) => Promise<void>;
}

/** A v13 ContextMenu entry (https://foundryvtt.com/api/v13/interfaces/foundry.ContextMenuEntry.html). */
export interface V13MenuEntry {
  name: string;
  icon?: string;
  condition?: boolean | ((li: HTMLElement) => boolean);
  callback: (li: HTMLElement) => unknown;
  group?: string;
}

/** A v14 ContextMenu entry (https://foundryvtt.com/api/v14/interfaces/foundry.ContextMenuEntry.html). */
export interface V14MenuEntry {
  label: string;
  icon?: string;
  visible?: boolean | ((target: HTMLElement) => boolean);
  onClick?: (event: PointerEvent, target: HTMLElement) => unknown;
  classes?: string;
  group?: string;
}

/** An entry in either generation's shape, as `structured-initiative.rowMenu` listeners may add. */
export type CoreMenuEntry = V13MenuEntry | V14MenuEntry;

/** The entries of `entries` in the running generation's shape, for the row menu hook. */
export function menuEntries(entries: readonly MenuEntry[]): CoreMenuEntry[] {
  return entries.map((entry): CoreMenuEntry => {
    if (generation() >= 14)
      return {
        label: entry.label,
        icon: entry.icon,
        visible: entry.visible,
        onClick: (_event, target) => entry.run(target),
      };
    return {
      name: entry.label,
      icon: `<i class="${entry.icon}" aria-hidden="true"></i>`,
      condition: entry.visible,
      callback: (li) => entry.run(li),
    };
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** The classes of a v13 icon (`<i class="fa-solid fa-eye">`), or the text itself when it holds none. */
function iconClasses(icon: unknown): string | undefined {
  if (typeof icon !== "string") return undefined;
  return /class="([^"]*)"/.exec(icon)?.[1] ?? icon;
}

/**
 * One entry a hook listener added, in whichever shape, turned into the running generation's shape;
 * null when it is neither (it is dropped, never handed to the menu half-formed).
 */
function toRunningShape(value: unknown): CoreMenuEntry | null {
  if (!isRecord(value)) return null;
  const v14 = generation() >= 14;
  if (typeof value.label === "string") {
    const entry = value as unknown as V14MenuEntry;
    if (v14) return entry;
    const { visible, onClick } = entry;
    return {
      name: entry.label,
      ...(entry.icon === undefined ? {} : { icon: `<i class="${entry.icon}" aria-hidden="true"></i>` }),
      ...(visible === undefined ? {} : { condition: visible }),
      // v13 hands the callback no event: the v14 entry gets a plain click.
      callback: (li) => onClick?.(new PointerEvent("click"), li),
    };
  }
  if (typeof value.name === "string" && typeof value.callback === "function") {
    const entry = value as unknown as V13MenuEntry;
    if (!v14) return entry;
    const icon = iconClasses(entry.icon);
    const { condition } = entry;
    return {
      label: entry.name,
      ...(icon === undefined ? {} : { icon }),
      ...(condition === undefined ? {} : { visible: condition }),
      onClick: (_event, target) => entry.callback(target),
    };
  }
  return null;
}

/**
 * Open a right-click menu on `root` for targets matching `selector`. `entries` may hold entries of
 * either shape (the module's own and those a macro added through the row menu hook); each is handed
 * to Foundry's ContextMenu in the running generation's shape.
 */
export function contextMenu(root: HTMLElement, selector: string, entries: readonly unknown[]): void {
  const items = entries.map(toRunningShape).filter((entry): entry is CoreMenuEntry => entry !== null);
  const ContextMenu = foundry.applications.ux.ContextMenu as unknown as new (
    container: HTMLElement,
    selector: string,
    items: CoreMenuEntry[],
    options: { jQuery: false; fixed: boolean },
  ) => unknown;
  new ContextMenu(root, selector, items, { jQuery: false, fixed: true });
}

// ---------------------------------------------------------------------------------------------
// Deleting keys in an update

/** The v14 operator (https://foundryvtt.com/api/v14/classes/foundry.data.operators.ForcedDeletion.html). */
type ForcedDeletionClass = new () => object;

function forcedDeletion(): object {
  const operators = (foundry as unknown as { data?: { operators?: { ForcedDeletion?: ForcedDeletionClass } } }).data
    ?.operators;
  const Deletion = operators?.ForcedDeletion;
  if (Deletion === undefined) throw new Error("foundry.data.operators.ForcedDeletion is missing on Foundry v14");
  return new Deletion();
}

/** The v13 deletion key form, which the pure layer's update data uses (`src/core/patch.ts`). */
const LEGACY_DELETION = /^-=/;

/** The update entry that deletes `key` from the object it sits in: `[name, value]`. */
export function deletion(key: string): [string, unknown] {
  return generation() >= 14 ? [key, forcedDeletion()] : [`-=${key}`, null];
}

/** An update (a nested or dotted object) that deletes the key at `path` (dotted; its last part is deleted). */
export function deletePath(path: string): Record<string, unknown> {
  const at = path.lastIndexOf(".");
  const [name, value] = deletion(path.slice(at + 1));
  return { [at < 0 ? name : `${path.slice(0, at + 1)}${name}`]: value };
}

/**
 * Update data in the running generation's form. The pure layer writes deletions as v13's
 * `-=key: null`; on v14 each becomes `key: ForcedDeletion`. Other values are kept as they are.
 */
export function updateData<T>(update: T): T {
  if (generation() < 14) return update;
  const convert = (value: unknown): unknown => {
    if (!isRecord(value) || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (LEGACY_DELETION.test(key) && item === null) {
        const [name, marker] = deletion(key.slice(2));
        out[name] = marker;
      } else out[key] = convert(item);
    }
    return out;
  };
  return convert(update) as T;
}

/**
 * Whether an update's diff (one nested level, `record`) writes or deletes `key`: a deletion keeps
 * the key in v14 (its value is the operator) and prefixes it with `-=` in v13.
 */
export function namesKey(record: Record<string, unknown>, key: string): boolean {
  return key in record || `-=${key}` in record;
}

/** The key an update's diff names, without a v13 deletion prefix. */
export function changedKey(key: string): string {
  return key.replace(LEGACY_DELETION, "");
}

// ---------------------------------------------------------------------------------------------
// Who sees a roll

/** Who sees a message, in the module's own words (CONST.DICE_ROLL_MODES in v13, message modes in v14). */
export type RollMode = "public" | "private" | "blind" | "self";

const V13_MODES: Record<RollMode, string> = {
  public: "publicroll",
  private: "gmroll",
  blind: "blindroll",
  self: "selfroll",
};
const V14_MODES: Record<RollMode, string> = { public: "public", private: "gm", blind: "blind", self: "self" };

/** A mode named in either generation's words (or the module's), or undefined for anything else. */
export function rollModeOf(value: unknown): RollMode | undefined {
  if (typeof value !== "string") return undefined;
  for (const mode of Object.keys(V13_MODES) as RollMode[])
    if (value === mode || value === V13_MODES[mode] || value === V14_MODES[mode]) return mode;
  return undefined;
}

/** The mode the current user chose for their messages (`core.rollMode` in v13, `core.messageMode` in v14). */
export function currentRollMode(): RollMode {
  const get = game.settings.get.bind(game.settings) as unknown as (namespace: string, key: string) => unknown;
  return rollModeOf(get("core", generation() >= 14 ? "messageMode" : "rollMode")) ?? "public";
}

/**
 * What core says when a caller still passes the mode in `messageOptions.rollMode` on v14 (the
 * option is deprecated since 14, until 16, for the top-level `messageMode`: dnd5e PR #7370 moves its
 * initiative dialog to `initiativeOptions: {messageMode}` to fix the warning; a public v14 system's
 * `Combat#rollInitiative` override repeats core's warning and maps the old value).
 */
export const LEGACY_INITIATIVE_MODE_WARNING =
  "The rollMode option of Combat#rollInitiative messageOptions is deprecated in favor of the `messageMode` option, a string key of CONFIG.ChatMessage.modes";

/**
 * The mode a caller asked for in `Combat#rollInitiative`'s (or `rollAll`'s, `rollNPC`'s) options, if
 * any: v14's top-level `messageMode`, or the older `messageOptions.rollMode`. On v14 the older form is
 * still honoured, with core's deprecation warning, and wins as it does in core (which maps it onto
 * `messageMode`). v13 knows only `messageOptions.rollMode`; a top-level `messageMode` (a caller
 * written for v14) is honoured there too, since it can only mean that mode.
 */
export function askedRollMode(options: unknown): RollMode | undefined {
  if (!isRecord(options)) return undefined;
  const asked = isRecord(options.messageOptions) ? options.messageOptions : {};
  const legacy = "rollMode" in asked ? rollModeOf(asked.rollMode) : undefined;
  if ("rollMode" in asked && generation() >= 14) {
    const utils = foundry.utils as unknown as {
      logCompatibilityWarning(message: string, options: { since: number; until: number }): void;
    };
    utils.logCompatibilityWarning(LEGACY_INITIATIVE_MODE_WARNING, { since: 14, until: 16 });
  }
  return legacy ?? rollModeOf(options.messageMode) ?? rollModeOf(asked.messageMode);
}

/** Post an evaluated roll to chat with `data`, seen as `mode` says; the created message, if any. */
export async function rollToMessage(roll: Roll, data: Record<string, unknown>, mode: RollMode): Promise<unknown> {
  const options = generation() >= 14 ? { messageMode: V14_MODES[mode] } : { rollMode: V13_MODES[mode] };
  const toMessage = roll.toMessage.bind(roll) as unknown as (
    data: Record<string, unknown>,
    options: Record<string, unknown>,
  ) => Promise<unknown>;
  return toMessage(data, options);
}

// ---------------------------------------------------------------------------------------------
// Turn and round hooks

/** The v13 options of `combatTurn`/`combatRound` (documented `advanceTime`, and core's `worldTime`). */
interface V13TurnOptions {
  advanceTime: number;
  direction: number;
  worldTime: { delta: number };
}
/** The v14 options of `combatTurn`/`combatRound`. */
interface V14TurnOptions {
  direction: number;
  worldTime: { delta: number };
}

/** The update options core hands the `combatTurn` and `combatRound` hooks, for `delta` seconds in `direction`. */
export function turnHookOptions(direction: number, delta: number): V13TurnOptions | V14TurnOptions {
  return generation() >= 14
    ? { direction, worldTime: { delta } }
    : { advanceTime: delta, direction, worldTime: { delta } };
}

/**
 * The options of a Combat update that moves world time by `delta` seconds in `direction` (null: no
 * turn or round moves, so no direction is sent): the
 * operation's `worldTime: {delta}` on both generations (https://github.com/foundryvtt/foundryvtt/issues/10924).
 */
export function timeUpdateOptions(
  direction: 1 | -1 | null,
  delta: number,
): { direction?: 1 | -1; worldTime?: { delta: number } } {
  const time = delta === 0 ? {} : { worldTime: { delta } };
  return direction === null ? time : { direction, ...time };
}

/**
 * Fire core's `combatRound` or `combatTurn` as core does before its own update: with the new round
 * and turn, and the running generation's options for `delta` seconds in `direction`.
 */
export function callTurnHook(
  hook: "combatRound" | "combatTurn",
  combat: Combat.Implementation,
  data: { round: number; turn: number },
  direction: number,
  delta: number,
): void {
  // The typed overloads know only v13's options.
  const hooks = Hooks as unknown as { callAll(hook: string, ...args: unknown[]): boolean };
  hooks.callAll(hook, combat, data, turnHookOptions(direction, delta));
}

// ---------------------------------------------------------------------------------------------
// A Combat write with the initiative mirror

/** One combatant's mirrored initiative (`src/core/initiative-mirror.ts`). */
export interface MirrorWrite {
  readonly _id: string;
  readonly initiative: number | null;
}

/** The v14 batch call (https://foundryvtt.com/api/functions/foundry.documents.modifyBatch.html). */
type ModifyBatch = (operations: Record<string, unknown>[]) => Promise<unknown>;

/**
 * Write a Combat update and the combatants' mirrored initiative so that each document's own update
 * fires: the Combat's `updateCombat` first, then each changed combatant's `updateCombatant`, which
 * modules that re-sort on combatant updates (Carousel Combat Tracker) listen to.
 * - v14: one `foundry.documents.modifyBatch` request holding both operations, made in sequence
 *   without a network delay and all or nothing; each is an ordinary database operation (its own
 *   `_preUpdate`, which may cancel the whole batch, and hooks, which `noHook` would block:
 *   https://foundryvtt.com/api/functions/foundry.documents.modifyBatch.html,
 *   https://foundryvtt.com/api/v14/interfaces/foundry.abstract.types.DatabaseUpdateOperation.html;
 *   each modification is broadcast to the other clients: https://github.com/foundryvtt/foundryvtt/issues/14174).
 * - v13, which has no batch call (https://github.com/foundryvtt/foundryvtt/issues/11898): the Combat
 *   update, then `updateEmbeddedDocuments("Combatant", …)` (two requests) when any initiative changes.
 * The combatant operation carries `MIRROR_OPTION`, so the authority's own listener lets it be.
 */
export async function updateWithMirror(
  combat: Combat.Implementation,
  data: Record<string, unknown>,
  options: Record<string, unknown>,
  mirror: readonly MirrorWrite[],
): Promise<void> {
  const update = combat.update.bind(combat) as unknown as (data: object, options: object) => Promise<unknown>;
  const mirrorOptions = { [MIRROR_OPTION]: true };
  if (mirror.length === 0) {
    await update(data, options);
    return;
  }
  const batch = generation() >= 14 ? (foundry.documents as { modifyBatch?: ModifyBatch }).modifyBatch : undefined;
  if (batch !== undefined) {
    await batch([
      { action: "update", documentName: "Combat", updates: [{ ...data, _id: combat.id }], ...options },
      { action: "update", documentName: "Combatant", parent: combat, updates: [...mirror], ...mirrorOptions },
    ]);
    return;
  }
  await update(data, options);
  const updateEmbedded = combat.updateEmbeddedDocuments.bind(combat) as unknown as (
    name: string,
    updates: object[],
    options: object,
  ) => Promise<unknown>;
  await updateEmbedded("Combatant", [...mirror], mirrorOptions);
}
