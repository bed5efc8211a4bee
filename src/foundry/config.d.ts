/** Type declarations for the module's flags, settings and queries, read by the compiler only. */
import type { ModeSetting, StoredEncounter, StoredRequest } from "./store";

declare module "fvtt-types/configuration" {
  interface FlagConfig {
    Combat: {
      "structured-initiative"?: {
        mode?: ModeSetting;
        encounter?: StoredEncounter;
        request?: StoredRequest;
      };
    };
    Combatant: {
      "structured-initiative"?: {
        request?: StoredRequest;
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
