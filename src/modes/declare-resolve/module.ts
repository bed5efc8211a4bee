/**
 * The `declare-resolve` mode (RULES.md §3): the slowest declare first, the fastest resolve first,
 * with action points, as one mode module.
 */
import { SHARED_ROSTER, defineMode } from "../contract";
import { defeatedMirror } from "../../foundry/defeated";
import { DECLARE_RESOLVE_ACTIONS } from "./actions";
import { DECLARE_RESOLVE_KEY_ACTIONS, declareResolveNotice } from "./keys";
import { registerCatalogueMenu } from "./catalogue-form";
import {
  applyBudget,
  DECLARE_RESOLVE_ROLL_CHECKS,
  declareActions,
  declareResolveEffects,
  declareResolveEnd,
  drState,
  ipToRoll,
  rollIP,
} from "./glue";
import {
  createDeclareResolve,
  currentIP,
  DECLARE_RESOLVE_REFUSALS,
  declareResolveMode,
  type DeclareResolveCommand,
  type DeclareResolveState,
} from "./rules/declare-resolve";
import { parseDeclareResolveState } from "./rules/state";
import { DR_SETTING_DEFS, actionCatalogue, apBudget, onBudgetChange, registerDeclareResolveSettings } from "./settings";
import { declareResolveTracker } from "./tracker";

/** The `declare-resolve` mode module. */
export const declareResolveModule = defineMode<DeclareResolveState, DeclareResolveCommand>({
  id: declareResolveMode.id,
  rules: declareResolveMode,
  parseState: parseDeclareResolveState,
  roster: SHARED_ROSTER,
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
  mirror: {
    ...defeatedMirror<DeclareResolveState>(
      (state) => new Map(state.combatants.map((c) => [c.id, c.defeated])),
      declareResolveEffects,
    ),
    end: declareResolveEnd,
  },
  // Other modules see each current IP, highest first, all round (the declarer moves up from the bottom).
  interop: {
    initiative: (state) =>
      new Map(state.combatants.flatMap((c) => (c.ip === null ? [] : [[c.id, currentIP(c)] as const]))),
  },
  settings: DR_SETTING_DEFS,
  registerSettings: () => {
    registerDeclareResolveSettings();
    registerCatalogueMenu();
    onBudgetChange(() => void applyBudget());
  },
  tracker: declareResolveTracker,
  actions: DECLARE_RESOLVE_ACTIONS,
  keys: DECLARE_RESOLVE_KEY_ACTIONS,
  notice: declareResolveNotice,
  api: { declareResolve: { declare: declareActions, catalogue: actionCatalogue, state: drState } },
});
