/** What the `declare-resolve` mode adds to the module API (`api.declareResolve`). */
import { declareActions } from "./controls";
import { drState } from "./encounter";
import { actionCatalogue } from "./settings";

/** The `declare-resolve` API functions: declare, the action catalogue, and an encounter's state. */
export const DR_API = { declare: declareActions, catalogue: actionCatalogue, state: drState };
