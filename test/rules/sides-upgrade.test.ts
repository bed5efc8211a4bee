/**
 * A `sides` encounter stored before the declaration and pass orders were derived (format 1, with
 * `declarationOrder` and `passOrder`, and its undo history): each state, the current one and every
 * snapshot, parses to a state with the same orders, current and next, the same per-row facts and
 * allowed actions as the earlier rules gave it, and plays on the same. Malformed older shapes are
 * rejected.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Outcome, Requester } from "../../src/core/engine";
import { decodeArrays, type Json } from "../../src/core/patch";
import { loadEncounter, parseStoredEncounter } from "../../src/core/store";
import {
  actionsTaken,
  declarationOf,
  declarationOrder,
  lostActions,
  passOrder,
  penalty,
  slowedWaiting,
} from "../../src/modes/sides/rules/derived";
import { sidesMode } from "../../src/modes/sides/rules/mode";
import type { SidesCommand, SidesState } from "../../src/modes/sides/rules/types";
import { parseSidesState } from "../../src/modes/sides/rules/state";
import * as v1 from "./sides-v1-reference";
import { sidesModeV1, type SidesState as SidesStateV1 } from "./sides-v1-reference";
import { GM } from "./harness";

interface Fixture {
  readonly stored: unknown;
  readonly expected: { readonly state: SidesStateV1; readonly history: readonly { state: SidesStateV1 }[] };
}
const fixture = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../fixtures/stored/v1-sides.json"), "utf8"),
) as Fixture;
const olds: readonly SidesStateV1[] = [fixture.expected.state, ...fixture.expected.history.map((h) => h.state)];

const ownerOf = (state: { combatants: readonly { id: string; isPC: boolean }[] }): Requester => ({
  userId: "player",
  isGM: false,
  owns: state.combatants.filter((c) => c.isPC).map((c) => c.id),
});

const allowed = (list: readonly object[]): string[] => list.map((a) => JSON.stringify(a)).sort();
const summary = (o: Outcome<unknown>): unknown => (o.ok ? { events: o.events, step: o.step } : o.refusal);

function parsed(old: SidesStateV1): SidesState {
  const state = parseSidesState(JSON.parse(JSON.stringify(old)));
  if (state === null) throw new Error("an older-shape state the earlier rules wrote was rejected");
  return state;
}

/** What the table sees of the state: the orders, who is current and next, each row's facts. */
function seen(state: SidesState | SidesStateV1, orders: { declaration: unknown; pass: unknown }): unknown {
  const h =
    "due" in state
      ? {
          s: state,
          view: (x: SidesState) => sidesMode.view(x),
          slowedWaiting,
          lostActions,
          declarationOf,
          actionsTaken,
          penalty,
        }
      : { s: state, ...v1, view: (x: SidesStateV1) => sidesModeV1.view(x) };
  const s = h.s as SidesState & SidesStateV1;
  const view = h.view(s);
  return {
    step: view.step,
    round: view.round,
    current: view.current,
    next: view.next,
    orders,
    waiting: h.slowedWaiting(s),
    lost: h.lostActions(s),
    rows: state.combatants.map((c) => ({
      id: c.id,
      declared: h.declarationOf(s, c.id) ?? null,
      taken: h.actionsTaken(s, c.id),
      penalty: h.penalty(s, c.id),
    })),
  };
}

const oldOrders = (old: SidesStateV1) => ({
  declaration: old.started && old.step === "declaration" ? old.declarationOrder : [],
  pass: old.started && old.step === "pass" ? old.passOrder : [],
});
const newOrders = (state: SidesState) => ({ declaration: declarationOrder(state), pass: passOrder(state) });

/** The commands that play a state on: next turn, the current declaration, a slow-down, a reaction. */
function nextCommands(old: SidesStateV1): SidesCommand[] {
  const current = sidesModeV1.view(old).current;
  const list: SidesCommand[] = [{ type: "nextTurn" }, { type: "nextRound" }];
  if (current === null) return list;
  list.push(
    { type: "declare", combatantId: current, actions: [{ text: "Shoot" }, { text: "Run" }], forcePoint: false },
    { type: "hesitate", combatantId: current },
    { type: "react", combatantId: current, kind: "dodge" },
  );
  const other = old.passOrder.find((id) => id !== current && !old.done.includes(id));
  if (other !== undefined) list.push({ type: "slowDown", combatantId: current, after: other });
  return list;
}

