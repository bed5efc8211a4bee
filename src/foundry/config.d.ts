/** Type declarations for the module's flags, settings and queries, read by the compiler only. */
import type { ModeSetting, StoredEncounter } from "./store";

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
      };
    };
  }

  interface SettingConfig {
    "structured-initiative.defaultMode": string;
    "structured-initiative.initiativeFormula": string;
    "structured-initiative.modifierFormula": string;
    "structured-initiative.flatFootedStatus": boolean;
    "structured-initiative.historyLimit": number;
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
