/** Type declarations for the `slots` mode's settings and flags, read by the compiler only. */
declare module "../../foundry/config" {
  interface CombatantFlags {
    /** The skill of its initiative check. */
    slotsSkill?: string;
  }
}

declare module "fvtt-types/configuration" {
  interface SettingConfig {
    "structured-initiative.slotsCoolFormula": string;
    "structured-initiative.slotsVigilanceFormula": string;
    "structured-initiative.slotsSecondaryFormula": string;
    "structured-initiative.slotsScoring": string;
    "structured-initiative.slotsKeepPC": boolean;
    "structured-initiative.slotsKeepNPC": boolean;
    "structured-initiative.slotsSystemPool": boolean;
  }
}

export {};
