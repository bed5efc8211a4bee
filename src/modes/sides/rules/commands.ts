/** The sides mode's command handlers, and `applyCommand` that takes the steps that need nobody after each. */
import { accept, refuse, type Outcome, type Requester, type RuleEvent } from "../../../core/engine";
import {
  addToRoster,
  runHandler,
  type Handlers,
  canControl,
  findById,
  includesId,
  isFiniteNumber,
  isId,
  stepKind,
  without,
  markTyped,
  sameSet,
  updateCombatant,
  gmCombatantRefusal,
} from "../../../core/common";
import { normaliseDiceCode } from "../../../core/dice-code";
import {
  type SidesState,
  type SidesCommandType,
  type SidesCommand,
  MAX_ACTIONS_LIMIT,
  MAX_SIDES,
  type Side,
  type SideRoll,
  MAX_EARLIER_ROLLS,
  type Declaration,
} from "./types";
import {
  declarationOf,
  currentDeclarer,
  inPassOrder,
  passCurrent,
  sideMembers,
  sideRoller,
  pendingSideTies,
  pendingTies,
  sidesToRoll,
} from "./derived";
import {
  newCombatant,
  withoutId,
  holdFacts,
  startRound,
  fillTiedPlaces,
  finishAction,
  updateDeclaration,
  settle,
  currentOf,
} from "./flow";
import { isActionText, isReactionKind, isSideName, isColour, isMaxActions } from "./untrusted";

/** Refusal for commands of the passes outside them. */
function needPass(state: SidesState): Outcome<SidesState> | null {
  if (!state.started) return refuse("notStarted");
  return state.step === "pass" ? null : refuse("wrongStep");
}

type SidesCommandOf<T extends SidesCommandType> = Extract<SidesCommand, { readonly type: T }>;

/** Why `who` may not declare these actions now, or null (then `declare` accepts them). */
export function declareRefusal(
  state: SidesState,
  { combatantId, actions }: SidesCommandOf<"declare">,
  who: Requester,
): Outcome<SidesState> | null {
  if (!state.started) return refuse("notStarted");
  if (state.step !== "declaration") return refuse("wrongStep");
  if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
  if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
  const existing = declarationOf(state, combatantId);
  if (existing !== undefined) return refuse(existing.hesitated ? "hesitated" : "alreadyDeclared", combatantId);
  if (currentDeclarer(state) !== combatantId) return refuse("notYourTurn", combatantId);
  if (actions.length > state.maxActions) return refuse("tooManyActions", combatantId);
  if (!actions.every((a) => isActionText(a.text))) return refuse("invalidValue", combatantId);
  return null;
}

/** Why `who` may not mark the character hesitating now, or null (then `hesitate` accepts it). */
export function hesitateRefusal(
  state: SidesState,
  { combatantId }: SidesCommandOf<"hesitate">,
  who: Requester,
): Outcome<SidesState> | null {
  if (!who.isGM) return refuse("notGM");
  if (!state.started) return refuse("notStarted");
  if (state.step !== "declaration") return refuse("wrongStep");
  if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
  const existing = declarationOf(state, combatantId);
  if (existing !== undefined) return refuse(existing.hesitated ? "hesitated" : "alreadyDeclared", combatantId);
  if (currentDeclarer(state) !== combatantId) return refuse("notYourTurn", combatantId);
  return null;
}

/** Why `who` may not act for the character in a pass now (a pass running, the character there and theirs), or null. */
function passActorRefusal(state: SidesState, combatantId: string, who: Requester): Outcome<SidesState> | null {
  const wrong = needPass(state);
  if (wrong !== null) return wrong;
  if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
  if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
  return null;
}

/** Why `who` may not make this reaction now, or null (then `react` accepts it). */
export function reactRefusal(
  state: SidesState,
  { combatantId, kind }: SidesCommandOf<"react">,
  who: Requester,
): Outcome<SidesState> | null {
  const wrong = passActorRefusal(state, combatantId, who);
  if (wrong !== null) return wrong;
  const d = declarationOf(state, combatantId);
  if (d === undefined) return refuse("notDeclared", combatantId);
  if (d.hesitated) return refuse("hesitated", combatantId);
  if (!isReactionKind(kind)) return refuse("invalidValue", combatantId);
  if (d.reactions.length >= state.maxReactions) return refuse("tooManyReactions", combatantId);
  if (d.actions.length + d.reactions.length >= MAX_ACTIONS_LIMIT) return refuse("tooManyActions", combatantId);
  return null;
}

