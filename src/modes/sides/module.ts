/**
 * The `sides` mode (RULES.md §1): side initiative, declarations and action passes, as in Star Wars
 * D6, as one mode module. Sides are mirrored to and from Foundry's CombatantGroups.
 */
import { SHARED_ROSTER, defineMode } from "../contract";
import { SIDES_ACTIONS } from "./actions";
import { SIDES_KEY_ACTIONS, sidesNotice } from "./keys";
import {
  checkSideRoll,
  onSidesActorUpdated,
  onSidesCombatantCreated,
  onSidesCombatantUpdated,
  onSidesCombatUpdated,
  onSidesGroupChanged,
  sidesEnd,
  prepareSides,
  rollAllSides,
  rollSidesOf,
  SIDES_API,
  sidesEffects,
  sidesStepFlags,
  syncSides,
  tickCountdowns,
} from "./glue";
import { SIDES_REFUSALS, sidesMode, type SidesCommand, type SidesState } from "./rules/sides";
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
  initiative: {
    rollInitiative: (combat, ids, options) => rollSidesOf(combat, ids, options),
    rollAll: (combat) => rollAllSides(combat, false),
    rollNPC: (combat) => rollAllSides(combat, true),
  },
  mirror: {
    sync: syncSides,
    effects: (combat, events) => sidesEffects(combat, events),
    stepFlags: sidesStepFlags,
    end: sidesEnd,
    // New combatants get their default side; side and group changes, actor traits and the
    // countdown's controls are mirrored on the active GM.
    attachHooks: () => {
      Hooks.on("createCombatant", onSidesCombatantCreated);
      Hooks.on("updateCombatant", onSidesCombatantUpdated);
      Hooks.on("createCombatantGroup", onSidesGroupChanged);
      Hooks.on("updateCombatantGroup", onSidesGroupChanged);
      Hooks.on("deleteCombatantGroup", onSidesGroupChanged);
      Hooks.on("updateCombat", onSidesCombatUpdated);
      Hooks.on("updateActor", onSidesActorUpdated);
    },
  },
  // Everyone shows its place in the current step's order, counted down, from the moment it joins (a
  // side rolls, not a combatant, so no one owes a roll of its own).
  interop: { initiative: (_state, view) => new Map(view.order.map((id) => [id, null] as const)) },
  settings: SIDES_SETTING_DEFS,
  registerSettings: registerSidesSettings,
  prepare: prepareSides,
  tracker: { ...sidesTracker, afterRender: tickCountdowns },
  actions: SIDES_ACTIONS,
  keys: SIDES_KEY_ACTIONS,
  notice: sidesNotice,
  api: { sides: SIDES_API },
});
