/**
 * One playground server and one Chromium for the whole browser-test run: every file's session loads
 * its pages from that server (`servePlayground` in browser.ts), so Vite transforms the playground's
 * modules once, not once per file, and opens its own browser context in that Chromium (a fresh
 * profile per file, as before), which saves a browser launch per file.
 */
import path from "node:path";
import { chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/chromium.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");

declare module "vitest" {
  export interface ProvidedContext {
    /** The shared playground server's URL. */
    playgroundUrl: string;
    /** The shared Chromium's endpoint (playwright's `connect`). */
    browserEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { startPlayground } = (await import(path.join(ROOT, "scripts/start.mjs"))) as {
    startPlayground: (options: {
      port: number;
      quiet: boolean;
    }) => Promise<{ server: { close(): Promise<void> }; url: string }>;
  };
  const { server, url } = await startPlayground({ port: 5190, quiet: true });
  const browser = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
  project.provide("playgroundUrl", url);
  project.provide("browserEndpoint", browser.wsEndpoint());
  return async () => {
    await browser.close();
    await server.close();
  };
}
