/**
 * Refusal texts tell the real reason (issue 15 item 9). A player ending another player's PC's turn was
 * told "It is not Brom's turn." while it was Brom's turn. Two checks over the built modes:
 *
 * - a table of situations (mode × state × requester × command) with the code and the English text
 *   each must produce;
 * - every refusal of every command × requester × state below is checked against what its text says:
 *   "It is not {name}'s turn." names someone the requester controls and who is not acting; "You can only
 *   act for combatants you own." names someone the requester does not own; "Only the GM can do that."
 *   goes to players only; the open-turn text appears only when nobody acts; a text with {name} names a
 *   combatant of the encounter.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Command, ModeDefinition, Outcome, Requester } from "../../src/core/engine";
import type { Json } from "../../src/core/patch";
import { individualMode } from "../../src/modes/individual/rules/mode";
import type { IndividualCommand, IndividualState } from "../../src/modes/individual/rules/types";
import { sidesMode } from "../../src/modes/sides/rules/mode";
import type { SidesCommand, SidesState } from "../../src/modes/sides/rules/types";
import { slotsMode } from "../../src/modes/slots/rules/mode";
import type { SlotsCommand, SlotsState } from "../../src/modes/slots/rules/types";
import { currentResolver } from "../../src/modes/declare-resolve/rules/derived";
import { declareResolveMode } from "../../src/modes/declare-resolve/rules/mode";
import type { DeclareResolveCommand, DeclareResolveState } from "../../src/modes/declare-resolve/rules/types";
import { phasesMode } from "../../src/modes/phases/rules/mode";
import { type PhasesCommand, type PhasesState } from "../../src/modes/phases/rules/types";
import { bindPure, pureMode } from "./pure-modes";
import { GM, npc, pc, player } from "./harness";

const EN = (
  JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../lang/en.json"), "utf8")) as {
    STRUCTURED_INITIATIVE: { Refusal: Record<string, string> };
  }
).STRUCTURED_INITIATIVE.Refusal;

const NAMES: Record<string, string> = { aria: "Aria", brom: "Brom", officer: "Officer", trooper: "Trooper" };
const REFUSAL_KEYS = new Set(Object.keys(EN));

function run<S extends Json, C extends Command>(mode: ModeDefinition<S, C>, state: S, ...commands: C[]): S {
  return commands.reduce((s, command) => {
    const outcome = mode.apply(s, command, GM);
    if (!outcome.ok) throw new Error(`${command.type} refused: ${outcome.refusal.code}`);
    return outcome.state;
  }, state);
}

/** The English message as the notifier words it (`notify.ts`): the open-turn variant without a name. */
function text(code: string, combatantId?: string): string {
  const key = code === "notYourTurn" && combatantId === undefined ? "notYourTurnOpen" : code;
  const message = EN[key];
  if (message === undefined) throw new Error(`en.json has no refusal "${key}"`);
  return message.replace("{name}", combatantId === undefined ? "" : (NAMES[combatantId] ?? combatantId));
}

// ---------------------------------------------------------------------------------------------
// The three modes with Aria (Alice's PC), Brom (Bob's PC), an Officer and a Trooper (NPCs)
// ---------------------------------------------------------------------------------------------

const ROSTER = [pc("aria"), pc("brom"), npc("officer"), npc("trooper")];
const ALICE = player("aria");
const BOB = player("brom");
const REQUESTERS: Record<string, Requester> = { GM, Alice: ALICE, Bob: BOB };

const ind = (state: IndividualState, ...commands: IndividualCommand[]): IndividualState =>
  run(individualMode, state, ...commands);
const indSetup = ind(
  individualMode.create(ROSTER),
  { type: "recordInitiative", combatantId: "aria", total: 18, modifier: 3 },
  { type: "recordInitiative", combatantId: "brom", total: 11, modifier: 1 },
  { type: "recordInitiative", combatantId: "officer", total: 6, modifier: 2 },
  { type: "recordInitiative", combatantId: "trooper", total: 1, modifier: 0 },
);
const indAria = ind(indSetup, { type: "start", surprise: false });
const indBrom = ind(indAria, { type: "nextTurn" });
const indAriaDelaying = ind(indAria, { type: "delay", combatantId: "aria" });
const INDIVIDUAL_STATES: Record<string, IndividualState> = {
  setup: indSetup,
  "Aria acting": indAria,
  "Brom acting": indBrom,
  "Aria delaying, Brom acting": indAriaDelaying,
};
const INDIVIDUAL_COMMANDS: IndividualCommand[] = [
  { type: "nextTurn" },
  { type: "nextRound" },
  { type: "start", surprise: false },
  ...["aria", "brom", "officer"].flatMap((combatantId): IndividualCommand[] => [
    { type: "delay", combatantId },
    { type: "endDelay", combatantId },
    { type: "ready", combatantId, trigger: "the door opens" },
    { type: "triggerReady", combatantId },
    { type: "recordInitiative", combatantId, total: 10, modifier: 0 },
  ]),
];

