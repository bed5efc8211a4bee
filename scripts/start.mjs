// `npm start`: builds the module, then serves the browser playground (playground/) with Vite: the
// simulated Foundry running the built bundle, templates and styles, a GM and two player views.
// Prints the URL and keeps serving until stopped (Ctrl+C); it never waits for input.
import { execSync } from "node:child_process";
import path from "node:path";
import { createServer } from "vite";

const root = path.resolve(import.meta.dirname, "..");

/**
 * Start the playground's dev server; resolves with the server and its URL. `isolated` serves the
 * pages cross-origin isolated, which gives `performance.now()` microsecond resolution (the render
 * benchmark; otherwise Chromium rounds it to 0.1 ms).
 */
export async function startPlayground({ port = 5173, quiet = false, isolated = false } = {}) {
  const headers = isolated
    ? { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" }
    : {};
  const server = await createServer({
    configFile: path.join(root, "playground/vite.config.ts"),
    server: { port, headers },
    logLevel: quiet ? "error" : "warn",
  });
  await server.listen();
  const url = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/`;
  return { server, url };
}

if (process.argv[1] === import.meta.filename) {
  execSync("npm run build", { cwd: root, stdio: "inherit" });
  const { url } = await startPlayground();
  console.log(`\nStructured Initiative playground: ${url}`);
  console.log("A GM and two player views share one simulated Foundry server. Stop with Ctrl+C.");
}
