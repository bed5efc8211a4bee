/** The `phases` mode's state, commands, events, limits and refusal codes (the rules: `mode.ts`). */

import type { RosterEntry, RuleEvent, AllowedAction } from "../../../core/engine";

/** The phases of a round, in order; `setup` comes before the start. Keys under `STRUCTURED_INITIATIVE.Step`. */
export const PHASES = ["foesDeclare", "heroes", "foesResolve"] as const;
/** One phase of a round. */
export type Phase = (typeof PHASES)[number];
/** Step keys of `TurnView.step` in this mode. */
export type PhasesStep = "setup" | Phase;

/** The die sizes a skill can have. */
export const DIE_SIZES = [4, 6, 8, 10, 12] as const;
/** A skill's die size. */
export type DieSize = (typeof DIE_SIZES)[number];

/** The complexity of the first skill action of a turn; each further one adds 1. */
export const FIRST_COMPLEXITY = 2;
/** Default number of Collapse points the GM starts an encounter with. */
export const DEFAULT_COLLAPSE = 2;
/** Default cap of the Advantage pool (the ship's Livability Rating) when none is configured. */
export const DEFAULT_POOL_CAP = 3;
/** Largest Collapse count or pool cap accepted. */
export const MAX_POINTS = 99;
/** Most skill actions tracked in one turn (more dice than faces always roll doubles well before). */
export const MAX_SKILL_ACTIONS = 99;
/** Most dice accepted in one roll from untrusted data. */
export const MAX_DICE = 64;
/** Most targets one intent may name. */
export const MAX_TARGETS = 50;

/** What a foe means to do: an attack (with PC targets) or anything else. */
export type IntentKind = "attack" | "other";
/** A free action: the one free move, or an item that needs no roll. */
export type FreeActionKind = "move" | "item";

/** A combatant as the phases mode tracks it. */
export type PhasesCombatant = {
  readonly id: string;
  readonly name: string;
  /** Has a player owner: a hero. Otherwise a foe. */
  readonly isPC: boolean;
  /** Marked defeated: takes no turn, declares and resolves nothing. */
  readonly defeated: boolean;
  /** A hero that has started its one turn this round (always false for foes). */
  readonly acted: boolean;
};

/** A foe's declared intent for this round. */
export type PhasesIntent = {
  /** `i<n>`, unique in the encounter. */
  readonly id: string;
  readonly foeId: string;
  readonly text: string;
  readonly kind: IntentKind;
  /** The PCs it is aimed at (at least one for an attack when declared). */
  readonly targets: readonly string[];
  /** An extra attack bought with a Collapse point. */
  readonly collapse: boolean;
  /** Foiled by a successful active defense. */
  readonly foiled: boolean;
  /** The hero whose defense foiled it (null if not foiled, or if that hero has left). */
  readonly foiledBy: string | null;
  /** Marked by the GM in phase 3: its target is out of reach. */
  readonly outOfReach: boolean;
  /** Resolved in phase 3. */
  readonly resolved: boolean;
};

/** The hero turn that is running now. */
export type HeroTurn = {
  readonly combatantId: string;
  /** Skill actions taken this turn: the next one has complexity `FIRST_COMPLEXITY + skillActions`. */
  readonly skillActions: number;
  /** The free move is used up (moved freely, or a first move made with a skill roll). */
  readonly freeMoveUsed: boolean;
  /** A roll failed: the turn has ended and waits for the GM's failure choice. */
  readonly failed: boolean;
};

/** The GM's answer to a failed roll. */
export type FailureAnswer = { readonly choice: "effect"; readonly text: string } | { readonly choice: "collapse" };

/** The last skill roll of this round. */
export type PhasesRoll = {
  readonly combatantId: string;
  /** The skill's name, for display; null when not given. */
  readonly skill: string | null;
  readonly dieSize: DieSize;
  readonly complexity: number;
  /** The faces, as rolled (a success has no doubles: see `rollSucceeded`). */
  readonly dice: readonly number[];
  /** The intent it defended against, or null. */
  readonly defends: string | null;
  /** Marked "gains an advantage". */
  readonly gainsAdvantage: boolean;
  /** A movement made with a skill roll. */
  readonly move: boolean;
  /** For a failure: the GM's answer, null until given. */
  readonly answer: FailureAnswer | null;
};

