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
  bench: {
    step: "next turn",
    /** Initiative recorded for everyone, started; the turn moves down the list. */
    async drive({ cmd, ids }) {
      for (const [i, combatantId] of ids.entries())
        await cmd({ type: "recordInitiative", combatantId, total: 1000 - i, modifier: 0 });
      await cmd({ type: "start" });
      return { step: () => cmd({ type: "nextTurn" }) };
    },
  },
};
