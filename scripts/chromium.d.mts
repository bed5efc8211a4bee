/** The Chromium binary (Debian's package; CHROMIUM_PATH overrides it). */
export const CHROMIUM: string;
/** Chromium's launch flags. */
export const CHROMIUM_ARGS: readonly string[];
