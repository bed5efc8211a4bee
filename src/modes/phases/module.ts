/**
 * The `phases` mode (RULES.md §5): foes declare, heroes act in the order they choose with
 * press-your-luck skill rolls, foes resolve, as one mode module. No initiative is rolled.
 */
import { SHARED_ROSTER, defineMode } from "../contract";
import { PHASES_ACTIONS } from "./actions";
import { PHASES_KEY_ACTIONS, phasesNotice } from "./keys";
import { PHASES_API } from "./api";
import { PHASES_GLUE_REFUSALS } from "./skills";
import { PHASES_INITIATIVE, PHASES_ROLL_CHECKS } from "./initiative";
import { PHASES_MIRROR } from "./mirror";
import { PHASES_INTEROP } from "./interop";
import { PHASES_REFUSALS, type PhasesCommand, type PhasesState } from "./rules/types";
import { createPhases } from "./rules/flow";
import { phasesMode } from "./rules/mode";
import { parsePhasesState } from "./rules/state";
import { PHASES_SETTING_DEFS, phasesDefaults, registerPhasesSettings } from "./settings";
import { phasesTracker } from "./tracker";

/** The `phases` mode module. */
export const phasesModule = defineMode<PhasesState, PhasesCommand>({
  id: phasesMode.id,
  rules: phasesMode,
  parseState: parsePhasesState,
  roster: SHARED_ROSTER,
  refusalCodes: [...PHASES_REFUSALS, ...PHASES_GLUE_REFUSALS],
  // No module data on a Combatant is a player\'s to write but the request.
  gmOnlyCombatantKeys: [],
  rolledResults: PHASES_ROLL_CHECKS,
  // A new encounter starts with the world's Advantage cap and Collapse points.
  create: (roster) => createPhases(roster, phasesDefaults()),
  initiative: PHASES_INITIATIVE,
  mirror: PHASES_MIRROR,
  interop: PHASES_INTEROP,
  settings: PHASES_SETTING_DEFS,
  registerSettings: registerPhasesSettings,
  tracker: phasesTracker,
  actions: PHASES_ACTIONS,
  keys: PHASES_KEY_ACTIONS,
  notice: phasesNotice,
  api: { phases: PHASES_API },
});
