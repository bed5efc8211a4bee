/**
 * The `individual` mode (RULES.md §2): d20 initiative with group checks, roll-offs, surprise, delay
 * and ready, as one mode module.
 */
import { SHARED_ROSTER, defineMode } from "../contract";
import { INDIVIDUAL_ACTIONS } from "./actions";
import { INDIVIDUAL_API } from "./api";
import { salvageInitiative } from "./encounter";
import { INDIVIDUAL_INITIATIVE, INDIVIDUAL_ROLL_CHECKS } from "./initiative";
import { INDIVIDUAL_INTEROP } from "./interop";
import { INDIVIDUAL_MIRROR, registerFlatFootedStatus } from "./mirror";
import { individualMode } from "./rules/mode";
import type { IndividualCommand, IndividualState } from "./rules/types";
import { parseIndividualState } from "./rules/state";
import { INDIVIDUAL_SETTING_DEFS, registerIndividualSettings } from "./settings";
import { individualTracker } from "./tracker";

/** The `individual` mode module. */
export const individualModule = defineMode<IndividualState, IndividualCommand>({
  id: individualMode.id,
  rules: individualMode,
  parseState: parseIndividualState,
  roster: SHARED_ROSTER,
  // Its refusal codes are among the shared ones.
  refusalCodes: [],
  // It keeps no data of its own on combatants (its module flags are the GM's all the same).
  gmOnlyCombatantKeys: [],
  rolledResults: INDIVIDUAL_ROLL_CHECKS,
  salvage: salvageInitiative,
  initiative: INDIVIDUAL_INITIATIVE,
  mirror: INDIVIDUAL_MIRROR,
  interop: INDIVIDUAL_INTEROP,
  settings: INDIVIDUAL_SETTING_DEFS,
  registerSettings: registerIndividualSettings,
  init: registerFlatFootedStatus,
  tracker: individualTracker,
  actions: INDIVIDUAL_ACTIONS,
  api: INDIVIDUAL_API,
});