const sid = (state: SidesState, ...commands: SidesCommand[]): SidesState => run(sidesMode, state, ...commands);
const TRAITS: Record<string, [string, string]> = {
  aria: ["4D", "3D"],
  brom: ["3D", "3D"],
  officer: ["2D+2", "2D"],
  trooper: ["2D", "2D"],
};
let sidesSetup = sid(
  sidesMode.create(ROSTER),
  { type: "defineSide", sideId: "heroes", name: "Heroes", colour: "#3366ff" },
  { type: "defineSide", sideId: "foes", name: "Foes", colour: "#cc0000" },
);
for (const [id, [dexterity, perception]] of Object.entries(TRAITS))
  sidesSetup = sid(
    sidesSetup,
    { type: "setSide", combatantId: id, sideId: id === "aria" || id === "brom" ? "heroes" : "foes" },
    { type: "setTraits", combatantId: id, dexterity, perception, initiativeScore: perception },
  );
const sidesDeclaring = sid(
  sidesSetup,
  { type: "start" },
  { type: "recordSideRoll", sideId: "heroes", total: 12 },
  { type: "recordSideRoll", sideId: "foes", total: 9 },
);
const declare1 = (combatantId: string): SidesCommand => ({
  type: "declare",
  combatantId,
  actions: [{ text: "shoot" }],
  forcePoint: false,
});
/** Everyone declares one action, in the order the rules call them. */
function declareAll(state: SidesState): SidesState {
  let s = state;
  for (let declarer = sidesMode.view(s).current; s.step === "declaration" && declarer !== null;) {
    s = sid(s, declare1(declarer));
    declarer = sidesMode.view(s).current;
  }
  return s;
}
// Aria (4D) acts first in pass 1, then Brom.
const sidesAria = declareAll(sidesDeclaring);
const sidesBrom = sid(sidesAria, { type: "nextTurn" });
const SIDES_STATES: Record<string, SidesState> = {
  setup: sidesSetup,
  declaring: sidesDeclaring,
  "Aria acting": sidesAria,
  "Brom acting": sidesBrom,
};
const SIDES_COMMANDS: SidesCommand[] = [
  { type: "nextTurn" },
  { type: "nextRound" },
  { type: "start" },
  ...["aria", "brom", "officer", "trooper"].flatMap((combatantId): SidesCommand[] => [
    declare1(combatantId),
    { type: "hesitate", combatantId },
    { type: "react", combatantId, kind: "dodge" },
    { type: "setSide", combatantId, sideId: "foes" },
  ]),
];

const slo = (state: SlotsState, ...commands: SlotsCommand[]): SlotsState => run(slotsMode, state, ...commands);
const slotsSetup = slo(
  slotsMode.create(ROSTER),
  { type: "recordCheck", combatantId: "aria", primary: 2, secondary: 1 },
  { type: "recordCheck", combatantId: "brom", primary: 1, secondary: 0 },
  { type: "recordCheck", combatantId: "officer", primary: 3, secondary: 0 },
  { type: "recordCheck", combatantId: "trooper", primary: 0, secondary: 0 },
);
// Slots: NPC 3/0, PC 2/1, PC 1/0, NPC 0/0.
const slotsOpen = slo(slotsSetup, { type: "start" });
const slotsOfficer = slo(slotsOpen, { type: "fillSlot", slot: 0, combatantId: "officer" });
const slotsBrom = slo(slotsOfficer, { type: "nextTurn" }, { type: "fillSlot", slot: 1, combatantId: "brom" });
const SLOTS_STATES: Record<string, SlotsState> = {
  setup: slotsSetup,
  "an open NPC slot": slotsOpen,
  "Officer acting": slotsOfficer,
  "Brom acting": slotsBrom,
};
const SLOTS_COMMANDS: SlotsCommand[] = [
  { type: "nextTurn" },
  { type: "nextRound" },
  { type: "start" },
  ...["aria", "brom", "officer"].flatMap((combatantId): SlotsCommand[] => [
    { type: "fillSlot", slot: 1, combatantId },
    { type: "claimSlot", slot: 2, combatantId },
  ]),
];

