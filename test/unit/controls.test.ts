/**
 * The tracker's controls (src/foundry/tracker/controls.ts): a context build is handed the very
 * control the build before it made for the same plain form, so that a row whose controls did not
 * change is found equal to the one last rendered at once, and a control is formatted once. A
 * control the last build did not ask for, another localiser or another language makes it anew.
 */
import { describe, expect, it } from "vitest";
import { controlFactory, type Localiser } from "../../src/foundry/tracker/controls";

/** A localiser that counts its calls and writes the key and the name it was given. */
function localiser(lang = "en"): Localiser & { lang: string; calls: number } {
  const self = {
    lang,
    calls: 0,
    localize: (key: string): string => key,
    format(key: string, data: Record<string, string>): string {
      self.calls++;
      return `${self.lang}:${key}:${data.name ?? ""}`;
    },
  };
  return self;
}

const dodge = { action: "siSidesDodge", label: "Sides.Dodge", name: "Aria", combatantId: "a" } as const;

describe("controlFactory", () => {
  it("hands a build the control the build before it made for the same plain form", () => {
    const i18n = localiser();
    const first = controlFactory(i18n)(dodge);
    const second = controlFactory(i18n)({ ...dodge });
    expect(second).toBe(first);
    expect(second.ariaLabel).toBe("en:STRUCTURED_INITIATIVE.Tracker.Sides.Dodge:Aria");
    // Formatted once for both builds.
    expect(i18n.calls).toBe(1);
  });

  it("makes a control anew for any field that differs", () => {
    const i18n = localiser();
    const first = controlFactory(i18n)(dodge);
    const make = controlFactory(i18n);
    const renamed = make({ ...dodge, name: "Brom" });
    expect(renamed).not.toBe(first);
    expect(renamed.ariaLabel).toBe("en:STRUCTURED_INITIATIVE.Tracker.Sides.Dodge:Brom");
    for (const change of [
      { combatantId: "b" },
      { pressed: true },
      { toggle: true },
      { primary: true },
      { aria: "Sides.Parry" },
      { input: "TriggerFor" },
      { groupId: "g" },
      { label: "Sides.Parry" },
      { action: "siSidesParry" },
    ])
      expect(make({ ...dodge, ...change })).not.toBe(first);
    expect(make({ ...dodge, pressed: true }).pressed).toBe(true);
  });

  it("keeps only what the last build asked for", () => {
    const i18n = localiser();
    const first = controlFactory(i18n)(dodge);
    controlFactory(i18n)({ ...dodge, name: "Brom" });
    const third = controlFactory(i18n)(dodge);
    expect(third).not.toBe(first);
    expect(third).toEqual(first);
  });

  it("reuses a control within one build and makes it anew for another localiser or language", () => {
    const i18n = localiser();
    const make = controlFactory(i18n);
    const first = make(dodge);
    expect(make(dodge)).toBe(first);
    const other = controlFactory(localiser())(dodge);
    expect(other).not.toBe(first);
    const french = localiser("fr");
    const inFrench = controlFactory(french)(dodge);
    french.lang = "de";
    const inGerman = controlFactory(french)(dodge);
    expect(inGerman).not.toBe(inFrench);
    expect(inGerman.ariaLabel).toBe("de:STRUCTURED_INITIATIVE.Tracker.Sides.Dodge:Aria");
  });
});
