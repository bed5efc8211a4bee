/**
 * The `sides` sample: D6 traits from the actors, the Star Wars D6 Tactics rule (Tactics counts
 * when at least 1D above Perception) and a roomy countdown.
 */
import type { ModeSample } from "../contract";
import { currentDeclarer, pendingSideTies, pendingTies, sidesToRoll } from "./rules/derived";
import type { SidesState } from "./rules/types";

/** Guard against a bench driver that loops without reaching its state. */
const LIMIT = 10_000;

/** The playground's `sides` sample. */
export const sidesSample: ModeSample = {
  id: "sides",
  label: "Side initiative",
  order: 2,
  settings: {
    sidesDexterity: "@dexterity",
    sidesPerception: "@perception",
    sidesTactics: "@tactics",
    sidesCountdown: 30,
  },
  actors: {
    Aria: { dexterity: "3D+2", perception: "3D" },
    Brom: { dexterity: "3D+2", perception: "2D+1" },
    Officer: { dexterity: "3D", perception: "3D+1", tactics: "4D+1" },
    "Trooper 1": { dexterity: "2D+2", perception: "2D" },
    "Trooper 2": { dexterity: "3D", perception: "2D" },
    "Trooper 3": { dexterity: "2D+1", perception: "2D+1" },
  },
  bench: {
    step: "resolved action (next turn in a pass)",
    /**
     * Sides from the tokens' dispositions (heroes, foes); each round the sides roll, everyone
     * declares (every third character two actions, so there are later passes and penalties) and the
     * GM orders every tie; the step resolves one action of the pass.
     */
    async drive({ cmd, state }) {
      const toPass = async (): Promise<void> => {
        for (let guard = 0; guard < LIMIT; guard++) {
          const s = state() as SidesState;
          const tie = s.step === "initiative" ? pendingSideTies(s)[0] : pendingTies(s)[0];
          if (s.step === "initiative" && tie !== undefined) await cmd({ type: "orderTiedSides", sideIds: tie });
          else if (s.step === "initiative") {
            for (const [i, sideId] of sidesToRoll(s).entries())
              await cmd({ type: "recordSideRoll", sideId, total: 12 + i });
          } else if (s.step === "declaration") {
            const who = currentDeclarer(s);
            if (who === null) throw new Error("sides: no declarer");
            const many = s.combatants.findIndex((c) => c.id === who) % 3 === 0;
            const actions = (many ? ["Shoot", "Dodge"] : ["Shoot"]).map((text) => ({ text }));
            await cmd({ type: "declare", combatantId: who, actions, forcePoint: false });
          } else if (s.step === "pass" && tie !== undefined)
            await cmd({ type: "orderTied", pass: s.pass, combatantIds: tie });
          else if (s.step === "pass") return;
          else throw new Error(`sides: unexpected step ${s.step}`);
        }
        throw new Error("sides: no pass reached");
      };
      await cmd({ type: "start" });
      await toPass();
      return {
        async step() {
          await cmd({ type: "nextTurn" });
          await toPass();
        },
      };
    },
  },
};