const slotsClaimed = slo(slotsOpen, { type: "claimSlot", slot: 1, combatantId: "brom" });

const dr = (state: DeclareResolveState, ...commands: DeclareResolveCommand[]): DeclareResolveState =>
  run(declareResolveMode, state, ...commands);
const JAB = { name: "Jab", cost: 1, kind: "attack" as const };
// IP: the Officer 20, Aria 15, Brom 12, the Trooper 8: declare Trooper, Brom, Aria, Officer; resolve the other way.
const drDeclaring = dr(
  declareResolveMode.create(ROSTER),
  { type: "recordIP", combatantId: "aria", total: 15, modifier: 0 },
  { type: "recordIP", combatantId: "brom", total: 12, modifier: 0 },
  { type: "recordIP", combatantId: "officer", total: 20, modifier: 0 },
  { type: "recordIP", combatantId: "trooper", total: 8, modifier: 0 },
  { type: "start" },
);
const drBromDeclares = dr(drDeclaring, { type: "declare", combatantId: "trooper", actions: [JAB] });
const drOfficerResolves = dr(
  drBromDeclares,
  ...["brom", "aria", "officer"].map((combatantId): DeclareResolveCommand => ({
    type: "declare",
    combatantId,
    actions: [JAB],
  })),
);
const drAriaResolves = dr(drOfficerResolves, { type: "nextTurn" });

const pha = (state: PhasesState, ...commands: PhasesCommand[]): PhasesState => run(phasesMode, state, ...commands);
const phasesHeroes = pha(phasesMode.create(ROSTER), { type: "start", surprise: false }, { type: "nextPhase" });
const phasesAria = pha(phasesHeroes, { type: "startTurn", combatantId: "aria" });

const DR_STATES: Record<string, DeclareResolveState> = {
  "the Trooper declares": drDeclaring,
  "Brom declares": drBromDeclares,
  "the Officer resolves": drOfficerResolves,
  "Aria resolves": drAriaResolves,
};
const DR_COMMANDS: DeclareResolveCommand[] = [
  { type: "nextTurn" },
  { type: "nextRound" },
  ...["aria", "brom", "officer"].map((combatantId): DeclareResolveCommand => ({
    type: "declare",
    combatantId,
    actions: [JAB],
  })),
];
const PHASES_STATES: Record<string, PhasesState> = { "heroes, nobody acting": phasesHeroes, "Aria acting": phasesAria };
const PHASES_COMMANDS: PhasesCommand[] = [
  { type: "nextTurn" },
  { type: "nextPhase" },
  ...["aria", "brom", "officer"].flatMap((combatantId): PhasesCommand[] => [
    { type: "startTurn", combatantId },
    { type: "endTurn", combatantId },
  ]),
];

/** What a bound encounter (parsing included, as a request from a client is) answers a command. */
function boundCheck(mode: string, command: unknown, who: Requester) {
  const binding = bindPure(pureMode(mode));
  const bound = binding.load(binding.createWith(ROSTER, [{ type: "start" }], GM));
  if (bound === null) throw new Error("unreadable");
  return bound.check(command, who);
}

// ---------------------------------------------------------------------------------------------
// The situations of the issue and their neighbours
// ---------------------------------------------------------------------------------------------

interface Situation {
  readonly mode: string;
  readonly situation: string;
  /** The rules' outcome, or a bound encounter's refusal (null: accepted). */
  readonly outcome: Outcome<unknown> | { readonly code: string; readonly combatantId?: string } | null;
  /** The refusal code that names the real reason (null: accepted). */
  readonly code?: string | null;
  /** The message the requester must see; null: accepted. */
  readonly message: string | null;
}

