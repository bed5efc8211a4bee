/**
 * The module API for macros and other modules: `game.modules.get("structured-initiative").api`.
 * Documented in the README's API section.
 */
import { SYSTEM_DEFAULT } from "../constants";
import type { AllowedAction, TurnView } from "../core/engine";
import { changeMode, resetEncounter, submit } from "./authority/controller";
import { isCorrupted, loadBound, modeOf, moduleOfCombat, requesterFor } from "./authority/encounters";
import { shownRefusal } from "./notify";
import type { CommandResult } from "../core/protocol";
import { installedModes, modeIds, type ModeSetting } from "./modes";
import type { Json } from "../core/patch";

/** The API every mode shares. */
export interface CoreApi {
  /** Every mode id, "system" (the game system's own behaviour) first. */
  readonly modes: readonly ModeSetting[];
  /** The mode of an encounter. */
  modeOf(combat: Combat.Implementation): ModeSetting;
  /** Set an encounter's mode (GM, before the combat starts). */
  setMode(combat: Combat.Implementation, mode: string): Promise<CommandResult>;
  /** Run a command for the current user (applied by the active GM). */
  command(combat: Combat.Implementation, command: Json): Promise<CommandResult>;
  /** Who acts now, who is next, the order, the round and the step; null for system-default or corrupted encounters. */
  view(combat: Combat.Implementation): TurnView | null;
  /** What the current user may do now. */
  allowed(combat: Combat.Implementation): readonly AllowedAction[];
  /** Roll initiative for these combatants the encounter's mode's way (a group or a side rolls once). */
  rollInitiative(combat: Combat.Implementation, ids: readonly string[]): Promise<CommandResult[]>;
  /** Whether the encounter's stored structure cannot be read. */
  isCorrupted(combat: Combat.Implementation): boolean;
  /** Rebuild the encounter's structure, keeping every combatant and the initiative values that can be read (GM). */
  resetEncounter(combat: Combat.Implementation): Promise<CommandResult>;
}

/**
 * The API object: the shared calls, and what each installed mode adds (its module's `api`, such as
 * `sides`, `setSlotsSkill`, `rollOffs` and `groupCombatants`; see the README).
 */
export type StructuredInitiativeApi = CoreApi & Readonly<Record<string, unknown>>;

/** Build the API. */
export function createApi(): StructuredInitiativeApi {
  const core: CoreApi = {
    modes: [SYSTEM_DEFAULT, ...modeIds()],
    modeOf,
    setMode: changeMode,
    command: submit,
    view: (combat) => loadBound(combat)?.view ?? null,
    allowed: (combat) => loadBound(combat)?.allowed(requesterFor(combat, game.user)) ?? [],
    rollInitiative: async (combat, ids) => {
      const module = moduleOfCombat(combat);
      if (module !== null) return module.initiative.rollInitiative(combat, ids);
      return [shownRefusal(combat, { ok: false, code: "notStructured" })];
    },
    isCorrupted,
    resetEncounter,
  };
  return Object.assign({}, ...installedModes().map((mode) => mode.api ?? {}), core) as StructuredInitiativeApi;
}
