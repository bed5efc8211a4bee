// How the project runs Chromium (browser tests and the render bench): Debian's package, headless,
// with the launch flags of TOOLCHAIN.md for this machine.

/** The Chromium binary (Debian's package; CHROMIUM_PATH overrides it). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Chromium's launch flags. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
