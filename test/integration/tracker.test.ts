/**
 * The combat tracker in the simulated Foundry: what each user's tracker context holds and renders.
 * A player's tracker offers controls only for combatants that player owns; the GM's offers all;
 * a "system default" encounter renders exactly the parts the system's tracker renders.
 */
import { describe, expect, it } from "vitest";
import type { SimClient } from "../sim/index.js";
import { ALICE, BOB, apiOn, combatOn, encounter, idOf, rollAs, start, world } from "./world.js";

interface Control {
  action: string;
  combatantId: string;
  ariaLabel: string;
}
interface Row {
  id: string;
  name: string;
  controls: Control[];
  isCurrent: boolean;
  /**
   * The mode's row data: individual lays out its row's line itself, so its controls are
   * `mode.controls`, its Ready button with its trigger field `mode.ready`, the GM's set-up buttons
   * the row menu's `mode.menu` (issue 29).
   */
  mode: { ready?: Control | null; controls?: Control[]; menu?: Control[] } | null;
  individual: { flatFooted: boolean; delaying: boolean; inGroup: boolean } | null;
}
interface TrackerContext {
  mode: string;
  round: number;
  currentName: string;
  nextName: string;
  rows: Row[];
  setupControls: Control[];
  turnControls: Control[];
  canChooseMode: boolean;
}

interface TrackerApp {
  _prepareContext(options: object): Promise<{ structuredInitiative?: TrackerContext | null }>;
  _configureRenderParts(options: object): Record<string, { template: string }>;
  render(options?: object): Promise<unknown>;
  parts: Record<string, string>;
  constructor: { name: string };
}

const tracker = (client: SimClient): TrackerApp => client.ui.combat as TrackerApp;

async function contextOf(client: SimClient): Promise<TrackerContext> {
  const ctx = (await tracker(client)._prepareContext({})).structuredInitiative;
  if (!ctx) throw new Error(`no structured context on ${client.userId}`);
  return ctx;
}

/** Every control of a row: the shared line's and the mode's own (its line and its menu). */
function rowControls(row: Row | undefined): Control[] {
  return row === undefined ? [] : [...row.controls, ...(row.mode?.controls ?? []), ...(row.mode?.menu ?? [])];
}

/** Every combatant id any control of this context acts for. */
function controlled(ctx: TrackerContext): Set<string> {
  const ids = new Set<string>();
  for (const row of ctx.rows) {
    for (const c of rowControls(row)) ids.add(c.combatantId || row.id);
    if (row.mode?.ready) ids.add(row.id);
  }
  for (const c of [...ctx.setupControls, ...ctx.turnControls]) if (c.combatantId) ids.add(c.combatantId);
  return ids;
}

