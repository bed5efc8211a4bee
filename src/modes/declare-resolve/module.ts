/**
 * The `declare-resolve` mode (RULES.md §3): the slowest declare first, the fastest resolve first,
 * with action points, as one mode module.
 */
import { defineMode } from "../contract";
import { defeatedMirror } from "../../foundry/defeated";
import { DECLARE_RESOLVE_ACTIONS } from "./actions";
import { registerCatalogueMenu } from "./catalogue-form";
import {
  applyBudget,
  DECLARE_RESOLVE_ROLL_CHECKS,
  declareActions,
  declareResolveEffects,
  drState,
  ipToRoll,
  rollIP,
} from "./glue";
import {
  createDeclareResolve,
  DECLARE_RESOLVE_REFUSALS,
  declareResolveMode,
  type DeclareResolveCommand,
  type DeclareResolveState,
} from "./rules/declare-resolve";
import { parseDeclareResolveState } from "./rules/state";
import { declareResolveSample } from "./sample";
import { DR_SETTING_DEFS, actionCatalogue, apBudget, onBudgetChange, registerDeclareResolveSettings } from "./settings";
import { declareResolveTracker } from "./tracker";

/** The `declare-resolve` mode module. */
export const declareResolveModule = defineMode<DeclareResolveState, DeclareResolveCommand>({
  id: declareResolveMode.id,
  rules: declareResolveMode,
  parseState: parseDeclareResolveState,
  roster: {
    add: (entry) => ({ type: "addCombatant", combatant: entry }),
    remove: (id) => ({ type: "removeCombatant", combatantId: id }),
    ids: (state) => state.combatants.map((c) => c.id),
  },
  refusalCodes: DECLARE_RESOLVE_REFUSALS,
  // No module data on a Combatant is a player\'s to write but the request.
  gmOnlyCombatantKeys: [],
  rolledResults: DECLARE_RESOLVE_ROLL_CHECKS,
  // A new encounter starts with the world's AP budget.
  create: (roster) => createDeclareResolve(roster, apBudget()),
  initiative: {
    rollInitiative: (combat, ids, options) => rollIP(combat, ids, options),
    rollAll: (combat, options) => rollIP(combat, ipToRoll(combat, false), options),
    rollNPC: (combat, options) => rollIP(combat, ipToRoll(combat, true), options),
  },
  mirror: defeatedMirror<DeclareResolveState>(
    (state) => new Map(state.combatants.map((c) => [c.id, c.defeated])),
    declareResolveEffects,
  ),
  settings: DR_SETTING_DEFS,
  registerSettings: () => {
    registerDeclareResolveSettings();
    registerCatalogueMenu();
    onBudgetChange(() => void applyBudget());
  },
  tracker: declareResolveTracker,
  actions: DECLARE_RESOLVE_ACTIONS,
  api: { declareResolve: { declare: declareActions, catalogue: actionCatalogue, state: drState } },
  sample: declareResolveSample,
});