/** The phases mode's state. Plain JSON data; never mutated. */
export type PhasesState = {
  /** Every combatant, in the order they joined the encounter. */
  readonly combatants: readonly PhasesCombatant[];
  readonly started: boolean;
  /** 0 before the start. */
  readonly round: number;
  readonly phase: PhasesStep;
  /** The foes caught every PC unaware: round 1 skips phase 2. */
  readonly surprise: boolean;
  /** This round's intents, in the order they were declared. */
  readonly intents: readonly PhasesIntent[];
  /** The number in the next intent's id. */
  readonly nextIntent: number;
  /** The hero turn running now, or null. */
  readonly turn: HeroTurn | null;
  /** The hero whose turn ended last this round (its owner picks the next in hand-off order), or null. */
  readonly lastHero: string | null;
  /** Hand-off order this round: the GM picks the first hero, each finished hero's owner the next. */
  readonly handOff: boolean;
  /** The last skill roll this round, or null. */
  readonly lastRoll: PhasesRoll | null;
  /** Advantages in the shared pool. */
  readonly pool: number;
  /** The pool's cap: the ship's Livability Rating. */
  readonly poolCap: number;
  /** The GM's Collapse points. */
  readonly collapse: number;
};

/** Commands of the phases mode. */
export type PhasesCommand =
  | { readonly type: "addCombatant"; readonly combatant: RosterEntry }
  | { readonly type: "removeCombatant"; readonly combatantId: string }
  | { readonly type: "setDefeated"; readonly combatantId: string; readonly defeated: boolean }
  | { readonly type: "setPoolCap"; readonly cap: number }
  | { readonly type: "setCollapse"; readonly points: number }
  | { readonly type: "start"; readonly surprise: boolean }
  | {
      readonly type: "declareIntent";
      readonly foeId: string;
      readonly text: string;
      readonly kind: IntentKind;
      readonly targets: readonly string[];
    }
  | {
      readonly type: "spendCollapse";
      readonly foeId: string;
      readonly text: string;
      readonly targets: readonly string[];
    }
  /** GM: phase 1 → 2 (→ 3 when skipped by surprise), 2 → 3, 3 → the next round. Not while a turn runs. */
  | { readonly type: "nextPhase" }
  /**
   * Phase 2 with a turn running: ends it (its owner or the GM). Phase 3: the GM resolves the current
   * foe's intents (after the last foe, the next round starts). Otherwise the GM's `nextPhase`.
   */
  | { readonly type: "nextTurn" }
  /** GM: the next round starts at once, at phase 1. Not while a turn runs. */
  | { readonly type: "nextRound" }
  | { readonly type: "setHandOff"; readonly on: boolean }
  | { readonly type: "startTurn"; readonly combatantId: string }
  | { readonly type: "pickNext"; readonly combatantId: string }
  | {
      readonly type: "skillRoll";
      readonly combatantId: string;
      /** d4…d12; anything else is refused (`invalidValue`). */
      readonly dieSize: number;
      /** The faces: as many as the complexity, each 1…dieSize (else `wrongDice`). */
      readonly dice: readonly number[];
      readonly skill?: string;
      readonly gainsAdvantage?: boolean;
      /** The id of a declared attack this roll defends against. */
      readonly defendsIntent?: string;
      /** A movement made with a skill roll (uses up an unused free move). */
      readonly move?: boolean;
    }
  | { readonly type: "freeAction"; readonly combatantId: string; readonly kind: FreeActionKind; readonly note?: string }
  | { readonly type: "endTurn"; readonly combatantId: string }
  | { readonly type: "resolveFailure"; readonly choice: "effect"; readonly text: string }
  | { readonly type: "resolveFailure"; readonly choice: "collapse" }
  | { readonly type: "spendAdvantage"; readonly note: string; readonly combatantId?: string }
  | { readonly type: "markOutOfReach"; readonly intentId: string; readonly outOfReach: boolean };

