/**
 * Narrowing of stored `slots` state: well-formed, consistent states come back as they are; anything
 * else is rejected.
 */
import { describe, expect, it } from "vitest";
import { slotsMode } from "../../src/modes/slots/rules/mode";
import type { SlotsCommand, SlotsState } from "../../src/modes/slots/rules/types";
import { parseSlotsState } from "../../src/modes/slots/rules/state";
import { GM } from "./harness";

function run(state: SlotsState, ...commands: SlotsCommand[]): SlotsState {
  return commands.reduce((s, command) => {
    const outcome = slotsMode.apply(s, command, GM);
    if (!outcome.ok) throw new Error(`${command.type} refused: ${outcome.refusal.code}`);
    return outcome.state;
  }, state);
}

const setup = run(
  slotsMode.create([
    { id: "p", name: "P", isPC: true },
    { id: "q", name: "Q", isPC: true },
    { id: "n", name: "N", isPC: false },
  ]),
  { type: "recordCheck", combatantId: "p", primary: 2, secondary: 0, skill: "cool" },
  { type: "recordCheck", combatantId: "q", primary: 0, secondary: 0 },
  { type: "recordCheck", combatantId: "n", primary: 3, secondary: 1 },
);
// Slots: npc 3/1 (n fills, current), pc 2/0 (claimed by q), pc 0/0.
const battle = run(
  setup,
  { type: "start" },
  { type: "fillSlot", slot: 0, combatantId: "n" },
  { type: "claimSlot", slot: 1, combatantId: "q" },
);

/** A copy of `state` with a change made through JSON (as a corrupt flag would be). */
function corrupt(state: SlotsState, change: (data: Record<string, unknown>) => void): unknown {
  const data = structuredClone(state) as unknown as Record<string, unknown>;
  change(data);
  return data;
}

const slot0 = (d: Record<string, unknown>): Record<string, unknown> => (d.slots as Record<string, unknown>[])[0] ?? {};
const slot1 = (d: Record<string, unknown>): Record<string, unknown> => (d.slots as Record<string, unknown>[])[1] ?? {};

describe("parseSlotsState", () => {
  it.each([
    ["a fresh state", slotsMode.create([])],
    ["a rolled state", setup],
    ["a battle with a fill and a claim", battle],
  ])("accepts %s", (_name, state) => {
    expect(parseSlotsState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  it.each([
    ["not an object", null],
    ["an array", []],
    ["no slots", corrupt(battle, (d) => delete d.slots)],
    ["a fractional round", corrupt(battle, (d) => (d.round = 1.5))],
    ["a bad slot kind", corrupt(battle, (d) => (slot0(d).kind = "boss"))],
    ["a fractional score", corrupt(battle, (d) => (slot0(d).primary = 0.5))],
    ["a bad policy", corrupt(battle, (d) => (d.keepSlots = { pc: true }))],
    [
      "duplicate combatants",
      corrupt(battle, (d) => (d.combatants = [...(d.combatants as unknown[]), ...(d.combatants as unknown[])])),
    ],
    ["an unknown filler", corrupt(battle, (d) => (slot0(d).filledBy = "ghost"))],
    ["a filler that has not acted", corrupt(battle, (d) => (d.acted = []))],
    [
      "a PC in an NPC slot",
      corrupt(battle, (d) => {
        slot0(d).filledBy = "p";
        d.acted = ["p"];
      }),
    ],
    ["a claim on a slot already reached", corrupt(battle, (d) => (d.slotIndex = 1))],
    ["a claim on an NPC slot", corrupt(battle, (d) => (slot1(d).kind = "npc"))],
    ["slots out of rank", corrupt(battle, (d) => (d.slots = [...(d.slots as unknown[])].reverse()))],
    ["a slotted combatant without a slot", corrupt(battle, (d) => (d.slots = (d.slots as unknown[]).slice(0, 2)))],
    ["a current slot out of range", corrupt(battle, (d) => (d.slotIndex = 9))],
    ["fills before the start", corrupt(battle, (d) => (d.started = false))],
  ])("rejects %s", (_name, data) => {
    expect(parseSlotsState(data)).toBeNull();
  });
});
