/** Where `npm run build:playground` writes the static site. */
export const PLAYGROUND_OUT: string;
/** Build the static playground into `outDir`. */
export function buildPlayground(outDir?: string, options?: { quiet?: boolean }): Promise<string>;
