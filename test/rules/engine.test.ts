/**
 * The engine's `applyToEncounter`: undo history for every mode (previous turn / previous round), bounded,
 * with roster changes replayed on the history so an undo never brings back a deleted combatant.
 */
import { describe, expect, it } from "vitest";
import {
  accept,
  createEncounter,
  applyToEncounter,
  refuse,
  type Command,
  type Encounter,
  type EngineCommand,
  type ModeDefinition,
  type Requester,
} from "../../src/core/engine";
import type { Json } from "../../src/core/patch";
import { individualMode } from "../../src/modes/individual/rules/mode";
import type { IndividualCommand, IndividualState } from "../../src/modes/individual/rules/types";
import { GM } from "./harness";

const PLAYER: Requester = { userId: "p", isGM: false, owns: ["a"] };

type Enc = Encounter<IndividualState>;

function send(encounter: Enc, command: IndividualCommand | EngineCommand, who: Requester = GM, limit?: number): Enc {
  const outcome = applyToEncounter(individualMode, encounter, command, who, limit);
  if (!outcome.ok) throw new Error(`${command.type} refused: ${outcome.refusal.code}`);
  return outcome.state;
}

function fresh(): Enc {
  let e = createEncounter(individualMode, [
    { id: "a", name: "A", isPC: true },
    { id: "b", name: "B", isPC: true },
    { id: "c", name: "C", isPC: false },
  ]);
  e = send(e, { type: "recordInitiative", combatantId: "a", total: 18, modifier: 0 });
  e = send(e, { type: "recordInitiative", combatantId: "b", total: 12, modifier: 0 });
  e = send(e, { type: "recordInitiative", combatantId: "c", total: 15, modifier: 0 });
  return e; // order a, c, b
}

const at = (e: { readonly state: IndividualState }): string => `${e.state.round}:${e.state.current ?? "-"}`;
const next: IndividualCommand = { type: "nextTurn" };

describe("applyToEncounter: steps are recorded for undo", () => {
  it("commands that are not steps leave the history alone", () => {
    expect(fresh().history).toEqual([]);
  });

  it("a step pushes the state before it", () => {
    const before = send(fresh(), { type: "start" });
    const after = send(before, next);
    expect(after.history).toHaveLength(2);
    // With its round facts, so that finding an undo target reads no snapshot's state.
    expect(after.history[1]).toEqual({
      kind: "turn",
      state: before.state,
      round: individualMode.view(before.state).round,
      roundStart: individualMode.roundStart?.(before.state),
    });
  });

  it("a refusal passes through and records nothing", () => {
    const e = fresh();
    expect(applyToEncounter(individualMode, e, next, GM)).toEqual({ ok: false, refusal: { code: "notStarted" } });
  });
});

describe("previous turn pops one step", () => {
  it("back one turn, then one more, to before the start", () => {
    const started = send(fresh(), { type: "start" });
    const once = send(started, next);
    const twice = send(once, next);
    expect(at(twice)).toBe("1:b");
    const back = send(twice, { type: "previousTurn" });
    expect(back).toEqual(once);
    expect(send(back, { type: "previousTurn" })).toEqual(started);
    expect(send(send(back, { type: "previousTurn" }), { type: "previousTurn" }).state).toEqual(fresh().state);
  });

  it("undoes delay and ready like any turn change", () => {
    const started = send(fresh(), { type: "start" });
    const delayed = send(started, { type: "delay", combatantId: "a" });
    expect(send(delayed, { type: "previousTurn" })).toEqual(started);
  });

  it("with nothing to undo: noHistory", () => {
    expect(applyToEncounter(individualMode, fresh(), { type: "previousTurn" }, GM)).toEqual({
      ok: false,
      refusal: { code: "noHistory" },
    });
    expect(applyToEncounter(individualMode, fresh(), { type: "previousRound" }, GM)).toEqual({
      ok: false,
      refusal: { code: "noHistory" },
    });
  });

  it("only the GM may undo: notGM", () => {
    const e = send(send(fresh(), { type: "start" }), next);
    expect(applyToEncounter(individualMode, e, { type: "previousTurn" }, PLAYER)).toEqual({
      ok: false,
      refusal: { code: "notGM" },
    });
    expect(applyToEncounter(individualMode, e, { type: "previousRound" }, PLAYER)).toEqual({
      ok: false,
      refusal: { code: "notGM" },
    });
  });
});

