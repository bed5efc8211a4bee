/**
 * The player request flag (issue #17, bytes per step): today's compact `[id, command]` string (and
 * `[id, command, 1]` for a command about the combatant it is written on), and the older
 * `{id, userId, combatId, command}` one, which the GM still reads and checks.
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

  it("written on the combatant it is about, leaves the combatant out; the GM reads it from the carrier", () => {
    const raw = encodeRequest({ id: "req0000000000003", command }, "aria000000000001");
    expect(JSON.parse(raw)).toEqual(["req0000000000003", { type: "delay" }, 1]);
    expect(raw.length).toBeLessThan(encodeRequest({ id: "req0000000000003", command }).length);
    expect(parseStoredRequest(raw, "aria000000000001")).toEqual({ id: "req0000000000003", command });
  });

  it("a command about another combatant than its carrier still names it", () => {
    const raw = encodeRequest({ id: "req0000000000004", command }, "brom000000000001");
    expect(JSON.parse(raw)).toEqual(["req0000000000004", command]);
    expect(parseStoredRequest(raw, "brom000000000001")).toEqual({ id: "req0000000000004", command });
  });

  it("the older form is still read, with the author and encounter it names (the GM checks both)", () => {
    const old = { id: "req0000000000002", userId: "alice00000000001", combatId: "combat0000000001", command };
    expect(parseStoredRequest(JSON.stringify(old))).toEqual(old);
  });

  it.each([
    ["not a string", { id: "x", command }],
    ["not JSON", "[req"],
    ["an array of three whose mark is not 1", JSON.stringify(["x", { type: "delay" }, 2])],
    ["an array of four", JSON.stringify(["x", { type: "delay" }, 1, 1])],
    ["an id that is no string", JSON.stringify([1, command])],
    ["a command that is no object", JSON.stringify(["x", "delay"])],
    ["a command that is a list", JSON.stringify(["x", [command]])],
    ["the older form without its user", JSON.stringify({ id: "x", combatId: "c", command })],
  ])("a malformed request (%s) is refused, not read", (_what, raw) => {
    expect(parseStoredRequest(raw)).toBeNull();
    expect(parseStoredRequest(raw, "aria000000000001")).toBeNull();
  });

  it.each([
    ["written on the Combat, which is no combatant", JSON.stringify(["x", { type: "delay" }, 1]), null],
    ["naming a combatant as well as implying one", JSON.stringify(["x", command, 1]), "brom000000000001"],
  ])("a request whose combatant is implied is refused %s", (_what, raw, carrier) => {
    expect(parseStoredRequest(raw, carrier)).toBeNull();
  });
});
