/** The `phases` command handlers and the refusal checks they share with the allowed actions. */

import { type Outcome, refuse, type Requester, accept } from "../../../core/engine";
import {
  findById,
  canControl,
  isText,
  isId,
  type Handlers,
  addToRoster,
  updateCombatant,
  stepKind,
  runHandler,
  gmCombatantRefusal,
} from "../../../core/common";
import {
  type PhasesState,
  MAX_TARGETS,
  type IntentKind,
  type PhasesEvent,
  type PhasesIntent,
  type PhasesCommand,
  MAX_SKILL_ACTIONS,
  type PhasesRoll,
  type HeroTurn,
  type FailureAnswer,
  MAX_POINTS,
} from "./types";
import { collapseWindow, livePicker } from "./derived";
import { isDieSize, diceMatch, complexityAfter, hasDoubles } from "./dice";
import { newCombatant, startRound, nextPhaseOf, finishTurn, resolveNextFoe, beginTurn, updateIntent } from "./flow";
import { isPoints } from "./untrusted";

/** Config changes are undo steps once the combat runs (before the start nothing is a step). */
function configStep(state: PhasesState): "turn" | undefined {
  return state.started ? "turn" : undefined;
}

/** Why the targets of a declared attack are not acceptable, or null. */
function targetsRefusal(state: PhasesState, targets: readonly string[], needOne: boolean): Outcome<PhasesState> | null {
  if (targets.length > MAX_TARGETS || new Set(targets).size !== targets.length) return refuse("invalidValue");
  if (needOne && targets.length === 0) return refuse("invalidValue");
  for (const id of targets) {
    const t = findById(state.combatants, id);
    if (t === undefined) return refuse("unknownCombatant", id);
    if (!t.isPC) return refuse("notPC", id);
    if (t.defeated) return refuse("combatantDefeated", id);
  }
  return null;
}

/** Why the foe may not have an intent now, or null. */
function foeRefusal(state: PhasesState, foeId: string): Outcome<PhasesState> | null {
  const foe = findById(state.combatants, foeId);
  if (foe === undefined) return refuse("unknownCombatant", foeId);
  if (foe.isPC) return refuse("notFoe", foeId);
  if (foe.defeated) return refuse("combatantDefeated", foeId);
  return null;
}

function addIntent(
  state: PhasesState,
  foeId: string,
  text: string,
  kind: IntentKind,
  targets: readonly string[],
  collapse: boolean,
  events: PhasesEvent[],
): PhasesState {
  const id = `i${state.nextIntent}`;
  const intent: PhasesIntent = {
    id,
    foeId,
    text,
    kind,
    targets: [...targets],
    collapse,
    foiled: false,
    foiledBy: null,
    outOfReach: false,
    resolved: false,
  };
  events.push({ type: "intentDeclared", round: state.round, combatantId: foeId, intentId: id, text });
  return { ...state, intents: [...state.intents, intent], nextIntent: state.nextIntent + 1 };
}

/** Why no hero turn may begin now (a turn runs, or a failure waits), or null. */
function busyRefusal(state: PhasesState): Outcome<PhasesState> | null {
  const t = state.turn;
  if (t === null) return null;
  return refuse(t.failed ? "failurePending" : "heroActing", t.combatantId);
}

/** Why `combatantId` may not begin a turn now, permissions aside, or null. */
function turnRefusal(state: PhasesState, combatantId: string): Outcome<PhasesState> | null {
  if (!state.started) return refuse("notStarted");
  const c = findById(state.combatants, combatantId);
  if (c === undefined) return refuse("unknownCombatant", combatantId);
  if (!c.isPC) return refuse("notPC", combatantId);
  if (state.phase !== "heroes") return refuse("wrongStep");
  if (c.defeated) return refuse("combatantDefeated", combatantId);
  return busyRefusal(state) ?? (c.acted ? refuse("alreadyActed", combatantId) : null);
}

/** Why `who` may not act in `combatantId`'s running turn now, or null. */
export function actingRefusal(state: PhasesState, combatantId: string, who: Requester): Outcome<PhasesState> | null {
  if (!state.started) return refuse("notStarted");
  if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
  if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
  if (state.phase !== "heroes") return refuse("wrongStep");
  const t = state.turn;
  if (t === null) return refuse("notYourTurn", combatantId);
  // Another hero's turn runs: that is the reason (only its owner or the GM ends it).
  if (t.combatantId !== combatantId) return refuse("heroActing", t.combatantId);
  if (t.failed) return refuse("failurePending", combatantId);
  return null;
}