describe("sides: an encounter stored with its orders (format 1, undo history included)", () => {
  it("covers the initiative, the declaration and two passes", () => {
    expect(new Set(olds.map((s) => `${s.step}${s.pass}`))).toEqual(
      new Set(["setup0", "initiative0", "declaration0", "pass1", "pass2"]),
    );
  });

  it.each(olds.map((old, i) => [i, old] as const))(
    "state %i: the same orders, current, next, rows and allowed actions",
    (_i, old) => {
      const state = parsed(old);
      expect(seen(state, newOrders(state))).toEqual(seen(old, oldOrders(old)));
      for (const who of [GM, ownerOf(old)]) {
        expect(allowed(sidesMode.allowed(state, who))).toEqual(allowed(sidesModeV1.allowed(old, who)));
      }
    },
  );

  it.each(olds.map((old, i) => [i, old] as const))("state %i plays on as it did", (_i, old) => {
    const state = parsed(old);
    for (const command of nextCommands(old)) {
      for (const who of [GM, ownerOf(old)]) {
        const now = sidesMode.apply(state, command, who);
        const then = sidesModeV1.apply(old, command, who);
        expect(summary(now), JSON.stringify(command)).toEqual(summary(then));
        if (now.ok && then.ok)
          expect(seen(now.state, newOrders(now.state))).toEqual(seen(then.state, oldOrders(then.state)));
      }
    }
  });

  it("loaded through the store, every undo snapshot has the orders format 1 stored", () => {
    const stored = parseStoredEncounter(fixture.stored);
    const loaded = stored === null ? null : loadEncounter("sides", stored, parseSidesState);
    expect(loaded).not.toBeNull();
    const history = loaded?.encounter.history ?? [];
    expect(history).toHaveLength(fixture.expected.history.length);
    history.forEach((snapshot, i) => {
      const old = fixture.expected.history[i]?.state as SidesStateV1;
      expect(newOrders(snapshot.state)).toEqual(oldOrders(old));
      expect(sidesMode.view(snapshot.state).current).toBe(sidesModeV1.view(old).current);
    });
    const current = decodeArrays((fixture.stored as { state: Json }).state) as unknown as SidesStateV1;
    expect(newOrders(loaded?.encounter.state as SidesState)).toEqual(oldOrders(current));
  });
});

describe("sides: a malformed older shape is rejected", () => {
  const pass = olds.find((s) => s.step === "pass" && s.done.length > 0) as SidesStateV1;
  const declaring = olds.find((s) => s.step === "declaration") as SidesStateV1;
  it.each([
    { rule: "a pass order naming a stranger", data: { ...pass, passOrder: [...pass.passOrder, "ghost"] } },
    { rule: "a pass order naming one twice", data: { ...pass, passOrder: [...pass.passOrder, pass.passOrder[0]] } },
    { rule: "who acted not a prefix of the pass order", data: { ...pass, done: [...pass.passOrder].reverse() } },
    { rule: "a declaration order that is no list", data: { ...declaring, declarationOrder: "c0" } },
    { rule: "a declaration order naming a stranger", data: { ...declaring, declarationOrder: ["ghost"] } },
    { rule: "a pass order without a declaration order", data: { ...pass, declarationOrder: undefined } },
    { rule: "both the older and today's fields", data: { ...pass, due: [], held: [] } },
  ])("rejects $rule", ({ data }) => {
    expect(parseSidesState(JSON.parse(JSON.stringify(data)))).toBeNull();
  });

  it("while the well-formed older shapes around them are accepted", () => {
    expect(parseSidesState(JSON.parse(JSON.stringify(pass)))).not.toBeNull();
    expect(parseSidesState(JSON.parse(JSON.stringify(declaring)))).not.toBeNull();
  });
});
