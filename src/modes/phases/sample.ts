/**
 * The `phases` sample: a skill list read from the sample actors (`@skillDice.<skill>`, a die size
 * as "d8"), an Advantage cap of 2 (small enough to reach in three rounds) and the default Collapse
 * pool of 2. Aria and Brom follow the rulebook's Luwe and Ballallanava: Melee d8, Ranged d10,
 * Stealth d6; Presence d10.
 */
import type { ModeSample } from "../contract";

/** The playground's `phases` sample. */
export const phasesSample: ModeSample = {
  id: "phases",
  label: "Phases",
  order: 5,
  settings: {
    phasesSkills:
      "Athletics = @skillDice.athletics; Melee = @skillDice.melee; Ranged = @skillDice.ranged; " +
      "Stealth = @skillDice.stealth; Knowledge = @skillDice.knowledge; Presence = @skillDice.presence",
    phasesPoolCap: 2,
    phasesCollapse: 2,
    phasesShowCollapse: true,
  },
  actors: {
    Aria: {
      skillDice: { athletics: "d6", melee: "d8", ranged: "d10", stealth: "d6", knowledge: "d8", presence: "d4" },
    },
    Brom: {
      skillDice: { athletics: "d8", melee: "d6", ranged: "d6", stealth: "d4", knowledge: "d4", presence: "d10" },
    },
  },
};
