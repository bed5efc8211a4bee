/** Type declarations for the `declare-resolve` mode's settings, read by the compiler only. */
declare module "fvtt-types/configuration" {
  interface SettingConfig {
    "structured-initiative.drIPFormula": string;
    "structured-initiative.drModifierFormula": string;
    "structured-initiative.drBudget": number;
    "structured-initiative.drHitsPath": string;
    "structured-initiative.drDefPath": string;
    "structured-initiative.drCatalogue": string;
  }
}

export {};
