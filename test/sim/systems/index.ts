/**
 * The game-system fixtures of the simulated Foundry: each installs, before the module's bundle runs,
 * what one system does to combat and the tracker (see each file for its public source and version),
 * plus a DOM, since the systems' listeners read the rendered tracker.
 */
import type { Dict } from "../utils.js";
import { installDnd5e, DND5E_SYSTEM } from "./dnd5e.js";
import { installDom } from "./dom.js";
import { installDrawSteel, DRAW_STEEL_SYSTEM } from "./draw-steel.js";
import { installPf2e, PF2E_SYSTEM } from "./pf2e.js";

export { DRAW_STEEL_PARTS } from "./draw-steel.js";
export { installDom } from "./dom.js";

/** One system fixture: how `game.system` names it and what to install. */
export interface SystemFixture {
  readonly id: string;
  readonly system: { id: string; title: string; initiative: string };
  readonly setup: (realm: Dict) => void;
}

const withDom =
  (install: (realm: Dict) => void) =>
  (realm: Dict): void => {
    installDom(realm);
    install(realm);
  };

/** The three fixtures, by system id. */
export const SYSTEM_FIXTURES: readonly SystemFixture[] = [
  { id: "dnd5e", system: DND5E_SYSTEM, setup: withDom(installDnd5e) },
  { id: "pf2e", system: PF2E_SYSTEM, setup: withDom(installPf2e) },
  { id: "draw-steel", system: DRAW_STEEL_SYSTEM, setup: withDom(installDrawSteel) },
];
