/** Names the `slots` mode uses in Foundry: its settings, its combatant flag and its templates. */
import { MODULE_PATH } from "../../constants";

/** World setting keys of the `slots` mode. */
export const SLOTS_SETTINGS = {
  /** The primary score's formula when the check uses Cool. */
  slotsCoolFormula: "slotsCoolFormula",
  /** The primary score's formula when the check uses Vigilance. */
  slotsVigilanceFormula: "slotsVigilanceFormula",
  /** The tie-breaking secondary score's formula (generic scoring). */
  slotsSecondaryFormula: "slotsSecondaryFormula",
  /** How a check is scored ("totals" or "symbols"). */
  slotsScoring: "slotsScoring",
  /** Whether a defeated or removed PC's slot stays. */
  slotsKeepPC: "slotsKeepPC",
  /** Whether a defeated or removed NPC's slot stays. */
  slotsKeepNPC: "slotsKeepNPC",
  /** Use the game system's own initiative pool builder when its combatant has one (Genesys). */
  slotsSystemPool: "slotsSystemPool",
} as const;

/** Combatant flag (GM-written): the skill of its initiative check ("cool" or "vigilance"). */
export const SLOTS_SKILL_FLAG = "slotsSkill";

/** The mode's templates. */
export const SLOTS_TEMPLATES = {
  /** One combatant row's badges. */
  row: `${MODULE_PATH}/templates/modes/slots/row.hbs`,
  /** One combatant row's body: the slot buttons (claim, fill, release). */
  rowBody: `${MODULE_PATH}/templates/modes/slots/row-body.hbs`,
  /** The slot strip, below the set-up controls. */
  list: `${MODULE_PATH}/templates/modes/slots/list.hbs`,
} as const;

/** The `slots` keyboard action (Configure Controls id): claim the next PC slot for one's character. */
export const SLOTS_KEYS = { claimSlot: "claimSlot" } as const;

/** The `slots` notice (`Notice.<kind>`): a PC slot is open now and the player may claim it. */
export const SLOTS_NOTICE = "Claim";
