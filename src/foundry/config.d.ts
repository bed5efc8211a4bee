/**
 * Type declarations for the module's flags, shared settings and queries, read by the compiler only.
 * Flags are declared here for every mode (Foundry's flag configuration is one object per document);
 * a mode's settings are declared in its own folder.
 */
import type { StoredEncounter } from "../core/store";

declare module "fvtt-types/configuration" {
  interface FlagConfig {
    Combat: {
      "structured-initiative"?: {
        /** The mode id, or "system". */
        mode?: string;
        encounter?: StoredEncounter;
        /** A request, as `encodeRequest` writes it. */
        request?: string;
        /** The ChatMessage ids results were taken from (`src/foundry/authority/proofs.ts`). */
        rollsUsed?: string[] | Record<string, number>;
        /** From which revision rolls for each purpose count (`src/foundry/authority/purpose.ts`). */
        rollWindows?: Record<string, number>;
      };
    };
    Combatant: {
      "structured-initiative"?: {
        /** A request, as `encodeRequest` writes it. */
        request?: string;
        /** `slots`: the skill of its initiative check. */
        slotsSkill?: string;
        /** `sides`: the id of the side (CombatantGroup) it is on. */
        sideId?: string;
      };
    };
    CombatantGroup: {
      "structured-initiative"?: {
        /** `sides`: the group is a side (made by the module or marked by the GM). */
        side?: boolean;
        /** `sides`: the side's colour ("#rrggbb"). */
        colour?: string;
        /** `sides`: the disposition a default side was made for. */
        role?: string;
      };
    };
  }

  // Each mode declares its own settings in its folder's config.d.ts.
  interface SettingConfig {
    "structured-initiative.defaultMode": string;
    "structured-initiative.historyLimit": number;
    "structured-initiative.diceRoller": string;
    "structured-initiative.noticeSound": boolean;
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
