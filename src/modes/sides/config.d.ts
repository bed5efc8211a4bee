/** Type declarations for the `sides` mode's settings, read by the compiler only. */
declare module "fvtt-types/configuration" {
  interface SettingConfig {
    "structured-initiative.sidesDexterity": string;
    "structured-initiative.sidesPerception": string;
    "structured-initiative.sidesInitiative": string;
    "structured-initiative.sidesTactics": string;
    "structured-initiative.sidesActionPenalty": string;
    "structured-initiative.sidesCountdown": number;
    "structured-initiative.sidesMaxReactions": number;
    "structured-initiative.sidesWoundPenalty": string;
    "structured-initiative.sidesTraitUnit": string;
  }
}

export {};
