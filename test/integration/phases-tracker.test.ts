/**
 * The `phases` tracker (issue 13 item 9) as each user sees it: the phase banner (the GM's next-phase
 * button in it), the GM's intent form per foe and each foe's intents in its row (players see them
 * from phase 2 on; issue 29 puts the turn, the roll and the failure in the hero's row too), "Take turn" only for the owner of a hero who
 * may start now, the hand-off pick only for the picking hero's player and the GM, the press-your-luck
 * panel with the next complexity and the dice each skill rolls (Luwe: d8 → 2d8, d10 → 3d10, d6 →
 * 4d6), its controls only for the acting hero's player and the GM, the last roll with its doubles,
 * the GM's failure answer, the Advantage pips against the cap, and Collapse points hidden from
 * players by the setting. Rendered with the real templates: labelled buttons, no untranslated keys.
 */
import { describe, expect, it } from "vitest";
import type { Sim, SimClient } from "../sim/index.js";
import { ALICE, BOB, idOf } from "./world.js";
import { declare, phasesEncounter, phasesWorld, rollSkill, send } from "./phases-world.js";
import type { PhasesPanelContext } from "../../src/modes/phases/panel.js";
import type { PhasesRowContext } from "../../src/modes/phases/rows.js";

interface Control {
  action: string;
  label: string;
  combatantId: string;
  ariaLabel: string;
}
interface Ctx {
  rows: { id: string; name: string; controls: Control[]; mode: PhasesRowContext | null }[];
  setupControls: Control[];
  panel: PhasesPanelContext | null;
  stepLabel: string;
  turnControls: Control[];
}
interface TrackerApp {
  _prepareContext(options: object): Promise<{ structuredInitiative?: Ctx | null }>;
  render(options?: object): Promise<unknown>;
  parts: Record<string, string>;
}

async function contextOf(client: SimClient): Promise<Ctx> {
  const ctx = (await (client.ui.combat as TrackerApp)._prepareContext({})).structuredInitiative;
  if (!ctx) throw new Error("no context");
  return ctx;
}
const panelOf = async (client: SimClient): Promise<PhasesPanelContext> => {
  const panel = (await contextOf(client)).panel;
  if (panel === null) throw new Error("no panel");
  return panel;
};
const rowOf = async (client: SimClient, name: string) => (await contextOf(client)).rows.find((r) => r.name === name);
/** Every row's data of a view, the foes' intents in order. */
const intentsIn = async (client: SimClient) =>
  (await contextOf(client)).rows.flatMap((r) => (r.mode?.intents ?? []).map((i) => ({ ...i, foe: r.name })));
/** The running turn's form, in whichever row it is. */
const turnIn = async (client: SimClient) =>
  (await contextOf(client)).rows.find((r) => r.mode?.turn)?.mode?.turn ?? null;
const actions = (controls: readonly Control[]): string[] => controls.map((c) => c.action);

async function battle(options: { renderTemplates?: boolean; settings?: Record<string, unknown> } = {}): Promise<Sim> {
  const sim = await phasesWorld({
    ...(options.renderTemplates === true ? { renderTemplates: true } : {}),
    ...(options.settings ? { settings: options.settings as Record<string, string> } : {}),
  });
  await phasesEncounter(sim, ["aria", "brom", "officer", "trooper1"]);
  return sim;
}

