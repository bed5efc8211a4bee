/**
 * The render benchmark's sample encounters, one per mode, read from each mode's sample
 * (`src/modes/<id>/sample.ts`, field `bench`): how the GM brings a fresh encounter of the bench's
 * combatants to a started, mid-round state that shows the mode's tracker features, and the step the
 * bench times as that mode's "turn advance".
 */
import type { ModeBench } from "../src/modes/contract.js";
import { SAMPLES } from "./world.js";

/** Each mode's bench driver, by mode id. */
export const DRIVERS: Readonly<Record<string, ModeBench["drive"]>> = Object.fromEntries(
  SAMPLES.map((sample) => [sample.id, sample.bench.drive]),
);

/** What each mode's "turn advance" is (printed beside the figures). */
export const STEP_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  SAMPLES.map((sample) => [sample.id, sample.bench.step]),
);
