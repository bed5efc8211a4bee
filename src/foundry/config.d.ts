/**
 * Type declarations for the module's shared flags, shared settings and queries, read by the compiler
 * only. Foundry's flag configuration is one object per document: the module's flags on a Combatant and
 * a CombatantGroup are the interfaces below, which each mode's `config.d.ts` extends with its own
 * (`declare module "../../foundry/config"`), as it declares its settings.
 */
import type { StoredEncounter } from "../core/store";

/** The module's flags on a Combatant. */
export interface CombatantFlags {
  /** A request, as `encodeRequest` writes it. */
  request?: string;
}

/** The module's flags on a CombatantGroup (the shared glue keeps none; modes add theirs). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the modes' declarations
export interface CombatantGroupFlags {}

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
      "structured-initiative"?: CombatantFlags;
    };
    CombatantGroup: {
      "structured-initiative"?: CombatantGroupFlags;
    };
  }

  // Each mode declares its own settings in its folder's config.d.ts.
  interface SettingConfig {
    "structured-initiative.defaultMode": string;
    "structured-initiative.historyLimit": number;
    "structured-initiative.diceRoller": string;
    "structured-initiative.noticeSound": boolean;
    "structured-initiative.hints": boolean;
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
