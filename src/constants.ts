/** Every name the module uses in Foundry lives here: no raw strings elsewhere. */

/** The module id, also the flag scope and the settings namespace. */
export const MODULE_ID = "structured-initiative";

/** The i18n prefix of every user-facing string. */
export const I18N = "STRUCTURED_INITIATIVE";

/** The mode value that leaves the game system's own combat untouched. */
export const SYSTEM_DEFAULT = "system";

/** World and client setting keys. */
export const SETTINGS = {
  defaultMode: "defaultMode",
  initiativeFormula: "initiativeFormula",
  modifierFormula: "modifierFormula",
  flatFootedStatus: "flatFootedStatus",
  historyLimit: "historyLimit",
} as const;

/** Keys under `flags.structured-initiative` on Combat and Combatant documents. */
export const FLAGS = {
  /** Combat: the encounter's mode id, or SYSTEM_DEFAULT. */
  mode: "mode",
  /** Combat: the stored encounter (state, revision, undo history), GM-written. */
  encounter: "encounter",
  /** Combatant: a player's request to the GM (player-writable). */
  request: "request",
} as const;

/** v13 query names (handlers in `CONFIG.queries`). */
export const QUERIES = {
  /** GM → player: the outcome of a request the player wrote. */
  outcome: `${MODULE_ID}.outcome`,
} as const;

/** Hooks the module emits. */
export const HOOKS = {
  /** Before a command is applied on the GM client; return false to veto. */
  preCommand: `${MODULE_ID}.preCommand`,
  /** After a command was applied. */
  command: `${MODULE_ID}.command`,
  /** A command was refused. */
  refused: `${MODULE_ID}.refused`,
  /** The encounter's mode was set. */
  modeChanged: `${MODULE_ID}.modeChanged`,
} as const;

/** The status effect id used for flat-footed when the setting applies it. */
export const FLAT_FOOTED_STATUS = "structured-initiative-flat-footed";

/** How long a player waits for the GM's answer to a request. */
export const REQUEST_TIMEOUT_MS = 10_000;
