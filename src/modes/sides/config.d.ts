/** Type declarations for the `sides` mode's settings and flags, read by the compiler only. */
declare module "../../foundry/config" {
  interface CombatantFlags {
    /** The id of the side (CombatantGroup) it is on. */
    sideId?: string;
  }
  interface CombatantGroupFlags {
    /** The group is a side (made by the module or marked by the GM). */
    side?: boolean;
    /** The side's colour ("#rrggbb"). */
    colour?: string;
    /** The disposition a default side was made for. */
    role?: string;
  }
}

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
