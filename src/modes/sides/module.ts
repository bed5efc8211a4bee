/**
 * The `sides` mode (RULES.md §1): side initiative, declarations and action passes, as in Star Wars
 * D6, as one mode module. Sides are mirrored to and from Foundry's CombatantGroups.
 */
import { SHARED_ROSTER, defineMode } from "../contract";
import { SIDES_ACTIONS } from "./actions";
import { SIDES_KEY_ACTIONS, sidesNotice } from "./keys";
import { checkSideRoll, SIDES_INITIATIVE } from "./initiative";
import { prepareSides, SIDES_MIRROR } from "./mirror";
import { SIDES_INTEROP } from "./interop";
import { SIDES_API } from "./api";
import { SIDES_REFUSALS, type SidesCommand, type SidesState } from "./rules/types";
import { sidesMode } from "./rules/mode";
import { parseSidesState } from "./rules/state";
import { SIDES_SETTING_DEFS, registerSidesSettings } from "./settings";
import { sidesTracker } from "./tracker";

/** The `sides` mode module. */
export const sidesModule = defineMode<SidesState, SidesCommand>({
  id: sidesMode.id,
  rules: sidesMode,
  parseState: parseSidesState,
  roster: SHARED_ROSTER,
  // Its refusal codes are among the shared ones, but for the reaction limit.
  refusalCodes: SIDES_REFUSALS,
  // A combatant's side (its `sideId` flag, or a side group set in `group`): only the GM changes sides.
  gmOnlyCombatantKeys: ["group"],
  rolledResults: { recordSideRoll: checkSideRoll },
  initiative: SIDES_INITIATIVE,
  mirror: SIDES_MIRROR,
  interop: SIDES_INTEROP,
  settings: SIDES_SETTING_DEFS,
  registerSettings: registerSidesSettings,
  prepare: prepareSides,
  tracker: sidesTracker,
  actions: SIDES_ACTIONS,
  keys: SIDES_KEY_ACTIONS,
  notice: sidesNotice,
  api: { sides: SIDES_API },
});
