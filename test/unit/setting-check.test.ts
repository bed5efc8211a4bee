/**
 * A setting's check may be the mode's own (issue 30 item 2): the shared form checks a text setting
 * with the `TextRule` its definition carries and shows that rule's error, knowing no mode.
 */
import { describe, expect, it } from "vitest";
import type { SettingDefinition, TextRule } from "../../src/core/settings";
import { checkField } from "../../src/foundry/setting-defs";

const UPPER: TextRule = { error: "upper", accepts: (text) => text === text.toUpperCase() };

const def = (check: TextRule, optional = false): SettingDefinition => ({
  key: "k",
  type: "string",
  check,
  optional,
  preset: () => "",
});

describe("a mode-supplied text check", () => {
  it("accepts what the rule accepts, trimmed", () => {
    expect(checkField(def(UPPER), "  ABC ")).toEqual({ ok: true, value: "ABC" });
  });

  it("refuses what the rule refuses, with the rule's error code", () => {
    expect(checkField(def(UPPER), "abc")).toEqual({ ok: false, error: "upper" });
  });

  it("is not asked about an empty text: that is required or optional, as for every setting", () => {
    const never: TextRule = { error: "never", accepts: () => false };
    expect(checkField(def(never), "")).toEqual({ ok: false, error: "required" });
    expect(checkField(def(never, true), " ")).toEqual({ ok: true, value: "" });
  });
});
