/**
 * Narrowing of stored `sides` state. The state comes back from document flags, which a bug, a macro
 * or a bad migration can corrupt: anything that is not a well-formed, internally consistent state is
 * rejected (null), so the glue can say so and offer a reset instead of running on garbage.
 */
import {
  isFiniteNumber,
  isFlag,
  isId,
  isIdList,
  isRecord,
  isText,
  isTypedField,
  isWhole,
  listOf,
  orNull,
  shapeOf,
} from "../../../core/common";
import { jsonEqual } from "../../../core/patch";
import { MAX_DICE, PIPS_PER_DIE, diceCodeFromPips, formatDiceCode, normaliseDiceCode } from "../../../core/dice-code";
import {
  DEFAULT_MAX_REACTIONS,
  MAX_ACTIONS_LIMIT,
  MAX_EARLIER_ROLLS,
  MAX_SIDES,
  type Declaration,
  type HeldFacts,
  type LostAction,
  type Reaction,
  type Side,
  type SideRoll,
  type SidesCombatant,
  type SidesState,
  type SlowedEntry,
} from "./types";
import { declarationOrder, naturalOrder, passOrder } from "./derived";
import { migrate, type Migration } from "../../../core/migrations";
import { isActionText, isColour, isMaxActions, isReactionKind, isSideName } from "./untrusted";

const STEPS: readonly unknown[] = ["setup", "initiative", "declaration", "pass"];

const isIdLists = listOf(isIdList);

/** A stored trait must already be in canonical form ("3D+2", not "3d + 2"). */
function isCanonicalCode(value: unknown): value is string {
  return typeof value === "string" && normaliseDiceCode(value) === value;
}

const isCode = orNull(isCanonicalCode);

const isCombatant = shapeOf<SidesCombatant>({
  id: isId,
  name: isText,
  isPC: isFlag,
  sideId: orNull(isId),
  dexterity: isCode,
  perception: isCode,
  initiativeScore: isCode,
});

const isSide = shapeOf<Side>({
  id: isId,
  name: isSideName,
  colour: isColour,
  gmSide: orNull(isFlag),
  roller: orNull(isId),
});

const isRoll = shapeOf<SideRoll>({
  sideId: isId,
  total: isFiniteNumber,
  typed: isTypedField,
  earlier: (value) =>
    value === undefined || (Array.isArray(value) && value.length <= MAX_EARLIER_ROLLS && value.every(isFiniteNumber)),
});

const isDeclaration = shapeOf<Declaration>({
  combatantId: isId,
  actions: (value) =>
    Array.isArray(value) &&
    value.length <= MAX_ACTIONS_LIMIT &&
    value.every((a: unknown) => isRecord(a) && isActionText(a.text)),
  forcePoint: isFlag,
  hesitated: isFlag,
  reactions: listOf(shapeOf<Reaction>({ kind: isReactionKind, pass: isMaxActions })),
});

const isSlowed = shapeOf<SlowedEntry>({ combatantId: isId, after: orNull(isId) });

const isHeld = shapeOf<HeldFacts>({ combatantId: isId, sideId: orNull(isId), dexterity: isCode, perception: isCode });

const isLost = shapeOf<LostAction>({ combatantId: isId, pass: isMaxActions });

function unique(ids: readonly string[]): boolean {
  return new Set(ids).size === ids.length;
}

/**
 * A state stored before the declaration and pass orders were derived (it kept `declarationOrder`
 * and `passOrder`, each the whole cast), in today's shape: the slowed characters of the pass order
 * that have not acted are `due`; a combatant left out of a stored declaration order (it joined, or
 * got its side, after the declaration began) is held with no side. A malformed one becomes null
 * (rejected); a state of today's shape (or any other value) is returned as it is. The stored
 * orders come back in `orders`, for `keepStoredOrders`.
 */
function upgradeOrders(data: { readonly [key: string]: unknown }): {
  readonly data: unknown;
  readonly orders?: StoredOrders;
} {
  if (!("declarationOrder" in data || "passOrder" in data)) return { data };
  const none = { data: null };
  const { declarationOrder: declared, passOrder: passing, ...rest } = data;
  if ("due" in data || "held" in data) return none;
  if (!isIdList(declared) || !isIdList(passing) || !isIdList(data.done) || !Array.isArray(data.slowed)) return none;
  if (!data.slowed.every(isSlowed) || !Array.isArray(data.combatants) || !data.combatants.every(isCombatant))
    return none;
  // What the old shape promised: known combatants, each once; who acted is a prefix of the pass order.
  const known = new Set(data.combatants.map((c) => c.id));
  const lists = [declared, passing, data.done];
  if (!lists.every((list) => list.every((id) => known.has(id)) && new Set(list).size === list.length)) return none;
  if (!data.done.every((id, i) => passing[i] === id)) return none;
  const done = new Set(data.done);
  const slowed = new Set(data.slowed.map((entry) => entry.combatantId));
  const due = data.step === "pass" ? passing.filter((id) => slowed.has(id) && !done.has(id)) : [];
  const held =
    data.step === "declaration"
      ? data.combatants
          .filter((c) => c.sideId !== null && !declared.includes(c.id))
          .map((c) => ({ combatantId: c.id, sideId: null, dexterity: null, perception: null }))
      : [];
  return { data: { ...rest, due, held }, orders: { declared, passing } };
}

