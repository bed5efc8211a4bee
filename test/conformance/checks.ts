/**
 * The checks of the conformance suite, one function per check, each run on a mode's module and kit.
 * `conformance.test.ts` runs them for every registered mode; `mutants.test.ts` runs them on
 * deliberately broken modes and clients to show that each can fail. See `conformance.test.ts` for what
 * each asserts.
 */
import fc from "fast-check";
import { expect } from "vitest";
import {
  REFUSAL_CODES,
  applyToEncounter,
  type Command,
  type Encounter,
  type EngineCommand,
  type Requester,
  type RosterEntry,
} from "../../src/core/engine";
import { decodeArrays, encodeArrays, type Json } from "../../src/core/patch";
import {
  encodeEncounter,
  initialStored,
  loadEncounter,
  type LoadedEncounter,
  type StoredEncounter,
} from "../../src/core/store";
import type { ModeModule } from "../../src/modes/contract";
import { ticks } from "../sim/utils.js";
import type { Sim, SimClient } from "../sim/index.js";
import { GM, STRANGER, deepFreeze, freshIds, requester } from "../rules/property-harness";
import { apiOn, combatOn, coreOrderOn } from "../integration/world.js";
import { mirroredOrder } from "../../src/core/initiative-mirror";
import { rankedOf } from "../../src/foundry/interop";
import type { AnyKit } from "./kit";

/** What the checks use of a mode module (the pure part); every mode's state is plain JSON data. */
export type PureMode = Pick<
  ModeModule<Json, Command>,
  "id" | "rules" | "parseState" | "roster" | "refusalCodes" | "interop"
>;

// ---------------------------------------------------------------------------------------------
// Settings

/** Interleavings per mode in the simulated Foundry. */
export const RUNS = Math.max(1, Number(process.env.CONFORMANCE_RUNS ?? 200) || 200);
/** The base seed (printed on every failure). */
export const SEED = Number(process.env.CONFORMANCE_SEED ?? 20_251_105) || 20_251_105;
/** Interleavings run on one simulated world before the next is made. */
export const BATCHES = 20;
/** Random walks of the rules per check and mode. */
export const WALKS = Math.max(60, Math.round(RUNS / 2));
/** Long enough that no walk loses history to the bound (next-then-previous needs the whole of it). */
const HISTORY = 1000;

// ---------------------------------------------------------------------------------------------
// Rules: random walks through the engine

type WalkStep = { readonly kit: unknown } | { readonly undo: EngineCommand["type"]; readonly gm: boolean };

interface Walked {
  readonly encounter: Encounter<Json>;
  readonly loaded: LoadedEncounter<Json>;
}

interface Observer {
  /** The initial state (after the kit's set-up) and every state an accepted command reached. */
  onState?(walked: Walked): void;
  /** After the walk. */
  onEnd?(walked: Walked): void;
}

interface Tally {
  accepted: number;
  refused: number;
}

function walkSteps(kit: AnyKit): fc.Arbitrary<WalkStep[]> {
  const step: fc.Arbitrary<WalkStep> = fc.oneof(
    { arbitrary: kit.action.map((a: unknown): WalkStep => ({ kit: a })), weight: 12 },
    {
      arbitrary: fc.record({
        undo: fc.constantFrom("previousTurn" as const, "previousRound" as const),
        gm: fc.boolean(),
      }),
      weight: 1,
    },
  );
  return fc.array(step, { minLength: 10, maxLength: 60 });
}

function codesOf(module: PureMode): Set<string> {
  return new Set<string>([...REFUSAL_CODES, ...module.refusalCodes]);
}

/**
 * Dispatch one command from a frozen encounter (check 1): the input stays deep-equal, a refusal carries
 * no state and a known code. Returns the frozen next encounter, or null when refused.
 */
function send(
  module: PureMode,
  encounter: Encounter<Json>,
  command: Command,
  who: Requester,
  tally: Tally,
): Encounter<Json> | null {
  const before = structuredClone(encounter.state);
  let outcome;
  try {
    outcome = applyToEncounter(module.rules, encounter, command, who, HISTORY);
  } catch (error) {
    throw new Error(`${module.id}: ${JSON.stringify(command)} threw (a mutation of the frozen state?)`, {
      cause: error,
    });
  }
  expect(encounter.state, `${module.id}: ${command.type} changed the state it was given`).toEqual(before);
  if (!outcome.ok) {
    tally.refused++;
    expect(Object.keys(outcome).sort(), `${module.id}: a refusal of ${command.type} returned more`).toEqual([
      "ok",
      "refusal",
    ]);
    expect(codesOf(module).has(outcome.refusal.code), `${module.id}: unknown code ${outcome.refusal.code}`).toBe(true);
    return null;
  }
  tally.accepted++;
  return deepFreeze(outcome.state);
}

