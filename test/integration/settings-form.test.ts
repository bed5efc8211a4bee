/**
 * Settings that read like a form (issue 16 item 7): one settings menu, GM only, opening one
 * ApplicationV2 form that groups every world setting of the module by mode (shared first), with
 * hints; every formula is checked before saving, and a bad one is shown and saves nothing; saving
 * writes only what changed; "reset to preset" restores the running system's presets. The flat list
 * is gone: every setting is registered with `config: false` and stays readable and writable.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, createSim, type Sim, type SimClient } from "../sim/index.js";
import { ALICE, SCENES, messagesOn } from "./world.js";

const MODULE = "structured-initiative";
const MENU = `${MODULE}.settingsMenu`;
const EN = JSON.parse(fs.readFileSync(path.resolve(REPO_ROOT, "lang/en.json"), "utf8")) as {
  STRUCTURED_INITIATIVE: {
    SettingsForm: { NotSaved: string; Saved: string; NotGM: string; Error: Record<string, string> };
  };
};
const FORM = EN.STRUCTURED_INITIATIVE.SettingsForm;

interface FieldContext {
  key: string;
  label: string;
  hint: string;
  note: string;
  value: string;
  checked: boolean;
  isCheckbox: boolean;
  error: string;
  invalid: boolean;
}
interface FormContext {
  groups: { id: string; label: string; fields: FieldContext[] }[];
  hasErrors: boolean;
}
type Outcome = { saved: false; errors: Record<string, string> } | { saved: true; changed: string[] };
interface SettingsForm {
  _prepareContext(): Promise<FormContext>;
  submitValues(values: Record<string, string | boolean>): Promise<Outcome>;
  resetGroup(group: string): Promise<unknown>;
  render(): Promise<unknown>;
  parts: Record<string, unknown>;
}

function world(systemId = "dnd5e", renderTemplates = false): Promise<Sim> {
  return createSim({
    actors: [],
    scenes: SCENES,
    system: {
      id: systemId,
      title: systemId === "dnd5e" ? "Dungeons & Dragons Fifth Edition" : systemId,
      initiative: "1d20",
    },
    renderTemplates,
  });
}

function menuOf(client: SimClient): { type: new () => SettingsForm; restricted?: boolean } {
  const menus = (
    client.game.settings as unknown as { menus: Map<string, { type: new () => SettingsForm; restricted?: boolean }> }
  ).menus;
  const menu = menus.get(MENU);
  if (menu === undefined) throw new Error("no settings menu");
  return menu;
}

function openForm(client: SimClient): SettingsForm {
  return new (menuOf(client).type)();
}

function field(context: FormContext, key: string): FieldContext {
  const found = context.groups.flatMap((g) => g.fields).find((f) => f.key === key);
  if (found === undefined) throw new Error(`no field ${key}`);
  return found;
}

/** The module's setting writes the server received. */
function settingWrites(sim: Sim): number {
  return sim.server.ops.filter((op) => op.documentName === "Setting" && !op.refused).length;
}

describe("one settings menu, GM only, and no flat list", () => {
  it("the menu is restricted to the GM and every module setting is hidden from the flat list", async () => {
    const sim = await world();
    expect(menuOf(sim.gm).restricted).toBe(true);
    const registered = [
      ...(
        sim.gm.game.settings as unknown as {
          settings: Map<string, { namespace: string; key: string; config?: boolean; scope?: string }>;
        }
      ).settings.values(),
    ].filter((s) => s.namespace === MODULE && s.scope === "world");
    expect(registered.length).toBeGreaterThan(20);
    // A user's own preferences (the notice sound on this device, the tracker's hints on every device)
    // are theirs to set in Configure Settings, not the GM's form.
    const own = [
      ...(
        sim.gm.game.settings as unknown as {
          settings: Map<string, { namespace: string; key: string; config?: boolean; scope?: string }>;
        }
      ).settings.values(),
    ]
      .filter((s) => s.namespace === MODULE && s.scope !== "world")
      .map((s) => [s.key, s.scope, s.config]);
    expect(own).toEqual([
      ["noticeSound", "client", true],
      ["hints", "user", true],
    ]);
    expect(registered.filter((s) => s.config !== false).map((s) => s.key)).toEqual([]);
    // Every one of them but the action catalogue (which has its own form) is a field of the form.
    const context = await openForm(sim.gm)._prepareContext();
    const keys = context.groups.flatMap((g) => g.fields.map((f) => f.key)).sort();
    expect(keys).toEqual(
      registered
        .map((s) => s.key)
        .filter((k) => k !== "drCatalogue")
        .sort(),
    );
  });

  it("groups by mode, the shared settings first, each field with its name and hint localised", async () => {
    const sim = await world();
    const context = await openForm(sim.gm)._prepareContext();
    expect(context.groups.map((g) => g.id)).toEqual([
      "shared",
      "individual",
      "sides",
      "slots",
      "declare-resolve",
      "phases",
    ]);
    expect(context.groups[0]?.fields.map((f) => f.key)).toEqual(["defaultMode", "historyLimit", "diceRoller"]);
    for (const f of context.groups.flatMap((g) => g.fields)) {
      expect(f.label, f.key).not.toMatch(/^STRUCTURED_INITIATIVE\./);
      expect(f.hint, f.key).not.toMatch(/^STRUCTURED_INITIATIVE\./);
      expect(f.hint.length, f.key).toBeGreaterThan(10);
    }
  });

  it("the settings stay readable and writable by key (macros, the playground)", async () => {
    const sim = await world();
    await sim.gm.game.settings.set(MODULE, "sidesCountdown", 7);
    await sim.settle();
    for (const client of sim.clients) expect(client.game.settings.get(MODULE, "sidesCountdown")).toBe(7);
  });
});

