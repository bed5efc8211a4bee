/**
 * How often one `slots` claim makes the GM's client parse the stored encounter flag and the slots
 * state (`npm run bench`). A copy of the built bundle counts each call of `parseStoredEncounter` and
 * of every `parse…State` function (the names survive the build); the claim is Alice's, on a started
 * encounter, applied by the GM. Target: the flag is parsed once per stored revision the GM's client
 * sees, the state once per parse of the flag (no consumer parses again). Prints the counts; asserts
 * nothing about speed.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { it } from "vitest";
import { ALICE, apiOn, combatOn, idOf, world } from "../test/integration/world.js";
import { rollChecks, slotsEncounter } from "../test/integration/slots-world.js";
import { report } from "./shared.js";

const COUNTER = "__siParseCounts";

/** The built bundle with a counter at the start of every parse function. */
function countingBundle(): string {
  const source = readFileSync(path.resolve(import.meta.dirname, "../dist/scripts/structured-initiative.js"), "utf8");
  const counted = source.replace(
    /function (parseStoredEncounter|parse\w+State)\(([^)]*)\) \{/g,
    (whole, name: string) =>
      `${whole} (globalThis.${COUNTER} ??= {}).${name} = (globalThis.${COUNTER}.${name} ?? 0) + 1;`,
  );
  const file = path.join(mkdtempSync(path.join(tmpdir(), "si-parses-")), "bundle.js");
  writeFileSync(file, counted);
  return file;
}

async function claimCounts(renderTemplates: boolean): Promise<{ counts: Record<string, number>; revisions: number }> {
  const sim = await world({ bundlePath: countingBundle(), renderTemplates });
  await slotsEncounter(sim, ["aria", "brom", "officer", "trooper1", "trooper2"]);
  await rollChecks(sim, { aria: [3, 2], brom: [5, 1], officer: [4, 4], trooper1: [3, 2], trooper2: [2, 0] });
  await combatOn(sim.gm).startCombat();
  await sim.settle();
  const revision = (): number =>
    (combatOn(sim.gm).getFlag("structured-initiative", "encounter") as { rev: number }).rev;
  const before = revision();
  sim.gm.eval(`globalThis.${COUNTER} = {}`);
  const alice = sim.client(ALICE);
  const result = await apiOn(alice).command(combatOn(alice), {
    type: "claimSlot",
    slot: 2,
    combatantId: idOf(alice, "aria"),
  });
  await sim.settle();
  if (!result.ok) throw new Error(`claim refused: ${JSON.stringify(result)}`);
  return { counts: sim.gm.eval(`globalThis.${COUNTER}`) as Record<string, number>, revisions: revision() - before };
}

it("parse counts for one slots claim", async () => {
  const rows = [];
  for (const tracker of [false, true]) {
    const { counts, revisions } = await claimCounts(tracker);
    for (const fn of ["parseStoredEncounter", "parseSlotsState"])
      rows.push({ function: fn, "tracker rendered": tracker, calls: counts[fn] ?? 0, revisions });
  }
  report(
    "Parses on the GM's client for one player's slots claim (target: one per revision)",
    "parses.json",
    ["function", "tracker rendered", "calls", "revisions"],
    rows,
  );
});
