/** Every name the module uses in Foundry lives here: no raw strings elsewhere. */

/** The module id, also the flag scope and the settings namespace. */
export const MODULE_ID = "structured-initiative";
