/**
 * The `declare-resolve` sample: the generic IP roll (2d10 + Speed and Wisdom bonuses), the default
 * catalogue and AP budget, bleeding taken from `system.hits` and DEF changes applied to `system.def`.
 */
import type { ModeSample } from "../contract";

/** The playground's `declare-resolve` sample. */
export const declareResolveSample: ModeSample = {
  id: "declare-resolve",
  label: "Declare and resolve",
  order: 4,
  settings: {
    drHitsPath: "system.hits",
    drDefPath: "system.def",
  },
  actors: {
    Aria: { speedBonus: 3, wisdomBonus: 1, hits: 24, def: 12 },
    Brom: { speedBonus: 1, wisdomBonus: 2, hits: 30, def: 10 },
    Officer: { speedBonus: 2, wisdomBonus: 2, hits: 18, def: 11 },
    "Trooper 1": { speedBonus: 0, wisdomBonus: 0, hits: 12, def: 9 },
    "Trooper 2": { speedBonus: 1, wisdomBonus: 0, hits: 12, def: 9 },
    "Trooper 3": { speedBonus: 0, wisdomBonus: 1, hits: 12, def: 9 },
  },
};
