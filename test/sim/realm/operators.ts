/** v14's update operators and the deprecation of the v13 key forms. */
import { OPERATOR_IDENTIFIER, isPlainObject } from "../utils.js";

/** One realm's operator classes; `warnLegacyKeys` logs through `logCompatibilityWarning` on v14. */
export function createOperators(v14: boolean, logCompatibilityWarning: (message: string) => void) {
  /**
   * v14's update operators (https://foundryvtt.com/api/v14/modules/foundry.data.operators.html):
   * `{key: new ForcedDeletion()}` deletes a key, `{key: new ForcedReplacement(value)}` replaces it
   * without merging (the v13 `-=key` / `==key` forms, deprecated since v14:
   * https://github.com/sun-dragon-cult/fvtt-system-rqg/issues/890). Their wire form is the sim's own
   * (an object keyed by OPERATOR_IDENTIFIER, the key v14 documents for serialised operators).
   */
  class ForcedDeletion {
    readonly [OPERATOR_IDENTIFIER] = "ForcedDeletion";
  }
  class ForcedReplacement {
    readonly [OPERATOR_IDENTIFIER] = "ForcedReplacement";
    constructor(readonly value: unknown) {}
  }
  /**
   * @behaviour On v14, every `-=key`/`==key` of an update logs the deprecation.
   * @source https://github.com/sun-dragon-cult/fvtt-system-rqg/issues/890 (the warning);
   * https://foundryvtt.com/api/v14/modules/foundry.data.operators.html (the operators).
   */
  const warnLegacyKeys = (data: unknown): void => {
    if (!v14 || !isPlainObject(data)) return;
    for (const [key, value] of Object.entries(data)) {
      const last = key.slice(key.lastIndexOf(".") + 1);
      if (last.startsWith("-=") || last.startsWith("=="))
        logCompatibilityWarning(
          `The {${last}: null} syntax for forced deletion of a data field value is no longer supported in favor of {${last.slice(2)}: new foundry.data.operators.ForcedDeletion()}`,
        );
      warnLegacyKeys(value);
    }
  };
  return { ForcedDeletion, ForcedReplacement, warnLegacyKeys };
}