/** Why the GM may not move to another phase or round now, or null. */
export function advanceRefusal(state: PhasesState, who: Requester): Outcome<PhasesState> | null {
  if (!who.isGM) return refuse("notGM");
  if (!state.started) return refuse("notStarted");
  return busyRefusal(state);
}

/** Why `who` may not take the next turn now, or null (then `nextTurn` accepts it). */
export function nextTurnRefusal(state: PhasesState, who: Requester): Outcome<PhasesState> | null {
  if (!state.started) return refuse("notStarted");
  const t = state.turn;
  // In phase 2 the acting hero's owner (or the GM) ends the turn.
  if (state.phase === "heroes" && t !== null) return actingRefusal(state, t.combatantId, who);
  return advanceRefusal(state, who);
}

type Of<T extends PhasesCommand["type"]> = Extract<PhasesCommand, { readonly type: T }>;

/** Why `who` may not declare this intent now, or null (then `declareIntent` accepts it). */
export function declareRefusal(
  state: PhasesState,
  { foeId, text, kind, targets }: Of<"declareIntent">,
  who: Requester,
): Outcome<PhasesState> | null {
  if (!who.isGM) return refuse("notGM");
  if (!state.started) return refuse("notStarted");
  if (state.phase !== "foesDeclare") return refuse("wrongStep");
  if (!isText(text)) return refuse("invalidValue");
  const why = foeRefusal(state, foeId) ?? targetsRefusal(state, targets, kind === "attack");
  if (why !== null) return why;
  if (state.intents.some((i) => i.foeId === foeId && !i.collapse)) return refuse("alreadyDeclared", foeId);
  return null;
}

/** Why `who` may not spend a Collapse point on this attack now, or null (then `spendCollapse` accepts it). */
export function collapseRefusal(
  state: PhasesState,
  { foeId, text, targets }: Of<"spendCollapse">,
  who: Requester,
): Outcome<PhasesState> | null {
  if (!who.isGM) return refuse("notGM");
  if (!state.started) return refuse("notStarted");
  if (!collapseWindow(state)) return refuse("wrongStep");
  if (!isText(text)) return refuse("invalidValue");
  const why = foeRefusal(state, foeId) ?? targetsRefusal(state, targets, true);
  if (why !== null) return why;
  if (state.collapse <= 0) return refuse("noCollapse");
  return null;
}

/** Why `who` may not start this hero's turn now, or null (then `startTurn` accepts it). */
export function startRefusal(
  state: PhasesState,
  { combatantId }: Of<"startTurn">,
  who: Requester,
): Outcome<PhasesState> | null {
  const why = turnRefusal(state, combatantId);
  if (why !== null) return why;
  if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
  // In hand-off order the players do not start turns; the GM can override.
  if (state.handOff && !who.isGM) {
    const picker = livePicker(state);
    return picker === null ? refuse("notGM") : refuse("pickerChooses", picker);
  }
  return null;
}

/** Why `who` may not pick this hero to act next now, or null (then `pickNext` accepts it). */
export function pickRefusal(
  state: PhasesState,
  { combatantId }: Of<"pickNext">,
  who: Requester,
): Outcome<PhasesState> | null {
  const why = turnRefusal(state, combatantId);
  if (why !== null) return why;
  if (!state.handOff) return refuse("notHandOff");
  const picker = livePicker(state);
  if (!who.isGM && (picker === null || !who.owns.includes(picker))) {
    return picker === null ? refuse("notGM") : refuse("pickerChooses", picker);
  }
  return null;
}

/** Why `who` may not make this skill roll now, or null (then `skillRoll` accepts it). */
export function rollRefusal(state: PhasesState, command: Of<"skillRoll">, who: Requester): Outcome<PhasesState> | null {
  const { combatantId, dieSize, dice } = command;
  const why = actingRefusal(state, combatantId, who);
  if (why !== null) return why;
  const t = state.turn;
  if (t === null) return refuse("notYourTurn", combatantId);
  if (!isDieSize(dieSize)) return refuse("invalidValue", combatantId);
  if (!diceMatch(dice, complexityAfter(t.skillActions), dieSize)) return refuse("wrongDice", combatantId);
  if (t.skillActions >= MAX_SKILL_ACTIONS) return refuse("invalidValue", combatantId);
  const skill = command.skill ?? null;
  if (skill !== null && !isId(skill)) return refuse("invalidValue", combatantId);
  const defends = command.defendsIntent ?? null;
  if (defends !== null) {
    const intent = findById(state.intents, defends);
    if (intent === undefined) return refuse("unknownIntent");
    if (intent.kind !== "attack") return refuse("notAnAttack");
    if (intent.foiled) return refuse("alreadyFoiled");
    if (intent.resolved) return refuse("intentResolved");
  }
  if ((command.gainsAdvantage ?? false) && state.pool >= state.poolCap) return refuse("poolFull", combatantId);
  return null;
}

