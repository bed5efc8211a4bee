/**
 * The command an allowed `phases` action stands for, shared by the mode's property test and its
 * conformance kit: the action's type and what it is about (combatant, intent, free action, the
 * "gains an advantage" mark), with dice of the right count for a skill roll (`faces` picks them).
 */
import type { AllowedAction } from "../../src/core/engine";
import { heroesToAct, nextComplexity } from "../../src/modes/phases/rules/derived";
import { type PhasesAllowedAction, type PhasesCommand, type PhasesState } from "../../src/modes/phases/rules/types";

/** The command `allowed` names, or null when it names none this helper builds. */
export function phasesCommandFor(
  state: PhasesState,
  allowed: AllowedAction,
  faces: readonly number[] = [],
): PhasesCommand | null {
  const a = allowed as PhasesAllowedAction;
  const id = a.combatantId ?? "";
  switch (a.type) {
    case "addCombatant":
      return { type: "addCombatant", combatant: { id: "kit-joiner", name: "Joiner", isPC: true } };
    case "start":
      return { type: "start", surprise: faces[0] === 1 };
    case "nextPhase":
    case "nextTurn":
    case "nextRound":
      return { type: a.type };
    case "setPoolCap":
      return { type: "setPoolCap", cap: state.poolCap };
    case "setCollapse":
      return { type: "setCollapse", points: state.collapse };
    case "setHandOff":
      return { type: "setHandOff", on: !state.handOff };
    case "resolveFailure":
      return faces[0] === 1
        ? { type: "resolveFailure", choice: "effect", text: "x" }
        : { type: "resolveFailure", choice: "collapse" };
    case "spendAdvantage":
      return a.combatantId === undefined
        ? { type: "spendAdvantage", note: "n" }
        : { type: "spendAdvantage", note: "n", combatantId: id };
    case "setDefeated": {
      const c = state.combatants.find((x) => x.id === id);
      return c === undefined ? null : { type: "setDefeated", combatantId: id, defeated: !c.defeated };
    }
    case "removeCombatant":
    case "startTurn":
    case "pickNext":
    case "endTurn":
      return { type: a.type, combatantId: id };
    case "declareIntent":
      return { type: "declareIntent", foeId: id, text: "t", kind: "other", targets: [] };
    case "spendCollapse": {
      const target = heroesToAct(state)[0] ?? state.combatants.find((c) => c.isPC && !c.defeated)?.id ?? "ghost";
      return { type: "spendCollapse", foeId: id, text: "t", targets: [target] };
    }
    case "skillRoll": {
      const count = nextComplexity(state) ?? 2;
      const dice = Array.from({ length: count }, (_, i) => ((faces[i % Math.max(faces.length, 1)] ?? i) % 8) + 1);
      const base: PhasesCommand = { type: "skillRoll", combatantId: id, dieSize: 8, dice };
      if (a.intentId !== undefined) return { ...base, defendsIntent: a.intentId };
      return a.gainsAdvantage === true ? { ...base, gainsAdvantage: true } : base;
    }
    case "freeAction":
      return { type: "freeAction", combatantId: id, kind: a.kind ?? "item" };
    case "markOutOfReach": {
      const intent = state.intents.find((i) => i.id === a.intentId);
      return intent === undefined
        ? null
        : { type: "markOutOfReach", intentId: intent.id, outOfReach: !intent.outOfReach };
    }
    default:
      return null;
  }
}
