/**
 * The `slots` mode (RULES.md §4): initiative slots that players fill, as in Edge of the Empire and
 * Genesys, as one mode module.
 */
import { MODULE_ID } from "../../constants";
import { SLOTS_SKILL_FLAG } from "./constants";
import { SHARED_ROSTER, defineMode } from "../contract";
import { SLOTS_ACTIONS } from "./actions";
import { SLOTS_KEY_ACTIONS, slotsNotice } from "./keys";
import { SLOTS_API } from "./api";
import { SLOTS_INITIATIVE, SLOTS_ROLL_CHECKS } from "./initiative";
import { SLOTS_MIRROR, applyKeepPolicy } from "./mirror";
import { SLOTS_INTEROP } from "./interop";
import { slotsMode } from "./rules/mode";
import { type SlotsCommand, type SlotsState } from "./rules/types";
import { parseSlotsState } from "./rules/state";
import { SLOTS_SETTING_DEFS, onKeepSlotsChange, registerSlotsSettings, slotsKeepPolicy } from "./settings";
import { slotsTracker } from "./tracker";

/** The `slots` mode module. */
export const slotsModule = defineMode<SlotsState, SlotsCommand>({
  id: slotsMode.id,
  rules: slotsMode,
  parseState: parseSlotsState,
  roster: SHARED_ROSTER,
  // Besides the shared ones: an actor without skills to roll a narrative-dice check with (a vehicle without a pilot).
  refusalCodes: ["noSkills"],
  // The skill of a combatant's check is the GM's choice.
  gmOnlyCombatantKeys: [`flags.${MODULE_ID}.${SLOTS_SKILL_FLAG}`],
  rolledResults: SLOTS_ROLL_CHECKS,
  // A new slots encounter starts with the world's keep-slot policy.
  create: (roster) => ({ ...slotsMode.create(roster), keepSlots: slotsKeepPolicy() }),
  initiative: SLOTS_INITIATIVE,
  mirror: SLOTS_MIRROR,
  interop: SLOTS_INTEROP,
  settings: SLOTS_SETTING_DEFS,
  registerSettings: () => {
    registerSlotsSettings();
    onKeepSlotsChange(() => void applyKeepPolicy());
  },
  tracker: slotsTracker,
  actions: SLOTS_ACTIONS,
  keys: SLOTS_KEY_ACTIONS,
  notice: slotsNotice,
  api: SLOTS_API,
});