/** Why `who` may not slow the character down now to act after `after`, or null (then `slowDown` accepts it). */
export function slowDownRefusal(
  state: SidesState,
  { combatantId, after }: SidesCommandOf<"slowDown">,
  who: Requester,
): Outcome<SidesState> | null {
  const wrong = passActorRefusal(state, combatantId, who);
  if (wrong !== null) return wrong;
  if (includesId(state.done, combatantId)) return refuse("alreadyActed", combatantId);
  if (state.slowed.some((entry) => entry.combatantId === combatantId)) return refuse("alreadySlowed", combatantId);
  if (!inPassOrder(state, combatantId)) return refuse("notInPass", combatantId);
  if (findById(state.combatants, after) === undefined) return refuse("unknownCombatant", after);
  if (after === combatantId) return refuse("invalidValue", after);
  if (includesId(state.done, after)) return refuse("alreadyActed", after);
  return null;
}

/** Why `who` may not let the character's moment pass now, or null (then `letPass` accepts it). */
export function letPassRefusal(
  state: SidesState,
  { combatantId }: SidesCommandOf<"letPass">,
  who: Requester,
): Outcome<SidesState> | null {
  const wrong = passActorRefusal(state, combatantId, who);
  if (wrong !== null) return wrong;
  if (!state.slowed.some((entry) => entry.combatantId === combatantId)) return refuse("notSlowed", combatantId);
  if (passCurrent(state) !== combatantId) return refuse("notYourTurn", combatantId);
  return null;
}