describe("every formula is checked before saving; a bad one is shown and nothing is saved", () => {
  it.each([
    ["modifierFormula", "@attributes.init.total +* 2", "formula"],
    ["modifierFormula", "1d4 + @attributes.init.total", "dice"],
    ["initiativeFormula", "", "required"],
    ["sidesDexterity", "3 pips", "trait"],
    ["sidesActionPenalty", "1 die", "penalty"],
    ["slotsCoolFormula", "(@skills.Cool.rank))dp", "formula"],
    ["drIPFormula", "2d10 + ", "formula"],
    ["drHitsPath", "system hits", "path"],
    ["phasesSkills", "Melee @skills.melee", "skills"],
    ["historyLimit", "0", "range"],
    ["drBudget", "4.5", "whole"],
  ])("%s = %j: shown as %s, and not even the valid change beside it is saved", async (key, value, error) => {
    const sim = await world();
    const before = JSON.stringify(sim.server.world.settings);
    const writes = settingWrites(sim);
    const form = openForm(sim.gm);
    const outcome = await form.submitValues({ [key]: value, sidesCountdown: "5" });
    await sim.settle();
    expect(outcome).toEqual({ saved: false, errors: { [key]: error } });
    expect(settingWrites(sim)).toBe(writes);
    expect(JSON.stringify(sim.server.world.settings)).toBe(before);
    const context = await form._prepareContext();
    expect(context.hasErrors).toBe(true);
    expect(field(context, key)).toMatchObject({ invalid: true, error: FORM.Error[error], value });
    // What was typed beside it is kept in the form, not lost.
    expect(field(context, "sidesCountdown").value).toBe("5");
    expect(messagesOn(sim.gm)).toContain(FORM.NotSaved);
  });

  it("the rendered form shows the error on its field (aria-invalid, alert)", async () => {
    const sim = await world("dnd5e", true);
    const form = openForm(sim.gm);
    await form.submitValues({ modifierFormula: "@attributes.init.total +* 2" });
    const html = String(form.parts.form);
    expect(html).toContain(`aria-invalid="true" aria-describedby="${MODULE}-setting-modifierFormula-error"`);
    expect(html).toContain(`id="${MODULE}-setting-modifierFormula-error" role="alert">${FORM.Error.formula}`);
  });
});

describe("saving writes only what changed, together", () => {
  it("two changed fields: two writes, every client sees them; unchanged fields are not written", async () => {
    const sim = await world();
    const writes = settingWrites(sim);
    const form = openForm(sim.gm);
    const context = await form._prepareContext();
    // Submit every field as the form shows it, two of them changed.
    const shown = Object.fromEntries(
      context.groups.flatMap((g) => g.fields).map((f) => [f.key, f.isCheckbox ? f.checked : f.value]),
    );
    const outcome = await form.submitValues({
      ...shown,
      modifierFormula: "@attributes.init.total",
      phasesShowCollapse: false,
    });
    await sim.settle();
    expect(outcome).toEqual({ saved: true, changed: ["modifierFormula", "phasesShowCollapse"] });
    expect(settingWrites(sim) - writes).toBe(2);
    for (const client of sim.clients) {
      expect(client.game.settings.get(MODULE, "modifierFormula")).toBe("@attributes.init.total");
      expect(client.game.settings.get(MODULE, "phasesShowCollapse")).toBe(false);
    }
    expect(messagesOn(sim.gm)).toContain(FORM.Saved);
  });

  it("a player cannot save through the form: nothing written, a clear message", async () => {
    const sim = await world();
    const alice = sim.client(ALICE);
    const writes = settingWrites(sim);
    const outcome = await openForm(alice).submitValues({ modifierFormula: "@x" });
    await sim.settle();
    expect(outcome.saved).toBe(false);
    expect(settingWrites(sim)).toBe(writes);
    expect(messagesOn(alice)).toContain(FORM.NotGM);
  });
});

describe("reset to preset: the running system's presets, saved with the next Save", () => {
  it("dnd5e: the individual group goes back to its preset; nothing is written until Save", async () => {
    const sim = await world("dnd5e");
    await sim.gm.game.settings.set(MODULE, "modifierFormula", "@attributes.init.mod");
    await sim.gm.game.settings.set(MODULE, "sidesCountdown", 9);
    await sim.settle();
    const form = openForm(sim.gm);
    const writes = settingWrites(sim);
    await form.resetGroup("individual");
    const context = await form._prepareContext();
    expect(field(context, "modifierFormula").value).toBe("@attributes.init.total + @abilities.dex.value / 100");
    // Another group keeps its value; nothing is written yet.
    expect(field(context, "sidesCountdown").value).toBe("9");
    expect(settingWrites(sim)).toBe(writes);
    const outcome = await form.submitValues({});
    await sim.settle();
    expect(outcome).toEqual({ saved: true, changed: ["modifierFormula"] });
    expect(sim.gm.game.settings.get(MODULE, "modifierFormula")).toBe(
      "@attributes.init.total + @abilities.dex.value / 100",
    );
  });

  it("OpenD6 Space: the sides group resets to the pips reader and its paths, with the system's notes shown", async () => {
    const sim = await world("nonex-ist-od6s");
    await sim.gm.game.settings.set(MODULE, "sidesTraitUnit", "dice");
    await sim.settle();
    const form = openForm(sim.gm);
    await form.resetGroup("sides");
    const context = await form._prepareContext();
    expect(field(context, "sidesTraitUnit").value).toBe("pips");
    expect(field(context, "sidesDexterity").value).toBe("@attributes.agi.score");
    expect(field(context, "sidesTactics").note).toMatch(/skill Item/);
  });
});
