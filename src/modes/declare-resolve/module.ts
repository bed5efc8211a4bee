/**
 * The `declare-resolve` mode (RULES.md §3): the slowest declare first, the fastest resolve first,
 * with action points, as one mode module.
 */
import { SHARED_ROSTER, defineMode } from "../contract";
import { DECLARE_RESOLVE_ACTIONS } from "./actions";
import { DECLARE_RESOLVE_KEY_ACTIONS, declareResolveNotice } from "./keys";
import { registerCatalogueMenu } from "./catalogue-form";
import { DECLARE_RESOLVE_ROLL_CHECKS, DR_INITIATIVE } from "./initiative";
import { DR_MIRROR } from "./mirror";
import { DR_INTEROP } from "./interop";
import { DR_API } from "./api";
import { applyBudget } from "./controls";
import { createDeclareResolve } from "./rules/flow";
import { DECLARE_RESOLVE_REFUSALS, type DeclareResolveCommand, type DeclareResolveState } from "./rules/types";
import { declareResolveMode } from "./rules/mode";
import { parseDeclareResolveState } from "./rules/state";
import { DR_SETTING_DEFS, apBudget, onBudgetChange, registerDeclareResolveSettings } from "./settings";
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
  initiative: DR_INITIATIVE,
  mirror: DR_MIRROR,
  interop: DR_INTEROP,
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
  api: { declareResolve: DR_API },
});