export const handlers: Handlers<SidesState, SidesCommand> = {
  addCombatant: (state, { combatant }, who) => addToRoster(state, combatant, who, newCombatant),

  removeCombatant(state, { combatantId }, who) {
    const why = gmCombatantRefusal(state, combatantId, who);
    if (why !== null) return why;
    const s: SidesState = {
      ...state,
      combatants: state.combatants.filter((c) => c.id !== combatantId),
      sides: state.sides.map((side) => (side.roller === combatantId ? { ...side, roller: null } : side)),
      declarations: state.declarations.filter((d) => d.combatantId !== combatantId),
      done: without(state.done, combatantId),
      due: without(state.due, combatantId),
      held: state.held.filter((h) => h.combatantId !== combatantId),
      slowed: state.slowed
        .filter((entry) => entry.combatantId !== combatantId)
        .map((entry) => (entry.after === combatantId ? { ...entry, after: null } : entry)),
      lost: state.lost.filter((entry) => entry.combatantId !== combatantId),
      tieOrders: withoutId(state.tieOrders, combatantId),
    };
    return accept(s, [{ type: "combatantRemoved", round: s.round, combatantId }]);
  },

  defineSide(state, { sideId, name, colour, isGMSide: mark }, who) {
    if (!who.isGM) return refuse("notGM");
    if (!isId(sideId) || !isSideName(name) || !isColour(colour)) return refuse("invalidValue");
    const existing = findById(state.sides, sideId);
    const events: RuleEvent[] = [{ type: "sideDefined", round: state.round }];
    if (existing === undefined) {
      if (state.sides.length >= MAX_SIDES) return refuse("invalidValue");
      const side: Side = { id: sideId, name: name.trim(), colour, gmSide: mark ?? null, roller: null };
      return accept({ ...state, sides: [...state.sides, side] }, events);
    }
    const side: Side = {
      ...existing,
      name: name.trim(),
      colour,
      gmSide: mark === undefined ? existing.gmSide : mark,
    };
    return accept({ ...state, sides: state.sides.map((x) => (x.id === sideId ? side : x)) }, events);
  },

  removeSide(state, { sideId }, who) {
    if (!who.isGM) return refuse("notGM");
    if (findById(state.sides, sideId) === undefined) return refuse("unknownSide");
    if (sideMembers(state, sideId).length > 0) return refuse("sideNotEmpty");
    const s: SidesState = {
      ...state,
      sides: state.sides.filter((side) => side.id !== sideId),
      rolls: state.rolls.filter((r) => r.sideId !== sideId),
      sideTieOrders: withoutId(state.sideTieOrders, sideId),
      // A held member still declares in this side's place: the side keeps it until the round ends.
      sideOrder: state.held.some((h) => h.sideId === sideId) ? state.sideOrder : without(state.sideOrder, sideId),
    };
    return accept(s, [{ type: "sideRemoved", round: s.round }]);
  },

  setSide(state, { combatantId, sideId }, who) {
    const why = gmCombatantRefusal(state, combatantId, who);
    if (why !== null) return why;
    if (findById(state.sides, sideId) === undefined) return refuse("unknownSide");
    const s = updateCombatant(holdFacts(state, combatantId), combatantId, (c) => ({ ...c, sideId }));
    return accept(s, [{ type: "sideChanged", round: s.round, combatantId }]);
  },

  setTraits(state, { combatantId, dexterity, perception, initiativeScore }, who) {
    const why = gmCombatantRefusal(state, combatantId, who);
    if (why !== null) return why;
    const dex = normaliseDiceCode(dexterity);
    const per = normaliseDiceCode(perception);
    const score = normaliseDiceCode(initiativeScore);
    if (dex === null || per === null || score === null) return refuse("invalidValue", combatantId);
    const s = updateCombatant(holdFacts(state, combatantId), combatantId, (c) => ({
      ...c,
      dexterity: dex,
      perception: per,
      initiativeScore: score,
    }));
    return accept(s, [{ type: "traitsChanged", round: s.round, combatantId }]);
  },

  configure(state, { maxActions, actionPenalty, maxReactions = state.maxReactions }, who) {
    if (!who.isGM) return refuse("notGM");
    const per = normaliseDiceCode(actionPenalty);
    if (!isMaxActions(maxActions) || !isMaxActions(maxReactions) || per === null) return refuse("invalidValue");
    return accept({ ...state, maxActions, maxReactions, actionPenalty: per }, [
      { type: "configured", round: state.round },
    ]);
  },

  start(state, _command, who) {
    if (!who.isGM) return refuse("notGM");
    if (state.started) return refuse("alreadyStarted");
    if (state.combatants.length === 0) return refuse("noCombatants");
    const sideless = state.combatants.find((c) => c.sideId === null);
    if (sideless !== undefined) return refuse("noSide", sideless.id);
    const events: RuleEvent[] = [{ type: "combatStarted", round: 1 }];
    return accept(startRound({ ...state, started: true }, 1, events), events);
  },

  setRoller(state, { sideId, combatantId }, who) {
    if (!who.isGM) return refuse("notGM");
    if (findById(state.sides, sideId) === undefined) return refuse("unknownSide");
    if (combatantId !== null) {
      const c = findById(state.combatants, combatantId);
      if (c === undefined) return refuse("unknownCombatant", combatantId);
      if (c.sideId !== sideId) return refuse("notOnSide", combatantId);
    }
    const s: SidesState = {
      ...state,
      sides: state.sides.map((side) => (side.id === sideId ? { ...side, roller: combatantId } : side)),
    };
    const event: RuleEvent =
      combatantId === null
        ? { type: "rollerChosen", round: s.round }
        : { type: "rollerChosen", round: s.round, combatantId };
    return accept(s, [event]);
  },

  recordSideRoll(state, { sideId, total, typed }, who) {
    if (!state.started) return refuse("notStarted");
    // The GM may still correct a roll in the declaration step, until the first declaration.
    const correcting = state.step === "declaration" && state.declarations.length === 0 && who.isGM;
    if (state.step !== "initiative" && !correcting) return refuse("wrongStep");
    if (findById(state.sides, sideId) === undefined) return refuse("unknownSide");
    const roller = sideRoller(state, sideId);
    if (roller === null) return refuse("emptySide");
    if (!canControl(who, roller)) return refuse("notOwner", roller);
    if (typed === true && !who.isGM) return refuse("typedResult", roller);
    const old = state.rolls.find((r) => r.sideId === sideId);
    // A side rolls once a round; only the GM re-rolls or corrects it (the old total is kept).
    if (old !== undefined && !who.isGM) return refuse("alreadyRolled");
    if (!isFiniteNumber(total)) return refuse("invalidValue");
    const events: RuleEvent[] = [{ type: "sideRolled", round: state.round, combatantId: roller }];
    if (old === undefined)
      return accept({ ...state, rolls: [...state.rolls, markTyped({ sideId, total }, typed)] }, events, "turn");
    const replaced: SideRoll = markTyped(
      { sideId, total, earlier: [...(old.earlier ?? []), old.total].slice(-MAX_EARLIER_ROLLS) },
      typed,
    );
    // The declaration order is worked out again from the corrected rolls (`settle`); the GM's order
    // of a tie this side was in no longer holds.
    const s: SidesState = {
      ...state,
      step: "initiative",
      sideOrder: [],
      held: [],
      rolls: state.rolls.map((r) => (r.sideId === sideId ? replaced : r)),
      sideTieOrders: withoutId(state.sideTieOrders, sideId),
    };
    return accept(s, events, "turn");
  },

  orderTiedSides(state, { sideIds }, who) {
    if (!who.isGM) return refuse("notGM");
    if (!state.started) return refuse("notStarted");
    if (state.step !== "initiative") return refuse("wrongStep");
    if (!pendingSideTies(state).some((tie) => sameSet(sideIds, tie))) return refuse("notTied");
    return accept({ ...state, sideTieOrders: [...state.sideTieOrders, [...sideIds]] });
  },

  declare(state, command, who) {
    const refusal = declareRefusal(state, command, who);
    if (refusal !== null) return refusal;
    const { combatantId, actions, forcePoint } = command;
    const declaration: Declaration = {
      combatantId,
      actions: actions.map((a) => ({ text: a.text.trim() })),
      forcePoint,
      hesitated: false,
      reactions: [],
    };
    const s: SidesState = { ...state, declarations: [...state.declarations, declaration] };
    return accept(s, [{ type: "declared", round: s.round, combatantId }], "turn");
  },

  hesitate(state, command, who) {
    const refusal = hesitateRefusal(state, command, who);
    if (refusal !== null) return refusal;
    const { combatantId } = command;
    const declaration: Declaration = { combatantId, actions: [], forcePoint: false, hesitated: true, reactions: [] };
    const s: SidesState = { ...state, declarations: [...state.declarations, declaration] };
    return accept(s, [{ type: "hesitated", round: s.round, combatantId }], "turn");
  },

  orderTied(state, { pass, combatantIds }, who) {
    if (!who.isGM) return refuse("notGM");
    const wrong = needPass(state);
    if (wrong !== null) return wrong;
    if (pass !== state.pass) return refuse("invalidValue");
    if (!pendingTies(state).some((tie) => sameSet(combatantIds, tie))) return refuse("notTied", combatantIds[0]);
    // The tied characters keep the places they hold in the pass, now filled in the GM's order: the
    // newest record orders them (the pass order is derived). One whose traits changed in this pass
    // is ordered by its held ones: each takes the held facts of the place it fills.
    const tied = { ...state, tieOrders: [...state.tieOrders, [...combatantIds]] };
    const s: SidesState = combatantIds.some((id) => state.held.some((h) => h.combatantId === id))
      ? fillTiedPlaces(state, tied, combatantIds)
      : tied;
    return accept(s, [{ type: "tieOrdered", round: s.round }]);
  },

  nextTurn(state, _command, who) {
    if (!state.started) return refuse("notStarted");
    if (state.step === "initiative") {
      const missing = sidesToRoll(state)[0];
      if (missing !== undefined) return refuse("initiativeMissing", sideRoller(state, missing) ?? undefined);
      return pendingSideTies(state).length > 0 ? refuse("tiePending") : refuse("noCombatants");
    }
    if (state.step === "declaration") {
      // Declaring is done by declaring (or hesitating): a player cannot skip a declarer.
      const declarer = currentDeclarer(state) ?? undefined;
      return refuse(who.isGM ? "notDeclared" : "skipDeclarerGM", declarer);
    }
    const current = passCurrent(state);
    if (current === null) return refuse("wrongStep");
    // Someone else's combatant is acting: the reason is ownership, not whose turn it is.
    if (!canControl(who, current)) return refuse("notOwner", current);
    const events: RuleEvent[] = [];
    return accept(finishAction(state, events), events, "turn");
  },

  nextRound(state, _command, who) {
    if (!who.isGM) return refuse("notGM");
    if (!state.started) return refuse("notStarted");
    const events: RuleEvent[] = [];
    return accept(startRound(state, state.round + 1, events), events, "round");
  },

  react(state, command, who) {
    const refusal = reactRefusal(state, command, who);
    if (refusal !== null) return refusal;
    const { combatantId, kind } = command;
    const s = updateDeclaration(state, combatantId, (x) => ({
      ...x,
      reactions: [...x.reactions, { kind, pass: state.pass }],
    }));
    return accept(s, [{ type: "reacted", round: s.round, combatantId }], "turn");
  },

  slowDown(state, command, who) {
    const refusal = slowDownRefusal(state, command, who);
    if (refusal !== null) return refusal;
    const { combatantId, after } = command;
    const s: SidesState = { ...state, slowed: [...state.slowed, { combatantId, after }] };
    return accept(s, [{ type: "slowedDown", round: s.round, combatantId }], "turn");
  },

  letPass(state, command, who) {
    const refusal = letPassRefusal(state, command, who);
    if (refusal !== null) return refusal;
    const events: RuleEvent[] = [];
    return accept(finishAction(state, events, true), events, "turn");
  },
};

export function applyHandler(state: SidesState, command: SidesCommand, who: Requester): Outcome<SidesState> {
  return runHandler(handlers, state, command, who);
}

/**
 * Apply a command, then take every step that needs nobody (all sides rolled → declaration; all
 * declared → pass 1; a pass run out → the next pass or round). A command that moves the round on to
 * another step, or to another round, is an undoable step.
 */
export function applyCommand(state: SidesState, command: SidesCommand, who: Requester): Outcome<SidesState> {
  const outcome = applyHandler(state, command, who);
  if (!outcome.ok) return outcome;
  const events = [...outcome.events];
  const after = settle(outcome.state, events);
  const current = currentOf(after);
  const moved = after.round !== state.round || after.step !== state.step || after.pass !== state.pass;
  if (current !== null && (moved || current !== currentOf(state))) {
    events.push({ type: "turnStarted", round: after.round, combatantId: current });
  }
  const step = outcome.step !== undefined || moved ? stepKind(state.round, after.round) : undefined;
  return accept(after, events, step);
}