describe("previous round goes to the start of the previous round", () => {
  const started = send(fresh(), { type: "start" });
  let e = started;
  const seen: Enc[] = [];
  for (let i = 0; i < 5; i++) {
    e = send(e, next);
    seen.push(e);
  }
  // seen: 1:c, 1:b, 2:a, 2:c, 2:b

  it("from the middle of round 2 to the start of round 1", () => {
    const mid = seen[3];
    if (mid === undefined) throw new Error("setup");
    expect(at(mid)).toBe("2:c");
    const back = send(mid, { type: "previousRound" });
    expect(back).toEqual(started);
  });

  it("from the first turn of round 2 to the start of round 1", () => {
    const top = seen[2];
    if (top === undefined) throw new Error("setup");
    expect(at(top)).toBe("2:a");
    expect(send(top, { type: "previousRound" }).state).toEqual(started.state);
  });

  it("from round 1 to before the start", () => {
    const first = seen[0];
    if (first === undefined) throw new Error("setup");
    expect(send(first, { type: "previousRound" }).state).toEqual(fresh().state);
  });

  it("with the previous round no longer in the history: noHistory", () => {
    let bounded = send(fresh(), { type: "start" }, GM, 2);
    for (let i = 0; i < 6; i++) bounded = send(bounded, next, GM, 2); // round 3, a
    expect(at(bounded)).toBe("3:a");
    expect(bounded.history.map((s) => s.state.round)).toEqual([2, 2]);
    expect(send(bounded, { type: "previousRound" }).state.round).toBe(2);
    let further = send(bounded, next, GM, 2); // 3:c, history [2:b, 3:a]
    further = send(further, next, GM, 2); // 3:b, history [3:a, 3:c]
    expect(applyToEncounter(individualMode, further, { type: "previousRound" }, GM)).toEqual({
      ok: false,
      refusal: { code: "noHistory" },
    });
  });
});

describe("the history is bounded", () => {
  it("keeps only the newest snapshots", () => {
    let e = send(fresh(), { type: "start" }, GM, 3);
    for (let i = 0; i < 5; i++) e = send(e, next, GM, 3);
    expect(e.history).toHaveLength(3);
    e = send(e, { type: "previousTurn" });
    e = send(e, { type: "previousTurn" });
    e = send(e, { type: "previousTurn" });
    expect(at(e)).toBe("1:b");
    expect(applyToEncounter(individualMode, e, { type: "previousTurn" }, GM)).toEqual({
      ok: false,
      refusal: { code: "noHistory" },
    });
  });

  it("a limit of 0 keeps no history", () => {
    const e = send(send(fresh(), { type: "start" }, GM, 0), next, GM, 0);
    expect(e.history).toEqual([]);
  });
});