describe("the structured combat tracker", () => {
  it("is the module's subclass, named for its render hook", async () => {
    const sim = await world();
    expect(tracker(sim.gm).constructor.name).toBe("SICombatTracker");
  });

  it("before the start: a player sees a roll control only for the combatant they own; the GM sees all", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom", "officer"]);
    const alice = sim.client(ALICE);
    const ctx = await contextOf(alice);
    expect(ctx.mode).toBe("individual");
    expect(ctx.canChooseMode).toBe(false);
    expect([...controlled(ctx)]).toEqual([idOf(alice, "aria")]);
    // A player's own roll is on the row.
    const aria = ctx.rows.find((r) => r.id === idOf(alice, "aria"));
    expect(aria?.mode?.controls?.map((c) => c.action)).toEqual(["siRoll"]);
    expect(aria?.mode?.menu).toEqual([]);
    const gm = await contextOf(sim.gm);
    expect(gm.canChooseMode).toBe(true);
    expect(controlled(gm)).toEqual(new Set(["aria", "brom", "officer"].map((k) => idOf(sim.gm, k as "aria"))));
    // The GM's set-up buttons are in the row's menu, off the row (issue 29).
    const officer = gm.rows.find((r) => r.name === "Officer");
    expect(officer?.mode?.menu?.map((c) => c.action)).toEqual(["siRoll", "siAware", "siGroup"]);
    expect(rowControls(officer).map((c) => c.action)).toEqual(["siRoll", "siAware", "siGroup"]);
  });

  it("after the start: only the owner of the acting combatant gets delay, ready and end turn", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom", "officer"]);
    const combat = combatOn(sim.gm);
    sim.dice.push(10, 15, 12); // Aria 13, Brom 16, Officer 14
    await combat.rollInitiative(["aria", "brom", "officer"].map((k) => idOf(sim.gm, k as "aria")));
    await sim.settle();
    await apiOn(sim.gm).command(combat, { type: "start" });
    await sim.settle();
    const bob = sim.client(BOB);
    const alice = sim.client(ALICE);
    const bobCtx = await contextOf(bob);
    expect(bobCtx.currentName).toBe("Brom");
    expect(bobCtx.nextName).toBe("Officer");
    const brom = bobCtx.rows.find((r) => r.isCurrent);
    expect(rowControls(brom).map((c) => c.action)).toEqual(["siDelay"]);
    expect(brom?.mode?.ready?.action).toBe("siReady");
    expect(bobCtx.turnControls.map((c) => c.action)).toEqual(["siNextTurn"]);
    const aliceCtx = await contextOf(alice);
    expect(controlled(aliceCtx).size).toBe(0);
    expect(aliceCtx.turnControls).toEqual([]);
    const gmCtx = await contextOf(sim.gm);
    expect(gmCtx.turnControls.map((c) => c.action)).toEqual([
      "siPreviousRound",
      "siPreviousTurn",
      "siNextTurn",
      "siNextRound",
      "siEndCombat",
    ]);
  });

  it("renders the module's parts with every control a labelled button", async () => {
    const sim = await world({ renderTemplates: true });
    await encounter(sim, ["aria", "brom", "officer"]);
    const alice = sim.client(ALICE);
    await tracker(alice).render();
    const parts = tracker(alice).parts;
    expect(Object.keys(parts)).toEqual(["header", "structuredInitiativeGlance", "tracker", "footer"]);
    const html = Object.values(parts).join("");
    const buttons = html.match(/<button[^>]*>/g) ?? [];
    expect(buttons.length).toBeGreaterThan(0);
    for (const b of buttons) expect(b).toMatch(/aria-label="[^"]+"/);
    expect(html).toContain("Roll initiative for Aria");
    expect(html).not.toContain("Roll initiative for Brom");
    expect(html).toContain("Individual initiative");
    // The round and the step appear once each: the header names the round (issue 15 item 13).
    const times = (text: string): number => html.split(text).length - 1;
    expect([times("Round 0"), times("Setting up")]).toEqual([1, 1]);
    await rollAs(sim, { aria: 15, brom: 10, officer: 4 });
    await start(sim);
    await tracker(alice).render();
    const started = Object.values(tracker(alice).parts).join("");
    expect([started.split("Round 1").length - 1, started.split("Regular round").length - 1]).toEqual([1, 1]);
  });

  it("players see at once when the GM leaves and when the GM comes back", async () => {
    const sim = await world({ renderTemplates: true });
    await encounter(sim, ["aria", "brom"]);
    const alice = sim.client(ALICE);
    await tracker(alice).render();
    const noGM = (): boolean => Object.values(tracker(alice).parts).join("").includes("No GM is connected");
    expect(noGM()).toBe(false);
    sim.gm.disconnect();
    await sim.settle();
    expect(noGM()).toBe(true);
    await sim.gm.reload();
    await sim.settle();
    expect(noGM()).toBe(false);
  });

  const PARENT_PARTS = {
    header: { template: "templates/sidebar/tabs/combat/header.hbs" },
    tracker: { template: "templates/sidebar/tabs/combat/tracker.hbs" },
    footer: { template: "templates/sidebar/tabs/combat/footer.hbs" },
  };
  const GLANCE = "modules/structured-initiative/templates/tracker/glance.hbs";

  it("a system-default encounter renders the parent's parts and context, with the glance part empty but for the GM's mode select before the start", async () => {
    const sim = await world({ renderTemplates: true });
    await encounter(sim, ["aria", "brom"], "system");
    // A player: the parent's parts, the glance part (issue 14 item 4: always configured) after the header.
    const alice = tracker(sim.client(ALICE));
    const parts = alice._configureRenderParts({});
    expect(Object.keys(parts)).toEqual(["header", "structuredInitiativeGlance", "tracker", "footer"]);
    expect({ header: parts.header, tracker: parts.tracker, footer: parts.footer }).toEqual(PARENT_PARTS);
    expect(parts.structuredInitiativeGlance?.template).toBe(GLANCE);
    const ctx = await alice._prepareContext({});
    expect("structuredInitiative" in ctx).toBe(false);
    expect("structuredInitiativeMode" in ctx).toBe(false);
    await alice.render();
    expect(alice.parts.tracker).toContain("Aria");
    // The glance part is empty (and hidden); nothing else of the module's is rendered.
    expect(alice.parts.structuredInitiativeGlance?.trim()).toMatch(
      /^<section class="structured-initiative si-glance si-glance--empty" hidden><\/section>$/,
    );
    expect([alice.parts.header, alice.parts.tracker, alice.parts.footer].join("")).not.toContain(
      "structured-initiative",
    );
    // The GM before the start: the same parts, the mode select in the glance part (issue 15 item 13).
    const app = tracker(sim.gm);
    expect(Object.keys(app._configureRenderParts({}))).toEqual([
      "header",
      "structuredInitiativeGlance",
      "tracker",
      "footer",
    ]);
    expect("structuredInitiative" in (await app._prepareContext({}))).toBe(false);
    await app.render();
    expect(app.parts.tracker).toContain("Aria");
    const select = app.parts.structuredInitiativeGlance ?? "";
    expect(select).toContain('name="structured-initiative-mode"');
    expect([...select.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1])).toEqual([
      "system",
      "individual",
      "sides",
      "slots",
      "declare-resolve",
      "phases",
    ]);
    // Started: the same parts, the glance part empty again.
    await combatOn(sim.gm).startCombat();
    await sim.settle();
    expect(Object.keys(app._configureRenderParts({}))).toEqual([
      "header",
      "structuredInitiativeGlance",
      "tracker",
      "footer",
    ]);
    await app.render();
    expect(app.parts.structuredInitiativeGlance).not.toContain("select");
  });

  it("after choosing system default, the GM can go back to a structured mode before the start", async () => {
    const sim = await world({ renderTemplates: true });
    await encounter(sim, ["aria", "brom"]);
    expect(await apiOn(sim.gm).setMode(combatOn(sim.gm), "system")).toEqual({ ok: true });
    await sim.settle();
    const app = tracker(sim.gm);
    await app.render();
    expect(app.parts.structuredInitiativeGlance).toContain('<option value="system" selected>');
    // The select's change goes through setMode.
    expect(await apiOn(sim.gm).setMode(combatOn(sim.gm), "individual")).toEqual({ ok: true });
    await sim.settle();
    expect(apiOn(sim.gm).modeOf(combatOn(sim.gm))).toBe("individual");
    await app.render();
    expect(app.parts.structuredInitiativeGlance).toContain('<option value="individual" selected>');
    expect(app.parts.tracker).toContain("si-list");
  });

  it("the mode choices are the registered modes only", async () => {
    const sim = await world();
    await encounter(sim, ["aria"]);
    const ctx = (await tracker(sim.gm)._prepareContext({})).structuredInitiative as unknown as {
      modeChoice: { value: string }[];
    };
    expect(ctx.modeChoice.map((c) => c.value)).toEqual(apiOn(sim.gm).modes);
    expect(apiOn(sim.gm).modes).toEqual(["system", "individual", "sides", "slots", "declare-resolve", "phases"]);
  });
});
