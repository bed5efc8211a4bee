/** What the top page shares with the client iframes (same origin: they reach it as `parent.siPlayground`). */
import type { SimServer } from "../test/sim/server.js";

/** The playground's shared state, held by the top page. */
export interface PlaygroundHost {
  /** The one simulated server every client iframe connects to. */
  readonly server: SimServer;
  /** The sample encounter the GM client sets up on a fresh world ("none" for an empty world). */
  readonly sample: string;
  /** The sidebar theme. */
  readonly theme: "dark" | "light";
  /** The Foundry generation every client emulates (`?generation=14`; 13 by default). */
  readonly generation: 13 | 14;
  /**
   * Every view checks each render of its tracker against a fresh render of the same state
   * (`?oracle=1`, which the browser tests always set; test/oracle/render-oracle.ts).
   */
  readonly oracle: boolean;
  /** The language every client shows (`?lang=ja`, a code of module.json's `languages`; "en" by default). */
  readonly lang: string;
}

/** What a client iframe exposes to the top page. */
export interface ClientHandle {
  /** Add every token of the scene to the viewed encounter (the GM's "add to combat"). */
  addSceneTokens(): Promise<void>;
  /** Switch the sidebar theme. */
  setTheme(theme: "dark" | "light"): void;
}

/** What a client iframe's render oracle exposes to the browser tests (with `?oracle=1`). */
export interface OracleHandle {
  /** What differed from a fresh render so far; emptied by {@link OracleHandle.take}. */
  readonly mismatches: readonly string[];
  /** Check the trackers once more (nothing pending), then hand over and forget every mismatch. */
  take(): Promise<string[]>;
}

declare global {
  interface Window {
    siPlayground?: PlaygroundHost;
    siClient?: ClientHandle;
    siRenderOracle?: OracleHandle;
  }
}