const SITUATIONS: Situation[] = [
  {
    mode: "individual",
    situation: "Alice ends Brom's turn",
    outcome: individualMode.apply(indBrom, { type: "nextTurn" }, ALICE),
    message: "You can only act for combatants you own.",
  },
  {
    mode: "individual",
    situation: "Alice ends the Officer's turn",
    outcome: individualMode.apply(ind(indBrom, { type: "nextTurn" }), { type: "nextTurn" }, ALICE),
    message: "You can only act for combatants you own.",
  },
  {
    mode: "individual",
    situation: "Bob ends Brom's turn",
    outcome: individualMode.apply(indBrom, { type: "nextTurn" }, BOB),
    message: null,
  },
  {
    mode: "individual",
    situation: "Alice delays Aria during Brom's turn",
    outcome: individualMode.apply(indBrom, { type: "delay", combatantId: "aria" }, ALICE),
    message: "It is not Aria's turn.",
  },
  {
    mode: "individual",
    situation: "Alice delays Brom during Brom's turn",
    outcome: individualMode.apply(indBrom, { type: "delay", combatantId: "brom" }, ALICE),
    message: "You can only act for combatants you own.",
  },
  {
    mode: "individual",
    situation: "Alice starts the next round",
    outcome: individualMode.apply(indBrom, { type: "nextRound" }, ALICE),
    message: "Only the GM can do that.",
  },
  {
    mode: "sides",
    situation: "Alice ends Brom's action",
    outcome: sidesMode.apply(sidesBrom, { type: "nextTurn" }, ALICE),
    message: "You can only act for combatants you own.",
  },
  {
    mode: "sides",
    situation: "Bob ends Aria's action",
    outcome: sidesMode.apply(sidesAria, { type: "nextTurn" }, BOB),
    message: "You can only act for combatants you own.",
  },
  {
    mode: "sides",
    situation: "Alice declares for Aria while a foe declares",
    outcome: sidesMode.apply(sidesDeclaring, declare1("aria"), ALICE),
    message: "It is not Aria's turn.",
  },
  {
    mode: "slots",
    situation: "Alice ends Brom's slot",
    outcome: slotsMode.apply(slotsBrom, { type: "nextTurn" }, ALICE),
    message: "You can only act for combatants you own.",
  },
  {
    mode: "slots",
    situation: "Alice ends the Officer's slot",
    outcome: slotsMode.apply(slotsOfficer, { type: "nextTurn" }, ALICE),
    message: "You can only act for combatants you own.",
  },
  {
    mode: "slots",
    situation: "Alice passes an open slot",
    outcome: slotsMode.apply(slotsOpen, { type: "nextTurn" }, ALICE),
    message: "Nobody is acting now: only the GM can pass an open turn.",
  },
  // Issue 27 item 3: the text points where the problem really is.
  {
    mode: "declare-resolve",
    situation: "Bob ends the turn while the Officer (an NPC) resolves",
    outcome: declareResolveMode.apply(drOfficerResolves, { type: "nextTurn" }, BOB),
    code: "notOwner",
    message: "You can only act for combatants you own.",
  },
  {
    mode: "declare-resolve",
    situation: "Bob ends Aria's turn while she resolves",
    outcome: declareResolveMode.apply(drAriaResolves, { type: "nextTurn" }, BOB),
    code: "notOwner",
    message: "You can only act for combatants you own.",
  },
  {
    mode: "declare-resolve",
    situation: "Alice ends Aria's own turn while she resolves",
    outcome: declareResolveMode.apply(drAriaResolves, { type: "nextTurn" }, ALICE),
    code: null,
    message: null,
  },
  {
    mode: "declare-resolve",
    situation: "Alice takes the next turn while the Trooper declares",
    outcome: declareResolveMode.apply(drDeclaring, { type: "nextTurn" }, ALICE),
    code: "skipDeclarerGM",
    message: "Trooper declares now: only the GM can skip a declarer.",
  },
  {
    mode: "declare-resolve",
    situation: "Bob takes the next turn while Brom (his own) declares",
    outcome: declareResolveMode.apply(drBromDeclares, { type: "nextTurn" }, BOB),
    code: "skipDeclarerGM",
    message: "Brom declares now: only the GM can skip a declarer.",
  },
  {
    mode: "sides",
    situation: "Alice takes the next turn while a foe declares",
    outcome: sidesMode.apply(sidesDeclaring, { type: "nextTurn" }, ALICE),
    code: "skipDeclarerGM",
    message: `${NAMES[sidesMode.view(sidesDeclaring).current ?? ""] ?? "?"} declares now: only the GM can skip a declarer.`,
  },
  {
    mode: "sides",
    situation: "the GM takes the next turn while a foe declares (the GM declares or lets it hesitate)",
    outcome: sidesMode.apply(sidesDeclaring, { type: "nextTurn" }, GM),
    code: "notDeclared",
    message: `${NAMES[sidesMode.view(sidesDeclaring).current ?? ""] ?? "?"} has not declared yet.`,
  },
  {
    mode: "slots",
    situation: "Alice fills the open NPC slot with Aria",
    outcome: slotsMode.apply(slotsOpen, { type: "fillSlot", slot: 0, combatantId: "aria" }, ALICE),
    code: "notGM",
    message: "Only the GM can do that.",
  },
  {
    mode: "slots",
    situation: "Alice fills a later NPC slot with the Officer",
    outcome: slotsMode.apply(slotsOpen, { type: "fillSlot", slot: 3, combatantId: "officer" }, ALICE),
    code: "notGM",
    message: "Only the GM can do that.",
  },
  {
    mode: "slots",
    situation: "Alice claims a PC slot Brom has only claimed",
    outcome: slotsMode.apply(slotsClaimed, { type: "claimSlot", slot: 1, combatantId: "aria" }, ALICE),
    code: "slotClaimed",
    message: "Brom has already claimed that slot.",
  },
  {
    mode: "slots",
    situation: "Alice claims the slot Brom has filled",
    outcome: slotsMode.apply(slotsBrom, { type: "claimSlot", slot: 1, combatantId: "aria" }, ALICE),
    code: "slotTaken",
    message: "Brom has already taken that slot.",
  },
  {
    mode: "sides",
    situation: "Alice sends setDefeated, a command of other modes",
    outcome: boundCheck("sides", { type: "setDefeated", combatantId: "aria", defeated: true }, ALICE),
    code: "unknownCommand",
    message: "That action is not available in this mode.",
  },
  {
    mode: "sides",
    situation: "the GM sends setDefeated, a command of other modes",
    outcome: boundCheck("sides", { type: "setDefeated", combatantId: "officer", defeated: true }, GM),
    code: "unknownCommand",
    message: "That action is not available in this mode.",
  },
  {
    mode: "sides",
    situation: "a declaration without its actions (a known command, malformed)",
    outcome: boundCheck("sides", { type: "declare", combatantId: "aria" }, GM),
    code: "malformedCommand",
    message: "That request was malformed and was ignored.",
  },
  {
    mode: "phases",
    situation: "Bob ends Aria's turn",
    outcome: phasesMode.apply(phasesAria, { type: "endTurn", combatantId: "aria" }, BOB),
    code: "notOwner",
    message: "You can only act for combatants you own.",
  },
  {
    mode: "phases",
    situation: "Bob ends the running turn (Aria's) with the shared next turn",
    outcome: phasesMode.apply(phasesAria, { type: "nextTurn" }, BOB),
    code: "notOwner",
    message: "You can only act for combatants you own.",
  },
  {
    mode: "phases",
    situation: "Bob ends Brom's turn while Aria's runs",
    outcome: phasesMode.apply(phasesAria, { type: "endTurn", combatantId: "brom" }, BOB),
    code: "heroActing",
    message: "Aria is taking a turn now: the next turn begins when it ends.",
  },
];

