/**
 * The player request flag (issue #17, bytes per step): today's compact `[id, command]` string, and
 * the older `{id, userId, combatId, command}` one, which the GM still reads and checks.
 */
import { describe, expect, it } from "vitest";
import { encodeRequest, parseStoredRequest } from "../../src/core/store";

const command = { type: "delay", combatantId: "aria000000000001" };

describe("the request flag", () => {
  it("is written as [id, command], naming neither the author nor the encounter", () => {
    const raw = encodeRequest({ id: "req0000000000001", command });
    expect(JSON.parse(raw)).toEqual(["req0000000000001", command]);
    expect(raw).not.toContain("userId");
    expect(raw).not.toContain("combatId");
    expect(parseStoredRequest(raw)).toEqual({ id: "req0000000000001", command });
  });

  it("the older form is still read, with the author and encounter it names (the GM checks both)", () => {
    const old = { id: "req0000000000002", userId: "alice00000000001", combatId: "combat0000000001", command };
    expect(parseStoredRequest(JSON.stringify(old))).toEqual(old);
  });

  it.each([
    ["not a string", { id: "x", command }],
    ["not JSON", "[req"],
    ["an array of three", JSON.stringify(["x", command, 1])],
    ["an id that is no string", JSON.stringify([1, command])],
    ["a command that is no object", JSON.stringify(["x", "delay"])],
    ["a command that is a list", JSON.stringify(["x", [command]])],
    ["the older form without its user", JSON.stringify({ id: "x", combatId: "c", command })],
  ])("a malformed request (%s) is refused, not read", (_what, raw) => {
    expect(parseStoredRequest(raw)).toBeNull();
  });
});
