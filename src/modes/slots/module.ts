/**
 * The `slots` mode (RULES.md §4): initiative slots that players fill, as in Edge of the Empire and
 * Genesys, as one mode module.
 */
import { MODULE_ID } from "../../constants";
import { SLOTS_SKILL_FLAG } from "./constants";
import { SHARED_ROSTER, defineMode } from "../contract";
import { defeatedMirror } from "../../foundry/defeated";
import { SLOTS_ACTIONS } from "./actions";
import { SLOTS_KEY_ACTIONS, slotsNotice } from "./keys";
import { applyKeepPolicy, checkSlotsRolls, rollSlotsChecks, setSlotsSkill, slotsToRoll } from "./glue";
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
  rolledResults: { recordCheck: checkSlotsRolls },
  // A new slots encounter starts with the world's keep-slot policy.
  create: (roster) => ({ ...slotsMode.create(roster), keepSlots: slotsKeepPolicy() }),
  initiative: {
    rollInitiative: (combat, ids, options) => rollSlotsChecks(combat, ids, options),
    rollAll: (combat, options) => rollSlotsChecks(combat, slotsToRoll(combat, false), options),
    rollNPC: (combat, options) => rollSlotsChecks(combat, slotsToRoll(combat, true), options),
  },
  mirror: defeatedMirror<SlotsState>((state) => new Map(state.combatants.map((c) => [c.id, c.defeated]))),
  // Places, counted down (a check belongs to its slot, not its roller, once the round runs); before
  // the start, who has made its check. A turn written on an open slot fills it.
  interop: {
    initiative: (state, view) =>
      new Map(state.combatants.filter((c) => view.started || c.slotted).map((c) => [c.id, null] as const)),
    jumpTo: (state, combatantId) => {
      const slot = state.slotIndex === null ? undefined : state.slots[state.slotIndex];
      return slot === undefined || slot.filledBy !== null
        ? null
        : { type: "fillSlot", slot: state.slotIndex, combatantId };
    },
  },
  settings: SLOTS_SETTING_DEFS,
  registerSettings: () => {
    registerSlotsSettings();
    onKeepSlotsChange(() => void applyKeepPolicy());
  },
  tracker: slotsTracker,
  actions: SLOTS_ACTIONS,
  keys: SLOTS_KEY_ACTIONS,
  notice: slotsNotice,
  api: { setSlotsSkill },
});
