/**
 * The module API for macros and other modules: `game.modules.get("structured-initiative").api`.
 * Documented in the README's API section.
 */
import { HOOKS, SYSTEM_DEFAULT } from "../constants";
import { MODE_IDS, type AllowedAction, type TurnView } from "../core/engine";
import { isCorrupted, loadBound, modeOf, requesterFor, submit, writeFreshState, resetEncounter } from "./authority/controller";
import { groupCombatants, rollStructuredInitiative } from "../modes/individual/glue";
import { rollPendingRollOffs } from "../modes/individual/rolloff";
import { rollSlotsChecks, setSlotsSkill } from "../modes/slots/glue";
import { prepareSides, rollSidesOf, SIDES_API, type SidesApi } from "../modes/sides/glue";
import { notifyRefusal } from "./notify";
import type { CommandResult } from "../core/protocol";
import { isModeSetting, type ModeSetting } from "../core/store";
import { moduleHooks } from "./hooks";
import type { Json } from "../core/patch";

/** The API object. */
export interface StructuredInitiativeApi {
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
  /** Roll initiative for these combatants (individual mode: groups roll once). */
  rollInitiative(combat: Combat.Implementation, ids: readonly string[]): Promise<CommandResult[]>;
  /** `slots`: choose the skill ("cool" or "vigilance") of a combatant's initiative check (GM, before the start). */
  setSlotsSkill(combat: Combat.Implementation, combatantId: string, skill: string): Promise<CommandResult>;
  /** `sides`: side controls, declarations, reactions and the countdown (see the README). */
  readonly sides: SidesApi;
  /** Roll every pending roll-off between tied combatants (GM). */
  rollOffs(combat: Combat.Implementation): Promise<CommandResult[]>;
  /** Put NPCs into one initiative group (GM). */
  groupCombatants(combat: Combat.Implementation, ids: readonly string[], groupId: string): Promise<CommandResult[]>;
  /** Whether the encounter's stored structure cannot be read. */
  isCorrupted(combat: Combat.Implementation): boolean;
  /** Rebuild the encounter's structure, keeping every combatant and the initiative values that can be read (GM). */
  resetEncounter(combat: Combat.Implementation): Promise<CommandResult>;
}

/** Build the API. */
export function createApi(): StructuredInitiativeApi {
  return {
    modes: [SYSTEM_DEFAULT, ...MODE_IDS],
    modeOf,
    async setMode(combat, mode) {
      const refuse = (code: "notGM" | "modeLocked" | "unknownMode"): CommandResult => {
        notifyRefusal(combat, code);
        return { ok: false, code };
      };
      if (!game.user.isGM) return refuse("notGM");
      if (!isModeSetting(mode)) return refuse("unknownMode");
      if (combat.started || combat.round > 0) return refuse("modeLocked");
      await writeFreshState(combat, mode);
      if (mode === "sides") await prepareSides(combat);
      moduleHooks.callAll(HOOKS.modeChanged, combat, mode);
      return { ok: true };
    },
    command: submit,
    view: (combat) => loadBound(combat)?.view ?? null,
    allowed: (combat) => loadBound(combat)?.allowed(requesterFor(combat, game.user)) ?? [],
    rollInitiative: (combat, ids) =>
      modeOf(combat) === "slots"
        ? rollSlotsChecks(combat, ids)
        : modeOf(combat) === "sides"
          ? rollSidesOf(combat, ids)
          : rollStructuredInitiative(combat, ids),
    setSlotsSkill,
    sides: SIDES_API,
    groupCombatants,
    rollOffs: rollPendingRollOffs,
    isCorrupted,
    resetEncounter,
  };
}