/** The orders an older-shape state stored. */
interface StoredOrders {
  readonly declared: readonly string[];
  readonly passing: readonly string[];
}

/** The dice code `steps` pips above 0D (a rank that orders held facts), or null past the highest. */
function rankCode(steps: number): string | null {
  const code = diceCodeFromPips(steps);
  return code === null ? null : formatDiceCode(code);
}

/**
 * An upgraded state whose stored order differs from the one its facts give today (a side or trait
 * changed in the running step: the older shape kept the order, not the facts it was made from)
 * holds facts that give the stored order: in the declaration step every member of it declares in
 * the first side's place with Perception ranks in the stored order; in a pass its actors hold
 * Dexterity ranks in the stored order (only the running step's orders read held facts; the next
 * pass or round uses today's). Otherwise the state is returned as it is.
 */
function keepStoredOrders(state: SidesState, orders: StoredOrders): SidesState {
  const { declared, passing } = orders;
  const byId = new Map(state.combatants.map((c) => [c.id, c]));
  if (state.step === "declaration" && !jsonEqual(declarationOrder(state), declared)) {
    const first = state.sideOrder[0] ?? null;
    const held: HeldFacts[] = [];
    for (const c of state.combatants) {
      const at = declared.indexOf(c.id);
      if (at < 0) {
        held.push({ combatantId: c.id, sideId: null, dexterity: c.dexterity, perception: c.perception });
        continue;
      }
      const perception = rankCode(at);
      if (perception === null) return state;
      held.push({ combatantId: c.id, sideId: first, dexterity: c.dexterity, perception });
    }
    return { ...state, held };
  }
  if (state.step !== "pass") return state;
  const slowed = state.slowed.map((entry) => entry.combatantId);
  const unslowed = (order: readonly string[]): string[] => order.filter((id) => !slowed.includes(id));
  if (jsonEqual(passOrder(state), passing) && jsonEqual(unslowed(naturalOrder(state)), unslowed(passing))) return state;
  const sequence = [...unslowed(passing), ...slowed];
  // The highest ranks: the pass's actors head the tracker's order, as in the pass.
  const top = (MAX_DICE + 1) * PIPS_PER_DIE - 1;
  const held: HeldFacts[] = [];
  for (const [i, id] of sequence.entries()) {
    const c = byId.get(id);
    const dexterity = rankCode(top - i);
    if (c === undefined || dexterity === null) return state;
    held.push({ combatantId: id, sideId: c.sideId, dexterity, perception: c.perception });
  }
  return { ...state, held };
}

/** Whether data has today's shape (every field well formed; consistency is `consistent`'s). */
function isShaped(d: unknown): d is SidesState {
  return (
    isRecord(d) &&
    listOf(isCombatant)(d.combatants) &&
    Array.isArray(d.sides) &&
    d.sides.length <= MAX_SIDES &&
    d.sides.every(isSide) &&
    isMaxActions(d.maxActions) &&
    isMaxActions(d.maxReactions) &&
    isCanonicalCode(d.actionPenalty) &&
    typeof d.started === "boolean" &&
    isWhole(d.round, Number.MAX_SAFE_INTEGER, 0) &&
    STEPS.includes(d.step) &&
    isWhole(d.pass, MAX_ACTIONS_LIMIT, 0) &&
    listOf(isRoll)(d.rolls) &&
    isIdLists(d.sideTieOrders) &&
    isIdList(d.sideOrder) &&
    listOf(isDeclaration)(d.declarations) &&
    isIdList(d.done) &&
    isIdList(d.due) &&
    listOf(isSlowed)(d.slowed) &&
    listOf(isHeld)(d.held) &&
    listOf(isLost)(d.lost) &&
    isIdLists(d.tieOrders)
  );
}

