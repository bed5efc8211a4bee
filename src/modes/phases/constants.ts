/** Names the `phases` mode uses in Foundry: its settings, its chat-card flag and its templates. */
import { MODULE_PATH } from "../../constants";

/** World setting keys of the `phases` mode. */
export const PHASES_SETTINGS = {
  /** The skill list: `Name = @roll.data.path` entries, separated by `;` or new lines. */
  phasesSkills: "phasesSkills",
  /** The Advantage pool's cap a new encounter starts with (the ship's Livability Rating). */
  phasesPoolCap: "phasesPoolCap",
  /** The GM's Collapse points at the start of an encounter. */
  phasesCollapse: "phasesCollapse",
  /** Whether players see the GM's Collapse points in the tracker. */
  phasesShowCollapse: "phasesShowCollapse",
} as const;

/** Chat message flag (under the module's scope) of a skill roll's card: which roll it shows. */
export const PHASES_ROLL_FLAG = "phasesRoll";

/** The mode's templates. */
export const PHASES_TEMPLATES = {
  /** One combatant row's badges. */
  row: `${MODULE_PATH}/templates/modes/phases/row.hbs`,
  /** One combatant row's body: the GM's intent form of a foe. */
  rowBody: `${MODULE_PATH}/templates/modes/phases/row-body.hbs`,
  /** The banner, pools, intents, hand-off and press-your-luck panel, above the set-up controls. */
  panel: `${MODULE_PATH}/templates/modes/phases/panel.hbs`,
} as const;

/** The `phases` keyboard action (Configure Controls id): take one's hero's turn in the heroes' phase. */
export const PHASES_KEYS = { takeTurn: "takeTurn" } as const;

/** The `phases` notice (`Notice.<kind>`): the heroes' phase is on and the player's hero may take its turn. */
export const PHASES_NOTICE = "Heroes";
