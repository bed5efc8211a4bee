/**
 * `sides` in Foundry (issue 5; RULES.md §1): sides as CombatantGroups defaulted from token
 * disposition, traits read through the formulas, side rolls as Foundry rolls posted to chat,
 * declarations from the tracker's path, passes, reactions and slowing down, on every client.
 */
import { describe, expect, it } from "vitest";
import { passOrder } from "../../src/modes/sides/rules/derived";
import { combatOn, expectNoErrors } from "./world.js";
import {
  cid,
  expectSidesAgreement,
  rollSideAs,
  run,
  sidesApi,
  sidesEncounter,
  sidesOn,
  sidesWorld,
} from "./sides-world.js";

describe("sides are CombatantGroups", () => {
  it("defaults sides from token disposition and mirrors them with traits", async () => {
    const sim = await sidesWorld();
    await sidesEncounter(sim, ["ace", "jaluun", "officer", "trooper1", "smuggler"]);
    const state = sidesOn(sim.gm);
    expect(state.sides.map((s) => [s.name, s.colour])).toEqual([
      ["Heroes", "#2f7d4f"],
      ["Foes", "#8c2f39"],
      ["Neutrals", "#7a6a2a"],
    ]);
    const groups = combatOn(sim.gm).groups.contents.map((g) => g.name);
    expect(groups).toEqual(["Heroes", "Foes", "Neutrals"]);
    const side = (name: string) => state.sides.find((s) => s.name === name)?.id;
    expect(
      state.combatants.map((c) => [c.name, c.sideId === side("Heroes") ? "H" : c.sideId === side("Foes") ? "F" : "N"]),
    ).toEqual([
      ["Ace", "H"],
      ["Jaluun", "H"],
      ["Officer", "F"],
      ["Trooper 1", "F"],
      ["Smuggler", "N"],
    ]);
    expect(state.combatants.map((c) => [c.dexterity, c.perception, c.initiativeScore])).toEqual([
      ["3D+2", "3D", "3D"],
      ["3D+2", "2D+1", "2D+1"],
      ["3D", "3D+1", "4D+1"],
      ["2D+2", "2D", "2D"],
      ["3D+1", "3D", "3D"],
    ]);
    expectSidesAgreement(sim);
    expectNoErrors(sim);
  });
});

