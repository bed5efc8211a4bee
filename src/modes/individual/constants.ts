/** Names the `individual` mode uses in Foundry: its settings, templates and status effect. */
import { MODULE_PATH } from "../../constants";

/** World setting keys of the `individual` check. */
export const INDIVIDUAL_SETTINGS = {
  initiativeSource: "initiativeSource",
  initiativeFormula: "initiativeFormula",
  modifierFormula: "modifierFormula",
  flatFootedStatus: "flatFootedStatus",
} as const;

/** The mode's templates. */
export const INDIVIDUAL_TEMPLATES = {
  /** One combatant row's badges. */
  row: `${MODULE_PATH}/templates/modes/individual/row.hbs`,
  /** One combatant row's body: the Ready button with its trigger field. */
  rowBody: `${MODULE_PATH}/templates/modes/individual/row-body.hbs`,
  /** The glance strip's ties and initiative groups. */
  panel: `${MODULE_PATH}/templates/modes/individual/panel.hbs`,
} as const;

/** The status effect id used for flat-footed when the setting applies it. */
export const FLAT_FOOTED_STATUS = "structured-initiative-flat-footed";
