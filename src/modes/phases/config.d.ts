/** Type declarations for the `phases` mode's settings, read by the compiler only. */
declare module "fvtt-types/configuration" {
  interface SettingConfig {
    "structured-initiative.phasesSkills": string;
    "structured-initiative.phasesPoolCap": number;
    "structured-initiative.phasesCollapse": number;
    "structured-initiative.phasesShowCollapse": boolean;
  }
}

export {};
