/**
 * The `sides` tracker in the simulated Foundry (issue 5 item 6): the step banner, sides with colour
 * and roll, who declares now with the declaration form for its owner only, declared actions and
 * penalty per row, the pass order, and every control a labelled button. Localised, logic-free
 * templates, user text escaped.
 */
import { describe, expect, it } from "vitest";
import type { SimClient } from "../sim/index.js";
import { combatOn } from "./world.js";
import { ALICE, BOB, cid, rollSideAs, run, sidesApi, sidesEncounter, sidesWorld } from "./sides-world.js";

interface TrackerApp {
  render(options?: object): Promise<unknown>;
  parts: Record<string, string>;
}
const tracker = (client: SimClient): TrackerApp => client.ui.combat as TrackerApp;

async function html(client: SimClient): Promise<string> {
  await tracker(client).render();
  return Object.values(tracker(client).parts).join("");
}

function expectLabelledButtons(text: string): void {
  const buttons = text.match(/<button[^>]*>/g) ?? [];
  expect(buttons.length).toBeGreaterThan(0);
  for (const b of buttons) expect(b).toMatch(/aria-label="[^"]+"/);
}

describe("the sides tracker", () => {
  it("shows the steps, sides, declarations, penalties and the pass order to each user", async () => {
    const sim = await sidesWorld({ renderTemplates: true });
    await sidesEncounter(sim, ["ace", "jaluun", "officer", "trooper1"]);
    const alice = sim.client(ALICE);
    const bob = sim.client(BOB);
    let gmView = await html(sim.gm);
    expect(gmView).toContain("Heroes");
    expect(gmView).toContain("--si-side-colour: #2f7d4f");
    expect(gmView).toContain("Add side");
    expect(await html(alice)).not.toContain("Add side");

    await run(sim, sim.gm, { type: "start" });
    gmView = await html(sim.gm);
    expect(gmView).toContain('data-si="banner">Initiative<');
    expect(await html(alice)).toContain("Roll initiative for Heroes");
    expect(await html(bob)).not.toContain("Roll initiative for Heroes");

    await rollSideAs(sim, "Heroes", [6, 6, 6]);
    await rollSideAs(sim, "Foes", [1, 1, 1, 1]);
    const gm = combatOn(sim.gm);
    await sidesApi(sim.gm).declare(gm, cid(sim.gm, "trooper1"), ["<b>Shoot</b>"], false);
    await sim.settle();
    await sidesApi(sim.gm).declare(gm, cid(sim.gm, "officer"), ["Aim", "Shoot"], false);
    await sim.settle();
    gmView = await html(sim.gm);
    expect(gmView).toContain('data-si="banner">Declaration<');
    expect(gmView).toContain("Jaluun declares now");
    expect(gmView).toContain("&lt;b&gt;Shoot&lt;/b&gt;");
    expect(gmView).not.toContain("<b>Shoot</b>");
    expect(gmView).toContain("Penalty −1D");
    // The declaration form: for Jaluun's owner and the GM, not for Alice.
    expect(await html(bob)).toContain("Declare the actions of Jaluun");
    expect(await html(alice)).not.toContain("Declare the actions of Jaluun");
    expect(gmView).toContain("Declare the actions of Jaluun");

    await sidesApi(bob).declare(combatOn(bob), cid(bob, "jaluun"), ["Fire", "Fire"], false);
    await sim.settle();
    await sidesApi(alice).declare(combatOn(alice), cid(alice, "ace"), ["Dive"], false);
    await sim.settle();
    const aliceView = await html(alice);
    expect(aliceView).toContain('data-si="banner">Pass 1<');
    expect(aliceView).toContain("Ace dodges");
    expect(aliceView).toContain("Ace acts after the chosen character");
    expect(aliceView).not.toContain("Jaluun dodges");
    expect(aliceView).toContain("Pass order");
    expectLabelledButtons(aliceView);
    expectLabelledButtons(await html(sim.gm));
  });
});
