/**
 * The `slots` sample: the generic check (a d6 for the primary and the secondary score).
 */
import type { ModeSample } from "../contract";
import type { SlotsState } from "./rules/types";

/** The playground's `slots` sample. */
export const slotsSample: ModeSample = {
  id: "slots",
  label: "Initiative slots",
  order: 3,
  settings: {},
  bench: {
    step: "next turn, then the next slot filled",
    /** Checks recorded for everyone (spread scores), started; the step ends a turn and fills the next slot. */
    async drive({ cmd, state, ids }) {
      for (const [i, combatantId] of ids.entries())
        await cmd({ type: "recordCheck", combatantId, primary: 1 + ((i * 7) % 6), secondary: 1 + (i % 6) });
      await cmd({ type: "start" });
      const fill = async (): Promise<void> => {
        const s = state() as SlotsState;
        if (s.slotIndex === null) return;
        const slot = s.slots[s.slotIndex];
        if (slot === undefined || slot.filledBy !== null) return;
        const claimed = new Set(s.slots.map((x) => x.claimedBy));
        const who = s.combatants.find(
          (c) => c.isPC === (slot.kind === "pc") && !c.defeated && !s.acted.includes(c.id) && !claimed.has(c.id),
        );
        if (who !== undefined) await cmd({ type: "fillSlot", slot: s.slotIndex, combatantId: who.id });
      };
      await fill();
      return {
        async step() {
          await cmd({ type: "nextTurn" });
          await fill();
        },
      };
    },
  },
};
