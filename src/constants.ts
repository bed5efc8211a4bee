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
  /** `slots`: the primary score's formula when the check uses Cool. */
  slotsCoolFormula: "slotsCoolFormula",
  /** `slots`: the primary score's formula when the check uses Vigilance. */
  slotsVigilanceFormula: "slotsVigilanceFormula",
  /** `slots`: the tie-breaking secondary score's formula (generic scoring). */
  slotsSecondaryFormula: "slotsSecondaryFormula",
  /** `slots`: how a check is scored ("totals" or "symbols"). */
  slotsScoring: "slotsScoring",
  /** `slots`: whether a defeated or removed PC's slot stays. */
  slotsKeepPC: "slotsKeepPC",
  /** `slots`: whether a defeated or removed NPC's slot stays. */
  slotsKeepNPC: "slotsKeepNPC",
  /** `sides`: Dexterity, as a dice code read through a formula/path into the actor's roll data. */
  sidesDexterity: "sidesDexterity",
  /** `sides`: Perception, likewise. */
  sidesPerception: "sidesPerception",
  /** `sides`: the initiative score (empty: Perception). */
  sidesInitiative: "sidesInitiative",
  /** `sides`: Tactics (empty: not used); counts only when at least 1D above its attribute. */
  sidesTactics: "sidesTactics",
  /** `sides`: the multiple-action penalty per action beyond the first (a dice code). */
  sidesActionPenalty: "sidesActionPenalty",
  /** `sides`: seconds a character has to declare (0: no countdown). */
  sidesCountdown: "sidesCountdown",
  sidesWoundPenalty: "sidesWoundPenalty",
} as const;

/** Keys under `flags.structured-initiative` on Combat and Combatant documents. */
export const FLAGS = {
  /** Combat: the encounter's mode id, or SYSTEM_DEFAULT. */
  mode: "mode",
  /** Combat: the stored encounter (state, revision, undo history), GM-written. */
  encounter: "encounter",
  /** Combatant: a player's request to the GM (player-writable). */
  request: "request",
  /** Combatant (`slots`): the skill of its initiative check ("cool" or "vigilance"), GM-written. */
  slotsSkill: "slotsSkill",
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
  /** The GM's row menu is being built: add or remove entries. */
  rowMenu: `${MODULE_ID}.rowMenu`,
} as const;

/** The status effect id used for flat-footed when the setting applies it. */
export const FLAT_FOOTED_STATUS = "structured-initiative-flat-footed";

/** How long a player waits for the GM's answer to a request. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** Where the module's files live once installed (Foundry serves `modules/<id>/...`). */
const MODULE_PATH = `modules/${MODULE_ID}`;

/** Handlebars templates of the tracker and its dialogs. */
export const TEMPLATES = {
  /** The "at a glance" strip: mode, round, step, who acts, who is next, GM set-up controls. */
  glance: `${MODULE_PATH}/templates/tracker/glance.hbs`,
  /** The combatant list of a structured encounter. */
  tracker: `${MODULE_PATH}/templates/tracker/tracker.hbs`,
  /** The turn controls of a structured encounter. */
  footer: `${MODULE_PATH}/templates/tracker/footer.hbs`,
  /** One button (a partial every tracker template uses). */
  control: `${MODULE_PATH}/templates/tracker/control.hbs`,
  /** The mode choice shown when an encounter is created. */
  modeDialog: `${MODULE_PATH}/templates/dialogs/mode-choice.hbs`,
  /** Per mode, the partial that renders one combatant row's mode-specific content. */
  modeRows: {
    individual: `${MODULE_PATH}/templates/modes/individual/row.hbs`,
    slots: `${MODULE_PATH}/templates/modes/slots/row.hbs`,
    sides: `${MODULE_PATH}/templates/modes/sides/row.hbs`,
  },
} as const;

/** The slot list of a `slots` encounter (shown above the combatant rows). */
export const SLOTS_LIST_TEMPLATE = `${MODULE_PATH}/templates/modes/slots/panel.hbs`;

/** The panel of a `sides` encounter: step banner, sides, declaration, pass order (above the rows). */
export const SIDES_PANEL_TEMPLATE = `${MODULE_PATH}/templates/modes/sides/panel.hbs`;

/** The root CSS class of everything the module renders. */
export const CSS_ROOT = MODULE_ID;

/** The tracker parts the module renders for a structured encounter (the header stays the system's). */
export const TRACKER_PARTS = {
  glance: "structuredInitiativeGlance",
  tracker: "tracker",
  footer: "footer",
} as const;