/** Why `who` may not take this free action now, or null (then `freeAction` accepts it). */
export function freeRefusal(
  state: PhasesState,
  { combatantId, kind, note }: Of<"freeAction">,
  who: Requester,
): Outcome<PhasesState> | null {
  const why = actingRefusal(state, combatantId, who);
  if (why !== null) return why;
  const t = state.turn;
  if (t === null) return refuse("notYourTurn", combatantId);
  if (note !== undefined && !isText(note)) return refuse("invalidValue", combatantId);
  if (kind === "move" && t.freeMoveUsed) return refuse("freeMoveUsed", combatantId);
  return null;
}

/** Why `who` may not spend an Advantage now, or null (then `spendAdvantage` accepts it). */
export function advantageRefusal(
  state: PhasesState,
  { note, combatantId }: Of<"spendAdvantage">,
  who: Requester,
): Outcome<PhasesState> | null {
  if (!state.started) return refuse("notStarted");
  if (!isText(note)) return refuse("invalidValue");
  if (combatantId !== undefined) {
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
  }
  if (state.pool <= 0) return refuse("noAdvantage");
  return null;
}

/** Why `who` may not mark this intent (out of reach or back in reach) now, or null (then `markOutOfReach` accepts it). */
export function reachRefusal(
  state: PhasesState,
  { intentId, outOfReach }: Of<"markOutOfReach">,
  who: Requester,
): Outcome<PhasesState> | null {
  if (!who.isGM) return refuse("notGM");
  if (!state.started) return refuse("notStarted");
  if (state.phase !== "foesResolve") return refuse("wrongStep");
  const intent = findById(state.intents, intentId);
  if (intent === undefined) return refuse("unknownIntent");
  if (intent.resolved) return refuse("intentResolved");
  if (intent.outOfReach === outOfReach) return refuse("invalidValue");
  return null;
}

