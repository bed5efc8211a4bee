/**
 * The registry of the modes the module runs: one line per mode. `src/index.ts` installs it; the
 * shared glue reaches a mode only through its module (`src/modes/contract.ts`) and never names one.
 */
import type { AnyModeModule } from "./contract";
import { declareResolveModule } from "./declare-resolve/module";
import { individualModule } from "./individual/module";
import { phasesModule } from "./phases/module";
import { sidesModule } from "./sides/module";
import { slotsModule } from "./slots/module";

/** Every registered mode, in the order the mode choice lists them. */
export const MODES: readonly AnyModeModule[] = [
  individualModule,
  sidesModule,
  slotsModule,
  declareResolveModule,
  phasesModule,
];
