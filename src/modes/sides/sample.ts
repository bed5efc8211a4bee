/**
 * The `sides` sample: D6 traits from the actors, the Star Wars D6 Tactics rule (Tactics counts
 * when at least 1D above Perception) and a roomy countdown.
 */
import type { ModeSample } from "../contract";

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
};