/** One random walk: the kit's set-up, then its actions (and the GM's undo), observed after each state. */
function walk(
  module: PureMode,
  kit: AnyKit,
  roster: readonly RosterEntry[],
  steps: readonly WalkStep[],
  observer: Observer,
  tally: Tally,
): void {
  const fresh = freshIds();
  const initial: Json = module.rules.create(roster);
  let encounter: Encounter<Json> = deepFreeze({ mode: module.id, state: initial, history: [] });
  for (const command of kit.setup?.(encounter.state) ?? []) {
    const outcome = module.rules.apply(encounter.state, command, GM);
    const set: Json = outcome.ok ? outcome.state : null;
    if (outcome.ok) encounter = deepFreeze({ ...encounter, state: set });
  }
  let loaded: LoadedEncounter<Json> = {
    encounter,
    stored: initialStored(encounter.state),
    seqs: [],
    entries: [],
    forms: new WeakMap(),
  };
  const reached = (next: Encounter<Json>): void => {
    loaded = encodeEncounter(loaded, next, null).loaded;
    encounter = next;
    observer.onState?.({ encounter, loaded });
  };
  observer.onState?.({ encounter, loaded });
  for (const step of steps) {
    if ("undo" in step) {
      const next = send(module, encounter, { type: step.undo }, step.gm ? GM : STRANGER, tally);
      if (next !== null) reached(next);
      continue;
    }
    for (const [command, who] of kit.resolve(step.kit, () => encounter.state, fresh)) {
      const next = send(module, encounter, command, who, tally);
      if (next !== null) reached(next);
    }
  }
  observer.onEnd?.({ encounter, loaded });
}

/** Run `runs` walks with a fixed seed (fast-check prints the seed and path of a failure). */
function walks(module: PureMode, kit: AnyKit, observer: () => Observer, seedOffset: number, runs: number): Tally {
  const tally: Tally = { accepted: 0, refused: 0 };
  fc.assert(
    fc.property(kit.roster, walkSteps(kit), (roster, steps) => {
      walk(module, kit, roster, steps, observer(), tally);
    }),
    { numRuns: runs, seed: SEED + seedOffset, endOnFailure: true },
  );
  return tally;
}

/** Check 4: the order invariant of one state. */
export function expectOrder(module: PureMode, kit: AnyKit, state: Json): void {
  const view = module.rules.view(state);
  const live = new Set(module.roster.ids(state));
  const order = view.order;
  expect(new Set(order).size, `${module.id}: an id twice in the order ${order.join(",")}`).toBe(order.length);
  for (const id of order) expect(live.has(id), `${module.id}: ${id} is in the order but not live`).toBe(true);
  const wanted = kit.inOrder?.(state) ?? [...live];
  expect([...order].sort(), `${module.id}: the order is not the combatants the mode puts in it`).toEqual(
    [...wanted].sort(),
  );
  if (view.current !== null)
    expect(order, `${module.id}: the current combatant is not in the order`).toContain(view.current);
  if (view.next !== null) expect(order, `${module.id}: the next combatant is not in the order`).toContain(view.next);
}

/** The requesters check 5 asks: the GM, owners of the first two combatants, a stranger. */
function askers(module: PureMode, state: Json): Requester[] {
  const owners = module.roster
    .ids(state)
    .slice(0, 2)
    .map((id) => requester("owner", id));
  return [GM, ...owners, STRANGER];
}

// ---------------------------------------------------------------------------------------------
// Junk for parseCommand