/** The refusal of an outcome (a rules outcome or a bound encounter's answer), or null when accepted. */
function refusalOf(outcome: Situation["outcome"]): { readonly code: string; readonly combatantId?: string } | null {
  if (outcome === null) return null;
  if ("ok" in outcome) return outcome.ok ? null : outcome.refusal;
  return outcome;
}

describe("each situation gets the reason code and the message that name its real reason", () => {
  it.each(SITUATIONS)("$mode: $situation", ({ outcome, code, message }) => {
    const refused = refusalOf(outcome);
    if (message === null) {
      expect(refused).toBeNull();
      return;
    }
    expect(refused).not.toBeNull();
    if (refused === null) return;
    if (code !== undefined) expect(refused.code).toBe(code);
    expect(text(refused.code, refused.combatantId)).toBe(message);
  });

  it("every code the table expects has a text in every language", () => {
    for (const { code } of SITUATIONS) if (typeof code === "string") expect(REFUSAL_KEYS).toContain(code);
  });
});

// ---------------------------------------------------------------------------------------------
// Every refusal against what its text claims
// ---------------------------------------------------------------------------------------------

/** What a refusal's text claims, checked against the state and the requester; null when true. */
function falseClaim(
  code: string,
  combatantId: string | undefined,
  who: Requester,
  current: string | null,
  ids: readonly string[],
): string | null {
  const message = text(code, combatantId);
  if (EN[code]?.includes("{name}") === true && code !== "notYourTurn" && combatantId === undefined)
    return `"${message}" names nobody`;
  if (combatantId !== undefined && !ids.includes(combatantId)) return `"${message}" names a stranger`;
  switch (code) {
    case "notYourTurn":
      if (combatantId === undefined) return current === null ? null : `"${message}" while ${current} acts`;
      if (combatantId === current) return `"${message}" while it is ${combatantId}'s turn`;
      if (!who.isGM && !who.owns.includes(combatantId)) return `"${message}" to a player who does not own them`;
      return null;
    case "notOwner":
      return who.isGM || (combatantId !== undefined && who.owns.includes(combatantId))
        ? `"${message}" to someone who controls them`
        : null;
    case "notGM":
      return who.isGM ? `"${message}" to the GM` : null;
    case "skipDeclarerGM":
      if (who.isGM) return `"${message}" to the GM`;
      return combatantId === current ? null : `"${message}" while ${current ?? "nobody"} declares`;
    case "heroActing":
      return combatantId === current ? null : `"${message}" while ${current ?? "nobody"} acts`;
    default:
      return null;
  }
}

