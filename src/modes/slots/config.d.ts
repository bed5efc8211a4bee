/** Type declarations for the `slots` mode's settings, read by the compiler only. */
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
