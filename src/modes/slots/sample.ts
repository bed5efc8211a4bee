/**
 * The `slots` sample: the generic check (a d6 for the primary and the secondary score).
 */
import type { ModeSample } from "../contract";

/** The playground's `slots` sample. */
export const slotsSample: ModeSample = {
  id: "slots",
  label: "Initiative slots",
  order: 3,
  settings: {},
};