const HUGE = "x".repeat(100_000);
/** Values of the wrong type (and the right type gone wrong) for any field. */
const WRONG: readonly unknown[] = [
  null,
  0,
  -1.5,
  1e308,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  "",
  "s",
  HUGE,
  true,
  false,
  [],
  [1, "a"],
  {},
  { __proto__: null },
  JSON.parse('{"__proto__": {"polluted": true}}'),
];
/** Whole values that are no command. */
const NOT_COMMANDS: readonly unknown[] = [
  undefined,
  null,
  0,
  1,
  "",
  "nextTurn",
  HUGE,
  true,
  [],
  [{ type: "nextTurn" }],
  {},
  { type: 1 },
  { type: null },
  { type: ["nextTurn"] },
  { type: { toString: () => "nextTurn" } },
  { type: "" },
  { type: HUGE },
  { type: "__proto__" },
  { type: "constructor" },
  { type: "toString" },
  { type: "hasOwnProperty" },
  { type: "valueOf" },
  { type: "previousTurn" },
  { type: "previousRound" },
  JSON.parse('{"__proto__": {"type": "nextTurn"}}'),
  JSON.parse('{"constructor": {"prototype": {"type": "nextTurn"}}}'),
];

/** A value for a message, cut short. */
function show(value: unknown, max = 200): string {
  const text = JSON.stringify(value) as string | undefined;
  return (text ?? String(value)).slice(0, max);
}

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** A parsed command is clean: JSON in, the same out; short strings; no prototype keys; plain objects. */
function expectClean(module: PureMode, parsed: Command, input: unknown): void {
  const where = `${module.id}: parseCommand(${show(input)})`;
  const visit = (value: unknown, path: string): void => {
    if (typeof value === "string")
      expect(value.length, `${where} kept a long string at ${path}`).toBeLessThanOrEqual(500);
    if (typeof value === "number") expect(Number.isFinite(value), `${where} kept ${value} at ${path}`).toBe(true);
    if (typeof value !== "object" || value === null) return;
    const proto = Object.getPrototypeOf(value) as unknown;
    expect(proto === Object.prototype || proto === Array.prototype, `${where}: odd prototype at ${path}`).toBe(true);
    for (const key of Object.keys(value)) {
      expect(FORBIDDEN_KEYS.has(key), `${where} kept the key ${key} at ${path}`).toBe(false);
      visit((value as Record<string, unknown>)[key], `${path}.${key}`);
    }
  };
  visit(parsed, "command");
  const again = module.rules.parseCommand(JSON.parse(JSON.stringify(parsed)));
  expect(again, `${where} is not a fixed point through JSON`).toEqual(parsed);
}