/** The `type` of every phases-mode command. */
export type PhasesCommandType = PhasesCommand["type"];

/**
 * Refusal codes this mode adds to the shared `REFUSAL_CODES`; each has a message
 * `STRUCTURED_INITIATIVE.Refusal.<code>` (`{name}` is the refusal's combatant).
 */
export const PHASES_REFUSALS = [
  /** A turn was started (or picked) while another hero's turn runs; names the acting hero. */
  "heroActing",
  /** A failed roll waits for the GM's choice; names the hero who failed. */
  "failurePending",
  /** The dice do not match the complexity (count) or the die size (faces). */
  "wrongDice",
  /** A roll marked "gains an advantage" while the pool is at its cap. */
  "poolFull",
  /** A Collapse spend with no Collapse points left. */
  "noCollapse",
  /** A second free move in a turn; names the hero. */
  "freeMoveUsed",
  /** No such intent this round. */
  "unknownIntent",
  /** Active defense aimed at an intent that is not an attack. */
  "notAnAttack",
  /** Active defense aimed at an attack already foiled. */
  "alreadyFoiled",
  /** The intent has already resolved. */
  "intentResolved",
  /** The combatant is not a PC (a turn, a target); names it. */
  "notPC",
  /** The combatant is not a foe (an intent); names it. */
  "notFoe",
  /** The GM's answer was sent while no failed roll waits for one. */
  "noFailure",
  /** Hand-off order: the owner of the named hero picks who acts next. */
  "pickerChooses",
  /** `pickNext` while the heroes choose their own order. */
  "notHandOff",
  /** An Advantage spend from an empty pool. */
  "noAdvantage",
] as const;
/** One phases-mode refusal code. */
export type PhasesRefusal = (typeof PHASES_REFUSALS)[number];

/** Events the phases mode emits (`RuleEvent.type`). */
export const PHASES_EVENTS = [
  "combatantAdded",
  "combatantRemoved",
  "defeatedChanged",
  "poolCapChanged",
  "collapseChanged",
  "combatStarted",
  "roundStarted",
  "phaseStarted",
  "heroesSkipped",
  "intentDeclared",
  "collapseSpent",
  "handOffChanged",
  "turnStarted",
  "skillRolled",
  "rollFailed",
  "intentFoiled",
  "advantageGained",
  "advantagesLost",
  "advantageSpent",
  "freeAction",
  "failureEffect",
  "collapseGained",
  "turnEnded",
  "outOfReachChanged",
  "intentResolved",
] as const;
/** One phases-mode event type. */
export type PhasesEventType = (typeof PHASES_EVENTS)[number];

/** How an intent came out in phase 3. */
export type IntentOutcome = "resolves" | "foiled" | "outOfReach";

/** A phases-mode event: a rule event with the details the glue announces. */
export interface PhasesEvent extends RuleEvent {
  readonly type: PhasesEventType;
  /** The phase that started (`phaseStarted`). */
  readonly phase?: PhasesStep;
  /** The intent it is about. */
  readonly intentId?: string;
  /** Intent text, failure effect text, free action or spend note. */
  readonly text?: string;
  /** How many points (Collapse gained or spent, Advantages lost). */
  readonly amount?: number;
  /** The roll, for `skillRolled` and `rollFailed`. */
  readonly roll?: PhasesRoll;
  /** For `intentResolved`. */
  readonly outcome?: IntentOutcome;
}

/** An allowed action, with what it is about. */
export interface PhasesAllowedAction extends AllowedAction {
  /** The intent the action is about (defend against…, mark out of reach). */
  readonly intentId?: string;
  /** For `freeAction`: which one. */
  readonly kind?: FreeActionKind;
  /** For `skillRoll`: the roll may be marked "gains an advantage". */
  readonly gainsAdvantage?: boolean;
}

/** Encounter settings a new state starts with (the glue reads them from the world's configuration). */
export interface PhasesSettings {
  /** The Advantage pool's cap: the ship's Livability Rating. */
  readonly poolCap: number;
  /** The GM's Collapse points at the start of the encounter. */
  readonly collapse: number;
}