function check<S extends Json, C extends Command>(
  mode: ModeDefinition<S, C>,
  states: Record<string, S>,
  commands: readonly C[],
): { claims: string[]; codes: Set<string> } {
  const claims: string[] = [];
  const codes = new Set<string>();
  for (const [situation, state] of Object.entries(states)) {
    const view = mode.view(state);
    for (const [name, who] of Object.entries(REQUESTERS))
      for (const command of commands) {
        const outcome = mode.apply(state, command, who);
        if (outcome.ok) continue;
        const { code, combatantId } = outcome.refusal;
        codes.add(code);
        const wrong = falseClaim(
          code,
          combatantId,
          who,
          view.current,
          ROSTER.map((r) => r.id),
        );
        if (wrong !== null) claims.push(`${situation}, ${name}, ${JSON.stringify(command)}: ${wrong}`);
      }
  }
  return { claims, codes };
}

describe("no refusal text claims something untrue", () => {
  it.each([
    ["individual", () => check(individualMode, INDIVIDUAL_STATES, INDIVIDUAL_COMMANDS)],
    ["sides", () => check(sidesMode, SIDES_STATES, SIDES_COMMANDS)],
    ["slots", () => check(slotsMode, SLOTS_STATES, SLOTS_COMMANDS)],
    ["declare-resolve", () => check(declareResolveMode, DR_STATES, DR_COMMANDS)],
    ["phases", () => check(phasesMode, PHASES_STATES, PHASES_COMMANDS)],
  ] as const)("%s: every command × requester × state", (_mode, probe) => {
    const { claims, codes } = probe();
    expect(claims).toEqual([]);
    // The probes reach the ownership refusals this checks.
    for (const code of ["notOwner", "notGM"]) expect(codes).toContain(code);
  });
});

describe("the situations are what their names say", () => {
  it("who acts in each", () => {
    expect([indAria, indBrom, indAriaDelaying].map((s) => individualMode.view(s).current)).toEqual([
      "aria",
      "brom",
      "brom",
    ]);
    expect([sidesAria, sidesBrom].map((s) => sidesMode.view(s).current)).toEqual(["aria", "brom"]);
    expect([drDeclaring, drBromDeclares].map((s) => declareResolveMode.view(s).current)).toEqual(["trooper", "brom"]);
    expect([drOfficerResolves, drAriaResolves].map(currentResolver)).toEqual(["officer", "aria"]);
    expect([phasesHeroes, phasesAria].map((s) => phasesMode.view(s).current)).toEqual([null, "aria"]);
    expect([slotsOpen, slotsOfficer, slotsBrom].map((s) => slotsMode.view(s).current)).toEqual([
      null,
      "officer",
      "brom",
    ]);
  });
});
