/** Type declarations for the module's flags, settings and queries, read by the compiler only. */
import type { ModeSetting, StoredEncounter } from "../core/store";

declare module "fvtt-types/configuration" {
  interface FlagConfig {
    Combat: {
      "structured-initiative"?: {
        mode?: ModeSetting;
        encounter?: StoredEncounter;
        /** A request, as `encodeRequest` writes it. */
        request?: string;
      };
    };
    Combatant: {
      "structured-initiative"?: {
        /** A request, as `encodeRequest` writes it. */
        request?: string;
        /** `slots`: the skill of its initiative check. */
        slotsSkill?: string;
      };
    };
    CombatantGroup: {
      "structured-initiative"?: {
        /** `sides`: the side's colour ("#rrggbb"). */
        colour?: string;
        /** `sides`: the disposition a default side was made for. */
        role?: string;
      };
    };
  }

  interface SettingConfig {
    "structured-initiative.defaultMode": string;
    "structured-initiative.initiativeFormula": string;
    "structured-initiative.modifierFormula": string;
    "structured-initiative.flatFootedStatus": boolean;
    "structured-initiative.historyLimit": number;
    "structured-initiative.slotsCoolFormula": string;
    "structured-initiative.slotsVigilanceFormula": string;
    "structured-initiative.slotsSecondaryFormula": string;
    "structured-initiative.slotsScoring": string;
    "structured-initiative.slotsKeepPC": boolean;
    "structured-initiative.slotsKeepNPC": boolean;
    "structured-initiative.sidesDexterity": string;
    "structured-initiative.sidesPerception": string;
    "structured-initiative.sidesInitiative": string;
    "structured-initiative.sidesTactics": string;
    "structured-initiative.sidesActionPenalty": string;
    "structured-initiative.sidesCountdown": number;
    "structured-initiative.sidesWoundPenalty": string;
  }

  interface AssumeHookRan {
    ready: never;
  }
}

declare global {
  namespace CONFIG {
    interface Queries {
      "structured-initiative.outcome": (data: unknown) => Promise<boolean>;
    }
  }
}
