/** Type declarations for the `individual` mode's settings, read by the compiler only. */
declare module "fvtt-types/configuration" {
  interface SettingConfig {
    "structured-initiative.initiativeSource": string;
    "structured-initiative.initiativeFormula": string;
    "structured-initiative.modifierFormula": string;
    "structured-initiative.flatFootedStatus": boolean;
  }
}

export {};