/** Every field of a command (one level into objects and arrays), replaced by a wrong value or removed. */
function* mutations(command: Command): Iterable<unknown> {
  const record = command as unknown as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key === "type") continue;
    const { [key]: _gone, ...rest } = record;
    yield rest;
    for (const wrong of WRONG) yield { ...record, [key]: wrong };
    const inner = record[key];
    if (typeof inner === "object" && inner !== null) {
      const entries = Array.isArray(inner) ? inner.map((v, i) => [String(i), v] as const) : Object.entries(inner);
      for (const [k] of entries) {
        for (const wrong of WRONG) {
          const copy: unknown = Array.isArray(inner)
            ? inner.map((v: unknown, i) => (String(i) === k ? wrong : v))
            : { ...inner, [k]: wrong };
          yield { ...record, [key]: copy };
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Simulated Foundry

/** A small seeded generator (mulberry32), so a failing interleaving can be replayed. */
export function generator(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r ^= r + Math.imul(r ^ (r >>> 7), 61 | r);
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

/** The mode state stored on a client's copy of the encounter, narrowed by the mode (null: corrupted). */
export function stateOn(module: PureMode, client: SimClient): Json {
  const stored = combatOn(client).getFlag("structured-initiative", "encounter") as { state: Json } | undefined;
  if (stored === undefined) throw new Error(`no stored encounter on ${client.userId}`);
  const state: Json | null = module.parseState(decodeArrays(stored.state));
  if (state === null) throw new Error(`${module.id}: the stored state on ${client.userId} does not parse`);
  return state;
}

/** What a client shows of the turns. */
export function turnsOn(client: SimClient): {
  turns: string[];
  turn: number | null;
  round: number;
  current: string | null;
} {
  const combat = combatOn(client);
  return {
    turns: combat.turns.map((c) => c.id ?? "?"),
    turn: combat.turn,
    round: combat.round,
    current: combat.combatant?.id ?? null,
  };
}

/** The client that sends a command for this requester: the GM, the owner of what it is about, else a player. */
export function clientFor(sim: Sim, who: Requester, random: () => number): SimClient {
  if (who.isGM) return sim.gm;
  const owner = sim.players.find((p) => who.owns.some((id) => combatOn(p).combatants.get(id)?.isOwner === true));
  return owner ?? sim.players[Math.floor(random() * sim.players.length)] ?? sim.gm;
}

/** Check 6 after one interleaving (every client has settled). */
export function expectSimAgreement(module: PureMode, kit: AnyKit, sim: Sim): void {
  const state = stateOn(module, sim.gm);
  const shown = turnsOn(sim.gm);
  for (const client of sim.clients) {
    expect(stateOn(module, client), `${client.userId}'s stored state`).toEqual(state);
    expect(turnsOn(client), `${client.userId}'s turns`).toEqual(shown);
    expect(client.errors, `${client.userId}'s errors`).toEqual([]);
  }
  const view = module.rules.view(state);
  const documents = combatOn(sim.gm).combatants.contents.map((c) => c.id ?? "?");
  expect([...module.roster.ids(state)].sort(), "the rules' roster is the combatant documents").toEqual(
    [...documents].sort(),
  );
  expect([...shown.turns].sort(), "combat.turns is every combatant once").toEqual([...documents].sort());
  // The ranked combatants in the rules' order, then the others by name (`src/foundry/interop.ts`).
  const nameOf = (id: string): string => combatOn(sim.gm).combatants.get(id)?.name ?? "";
  const ranked = rankedOf(module, state, view).map((entry) => entry.id);
  expect(shown.turns, "combat.turns follows the rules' order").toEqual(mirroredOrder(ranked, documents, nameOf));
  for (const client of sim.clients)
    expect(coreOrderOn(client), `core's sort of the live initiative on ${client.userId}`).toEqual(shown.turns);
  expect(shown.current, "combat.combatant is who the rules say acts").toBe(view.current);
  if (view.current !== null)
    expect(shown.turn, "combat.turn points at the current combatant").toBe(shown.turns.indexOf(view.current));
  expectOrder(module, kit, state);
  kit.invariants?.(state);
}

// ---------------------------------------------------------------------------------------------
// The checks

/** Check 1: a refusal leaves the state deep-equal and returns no state (and the walks do move). */
export function checkRefusals(module: PureMode, kit: AnyKit, runs = WALKS): void {
  const tally = walks(module, kit, () => ({}), 1, runs);
  expect(tally.refused, "the walks met too few refusals").toBeGreaterThan(runs);
  expect(tally.accepted, "the walks hardly moved").toBeGreaterThan(runs);
}

/** Check 2a: `parseCommand` rejects junk and accepts only clean commands, which the rules take. */
export function checkJunk(module: PureMode, kit: AnyKit, runs = 300): void {
  const parse = (data: unknown): Command | null => module.rules.parseCommand(data);
  for (const junk of NOT_COMMANDS) expect(parse(junk), `accepted ${show(junk)}`).toBeNull();
  // Commands the kit sends, by type, and a started state to try what the parser lets through on.
  const samples = new Map<string, Command[]>();
  // The last started state a walk reached (set inside the property, read after it).
  const reached: { state?: Json } = {};
  const tally: Tally = { accepted: 0, refused: 0 };
  fc.assert(
    fc.property(kit.roster, walkSteps(kit), (roster, steps) => {
      const fresh = freshIds();
      let current: Json = module.rules.create(roster);
      for (const command of kit.setup?.(current) ?? []) {
        const outcome = module.rules.apply(current, command, GM);
        if (outcome.ok) current = outcome.state;
      }
      for (const step of steps) {
        if ("undo" in step) continue;
        for (const [command, who] of kit.resolve(step.kit, () => current, fresh)) {
          const list = samples.get(command.type) ?? [];
          if (list.length < 3) samples.set(command.type, [...list, command]);
          const outcome = module.rules.apply(current, command, who);
          if (outcome.ok) current = outcome.state;
        }
      }
      if (module.rules.view(current).started) reached.state = current;
    }),
    { numRuns: 20, seed: SEED + 2 },
  );
  expect(samples.size, "the kit sent no commands").toBeGreaterThan(0);
  const fallback: Json = module.rules.create([]);
  const encounter: Encounter<Json> = deepFreeze({
    mode: module.id,
    state: reached.state ?? fallback,
    history: [],
  });
  const tryOn = (input: unknown): void => {
    const parsed = parse(input);
    if (parsed === null) return;
    expectClean(module, parsed, input);
    send(module, encounter, parsed, GM, tally);
    send(module, encounter, parsed, STRANGER, tally);
  };
  for (const [type, commands] of samples) {
    for (const command of commands) {
      expect(parse(command), `the kit's own ${type} does not parse`).not.toBeNull();
      expect(parse(JSON.parse(JSON.stringify(command))), `${type} does not survive JSON`).toEqual(parse(command));
      // Prototype-pollution keys next to the real fields: ignored, never copied, nothing polluted.
      const polluted: unknown = JSON.parse(
        `{"__proto__": {"isGM": true, "polluted": 1}, "constructor": {"prototype": {"polluted": 1}}, ${JSON.stringify(command).slice(1)}`,
      );
      tryOn(polluted);
      for (const mutant of mutations(command)) tryOn(mutant);
    }
  }
  // Random records of a known type with random fields, and random values of any shape.
  const types = [...samples.keys()];
  fc.assert(
    fc.property(
      fc.constantFrom(...types),
      fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
      (type, fields) => {
        tryOn({ ...fields, type });
      },
    ),
    { numRuns: runs, seed: SEED + 3 },
  );
  fc.assert(
    fc.property(fc.anything({ maxDepth: 2 }), (value) => {
      const isRecord = typeof value === "object" && value !== null && !Array.isArray(value);
      if (!isRecord) expect(parse(value)).toBeNull();
      else tryOn(value);
    }),
    { numRuns: runs, seed: SEED + 4 },
  );
  expect(({} as { polluted?: unknown }).polluted, "Object.prototype was polluted").toBeUndefined();
  for (const junk of [null, "state", 7, [], {}]) expect(module.parseState(junk), "parseState took junk").toBeNull();
}

/** Check 2b: every state reached survives encode then parse, alone and in the stored form with its history. */
export function checkRoundTrip(module: PureMode, kit: AnyKit, runs = WALKS): void {
  let loads = 0;
  const expectLoads = (encounter: Encounter<Json>, loaded: LoadedEncounter<Json>): void => {
    const stored = JSON.parse(JSON.stringify(loaded.stored)) as StoredEncounter;
    const again = loadEncounter(module.id, stored, module.parseState);
    // Snapshots load lazily: compare what each one reads as (kind, round facts and state).
    const plain = (e: Encounter<Json> | undefined) =>
      e && {
        ...e,
        history: e.history.map((s) => ({ kind: s.kind, round: s.round, roundStart: s.roundStart, state: s.state })),
      };
    expect(plain(again?.encounter), "loadEncounter of the stored form with its history").toEqual(plain(encounter));
    loads++;
  };
  walks(
    module,
    kit,
    () => ({
      onState({ encounter, loaded }) {
        const state = encounter.state;
        expect(module.parseState(JSON.parse(JSON.stringify(state))), "parseState(JSON(state))").toEqual(state);
        const encoded = JSON.parse(JSON.stringify(encodeArrays(state))) as Json;
        expect(module.parseState(decodeArrays(encoded)), "through encodeArrays/decodeArrays").toEqual(state);
        const stored = JSON.parse(JSON.stringify(initialStored(state))) as ReturnType<typeof initialStored>;
        expect(loadEncounter(module.id, stored, module.parseState)?.encounter.state, "loadEncounter").toEqual(state);
        if (encounter.history.length % 7 === 0) expectLoads(encounter, loaded);
      },
      onEnd({ encounter, loaded }) {
        expectLoads(encounter, loaded);
      },
    }),
    5,
    runs,
  );
  expect(loads).toBeGreaterThan(runs);
}

/** Check 3: a GM step through `applyToEncounter`, then `previousTurn`, gives back a deep-equal encounter. */
export function checkStepBack(module: PureMode, kit: AnyKit, runs = WALKS): void {
  let stepped = 0;
  const tally: Tally = { accepted: 0, refused: 0 };
  walks(
    module,
    kit,
    () => ({
      onState({ encounter }) {
        if (!module.rules.view(encounter.state).started) return;
        for (const command of kit.steps?.(encounter.state) ?? [{ type: "nextTurn" }]) {
          const ahead = applyToEncounter(module.rules, encounter, command, GM, HISTORY);
          if (!ahead.ok || ahead.step === undefined) continue;
          stepped++;
          const back = send(module, deepFreeze(ahead.state), { type: "previousTurn" }, GM, tally);
          expect(back, `previousTurn after ${command.type} was refused`).not.toBeNull();
          expect(back, `${command.type} then previousTurn`).toEqual(encounter);
        }
      },
    }),
    6,
    runs,
  );
  expect(stepped, "next-then-previous was hardly tried").toBeGreaterThan(runs);
}

/** Check 4: the view's order invariant in every state reached. */
export function checkOrder(module: PureMode, kit: AnyKit, runs = WALKS): void {
  let seen = 0;
  walks(
    module,
    kit,
    () => ({
      onState({ encounter }) {
        expectOrder(module, kit, encounter.state);
        seen++;
      },
    }),
    7,
    runs,
  );
  expect(seen).toBeGreaterThan(runs);
}

/** Check 5: every allowed action, built into its command by the kit, is accepted by `apply`. */
export function checkAllowed(module: PureMode, kit: AnyKit, runs = WALKS): void {
  let offered = 0;
  let toPlayers = 0;
  walks(
    module,
    kit,
    () => ({
      onState({ encounter }) {
        const state = encounter.state;
        for (const who of askers(module, state)) {
          for (const action of module.rules.allowed(state, who)) {
            const label = `${module.id}: ${JSON.stringify(action)} offered to ${who.userId}`;
            const command = kit.commandFor(state, action, who);
            expect(command, `${label}: the kit cannot build its command`).not.toBeNull();
            if (command === null) continue;
            const outcome = module.rules.apply(state, command, who);
            expect(outcome.ok ? null : outcome.refusal, `${label}, ${JSON.stringify(command)} refused`).toBeNull();
            offered++;
            if (!who.isGM) toPlayers++;
          }
        }
      },
    }),
    8,
    runs,
  );
  expect(offered, "nothing was ever offered").toBeGreaterThan(runs);
  expect(toPlayers, "nothing was ever offered to a player").toBeGreaterThan(0);
}

/** Something done to the sim after each interleaving settled, before the check (mutants only). */
export type Tamper = (sim: Sim, batch: number) => void | Promise<void>;

/**
 * Check 6: `batches` randomised concurrent interleavings on one simulated world, each checked once
 * every client has settled. The seed and the commands so far are in the error of a failure.
 */
export async function checkInterleavings(
  module: PureMode,
  kit: AnyKit,
  index: number,
  seed: number,
  batches = BATCHES,
  tamper?: Tamper,
): Promise<void> {
  const random = generator(seed);
  const actions = fc.sample(kit.sim.action ?? kit.action, { seed, numRuns: batches * 4 });
  const sim = await kit.sim.world(seed);
  await kit.sim.begin(sim);
  const log: string[] = [];
  const fresh = freshIds("sim");
  let next = 0;
  let accepted = 0;
  const run = async (batch: number, action: unknown): Promise<void> => {
    if (action === "undo") {
      log.push(`${batch}: gm previousTurn`);
      await combatOn(sim.gm).previousTurn();
      return;
    }
    for (const [command, who] of kit.resolve(action, () => stateOn(module, sim.gm), fresh)) {
      const client = clientFor(sim, who, random);
      const line = log.push(`${batch}: ${client.userId} ${JSON.stringify(command)}`) - 1;
      const result = await apiOn(client).command(combatOn(client), command);
      log[line] = `${log[line] ?? ""} → ${result.ok ? "ok" : (result.code ?? "refused")}`;
      if (result.ok) accepted++;
    }
  };
  for (let batch = 0; batch < batches; batch++) {
    const size = 2 + Math.floor(random() * 3);
    const running: Promise<void>[] = [];
    for (let i = 0; i < size; i++) {
      const action: unknown = random() < 0.1 ? "undo" : actions[next++ % actions.length];
      running.push(run(batch, action));
      await ticks(Math.floor(random() * 3));
    }
    try {
      await Promise.all(running);
      await sim.settle();
      await tamper?.(sim, batch);
      expectSimAgreement(module, kit, sim);
    } catch (error) {
      throw new Error(
        `${module.id}: interleaving ${batch} of sim ${index} failed (seed ${seed}; replay with ` +
          `CONFORMANCE_SEED=${SEED} CONFORMANCE_RUNS=${RUNS} npx vitest run test/conformance -t "${module.id}"). ` +
          `Commands so far:\n${log.join("\n")}\n${String(error)}`,
        { cause: error },
      );
    }
  }
  expect(
    accepted,
    `${module.id}: sim ${index} (seed ${seed}) accepted no command; the kit's actions are stuck:\n${log.join("\n")}`,
  ).toBeGreaterThan(0);
}
