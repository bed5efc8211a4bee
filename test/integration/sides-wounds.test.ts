/**
 * RULES.md §1: the side's roller makes one roll for the side, and "wound penalties apply" — read
 * through a configurable formula, taken off the roller's initiative score before rolling.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../sim/utils.js";
import { expectNoErrors } from "./world.js";
import { ACTORS, D6, rollSideAs, run, sidesEncounter, sidesWorld } from "./sides-world.js";

/** The cast, with the Officer (Tactics 4D+1, the Foes' roller) wounded: −1D. */
const WOUNDED: JsonObject[] = ACTORS.map((a) =>
  a._id === D6.officer ? { ...a, system: { ...(a.system as JsonObject), wounds: "1D" } } : a,
);

function rolledFormulas(messages: readonly JsonObject[]): string[] {
  return messages.map((m) => {
    const roll = (m.rolls as unknown[])[0];
    return ((typeof roll === "string" ? JSON.parse(roll) : roll) as { formula: string }).formula;
  });
}

describe("side initiative: wound penalties apply to the side's roll", () => {
  it("a wounded roller rolls its initiative score less the wound penalty", async () => {
    const sim = await sidesWorld({
      actors: WOUNDED,
      settings: { "structured-initiative.sidesWoundPenalty": "@wounds" },
    });
    await sidesEncounter(sim, ["ace", "officer", "trooper1"]);
    expect((await run(sim, sim.gm, { type: "start" })).ok).toBe(true);
    expect(await rollSideAs(sim, "Foes", [1, 1, 1])).toEqual({ ok: true });
    // 4D+1 less 1D: three dice and the pip.
    expect(rolledFormulas(sim.server.world.messages)).toEqual(["3d6 + 1"]);
    expectNoErrors(sim);
  });

  it("without a wound formula (the default) the full score is rolled", async () => {
    const sim = await sidesWorld({ actors: WOUNDED });
    await sidesEncounter(sim, ["ace", "officer", "trooper1"]);
    expect((await run(sim, sim.gm, { type: "start" })).ok).toBe(true);
    expect(await rollSideAs(sim, "Foes", [1, 1, 1, 1])).toEqual({ ok: true });
    expect(rolledFormulas(sim.server.world.messages)).toEqual(["4d6 + 1"]);
  });
});
