/** The sides mode's view (the order everyone sees, the current and next actor) and the allowed actions. */
import type { AllowedAction, Requester, TurnView } from "../../../core/engine";
import {
  allowedByTrial,
  type RefusalChecks,
  canControl,
  includesId,
  probe,
  type Probe as CommonProbe,
} from "../../../core/common";
import type { SidesState, SidesCommand } from "./types";
import {
  ranking,
  passOrder,
  slowedWaiting,
  currentDeclarer,
  declarationOrder,
  declarationOf,
  passCurrent,
  pendingSideTies,
  pendingTies,
  sideMembers,
} from "./derived";
import { settle, finishAction, currentOf } from "./flow";
import {
  declareRefusal,
  hesitateRefusal,
  reactRefusal,
  slowDownRefusal,
  letPassRefusal,
  applyHandler,
} from "./commands";

/**
 * One order all round: everyone by the passes' ranking (`ranking`). During a pass, the places its
 * actors hold in it are filled in the pass order, then with the slowed characters still waiting, so
 * a slow-down moves one combatant and nobody else; the declarer is wherever it ranks.
 */
function viewOrder(state: SidesState): readonly string[] {
  const ranked = ranking(state);
  if (!state.started || state.step !== "pass") return ranked;
  const sequence = [...passOrder(state), ...slowedWaiting(state).map((entry) => entry.combatantId)];
  const inPass = new Set(sequence);
  let k = 0;
  return ranked.map((id) => (inPass.has(id) ? (sequence[k++] ?? id) : id));
}

function nextOf(state: SidesState): string | null {
  if (!state.started) return null;
  if (state.step === "declaration") {
    const current = currentDeclarer(state);
    const order = declarationOrder(state);
    const rest = order.slice(order.indexOf(current ?? "") + 1);
    return rest.find((id) => declarationOf(state, id) === undefined) ?? null;
  }
  if (state.step !== "pass") return null;
  const after = settle(finishAction(state, []), []);
  return after.round === state.round ? passCurrent(after) : null;
}

export function view(state: SidesState): TurnView {
  return {
    started: state.started,
    round: state.round,
    step: state.started ? state.step : "setup",
    order: viewOrder(state),
    current: currentOf(state),
    next: nextOf(state),
  };
}

type Probe = CommonProbe<AllowedAction, SidesCommand>;

function probes(state: SidesState, who: Requester): Probe[] {
  const list: Probe[] = [probe({ type: "start" }), probe({ type: "nextTurn" }), probe({ type: "nextRound" })];
  // Whom a slow-down follows: the first other still to act in the pass, else the first other
  // waiting. Only the first two of each can be that, so each list is looked through once.
  const open = passOrder(state)
    .filter((x) => !includesId(state.done, x))
    .slice(0, 2);
  const waiting = slowedWaiting(state)
    .slice(0, 2)
    .map((entry) => entry.combatantId);
  const other = (id: string): string | undefined => open.find((x) => x !== id) ?? waiting.find((x) => x !== id);
  for (const c of state.combatants) {
    const combatantId = c.id;
    // Every per-combatant command needs the GM or the combatant's owner: skip the rest untried.
    if (!canControl(who, combatantId)) continue;
    const on = (command: SidesCommand): Probe => probe(command, { combatantId });
    const follow = other(combatantId);
    list.push(
      on({ type: "declare", combatantId, actions: [], forcePoint: false }),
      on({ type: "hesitate", combatantId }),
      on({ type: "react", combatantId, kind: "dodge" }),
      on({ type: "letPass", combatantId }),
    );
    if (follow !== undefined) list.push(on({ type: "slowDown", combatantId, after: follow }));
  }
  for (const side of state.sides) {
    const groupId = side.id;
    list.push(probe({ type: "recordSideRoll", sideId: groupId, total: 0 }, { groupId }));
  }
  for (const tie of pendingSideTies(state)) {
    const groupId = tie[0];
    if (groupId !== undefined) {
      list.push(probe({ type: "orderTiedSides", sideIds: tie }, { groupId }));
    }
  }
  for (const tie of pendingTies(state)) {
    const combatantId = tie[0];
    if (combatantId !== undefined) {
      list.push(probe({ type: "orderTied", pass: state.pass, combatantIds: tie }, { combatantId }));
    }
  }
  return list;
}

/** What the GM may always do, listed without a trial apply (trying them for every row is quadratic). */
function gmActions(state: SidesState): AllowedAction[] {
  const out: AllowedAction[] = [{ type: "addCombatant" }, { type: "defineSide" }, { type: "configure" }];
  for (const c of state.combatants) {
    const combatantId = c.id;
    out.push(
      { type: "setSide", combatantId },
      { type: "setTraits", combatantId },
      { type: "removeCombatant", combatantId },
    );
  }
  for (const side of state.sides) {
    out.push({ type: "setRoller", groupId: side.id });
    if (sideMembers(state, side.id).length === 0) out.push({ type: "removeSide", groupId: side.id });
  }
  return out;
}

/**
 * The per-character commands tried by their refusal check alone (their handlers, once past it,
 * always accept), so that a trial builds no state for each character: a reaction or a slow-down is
 * open to most of the cast in a pass. `test/rules/sides-allowed.property.test.ts` compares them with
 * trying every command through the handlers.
 */
const refusalChecks: RefusalChecks<SidesState, SidesCommand> = {
  declare: declareRefusal,
  hesitate: hesitateRefusal,
  react: reactRefusal,
  slowDown: slowDownRefusal,
  letPass: letPassRefusal,
};

export function allowed(state: SidesState, who: Requester): readonly AllowedAction[] {
  return allowedByTrial(state, who, who.isGM ? gmActions(state) : [], probes(state, who), applyHandler, refusalChecks);
}

/**
 * The acting turn: a character's action in a pass, named by round, pass and character. Side rolls and
 * declarations are no turns (docs/modes/sides.md, "Turn events").
 */
export function sidesTurnKey(state: SidesState): string | null {
  if (!state.started || state.step !== "pass") return null;
  const current = currentOf(state);
  return current === null ? null : `${state.round}:pass${state.pass}:${current}`;
}