/**
 * The numbered migrations of a stored state (`core/migrations.ts`), oldest first; each has its
 * fixture in `test/fixtures/migrations/sides/`.
 */
export const sidesMigrations: readonly Migration[] = [
  // Version 1: a limit on reactions per round; encounters stored before it get the default.
  {
    version: 1,
    up: (old) => (old.maxReactions === undefined ? { ...old, maxReactions: DEFAULT_MAX_REACTIONS } : old),
  },
  // Version 2: the declaration and pass orders are derived from stored facts (due, held), no longer stored.
  {
    version: 2,
    up: (old) => {
      const upgrade = upgradeOrders(old);
      if (upgrade.orders === undefined) return upgrade.data;
      return isShaped(upgrade.data) ? keepStoredOrders(upgrade.data, upgrade.orders) : null;
    },
  },
];

/** Narrow untrusted data to a sides state, or null when it is malformed or inconsistent. */
export function parseSidesState(data: unknown): SidesState | null {
  const state = migrate(data, sidesMigrations);
  return isShaped(state) && consistent(state) ? state : null;
}

function consistent(state: SidesState): boolean {
  const known = new Set(state.combatants.map((c) => c.id));
  const sideIds = new Set(state.sides.map((side) => side.id));
  if (known.size !== state.combatants.length || sideIds.size !== state.sides.length) return false;
  // Every reference names a known combatant or side.
  if (!state.combatants.every((c) => c.sideId === null || sideIds.has(c.sideId))) return false;
  if (!state.sides.every((side) => side.roller === null || known.has(side.roller))) return false;
  // A side removed in the running step stays in the side order while a held member names it.
  const heldSides = new Set(state.held.flatMap((h) => (h.sideId === null ? [] : [h.sideId])));
  const sideRefs = [...state.rolls.map((r) => r.sideId), ...state.sideTieOrders.flat()];
  if (!sideRefs.every((id) => sideIds.has(id))) return false;
  if (!state.sideOrder.every((id) => sideIds.has(id) || heldSides.has(id))) return false;
  if (![...heldSides].every((id) => sideIds.has(id) || state.sideOrder.includes(id))) return false;
  const slowedIds = state.slowed.map((entry) => entry.combatantId);
  const declared = state.declarations.map((x) => x.combatantId);
  const heldIds = state.held.map((h) => h.combatantId);
  const refs = [
    ...declared,
    ...state.done,
    ...state.due,
    ...heldIds,
    ...slowedIds,
    ...state.slowed.flatMap((entry) => (entry.after === null ? [] : [entry.after])),
    ...state.lost.map((entry) => entry.combatantId),
    ...state.tieOrders.flat(),
  ];
  if (!refs.every((id) => known.has(id))) return false;
  // Each list holds each id once; one roll per side.
  const lists = [state.sideOrder, declared, state.done, state.due, slowedIds, heldIds];
  if (!lists.every(unique) || !unique(state.rolls.map((r) => r.sideId))) return false;
  return stepConsistent(state, slowedIds);
}

function stepConsistent(state: SidesState, slowedIds: readonly string[]): boolean {
  if (!state.started) return state.step === "setup" && state.round === 0 && state.pass === 0;
  if (state.step === "setup" || state.round < 1) return false;
  if ((state.step === "pass") !== state.pass >= 1) return false;
  // Facts are held in the declaration step and the passes only; who acted and slowed, in a pass.
  if (state.held.length > 0 && state.step !== "declaration" && state.step !== "pass") return false;
  if (state.step !== "pass" && (state.done.length > 0 || state.due.length > 0 || state.slowed.length > 0)) return false;
  // Only characters in the declaration order declare; the pass holds those with enough actions.
  if (state.step === "declaration") {
    const order = declarationOrder(state);
    if (!state.declarations.every((x) => order.includes(x.combatantId))) return false;
  }
  const actors = [...state.done, ...state.due, ...slowedIds];
  const enough = (id: string): boolean =>
    state.declarations.some((x) => x.combatantId === id && !x.hesitated && x.actions.length >= state.pass);
  if (!actors.every(enough)) return false;
  // Who is due slowed down and has not acted; who acted is in the pass order once.
  const slowed = new Set(slowedIds);
  if (!state.due.every((id) => slowed.has(id) && !state.done.includes(id))) return false;
  if (passOrder(state).length !== new Set(passOrder(state)).size) return false;
  // Who acted in the natural order (not slowed down) did so in that order, from its start.
  const natural = naturalOrder(state).filter((id) => !slowed.has(id));
  const actedInTurn = state.done.filter((id) => !slowed.has(id));
  return actedInTurn.every((id, i) => natural[i] === id);
}