describe("roster commands are replayed on the history", () => {
  it("an undo never resurrects a deleted combatant", () => {
    let e = send(send(send(fresh(), { type: "start" }), next), next); // 1:b
    e = send(e, { type: "removeCombatant", combatantId: "c" });
    expect(e.history.every((snap) => snap.state.combatants.every((c) => c.id !== "c"))).toBe(true);
    // The snapshot where c was acting became "b acts" once c was gone: the same as now, so it is dropped.
    expect(e.history.map((snap) => `${snap.state.round}:${snap.state.current ?? "-"}`)).toEqual(["0:-", "1:a"]);
    const back = send(e, { type: "previousTurn" });
    expect(back.state.combatants.map((c) => c.id)).toEqual(["a", "b"]);
    expect(at(back)).toBe("1:a");
    expect(send(back, { type: "previousTurn" }).state.combatants.map((c) => c.id)).toEqual(["a", "b"]);
  });

  it("an undo keeps a combatant that joined later", () => {
    let e = send(send(fresh(), { type: "start" }), next);
    e = send(e, { type: "addCombatant", combatant: { id: "j", name: "J", isPC: false } });
    const back = send(e, { type: "previousTurn" });
    expect(back.state.combatants.map((c) => c.id)).toContain("j");
  });

  it("removing the acting combatant is not itself undone by previous turn", () => {
    let e = send(send(fresh(), { type: "start" }), next); // 1:c
    e = send(e, { type: "removeCombatant", combatantId: "c" }); // 1:b acts
    expect(e.history).toHaveLength(2);
    const back = send(e, { type: "previousTurn" });
    expect(back.state.combatants.map((c) => c.id)).toEqual(["a", "b"]);
    expect(at(back)).toBe("1:a");
  });

  it("a roster command that a mode reports as a step is still not pushed", () => {
    type Toy = { readonly ids: readonly string[]; readonly round: number };
    type ToyCommand = { readonly type: "drop"; readonly id: string } | { readonly type: "tick" };
    const toy: ModeDefinition<Toy, ToyCommand> = {
      id: "phases",
      create: (roster) => ({ ids: roster.map((r) => r.id), round: 1 }),
      apply: (state, command) => {
        if (command.type === "tick") return accept({ ...state, round: state.round + 1 }, [], "round");
        if (!state.ids.includes(command.id)) return refuse("unknownCombatant", command.id);
        return accept({ ...state, ids: state.ids.filter((id) => id !== command.id) }, [], "turn");
      },
      view: (state) => ({
        started: true,
        round: state.round,
        step: "round",
        order: state.ids,
        current: null,
        next: null,
      }),
      allowed: () => [],
      isRosterCommand: (command: Command) => command.type === "drop",
      parseCommand: () => null,
    };
    let e = createEncounter(toy, [
      { id: "x", name: "X", isPC: false },
      { id: "y", name: "Y", isPC: false },
    ]);
    e = expectOk(applyToEncounter(toy, e, { type: "tick" }, GM));
    e = expectOk(applyToEncounter(toy, e, { type: "drop", id: "x" }, GM));
    expect(e.history).toEqual([{ kind: "round", state: { ids: ["y"], round: 1 }, round: 1 }]);
    const back = expectOk(applyToEncounter(toy, e, { type: "previousTurn" }, GM));
    expect(back.state).toEqual({ ids: ["y"], round: 1 });
  });
});

function expectOk<S extends Json>(outcome: ReturnType<typeof applyToEncounter<S, Command>>): Encounter<S> {
  if (!outcome.ok) throw new Error(`refused: ${outcome.refusal.code}`);
  return outcome.state;
}

describe("versions of a history", () => {
  const started = (): Enc => send(send(fresh(), { type: "start" }), next);

  it("a step keeps the earlier snapshots themselves (the store finds the kept ones by identity)", () => {
    const before = started();
    const after = send(before, next);
    after.history.slice(0, -1).forEach((snap, i) => {
      expect(snap).toBe(before.history[i]);
    });
  });

  it("two steps from one encounter each keep their own history; the first's is not changed by the second", () => {
    const base = started();
    const seen = base.history.map(at);
    const first = send(base, next);
    const second = send(base, { type: "delay", combatantId: base.state.current ?? "" });
    expect(base.history.map(at)).toEqual(seen);
    expect(first.history.map(at)).toEqual([...seen, at(base)]);
    expect(second.history.map(at)).toEqual([...seen, at(base)]);
    expect(second.history[seen.length]).not.toBe(first.history[seen.length]);
    // Each undoes to its own past, and a step after the undo leaves the other alone.
    const back = send(send(first, { type: "previousTurn" }), next);
    expect(back.history.map(at)).toEqual([...seen, at(base)]);
    expect(first.history.map(at)).toEqual([...seen, at(base)]);
    expect(send(second, { type: "previousTurn" }).state).toEqual(base.state);
  });

  it("a long game at a small bound keeps exactly the newest snapshots", () => {
    let e = started();
    const states: string[] = [];
    for (let i = 0; i < 400; i += 1) {
      states.push(at(e));
      e = send(e, next, GM, 5);
    }
    expect(e.history.map(at)).toEqual(states.slice(-5));
    for (const expected of states.slice(-5).reverse()) {
      e = send(e, { type: "previousTurn" });
      expect(at(e)).toBe(expected);
    }
  });
});
