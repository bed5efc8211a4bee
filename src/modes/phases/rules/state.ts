/**
 * Narrowing of stored `phases` state. The state comes back from document flags, which a bug, a macro
 * or a bad migration can corrupt: anything that is not a well-formed, internally consistent state is
 * rejected (null), so the glue can say so and offer a reset instead of running on garbage.
 */
import { isFlag, isId, isRecord, isText, isNullable, isWhole, listOf, orNull, shapeOf } from "../../../core/common";
import {
  MAX_POINTS,
  MAX_SKILL_ACTIONS,
  type FailureAnswer,
  type HeroTurn,
  type PhasesCombatant,
  type PhasesIntent,
  type PhasesRoll,
  type PhasesState,
} from "./types";
import { complexityAfter, diceMatch, hasDoubles, isDieSize } from "./dice";
import { rollSucceeded } from "./derived";
import { isTargetList } from "./untrusted";
import { migrate, type Migration } from "../../../core/migrations";

const STEPS: readonly unknown[] = ["setup", "foesDeclare", "heroes", "foesResolve"];

const isCombatant = shapeOf<PhasesCombatant>({ id: isId, name: isText, isPC: isFlag, defeated: isFlag, acted: isFlag });

const isIntent = shapeOf<PhasesIntent>({
  id: isId,
  foeId: isId,
  text: isText,
  kind: (value) => value === "attack" || value === "other",
  targets: isTargetList,
  collapse: isFlag,
  foiled: isFlag,
  foiledBy: orNull(isId),
  outOfReach: isFlag,
  resolved: isFlag,
});

const isTurn = shapeOf<HeroTurn>({
  combatantId: isId,
  skillActions: (value) => isWhole(value, MAX_SKILL_ACTIONS),
  freeMoveUsed: isFlag,
  failed: isFlag,
});

function isAnswer(value: unknown): value is FailureAnswer {
  if (!isRecord(value)) return false;
  if (value.choice === "collapse") return Object.keys(value).length === 1;
  return value.choice === "effect" && isText(value.text) && Object.keys(value).length === 2;
}

function isRoll(value: unknown): value is PhasesRoll {
  if (!isRecord(value)) return false;
  const { dice, dieSize, complexity } = value;
  return (
    isId(value.combatantId) &&
    isNullable(value.skill, isId) &&
    isDieSize(dieSize) &&
    Number.isInteger(complexity) &&
    (complexity as number) >= complexityAfter(0) &&
    Array.isArray(dice) &&
    dice.every((face) => typeof face === "number") &&
    diceMatch(dice, complexity as number, dieSize) &&
    isNullable(value.defends, isId) &&
    isFlag(value.gainsAdvantage) &&
    isFlag(value.move) &&
    isNullable(value.answer, isAnswer) &&
    (value.answer === null || hasDoubles(dice))
  );
}

/**
 * The numbered migrations of a stored state (`core/migrations.ts`), oldest first; each has its
 * fixture in `test/fixtures/migrations/phases/`.
 */
export const phasesMigrations: readonly Migration[] = [
  // Version 1: a skill roll's success is derived from its dice, no longer stored.
  {
    version: 1,
    up: (old) => {
      const roll = old.lastRoll;
      if (!isRecord(roll) || !("success" in roll)) return old;
      const { success, ...rest } = roll;
      const { dice } = rest;
      // The stored success must agree with the dice (a roll succeeds without doubles); it is dropped.
      const faces = Array.isArray(dice) && dice.every((face) => typeof face === "number");
      return faces && success === !hasDoubles(dice) ? { ...old, lastRoll: rest } : null;
    },
  },
];

/** The intents refer to present combatants and fit the phase. */
function intentsConsistent(state: PhasesState, byId: ReadonlyMap<string, PhasesCombatant>): boolean {
  const ids = new Set<string>();
  const own = new Set<string>();
  for (const i of state.intents) {
    const n = /^i(\d+)$/.exec(i.id);
    if (n === null || Number(n[1]) >= state.nextIntent || ids.has(i.id)) return false;
    ids.add(i.id);
    const foe = byId.get(i.foeId);
    if (foe === undefined || foe.isPC) return false;
    if (!i.collapse) {
      if (own.has(i.foeId)) return false;
      own.add(i.foeId);
    }
    if (i.collapse && i.kind !== "attack") return false;
    if (new Set(i.targets).size !== i.targets.length) return false;
    if (!i.targets.every((t) => byId.get(t)?.isPC === true)) return false;
    if (i.foiledBy !== null && (!i.foiled || byId.get(i.foiledBy)?.isPC !== true)) return false;
    if (i.foiled && (i.kind !== "attack" || state.phase === "foesDeclare")) return false;
    if (i.resolved && state.phase !== "foesResolve") return false;
    if (i.outOfReach && state.phase !== "foesResolve") return false;
  }
  return true;
}

/** The running turn, the last hero and the last roll refer to heroes that have acted. */
function turnsConsistent(state: PhasesState, byId: ReadonlyMap<string, PhasesCombatant>): boolean {
  const actedHero = (id: string): boolean => {
    const c = byId.get(id);
    return c !== undefined && c.isPC && c.acted;
  };
  if (state.combatants.some((c) => c.acted && !c.isPC)) return false;
  const t = state.turn;
  if (t !== null) {
    if (state.phase !== "heroes" || !actedHero(t.combatantId)) return false;
    const roll = state.lastRoll;
    if (t.failed && roll?.combatantId === t.combatantId && rollSucceeded(roll)) return false;
  }
  if (state.lastHero !== null && !actedHero(state.lastHero)) return false;
  const r = state.lastRoll;
  if (r !== null && !actedHero(r.combatantId)) return false;
  return true;
}

const isRound = (value: unknown): boolean => isWhole(value, Number.MAX_SAFE_INTEGER);
const isPoints = (value: unknown): boolean => isWhole(value, MAX_POINTS);

const isShaped = shapeOf<PhasesState>({
  combatants: listOf(isCombatant),
  started: isFlag,
  round: isRound,
  phase: (value) => STEPS.includes(value),
  surprise: isFlag,
  intents: listOf(isIntent),
  nextIntent: isRound,
  turn: orNull(isTurn),
  lastHero: orNull(isId),
  handOff: isFlag,
  lastRoll: orNull(isRoll),
  pool: isPoints,
  poolCap: isPoints,
  collapse: isPoints,
});

/** Narrow untrusted data to a phases state, or null when it is malformed or inconsistent. */
export function parsePhasesState(data: unknown): PhasesState | null {
  const state = migrate(data, phasesMigrations);
  if (!isShaped(state)) return null;
  const byId = new Map(state.combatants.map((c) => [c.id, c]));
  if (byId.size !== state.combatants.length) return null;
  if (state.pool > state.poolCap) return null;
  if (!state.started) {
    const fresh =
      state.round === 0 &&
      state.phase === "setup" &&
      state.intents.length === 0 &&
      state.turn === null &&
      state.lastHero === null &&
      state.lastRoll === null &&
      state.combatants.every((c) => !c.acted);
    if (!fresh) return null;
  } else if (state.round < 1 || state.phase === "setup") {
    return null;
  }
  if (!intentsConsistent(state, byId) || !turnsConsistent(state, byId)) return null;
  return state;
}
