/**
 * The `phases` sample: a skill list read from the sample actors (`@skillDice.<skill>`, a die size
 * as "d8"), an Advantage cap of 2 (small enough to reach in three rounds) and the default Collapse
 * pool of 2. Aria and Brom follow the rulebook's Luwe and Ballallanava: Melee d8, Ranged d10,
 * Stealth d6; Presence d10.
 */
import type { ModeSample } from "../contract";
import type { PhasesState } from "./rules/types";

/** Guard against a bench driver that loops without reaching its state. */
const LIMIT = 10_000;

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
  bench: {
    step: "a foe's intents resolve (next turn in phase 3)",
    /**
     * Started without surprise; each round every foe declares an attack on a hero, every other hero
     * takes a turn (a free move) in phase 2, then phase 3; the step resolves one foe's intents.
     */
    async drive({ cmd, state }) {
      const toResolve = async (): Promise<void> => {
        for (let guard = 0; guard < LIMIT; guard++) {
          const s = state() as PhasesState;
          if (s.phase === "foesResolve") return;
          if (s.phase === "foesDeclare") {
            const heroes = s.combatants.filter((c) => c.isPC && !c.defeated);
            const declared = new Set(s.intents.map((x) => x.foeId));
            const foes = s.combatants.filter((c) => !c.isPC && !c.defeated && !declared.has(c.id));
            for (const [i, foe] of foes.entries()) {
              const target = heroes[i % heroes.length]?.id;
              await cmd({ type: "declareIntent", foeId: foe.id, text: "Strike", kind: "attack", targets: [target] });
            }
            await cmd({ type: "nextPhase" });
          } else if (s.phase === "heroes") {
            const heroes = s.combatants.filter((c) => c.isPC && !c.defeated);
            for (const hero of heroes.filter((_, i) => i % 2 === 0)) {
              await cmd({ type: "startTurn", combatantId: hero.id });
              await cmd({ type: "freeAction", combatantId: hero.id, kind: "move" });
              await cmd({ type: "endTurn", combatantId: hero.id });
              if ((state() as PhasesState).phase !== "heroes") break;
            }
            if ((state() as PhasesState).phase === "heroes") await cmd({ type: "nextPhase" });
          } else throw new Error(`phases: unexpected phase ${s.phase}`);
        }
        throw new Error("phases: phase 3 not reached");
      };
      await cmd({ type: "start", surprise: false });
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
