/**
 * The GM's client of the render benchmark's player view (playground/bench-gm.html, in an iframe of
 * bench.html): boots the GM on the page's simulated server, so that the player's tracker in the
 * page renders the GM's writes as a player's client would.
 */
import "./bench-tasks.js";
import type { SimServer } from "../test/sim/server.js";
import type { SimRealm } from "../test/sim/runtime.js";
import { bootRealm } from "./realm.js";

declare global {
  interface Window {
    /** The page's server (set by bench.ts before this frame loads). */
    benchServer?: SimServer;
    /** This frame's GM client, once booted. */
    benchGM?: SimRealm;
    benchGMError?: string;
  }
}

const server = window.parent.benchServer;
if (server === undefined) throw new Error("no bench server in the parent page");
bootRealm(server, "gmUser0000000001")
  .then((api) => {
    window.benchGM = api;
  })
  .catch((err: unknown) => {
    window.benchGMError = err instanceof Error ? err.message : String(err);
  });
