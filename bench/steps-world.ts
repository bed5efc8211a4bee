/** Encounters of every mode driven forward on the rules alone, for the step benchmarks. */
import type { ModeBinding } from "../src/core/binding.js";
import type { Command, Requester, RosterEntry } from "../src/core/engine.js";
import type { Json } from "../src/core/patch.js";
import type { StoredEncounter } from "../src/core/store.js";
import type { AnyKit } from "../test/conformance/kit.js";
import { bindPure, type PureRules as Mode, type WithCombatants as Ids } from "../test/rules/pure-modes.js";
import { GM } from "./shared.js";

const kits = import.meta.glob<{ kit: AnyKit }>("../test/conformance/kits/*.ts", { eager: true });
const kitOf = (id: string): AnyKit => {
  const found = Object.entries(kits).find(([file]) => file.endsWith(`/${id}.ts`))?.[1].kit;
  if (found === undefined) throw new Error(`no kit for ${id}`);
  return found;
};

export const GM_REQ: Requester = { userId: GM, isGM: true, owns: [] };
export const LIMIT = 1000;
/** What the stepper never does: undo, roster and defeated changes, and the GM's toggles. */
const SKIP = new Set([
  "previousTurn",
  "previousRound",
  "addCombatant",
  "removeCombatant",
  "setDefeated",
  "setSkipDefeated",
  "setAware",
  "setGroup",
  "setSide",
  "setRoller",
  "setConditions",
  "addIPChange",
  "removeIPChange",
  "setBudget",
  "setPoolCap",
  "setCollapse",
  "markOutOfReach",
  "releaseClaim",
  "hesitate",
  "slowDown",
  "delay",
  "ready",
  "defineSide",
  "removeSide",
  "configure",
  "setTraits",
  "letPass",
]);

/**
 * The next command that moves the encounter on, as a GM at the table would give it: the kit's step
 * commands first, else whatever the GM may do now (rolls, declarations, start), built by the kit.
 */
export function nextCommand(kit: AnyKit, mode: Mode, state: unknown, tried: Set<string>): Command[] {
  const steps = (kit.steps?.(state) ?? [{ type: "nextTurn" }]) as Command[];
  // The state is one this mode's rules made (the callers keep it as they got it).
  const allowed = mode.rules
    .allowed(state as Json, GM_REQ)
    .filter((a) => !SKIP.has(a.type))
    .flatMap((a) => {
      const command = kit.commandFor(state, a, GM_REQ);
      return command === null ? [] : [command];
    })
    .filter((c) => !tried.has(JSON.stringify(c)));
  return [...steps, ...allowed];
}

/** Drive an encounter forward by `count` history steps (GM commands), returning the stored form. */
function advance(kit: AnyKit, mode: Mode, binding: ModeBinding<Ids>, stored: StoredEncounter, count: number) {
  let current = stored;
  let steps = 0;
  const tried = new Set<string>();
  let last: Command | null = null;
  for (let guard = 0; steps < count && guard < count * 20 + 500; guard += 1) {
    const bound = binding.load(current);
    if (bound === null) throw new Error(`${mode.id}: the stored encounter did not load`);
    let moved = false;
    for (const command of nextCommand(kit, mode, bound.state, tried)) {
      const applied = bound.apply(command, GM_REQ, LIMIT, null);
      if (!applied.ok) continue;
      const grew = Object.keys(applied.stored.history).length > Object.keys(current.history).length;
      current = applied.stored;
      if (grew) {
        steps += 1;
        tried.clear();
        last = command;
      } else tried.add(JSON.stringify(command));
      moved = true;
      break;
    }
    if (!moved) throw new Error(`${mode.id}: stuck after ${steps} steps`);
  }
  return { stored: current, last };
}

/** A started encounter of `n` combatants (the first two PCs), with `history` steps behind it. */
export function encounterOf(mode: Mode, n: number, history: number) {
  const kit = kitOf(mode.id);
  const binding = bindPure(mode);
  const roster: RosterEntry[] = Array.from({ length: n }, (_, i) => ({
    id: `combatant${String(i).padStart(7, "0")}`,
    name: i < 2 ? `Hero ${i}` : `Trooper ${i}`,
    isPC: i < 2,
  }));
  const setup = [...(kit.setup?.(mode.rules.create(roster)) ?? [])] as unknown[];
  const fresh = binding.createWith(roster, setup, GM_REQ);
  // Set-up commands, then steps: a round or so, and the history wanted.
  const warm = advance(kit, mode, binding, fresh, Math.max(3, history));
  return { kit, binding, roster, stored: warm.stored };
}
