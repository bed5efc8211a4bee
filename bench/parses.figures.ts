/**
 * How often one `slots` claim makes the GM's client parse the stored encounter (`npm run bench`). The
 * bench builds a second bundle, from `bench/parse-count-entry.ts`: the module's own entry plus its
 * `parseCount()` on `globalThis` (the shipped bundle is fully minified and exposes nothing). The
 * claim is Alice's, on a started encounter, applied by the GM. A parse reads the flag and the mode's
 * state once (`loadBound` in src/foundry/authority/encounters.ts). Target: one parse per stored
 * revision the GM's client sees, whatever reads the state. Prints the counts; asserts nothing about
 * speed.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "vite";
import { it } from "vitest";
import { ALICE, apiOn, combatOn, idOf, world } from "../test/integration/world.js";
import { rollChecks, slotsEncounter } from "../test/integration/slots-world.js";
import { report } from "./shared.js";

const ROOT = path.resolve(import.meta.dirname, "..");

/** The counting bundle: the module built from `parse-count-entry.ts` with the project's Vite config. */
async function countingBundle(): Promise<string> {
  const outDir = mkdtempSync(path.join(tmpdir(), "si-parses-"));
  await build({
    configFile: path.join(ROOT, "vite.config.ts"),
    root: ROOT,
    logLevel: "warn",
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: false,
      lib: { entry: path.join(ROOT, "bench/parse-count-entry.ts"), formats: ["es"], fileName: () => "bundle.js" },
    },
  });
  return path.join(outDir, "bundle.js");
}

async function claimCounts(
  bundlePath: string,
  renderTemplates: boolean,
): Promise<{ parses: number; revisions: number }> {
  const sim = await world({ bundlePath, renderTemplates });
  await slotsEncounter(sim, ["aria", "brom", "officer", "trooper1", "trooper2"]);
  await rollChecks(sim, { aria: [3, 2], brom: [5, 1], officer: [4, 4], trooper1: [3, 2], trooper2: [2, 0] });
  await combatOn(sim.gm).startCombat();
  await sim.settle();
  const revision = (): number =>
    (combatOn(sim.gm).getFlag("structured-initiative", "encounter") as { rev: number }).rev;
  const before = revision();
  const parses = (): number => sim.gm.eval("globalThis.__siParseCount()") as number;
  const parsedBefore = parses();
  const alice = sim.client(ALICE);
  const result = await apiOn(alice).command(combatOn(alice), {
    type: "claimSlot",
    slot: 2,
    combatantId: idOf(alice, "aria"),
  });
  await sim.settle();
  if (!result.ok) throw new Error(`claim refused: ${JSON.stringify(result)}`);
  return { parses: parses() - parsedBefore, revisions: revision() - before };
}

it("parse counts for one slots claim", async () => {
  const bundle = await countingBundle();
  const rows = [];
  for (const tracker of [false, true]) {
    const { parses, revisions } = await claimCounts(bundle, tracker);
    rows.push({ "tracker rendered": tracker, parses, revisions });
  }
  report(
    "Stored-encounter parses on the GM's client for one player's slots claim (target: one per revision)",
    "parses.json",
    ["tracker rendered", "parses", "revisions"],
    rows,
  );
});
