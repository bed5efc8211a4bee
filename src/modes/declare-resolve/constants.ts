/** Names the `declare-resolve` mode uses in Foundry: its settings, flags and templates. */
import { MODULE_PATH } from "../../constants";

/** World setting keys of the `declare-resolve` mode. */
export const DR_SETTINGS = {
  /** The IP roll (rolled once per combat). */
  drIPFormula: "drIPFormula",
  /** The modifier that breaks IP ties (no dice; higher is faster). */
  drModifierFormula: "drModifierFormula",
  /** AP per round. */
  drBudget: "drBudget",
  /** The actor data path of the hits bleeding removes (empty: the upkeep is reported for the GM). */
  drHitsPath: "drHitsPath",
  /** The actor data path DEF changes apply to as an ActiveEffect for the round (empty: tracker only). */
  drDefPath: "drDefPath",
  /** The action catalogue (edited in its settings form). */
  drCatalogue: "drCatalogue",
} as const;

/** The settings menu that opens the catalogue form. */
export const DR_CATALOGUE_MENU = "drCatalogueMenu";

/** Actor flag (authority-written): the hits each upkeep removed, by `<combat id>.<round>`, for its undo. */
export const DR_BLED_FLAG = "drBled";

/** ActiveEffect flag: the DEF change's `{combatId, combatantId, round}`. */
export const DR_DEF_FLAG = "drDef";

/** The mode's templates. */
export const DR_TEMPLATES = {
  /** One combatant row's badges: IP, AP bar, DEF, conditions. */
  row: `${MODULE_PATH}/templates/modes/declare-resolve/row.hbs`,
  /** One combatant row's body: declared actions and the GM's edits. */
  rowBody: `${MODULE_PATH}/templates/modes/declare-resolve/row-body.hbs`,
  /** Step, who declares or resolves, ties, the declaration form, the queues and the upkeep. */
  panel: `${MODULE_PATH}/templates/modes/declare-resolve/panel.hbs`,
  /** The catalogue's settings form. */
  catalogue: `${MODULE_PATH}/templates/modes/declare-resolve/catalogue.hbs`,
} as const;

/**
 * The `declare-resolve` keyboard action (Configure Controls id, one binding with sides'): focus the
 * declaration form of the player's character declaring now.
 */
export const DECLARE_RESOLVE_KEYS = { declare: "declare" } as const;

/** The `declare-resolve` notice (`Notice.<kind>`): the player's character declares now. */
export const DECLARE_RESOLVE_NOTICE = "Declare";