describe("a full round", () => {
  it("initiative, declarations, passes, reactions and slowing down", async () => {
    const sim = await sidesWorld();
    await sidesEncounter(sim, ["ace", "jaluun", "officer", "trooper1"]);
    expect((await run(sim, sim.gm, { type: "start" })).ok).toBe(true);
    expect(sidesOn(sim.gm).step).toBe("initiative");
    // Heroes' roller: Ace (3D); Foes': the Officer (Tactics 4D+1).
    expect(await rollSideAs(sim, "Heroes", [4, 5, 6])).toEqual({ ok: true });
    expect(await rollSideAs(sim, "Foes", [1, 1, 2, 1])).toEqual({ ok: true });
    const chat = sim.server.world.messages.map((m) => m.flavor);
    expect(chat).toEqual(["Ace rolls initiative for Heroes.", "Officer rolls initiative for Foes."]);
    const formulas = sim.server.world.messages.map((m) => {
      const roll = (m.rolls as unknown[])[0];
      return (typeof roll === "string" ? JSON.parse(roll) : roll) as { formula: string; total: number };
    });
    expect(formulas.map((r) => [r.formula, r.total])).toEqual([
      ["3d6", 15],
      ["4d6 + 1", 6],
    ]);
    // Foes rolled lower: they declare first, lowest Perception first.
    const state = sidesOn(sim.gm);
    expect(state.step).toBe("declaration");
    const gm = combatOn(sim.gm);
    const api = sidesApi(sim.gm);
    expect(await api.declare(gm, cid(sim.gm, "trooper1"), ["Shoot Ace"], false)).toEqual({ ok: true });
    await sim.settle();
    expect(await api.declare(gm, cid(sim.gm, "officer"), ["Shoot Jaluun", "Take cover"], false)).toEqual({ ok: true });
    await sim.settle();
    // Heroes: Jaluun (2D+1) before Ace (3D).
    const bob = sim.client("player0000000002");
    const alice = sim.client("player0000000001");
    expect(await sidesApi(bob).declare(combatOn(bob), cid(bob, "jaluun"), ["Fire", "Fire again"], true)).toEqual({
      ok: true,
    });
    await sim.settle();
    expect(await sidesApi(alice).declare(combatOn(alice), cid(alice, "ace"), ["Dive", "Shoot"], false)).toEqual({
      ok: true,
    });
    await sim.settle();
    let now = sidesOn(sim.gm);
    expect(now.step).toBe("pass");
    expect(now.pass).toBe(1);
    // Ace before Jaluun on equal Dexterity (higher Perception), then Officer, Trooper.
    const names = (ids: readonly string[]) => ids.map((id) => now.combatants.find((c) => c.id === id)?.name);
    expect(names(passOrder(now))).toEqual(["Ace", "Jaluun", "Officer", "Trooper 1"]);
    // Jaluun slows down to act after the Officer; the trooper shoots, Ace dodges.
    expect(await sidesApi(bob).slowDown(combatOn(bob), cid(bob, "jaluun"), cid(bob, "officer"))).toEqual({ ok: true });
    await sim.settle();
    expect((await run(sim, alice, { type: "nextTurn" })).ok).toBe(true);
    expect(await sidesApi(alice).react(combatOn(alice), cid(alice, "ace"), "dodge")).toEqual({ ok: true });
    await sim.settle();
    now = sidesOn(sim.gm);
    // Jaluun waits outside the order until the Officer has acted.
    expect(names(passOrder(now))).toEqual(["Ace", "Officer", "Trooper 1"]);
    expect((await run(sim, sim.gm, { type: "nextTurn" })).ok).toBe(true);
    expect(names(passOrder(sidesOn(sim.gm)))).toEqual(["Ace", "Officer", "Jaluun", "Trooper 1"]);
    expect(now.declarations.find((d) => d.combatantId === cid(sim.gm, "ace"))?.reactions).toEqual([
      { kind: "dodge", pass: 1 },
    ]);
    for (let i = 0; i < 2; i++) expect((await run(sim, sim.gm, { type: "nextTurn" })).ok).toBe(true);
    now = sidesOn(sim.gm);
    expect(now.pass).toBe(2);
    expect(names(passOrder(now))).toEqual(["Ace", "Jaluun", "Officer"]);
    for (let i = 0; i < 3; i++) expect((await run(sim, sim.gm, { type: "nextTurn" })).ok).toBe(true);
    now = sidesOn(sim.gm);
    expect([now.round, now.step]).toEqual([2, "initiative"]);
    expectSidesAgreement(sim);
    expectNoErrors(sim);
  });
});

describe("the roller", () => {
  it("the GM picks another roller: that member's score is rolled, by its owner", async () => {
    const sim = await sidesWorld();
    await sidesEncounter(sim, ["ace", "jaluun", "officer"]);
    await run(sim, sim.gm, { type: "start" });
    const heroes = sidesOn(sim.gm).sides[0]?.id ?? "";
    expect(await run(sim, sim.gm, { type: "setRoller", sideId: heroes, combatantId: cid(sim.gm, "jaluun") })).toEqual({
      ok: true,
    });
    const alice = sim.client("player0000000001");
    const bob = sim.client("player0000000002");
    expect(await sidesApi(alice).rollSide(combatOn(alice), heroes)).toMatchObject({ ok: false, code: "notOwner" });
    sim.dice.push(2, 3);
    expect(await sidesApi(bob).rollSide(combatOn(bob), heroes)).toEqual({ ok: true });
    await sim.settle();
    const roll = (sim.server.world.messages[0]?.rolls as unknown[])[0];
    const parsed = (typeof roll === "string" ? JSON.parse(roll) : roll) as { formula: string; total: number };
    expect([parsed.formula, parsed.total]).toEqual(["2d6 + 1", 6]);
    expect(sidesOn(sim.gm).rolls).toEqual([{ sideId: heroes, total: 6 }]);
    expectSidesAgreement(sim);
    expectNoErrors(sim);
  });
});
