/**
 * The `sides` tracker in the simulated Foundry (issue 5 item 6): the step banner, sides with colour
 * and roll, who declares now with the declaration form for its owner only, declared actions and
 * penalty per row, the pass order, and every control a labelled button. Localised, logic-free
 * templates, user text escaped.
 */
import { describe, expect, it } from "vitest";
import type { SimClient } from "../sim/index.js";
import { combatOn } from "./world.js";
import { ALICE, BOB, cid, rollSideAs, run, sidesApi, sidesEncounter, sidesOn, sidesWorld } from "./sides-world.js";

interface TrackerApp {
  render(options?: object): Promise<unknown>;
  parts: Record<string, string>;
}
const tracker = (client: SimClient): TrackerApp => client.ui.combat as TrackerApp;

async function html(client: SimClient): Promise<string> {
  await tracker(client).render();
  return Object.values(tracker(client).parts).join("");
}

/** How often a text appears in the rendered tracker. */
const times = (html: string, text: string): number => html.split(text).length - 1;

function expectLabelledButtons(text: string): void {
  const buttons = text.match(/<button[^>]*>[^<]*/g) ?? [];
  expect(buttons.length).toBeGreaterThan(0);
  for (const b of buttons) {
    expect(b).toMatch(/aria-label="[^"]+"/);
    // WCAG 2.5.3, label in name: the module's buttons' accessible names contain the text they show.
    const [, name = "", shown = ""] = /data-action="si[^"]*"[^>]*aria-label="([^"]*)"[^>]*>([^<]*)/.exec(b) ?? [];
    const words = shown.trim().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    // An icon button (the hints' ?, its glyph aria-hidden) shows no text to contain.
    if (words === "") continue;
    expect(name).toMatch(new RegExp(`(^|\\P{L})${words}($|\\P{L})`, "iu"));
  }
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
    // The step and the round appear once each (the banner names the step, the header the round).
    expect(times(gmView, "Setting up")).toBe(1);
    expect(times(gmView, "Round 0")).toBe(1);
    // Before the start the GM moves characters and picks rollers.
    expect(gmView).toContain('aria-label="Move Jaluun to the chosen side"');
    expect(gmView).toContain('aria-label="Roller: Jaluun rolls for the side"');

    await run(sim, sim.gm, { type: "start" });
    gmView = await html(sim.gm);
    expect(gmView).toContain('data-si="step">Initiative<');
    expect(times(gmView, ">Initiative<")).toBe(1);
    expect(times(gmView, "Round 1")).toBe(1);
    // After the start: no Move or Roller controls (issue 15 item 13).
    expect(gmView).not.toContain("to the chosen side");
    expect(gmView).not.toContain('rolls for the side"');
    expect(await html(alice)).toContain(">Roll Heroes<");
    expect(await html(bob)).not.toContain(">Roll Heroes<");

    await rollSideAs(sim, "Heroes", [6, 6, 6]);
    await rollSideAs(sim, "Foes", [1, 1, 1, 1]);
    const gm = combatOn(sim.gm);
    await sidesApi(sim.gm).declare(gm, cid(sim.gm, "trooper1"), ["<b>Shoot</b>"], false);
    await sim.settle();
    await sidesApi(sim.gm).declare(gm, cid(sim.gm, "officer"), ["Aim", "Shoot"], false);
    await sim.settle();
    gmView = await html(sim.gm);
    expect(gmView).toContain('data-si="step">Declaration<');
    expect(gmView).toContain("Jaluun declares now");
    // The rows keep the passes' order; who has yet to declare shows its place in the declaring order
    // (the declarer is marked as declaring, those done show their actions), in every view.
    const rowMarks = (text: string): string[] => text.match(/si-badge--muted">declares #\d+</g) ?? [];
    expect(rowMarks(gmView)).toEqual(['si-badge--muted">declares #4<']);
    expect(rowMarks(await html(alice))).toEqual(['si-badge--muted">declares #4<']);
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
    expect(aliceView).toContain('data-si="step">Pass 1<');
    expect(aliceView).toContain("Ace dodges");
    // The slow-down choice is filled when opened: until then its summary alone, on Ace's row only.
    expect(times(aliceView, 'data-si-fill="sidesSlow"')).toBe(1);
    expect(aliceView).toMatch(
      new RegExp(
        `data-combatant-id="${cid(alice, "ace")}" data-si-fill="sidesSlow">\\s*<summary>Slow down…</summary>\\s*</details>`,
      ),
    );
    expect(aliceView).not.toContain("structured-initiative-after");
    expect(aliceView).not.toContain("Jaluun dodges");
    expect(aliceView).toContain("Pass order");
    expectLabelledButtons(aliceView);
    expectLabelledButtons(await html(sim.gm));
  });

  it("reactions are limited per round by the world setting, and the row counts them (issue 15 item 11)", async () => {
    const sim = await sidesWorld({ renderTemplates: true, settings: { "structured-initiative.sidesMaxReactions": 3 } });
    await sidesEncounter(sim, ["ace", "jaluun", "officer", "trooper1"]);
    await run(sim, sim.gm, { type: "start" });
    expect(sidesOn(sim.gm).maxReactions).toBe(3);
    await rollSideAs(sim, "Heroes", [6, 6, 6]);
    await rollSideAs(sim, "Foes", [1, 1, 1, 1]);
    const gm = combatOn(sim.gm);
    for (const key of ["trooper1", "officer", "jaluun", "ace"] as const) {
      await sidesApi(sim.gm).declare(gm, cid(sim.gm, key), ["Shoot"], false);
      await sim.settle();
    }
    const alice = sim.client(ALICE);
    const ace = cid(alice, "ace");
    for (let i = 0; i < 3; i++)
      expect(await sidesApi(alice).react(combatOn(alice), ace, "dodge")).toEqual({ ok: true });
    await sim.settle();
    expect(await sidesApi(alice).react(combatOn(alice), ace, "dodge")).toMatchObject({
      ok: false,
      code: "tooManyReactions",
    });
    await sim.settle();
    expect(alice.notifications.at(-1)?.message).toBe("Ace has made as many reactions as a character may this round.");
    const view = await html(alice);
    expect(view).toContain("Reactions: Dodge ×3");
    expect(view).not.toContain("Dodge, Dodge");
    // At the limit the reaction buttons are gone.
    expect(view).not.toContain("Ace dodges");
    expect(view).toContain("Penalty −3D");
  });
});
