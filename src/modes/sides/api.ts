import {
  declare,
  react,
  slowDown,
  letPass,
  addSide,
  markSide,
  editSide,
  moveToSide,
  deleteSide,
  refreshTraits,
} from "./controls";
import { rollSide, rollAllSides, correctSideRoll } from "./initiative";
import { pauseClock, extendClock, excuse } from "./countdown";

/** The `sides` part of the module API (`api.sides`). */
export interface SidesApi {
  rollSide: typeof rollSide;
  rollAllSides: typeof rollAllSides;
  declare: typeof declare;
  react: typeof react;
  slowDown: typeof slowDown;
  letPass: typeof letPass;
  correctSideRoll: typeof correctSideRoll;
  addSide: typeof addSide;
  markSide: typeof markSide;
  editSide: typeof editSide;
  moveToSide: typeof moveToSide;
  deleteSide: typeof deleteSide;
  refreshTraits: typeof refreshTraits;
  pauseClock: typeof pauseClock;
  extendClock: typeof extendClock;
  excuse: typeof excuse;
}

/** The `sides` API functions. */
export const SIDES_API: SidesApi = {
  rollSide,
  rollAllSides,
  declare,
  react,
  slowDown,
  letPass,
  correctSideRoll,
  addSide,
  markSide,
  editSide,
  moveToSide,
  deleteSide,
  refreshTraits,
  pauseClock,
  extendClock,
  excuse,
};
