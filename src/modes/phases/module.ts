/**
 * The `phases` mode (RULES.md §5): foes declare, heroes act in the order they choose with
 * press-your-luck skill rolls, foes resolve, as one mode module. No initiative is rolled.
 */
import { SHARED_ROSTER, defineMode } from "../contract";
import { defeatedMirror } from "../../foundry/defeated";
import { PHASES_ACTIONS } from "./actions";
import { PHASES_KEY_ACTIONS, phasesNotice } from "./keys";
import { PHASES_API, PHASES_GLUE_REFUSALS, PHASES_ROLL_CHECKS, phasesEffects } from "./glue";
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
  // Nobody rolls initiative: the phases give the order.
  initiative: {
    rollInitiative: () => Promise.resolve([]),
    rollAll: () => Promise.resolve([]),
    rollNPC: () => Promise.resolve([]),
  },
  mirror: defeatedMirror<PhasesState>(
    (state) => new Map(state.combatants.map((c) => [c.id, c.defeated])),
    phasesEffects,
  ),
  // Everyone shows its place, counted down, from the moment it joins (nobody rolls). A turn written
  // on a hero while nobody acts in phase 2 starts (or, in hand-off order, picks) that hero's turn.
  interop: {
    initiative: (_state, view) => new Map(view.order.map((id) => [id, null] as const)),
    jumpTo: (state, combatantId) =>
      state.phase !== "heroes" || state.turn !== null
        ? null
        : { type: state.handOff ? "pickNext" : "startTurn", combatantId },
  },
  settings: PHASES_SETTING_DEFS,
  registerSettings: registerPhasesSettings,
  tracker: phasesTracker,
  actions: PHASES_ACTIONS,
  keys: PHASES_KEY_ACTIONS,
  notice: phasesNotice,
  api: { phases: PHASES_API },
});
