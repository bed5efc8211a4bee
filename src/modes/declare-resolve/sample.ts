/**
 * The `declare-resolve` sample: the generic IP roll (2d10 + Speed and Wisdom bonuses), the default
 * catalogue and AP budget, bleeding taken from `system.hits` and DEF changes applied to `system.def`.
 */
import type { ModeSample } from "../contract";
import { availableAP, declareOrder } from "./rules/points";
import { currentDeclarer } from "./rules/derived";
import type { DeclareResolveState } from "./rules/types";

/** Guard against a bench driver that loops without reaching its state. */
const LIMIT = 10_000;

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
  bench: {
    step: "resolved turn (next turn in the resolution)",
    /**
     * IP recorded for everyone (no ties), started; each round everyone declares from the default
     * catalogue (an attack, every other one a dodge too, within its AP) and the upkeep is confirmed; the step
     * resolves one turn.
     */
    async drive({ cmd, state, ids }) {
      for (const [i, combatantId] of ids.entries())
        await cmd({ type: "recordIP", combatantId, total: 1000 - i, modifier: 0 });
      await cmd({ type: "start" });
      const toResolve = async (): Promise<void> => {
        for (let guard = 0; guard < LIMIT; guard++) {
          const s = state() as DeclareResolveState;
          if (s.phase === "resolve") return;
          if (s.phase === "upkeep") await cmd({ type: "upkeep" });
          else if (s.phase === "declare") {
            const who = currentDeclarer(s);
            if (who === null) throw new Error("declare-resolve: no declarer");
            const attack = { name: "Melee Attack", cost: 4, kind: "attack" };
            const dodge = { name: "Dodge", cost: 2, kind: "defence" };
            const c = s.combatants.find((x) => x.id === who);
            const ap = c === undefined ? 0 : availableAP(s, c);
            const both = declareOrder(s).indexOf(who) % 2 === 0 && ap >= attack.cost + dodge.cost;
            const actions = both ? [attack, dodge] : ap >= attack.cost ? [attack] : ap >= dodge.cost ? [dodge] : [];
            await cmd({ type: "declare", combatantId: who, actions });
          } else await cmd({ type: "nextTurn" });
        }
        throw new Error("declare-resolve: no resolution reached");
      };
      await toResolve();
      return {
        async step() {
          await cmd({ type: "nextTurn" });
          await toResolve();
        },
      };
    },
  },
};
