/**
 * The `individual` sample: a d20 check plus the actor's initiative modifier (the world's formula: the
 * playground's system has no initiative of its own).
 */
import type { ModeSample } from "../contract";

/** The playground's `individual` sample. */
export const individualSample: ModeSample = {
  id: "individual",
  label: "Individual initiative",
  order: 1,
  settings: { initiativeSource: "formula", initiativeFormula: "1d20", modifierFormula: "@attributes.init.mod" },
  actors: {
    Aria: { attributes: { init: { mod: 3 } } },
    Brom: { attributes: { init: { mod: 1 } } },
    Officer: { attributes: { init: { mod: 2 } } },
    "Trooper 1": { attributes: { init: { mod: 0 } } },
    "Trooper 2": { attributes: { init: { mod: 1 } } },
    "Trooper 3": { attributes: { init: { mod: 0 } } },
  },
};