export const handlers: Handlers<PhasesState, PhasesCommand> = {
  addCombatant: (state, { combatant }, who) => addToRoster(state, combatant, who, newCombatant),

  removeCombatant(state, { combatantId }, who) {
    const why = gmCombatantRefusal(state, combatantId, who);
    if (why !== null) return why;
    const events: PhasesEvent[] = [{ type: "combatantRemoved", round: state.round, combatantId }];
    const acting = state.turn?.combatantId === combatantId;
    if (acting) events.push({ type: "turnEnded", round: state.round, combatantId });
    const s: PhasesState = {
      ...state,
      combatants: state.combatants.filter((c) => c.id !== combatantId),
      // A foe that leaves takes its intents along; a hero that leaves is no one's target any more.
      intents: state.intents
        .filter((i) => i.foeId !== combatantId)
        .map((i) =>
          i.foiledBy === combatantId || i.targets.includes(combatantId)
            ? {
                ...i,
                targets: i.targets.filter((t) => t !== combatantId),
                foiledBy: i.foiledBy === combatantId ? null : i.foiledBy,
              }
            : i,
        ),
      turn: acting ? null : state.turn,
      lastHero: state.lastHero === combatantId ? null : state.lastHero,
      lastRoll: state.lastRoll?.combatantId === combatantId ? null : state.lastRoll,
    };
    return accept(s, events);
  },

  setDefeated(state, { combatantId, defeated }, who) {
    const why = gmCombatantRefusal(state, combatantId, who);
    if (why !== null) return why;
    const events: PhasesEvent[] = [{ type: "defeatedChanged", round: state.round, combatantId }];
    let s = updateCombatant(state, combatantId, (c) => ({ ...c, defeated }));
    // A hero defeated in its own turn stops acting (a failure waiting for the GM still waits).
    const t = s.turn;
    if (defeated && t !== null && t.combatantId === combatantId && !t.failed) {
      events.push({ type: "turnEnded", round: s.round, combatantId });
      s = { ...s, turn: null, lastHero: combatantId };
    }
    return accept(s, events);
  },

  setPoolCap(state, { cap }, who) {
    if (!who.isGM) return refuse("notGM");
    if (!isPoints(cap)) return refuse("invalidValue");
    const events: PhasesEvent[] = [{ type: "poolCapChanged", round: state.round, amount: cap }];
    const lost = Math.max(state.pool - cap, 0);
    if (lost > 0) events.push({ type: "advantagesLost", round: state.round, amount: lost });
    return accept({ ...state, poolCap: cap, pool: state.pool - lost }, events, configStep(state));
  },

  setCollapse(state, { points }, who) {
    if (!who.isGM) return refuse("notGM");
    if (!isPoints(points)) return refuse("invalidValue");
    const events: PhasesEvent[] = [{ type: "collapseChanged", round: state.round, amount: points }];
    return accept({ ...state, collapse: points }, events, configStep(state));
  },

  start(state, { surprise }, who) {
    if (!who.isGM) return refuse("notGM");
    if (state.started) return refuse("alreadyStarted");
    if (state.combatants.length === 0) return refuse("noCombatants");
    const events: PhasesEvent[] = [{ type: "combatStarted", round: 1 }];
    return accept(startRound({ ...state, started: true, surprise }, 1, events), events, "round");
  },

  declareIntent(state, command, who) {
    const why = declareRefusal(state, command, who);
    if (why !== null) return why;
    const { foeId, text, kind, targets } = command;
    const events: PhasesEvent[] = [];
    return accept(addIntent(state, foeId, text, kind, targets, false, events), events, "turn");
  },

  spendCollapse(state, command, who) {
    const why = collapseRefusal(state, command, who);
    if (why !== null) return why;
    const { foeId, text, targets } = command;
    const events: PhasesEvent[] = [{ type: "collapseSpent", round: state.round, combatantId: foeId, amount: 1 }];
    const s = addIntent({ ...state, collapse: state.collapse - 1 }, foeId, text, "attack", targets, true, events);
    return accept(s, events, "turn");
  },

  nextPhase(state, _command, who) {
    const why = advanceRefusal(state, who);
    if (why !== null) return why;
    const events: PhasesEvent[] = [];
    const s = nextPhaseOf(state, events);
    return accept(s, events, stepKind(state.round, s.round));
  },

  nextTurn(state, _command, who) {
    const why = nextTurnRefusal(state, who);
    if (why !== null) return why;
    // In phase 2 the acting hero's turn ends.
    if (state.phase === "heroes" && state.turn !== null) {
      const events: PhasesEvent[] = [];
      return accept(finishTurn(state, events), events, "turn");
    }
    const events: PhasesEvent[] = [];
    const s = state.phase === "foesResolve" ? resolveNextFoe(state, events) : nextPhaseOf(state, events);
    return accept(s, events, stepKind(state.round, s.round));
  },

  nextRound(state, _command, who) {
    const why = advanceRefusal(state, who);
    if (why !== null) return why;
    const events: PhasesEvent[] = [];
    return accept(startRound(state, state.round + 1, events), events, "round");
  },

  setHandOff(state, { on }, who) {
    if (!who.isGM) return refuse("notGM");
    if (!state.started) return refuse("notStarted");
    if (state.phase !== "foesDeclare" && state.phase !== "heroes") return refuse("wrongStep");
    const events: PhasesEvent[] = [{ type: "handOffChanged", round: state.round }];
    return accept({ ...state, handOff: on }, events, "turn");
  },

  startTurn(state, command, who) {
    const why = startRefusal(state, command, who);
    if (why !== null) return why;
    const events: PhasesEvent[] = [];
    return accept(beginTurn(state, command.combatantId, events), events, "turn");
  },

  pickNext(state, command, who) {
    const why = pickRefusal(state, command, who);
    if (why !== null) return why;
    const events: PhasesEvent[] = [];
    return accept(beginTurn(state, command.combatantId, events), events, "turn");
  },

  skillRoll(state, command, who) {
    const why = rollRefusal(state, command, who);
    if (why !== null) return why;
    const { combatantId, dieSize, dice } = command;
    const t = state.turn;
    // Ruled out by `rollRefusal`; checked again for the types.
    if (t === null || !isDieSize(dieSize)) return refuse("notYourTurn", combatantId);
    const complexity = complexityAfter(t.skillActions);
    const skill = command.skill ?? null;
    const defends = command.defendsIntent ?? null;
    const gainsAdvantage = command.gainsAdvantage ?? false;
    const move = command.move ?? false;
    const success = !hasDoubles(dice);
    const roll: PhasesRoll = {
      combatantId,
      skill,
      dieSize,
      complexity,
      dice: [...dice],
      defends,
      gainsAdvantage,
      move,
      answer: null,
    };
    const round = state.round;
    const events: PhasesEvent[] = [{ type: success ? "skillRolled" : "rollFailed", round, combatantId, roll }];
    let s: PhasesState = {
      ...state,
      lastRoll: roll,
      turn: {
        combatantId,
        skillActions: t.skillActions + 1,
        freeMoveUsed: t.freeMoveUsed || move,
        failed: !success,
      },
    };
    if (success && defends !== null) {
      events.push({ type: "intentFoiled", round, combatantId, intentId: defends });
      s = updateIntent(s, defends, (i) => ({ ...i, foiled: true, foiledBy: combatantId }));
    }
    if (success && gainsAdvantage) {
      events.push({ type: "advantageGained", round, combatantId, amount: 1 });
      s = { ...s, pool: s.pool + 1 };
    }
    return accept(s, events, "turn");
  },

  freeAction(state, command, who) {
    const why = freeRefusal(state, command, who);
    if (why !== null) return why;
    const { combatantId, kind, note } = command;
    const t = state.turn;
    if (t === null) return refuse("notYourTurn", combatantId);
    const events: PhasesEvent[] = [
      { type: "freeAction", round: state.round, combatantId, text: note === undefined ? kind : `${kind}: ${note}` },
    ];
    const turn: HeroTurn = kind === "move" ? { ...t, freeMoveUsed: true } : t;
    return accept({ ...state, turn }, events, "turn");
  },

  endTurn(state, { combatantId }, who) {
    const why = actingRefusal(state, combatantId, who);
    if (why !== null) return why;
    const events: PhasesEvent[] = [];
    return accept(finishTurn(state, events), events, "turn");
  },

  resolveFailure(state, command, who) {
    if (!who.isGM) return refuse("notGM");
    const t = state.turn;
    if (!state.started || t === null || !t.failed) return refuse("noFailure");
    if (command.choice === "effect" && !isText(command.text)) return refuse("invalidValue");
    const round = state.round;
    const combatantId = t.combatantId;
    const answer: FailureAnswer =
      command.choice === "effect" ? { choice: "effect", text: command.text } : { choice: "collapse" };
    const events: PhasesEvent[] = [];
    let s = state;
    if (answer.choice === "effect") {
      events.push({ type: "failureEffect", round, combatantId, text: answer.text });
    } else {
      if (state.collapse >= MAX_POINTS) return refuse("invalidValue");
      events.push({ type: "collapseGained", round, combatantId, amount: 1 });
      s = { ...s, collapse: s.collapse + 1 };
    }
    const roll = s.lastRoll;
    if (roll !== null && roll.combatantId === combatantId) s = { ...s, lastRoll: { ...roll, answer } };
    return accept(finishTurn(s, events), events, "turn");
  },

  spendAdvantage(state, command, who) {
    const why = advantageRefusal(state, command, who);
    if (why !== null) return why;
    const { note, combatantId } = command;
    const event: PhasesEvent =
      combatantId === undefined
        ? { type: "advantageSpent", round: state.round, text: note, amount: 1 }
        : { type: "advantageSpent", round: state.round, combatantId, text: note, amount: 1 };
    return accept({ ...state, pool: state.pool - 1 }, [event], "turn");
  },

  markOutOfReach(state, command, who) {
    const why = reachRefusal(state, command, who);
    if (why !== null) return why;
    const { intentId, outOfReach } = command;
    const intent = findById(state.intents, intentId);
    if (intent === undefined) return refuse("unknownIntent");
    const events: PhasesEvent[] = [
      { type: "outOfReachChanged", round: state.round, combatantId: intent.foeId, intentId },
    ];
    return accept(
      updateIntent(state, intentId, (i) => ({ ...i, outOfReach })),
      events,
      "turn",
    );
  },
};

export function applyCommand(state: PhasesState, command: PhasesCommand, who: Requester): Outcome<PhasesState> {
  return runHandler(handlers, state, command, who);
}
