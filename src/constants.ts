/** Every name the module uses in Foundry lives here: no raw strings elsewhere. */

/** The module id, also the flag scope and the settings namespace. */
export const MODULE_ID = "structured-initiative";

/** The i18n prefix of every user-facing string. */
export const I18N = "STRUCTURED_INITIATIVE";

/** The mode value that leaves the game system's own combat untouched. */
export const SYSTEM_DEFAULT = "system";

/** World setting keys every mode shares (each mode keeps its own in its folder). */
export const SETTINGS = {
  defaultMode: "defaultMode",
  historyLimit: "historyLimit",
  /** Who rolls the dice the module asks a player for: the player's client or the active GM's. */
  diceRoller: "diceRoller",
  /** Client: play a sound with a "your turn" notice (off by default). */
  noticeSound: "noticeSound",
  /** User (v13+): the tracker shows its one-line hints (on by default); each user folds them for themselves. */
  hints: "hints",
} as const;

/** The keyboard actions every mode shares (Configure Controls ids; a mode adds its own in its folder). */
export const KEYS = {
  /** The current user ends the turn of the combatant acting now (theirs). */
  endTurn: "endTurn",
  /** The GM moves the encounter on to the next turn. */
  nextTurn: "nextTurn",
} as const;

/** The core sound a notice plays when the sound setting is on (Foundry serves it from its public folder). */
export const NOTICE_SOUND = "sounds/notify.wav";

/** Keys under `flags.structured-initiative` on Combat and Combatant documents. */
export const FLAGS = {
  /** Combat: the encounter's mode id, or SYSTEM_DEFAULT. */
  mode: "mode",
  /** Combat: the stored encounter (state, revision, undo history), GM-written. */
  encounter: "encounter",
  /** Combatant: a player's request to the GM (player-writable). */
  request: "request",
  /** Combat: the ChatMessage ids whose rolls a result was taken from (each counts once), GM-written. */
  rollsUsed: "rollsUsed",
  /** ActiveEffect (v14): the round its start record first named, kept when the module moves the record (`effect-expiry.ts`). */
  effectStartRound: "effectStartRound",
  /** Combat: from which revision rolls for each purpose count (`authority/purpose.ts`), GM-written. */
  rollWindows: "rollWindows",
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
  /**
   * The GM's row menu is being built: `(tracker, entries)`; add or remove entries. They arrive in the
   * running generation's shape, and an added one may take either: v13 `{name, icon: "<i class=…>",
   * condition(li), callback(li)}` or v14 `{label, icon: "fa-…", visible(target), onClick(event, target)}`
   * (`src/foundry/compat.ts` converts each for Foundry's ContextMenu).
   */
  rowMenu: `${MODULE_ID}.rowMenu`,
} as const;

/** How long a player waits for the GM's answer to a request. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** Where the module's files live once installed (Foundry serves `modules/<id>/...`). */
export const MODULE_PATH = `modules/${MODULE_ID}`;

/** Handlebars templates of the tracker and its dialogs. */
export const TEMPLATES = {
  /** The "at a glance" strip: mode, round, step, who acts, who is next, GM set-up controls. */
  glance: `${MODULE_PATH}/templates/tracker/glance.hbs`,
  /** The combatant list of a structured encounter. */
  tracker: `${MODULE_PATH}/templates/tracker/tracker.hbs`,
  /** One combatant row of the list: a partial of `tracker`, and rendered on its own (`tracker/shown-rows.ts`). */
  row: `${MODULE_PATH}/templates/tracker/row.hbs`,
  /** The turn controls of a structured encounter. */
  footer: `${MODULE_PATH}/templates/tracker/footer.hbs`,
  /** One button (a partial every tracker template uses). */
  control: `${MODULE_PATH}/templates/tracker/control.hbs`,
  /** A part the module leaves empty (a parent's part between its list and its footer). */
  emptyPart: `${MODULE_PATH}/templates/tracker/empty.hbs`,
  /** The mode choice shown when an encounter is created. */
  modeDialog: `${MODULE_PATH}/templates/dialogs/mode-choice.hbs`,
  /** The grouped settings form (the settings menu). */
  settingsForm: `${MODULE_PATH}/templates/dialogs/settings-form.hbs`,
} as const;

/** The root CSS class of everything the module renders. */
export const CSS_ROOT = MODULE_ID;

/** The tracker parts the module renders for a structured encounter (the header stays the system's). */
export const TRACKER_PARTS = {
  glance: "structuredInitiativeGlance",
  tracker: "tracker",
  footer: "footer",
} as const;

/** The game system ids the presets know (`game.system.id`). */
export const SYSTEM_IDS = {
  dnd5e: "dnd5e",
  pf2e: "pf2e",
  starwarsffg: "starwarsffg",
  genesys: "genesys",
  /** OpenD6 Space from 3.0 on (the id was `od6s` before). */
  od6s: "nonex-ist-od6s",
  od6sLegacy: "od6s",
  worldbuilding: "worldbuilding",
} as const;

/** The settings menu that opens the grouped settings form. */
export const SETTINGS_MENU = "settingsMenu";

/**
 * The option the authority puts on its own writes of the initiative mirror (`src/foundry/compat.ts`,
 * `updateWithMirror`), so that its `updateCombatant` listener tells them from an initiative written
 * outside the mirror. Read only together with the author being the authority itself.
 */
export const MIRROR_OPTION = `${MODULE_ID}.mirror`;