describe("the phases tracker", () => {
  it("before the start: Start and Start with surprise for the GM only; the banner has the three phases", async () => {
    const sim = await battle();
    expect(actions((await contextOf(sim.gm)).setupControls)).toEqual(["siStart", "siStartSurprise"]);
    expect((await contextOf(sim.client(ALICE))).setupControls).toEqual([]);
    expect((await panelOf(sim.gm)).banner.map((b) => b.label)).toEqual([
      "STRUCTURED_INITIATIVE.Step.foesDeclare",
      "STRUCTURED_INITIATIVE.Step.heroes",
      "STRUCTURED_INITIATIVE.Step.foesResolve",
    ]);
  });

  it("phase 1: the GM's intent form on each foe; players see neither forms nor intents, only which foes declared", async () => {
    const sim = await battle();
    await send(sim, sim.gm, { type: "start", surprise: true });
    const officer = await rowOf(sim.gm, "Officer");
    expect(officer?.mode?.form).toMatchObject({ open: true, canDeclare: true });
    expect(officer?.mode?.form?.targets.map((t) => t.name)).toEqual(["Aria", "Brom"]);
    // Two heroes standing: no target is obvious, none is ticked.
    expect(officer?.mode?.form?.targets.map((t) => t.checked)).toEqual([false, false]);
    expect((await rowOf(sim.gm, "Aria"))?.mode?.form).toBeNull();
    await declare(sim, "officer", "Blaster at Aria", ["aria"]);
    const alice = sim.client(ALICE);
    expect((await rowOf(alice, "Trooper 1"))?.mode?.form).toBeNull();
    expect(await intentsIn(alice)).toEqual([]);
    // Which of the 2 foes have declared (1 of them), not what.
    expect([
      (await rowOf(alice, "Officer"))?.mode?.declared,
      (await rowOf(alice, "Trooper 1"))?.mode?.declared,
    ]).toEqual([true, false]);
    expect((await rowOf(sim.gm, "Officer"))?.mode?.declared).toBe(false);
    expect((await intentsIn(sim.gm)).map((i) => [i.foe, i.text, i.targets])).toEqual([
      ["Officer", "Blaster at Aria", "→ Aria"],
    ]);
    // The surprised round 1 shows its heroes' phase as skipped.
    expect((await panelOf(sim.gm)).banner[1]?.skipped).toBe(true);
  });

  it("with one hero standing, the GM's intent form has that hero ticked as the target (issue 29)", async () => {
    const sim = await phasesWorld({});
    await phasesEncounter(sim, ["aria", "officer", "trooper1"]);
    await send(sim, sim.gm, { type: "start", surprise: false });
    const form = (await rowOf(sim.gm, "Officer"))?.mode?.form;
    expect(form?.targets.map((t) => [t.name, t.checked])).toEqual([["Aria", true]]);
  });

  it("a surprised round 1 names the phase that really comes (Foes resolve) and offers no hand-off for the skipped heroes' phase (issue 27)", async () => {
    const sim = await battle();
    await send(sim, sim.gm, { type: "start", surprise: true });
    // The next-phase button sits on the phase that really comes; the skipped one has none.
    const nextOf = (panel: PhasesPanelContext) =>
      panel.banner.flatMap((b, i) => (b.next === null ? [] : [[i, b.next.action, b.next.label, b.next.ariaLabel]]));
    const surprised = await panelOf(sim.gm);
    expect(nextOf(surprised)).toEqual([
      [
        2,
        "siPhasesNextPhase",
        "STRUCTURED_INITIATIVE.Tracker.Phases.NextPhase.foesResolve",
        "Move on to the next phase: Foes resolve",
      ],
    ]);
    expect(surprised.banner[1]?.skipped).toBe(true);
    expect(surprised.handOff).toBeNull();
    // Round 2 has its heroes' phase: hand-off is offered again and the button names it.
    await send(sim, sim.gm, { type: "nextRound" });
    const regular = await panelOf(sim.gm);
    expect(nextOf(regular)).toEqual([
      [
        1,
        "siPhasesNextPhase",
        "STRUCTURED_INITIATIVE.Tracker.Phases.NextPhase.heroes",
        "Move on to the next phase: Heroes act",
      ],
    ]);
    expect(regular.handOff?.action).toBe("siPhasesHandOff");
    expect(regular.handOff?.label).toBe("STRUCTURED_INITIATIVE.Tracker.Phases.HandOff");
    expect((await panelOf(sim.client(ALICE))).banner.every((b) => b.next === null)).toBe(true);
  });

  it("the acting player has one End turn (the footer's), not a second one in the turn panel (issue 27)", async () => {
    const sim = await battle();
    await send(sim, sim.gm, { type: "start", surprise: false });
    await send(sim, sim.gm, { type: "nextPhase" });
    const alice = sim.client(ALICE);
    await send(sim, alice, { type: "startTurn", combatantId: idOf(alice, "aria") });
    const ctx = await contextOf(alice);
    const turn = await turnIn(alice);
    const ends = [
      ...ctx.turnControls.filter((c) => c.action === "siNextTurn"),
      ...(turn?.end === null || turn?.end === undefined ? [] : [turn.end]),
    ];
    expect(ends.map((c) => c.label)).toEqual(["STRUCTURED_INITIATIVE.Tracker.EndTurn"]);
    expect(turn?.canAct).toBe(true);
    // In Aria's own row, and no other.
    expect(ctx.rows.filter((r) => r.mode?.turn).map((r) => r.name)).toEqual(["Aria"]);
  });

  it("phase 2: intents for everyone; Take turn only on one's own hero while nobody acts", async () => {
    const sim = await battle();
    await send(sim, sim.gm, { type: "start", surprise: false });
    await declare(sim, "officer", "Blaster at Aria", ["aria"]);
    await send(sim, sim.gm, { type: "nextPhase" });
    const alice = sim.client(ALICE);
    expect((await intentsIn(alice)).map((i) => [i.foe, i.text])).toEqual([["Officer", "Blaster at Aria"]]);
    expect(actions((await rowOf(alice, "Aria"))?.controls ?? [])).toEqual(["siPhasesTakeTurn"]);
    expect((await rowOf(alice, "Brom"))?.controls).toEqual([]);
    expect(actions((await rowOf(sim.gm, "Brom"))?.controls ?? [])).toEqual(["siPhasesTakeTurn"]);
    expect((await rowOf(alice, "Trooper 1"))?.mode?.idle).toBe(true);
    await send(sim, alice, { type: "startTurn", combatantId: idOf(alice, "aria") });
    const bob = sim.client(BOB);
    expect((await rowOf(bob, "Brom"))?.controls).toEqual([]);
    expect((await rowOf(bob, "Aria"))?.mode?.toAct).toBe(false);
    expect((await rowOf(bob, "Brom"))?.mode?.toAct).toBe(true);
  });

  it("press your luck: the next complexity and each skill's dice; controls for the acting player and the GM only", async () => {
    const sim = await battle();
    await send(sim, sim.gm, { type: "start", surprise: false });
    await declare(sim, "officer", "Blaster at Brom", ["brom"]);
    await send(sim, sim.gm, { type: "nextPhase" });
    const alice = sim.client(ALICE);
    await send(sim, alice, { type: "startTurn", combatantId: idOf(alice, "aria") });
    const luck = await turnIn(alice);
    expect((await contextOf(alice)).rows.filter((r) => r.mode?.turn).map((r) => r.name)).toEqual(["Aria"]);
    expect(luck?.next).toBe("Next skill action: complexity 2, 2 dice");
    expect(luck?.skills.map((s) => s.label)).toEqual([
      "Athletics d8: 2d8",
      "Melee d8: 2d8",
      "Ranged d10: 2d10",
      "Stealth d6: 2d6",
    ]);
    expect(luck?.dice.map((d) => d.value)).toEqual(["die:4", "die:6", "die:8", "die:10", "die:12"]);
    expect(luck?.defends.map((d) => d.label)).toEqual(["Officer: Blaster at Brom → Brom"]);
    expect(luck?.canRoll).toBe(true);
    expect(luck?.skills.map((s) => [s.value, s.short, s.ariaLabel])[1]).toEqual([
      "skill:Melee",
      "Melee d8",
      "Roll Melee d8: 2d8 for Aria",
    ]);
    expect(luck?.freeControls.map((c) => c.action)).toEqual(["siPhasesFreeMove", "siPhasesFreeItem"]);
    expect(luck?.canGainAdvantage).toBe(true);
    const forBob = await turnIn(sim.client(BOB));
    expect([forBob?.canAct, forBob?.end]).toEqual([false, null]);
    expect((await turnIn(sim.gm))?.canAct).toBe(true);
    await rollSkill(sim, alice, "aria", [1, 7], { skill: "Melee" });
    await rollSkill(sim, alice, "aria", [10, 8, 2], { skill: "Ranged" });
    await send(sim, alice, { type: "freeAction", combatantId: idOf(alice, "aria"), kind: "move" });
    const later = await turnIn(alice);
    expect(later?.next).toBe("Next skill action: complexity 4, 4 dice");
    expect(later?.skills.find((s) => s.label.startsWith("Stealth"))?.label).toBe("Stealth d6: 4d6");
    expect(later?.freeControls.map((c) => c.action)).toEqual(["siPhasesFreeItem"]);
    await rollSkill(sim, alice, "aria", [6, 5, 5, 3], { skill: "Stealth" });
    expect(await turnIn(alice)).toBeNull();
    const lastRoll = (await rowOf(alice, "Aria"))?.mode?.roll;
    expect((await contextOf(alice)).rows.filter((r) => r.mode?.roll).map((r) => r.name)).toEqual(["Aria"]);
    expect((await contextOf(alice)).rows.filter((r) => r.mode?.failure).map((r) => r.name)).toEqual(["Aria"]);
    expect(lastRoll?.dice).toEqual([
      { face: "6", double: false },
      { face: "5", double: true },
      { face: "5", double: true },
      { face: "3", double: false },
    ]);
    expect((await rowOf(alice, "Aria"))?.mode?.failure?.answer).toBeNull();
    expect((await rowOf(sim.gm, "Aria"))?.mode?.failure?.answer?.effect.action).toBe("siPhasesEffect");
  });

  it("hand-off: the pick buttons for the picking hero's player and the GM only", async () => {
    const sim = await battle();
    await send(sim, sim.gm, { type: "start", surprise: false });
    await send(sim, sim.gm, { type: "setHandOff", on: true });
    await send(sim, sim.gm, { type: "nextPhase" });
    const alice = sim.client(ALICE);
    const bob = sim.client(BOB);
    expect((await rowOf(alice, "Aria"))?.controls).toEqual([]);
    expect(actions((await rowOf(sim.gm, "Aria"))?.controls ?? [])).toEqual(["siPhasesPick"]);
    // The hand-off order shows in every view; nobody's hero picks yet (the GM does).
    expect((await panelOf(alice)).handOffBadge).toBe("Hand-off order");
    expect((await contextOf(alice)).rows.some((r) => r.mode?.picks === true)).toBe(false);
    await send(sim, sim.gm, { type: "pickNext", combatantId: idOf(sim.gm, "aria") });
    await send(sim, alice, { type: "endTurn", combatantId: idOf(alice, "aria") });
    expect(actions((await rowOf(alice, "Brom"))?.controls ?? [])).toEqual(["siPhasesPick"]);
    expect((await rowOf(bob, "Brom"))?.controls).toEqual([]);
    expect(actions((await rowOf(sim.gm, "Brom"))?.controls ?? [])).toEqual(["siPhasesPick"]);
    // The player of Aria picks who acts next: her row says so in every view.
    for (const client of [alice, bob, sim.gm]) {
      expect((await rowOf(client, "Aria"))?.mode?.picks).toBe(true);
      expect((await rowOf(client, "Brom"))?.mode?.picks).toBe(false);
    }
  });

  it("pools: pips against the cap; Collapse points hidden from players when the setting says so", async () => {
    const sim = await battle({ settings: { "structured-initiative.phasesShowCollapse": false } });
    await send(sim, sim.gm, { type: "setPoolCap", cap: 3 });
    await send(sim, sim.gm, { type: "start", surprise: false });
    await send(sim, sim.gm, { type: "nextPhase" });
    const alice = sim.client(ALICE);
    await send(sim, alice, { type: "startTurn", combatantId: idOf(alice, "aria") });
    await rollSkill(sim, alice, "aria", [1, 2], { skill: "Melee", gainsAdvantage: true });
    const panel = await panelOf(alice);
    expect(panel.pips.map((p) => p.filled)).toEqual([true, false, false]);
    expect(panel.advantages).toBe("1 of 3 Advantages");
    expect(panel.showCollapse).toBe(false);
    expect(panel.pools).toBeNull();
    expect(panel.spend).not.toBeNull();
    const gm = await panelOf(sim.gm);
    expect([gm.showCollapse, gm.collapse, gm.pools?.cap]).toEqual([true, "2 Collapse points", "3"]);
  });

  it("phase 3: foiled and out-of-reach marks; the GM's out-of-reach toggle", async () => {
    const sim = await battle();
    await send(sim, sim.gm, { type: "start", surprise: false });
    await declare(sim, "officer", "Blaster at Aria", ["aria"]);
    await declare(sim, "trooper1", "Knife at Brom", ["brom"]);
    await send(sim, sim.gm, { type: "nextPhase" });
    const bob = sim.client(BOB);
    await send(sim, bob, { type: "startTurn", combatantId: idOf(bob, "brom") });
    await rollSkill(sim, bob, "brom", [3, 7], { skill: "Presence", defendsIntent: "i1" });
    await send(sim, bob, { type: "endTurn", combatantId: idOf(bob, "brom") });
    // Aria does not act: the GM moves on.
    await send(sim, sim.gm, { type: "nextPhase" });
    const intents = await intentsIn(bob);
    expect(intents.map((i) => [i.foe, i.marks.map((m) => m.text)])).toEqual([
      ["Officer", ["Resolving now"]],
      ["Trooper 1", ["Foiled by Brom"]],
    ]);
    expect(intents.map((i) => i.reach)).toEqual([null, null]);
    const gm = await intentsIn(sim.gm);
    expect(gm[0]?.reach).toMatchObject({ pressed: false });
    expect(gm[1]?.reach).toBeNull();
    await send(sim, sim.gm, { type: "markOutOfReach", intentId: "i0", outOfReach: true });
    expect((await intentsIn(bob))[0]?.marks.map((m) => m.text)).toEqual(["Out of reach", "Resolving now"]);
  });

  it("renders labelled buttons and no untranslated keys, for the GM and the acting player", async () => {
    const sim = await battle({ renderTemplates: true });
    await send(sim, sim.gm, { type: "start", surprise: false });
    const gmApp = sim.gm.ui.combat as TrackerApp;
    await gmApp.render();
    let html = Object.values(gmApp.parts).join("");
    expect(html).toContain('name="structured-initiative-phases-intent"');
    // Filled on use: only the form of the foe declaring now has its fields; the others, closed, come when opened.
    expect(html.match(/<details class="si-phases-form"/g)?.length).toBeGreaterThan(1);
    expect(html.match(/name="structured-initiative-phases-intent"/g)).toHaveLength(1);
    await declare(sim, "officer", "Blaster at Aria", ["aria"]);
    await send(sim, sim.gm, { type: "nextPhase" });
    const alice = sim.client(ALICE);
    await send(sim, alice, { type: "startTurn", combatantId: idOf(alice, "aria") });
    await rollSkill(sim, alice, "aria", [2, 2], { skill: "Melee" });
    for (const app of [gmApp, alice.ui.combat as TrackerApp]) {
      await app.render();
      html = Object.values(app.parts).join("");
      expect(html).toContain("si-phases-die--double");
      for (const b of html.match(/<button[^>]*>/g) ?? []) expect(b).toMatch(/aria-label="[^"]+"/);
      expect(html).not.toMatch(/STRUCTURED_INITIATIVE\./);
    }
    expect(html).toContain(
      "The roll of Aria failed on doubles and the turn has ended: the GM chooses its consequence.",
    );
  });
});
