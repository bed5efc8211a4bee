/**
 * The render oracle over a randomised play of each mode (issue 26, item 2): on the simulated Foundry
 * (v13, and v14 with SIM_GENERATION=14), a GM and two players, each with a tracker rendering real
 * elements (jsdom) in the document as in a browser, and the GM's pop-out too, play `ORACLE_STEPS` steps
 * (default 200) drawn from the mode's conformance kit (`test/conformance/kits/`: every command kind of
 * the mode from the GM, owners and strangers) and from what only documents and users do: the GM's undo
 * (previous turn), combatants joining and leaving, a user typing into or choosing in a field of their
 * tracker, a user opening a disclosure, other code taking a tracker's list out of the page. After every render of every tracker and after every settled step,
 * each tracker must equal a fresh render of the same state (`test/oracle/render-oracle.ts`), and a
 * field the user edited keeps what they gave it. No console error either (a failed patch logs one).
 *
 * Seeded: `ORACLE_SEED` (default below) replays a play; a failure prints the seed and the steps.
 */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { MODES } from "../../src/modes/registry";
import { clientFor, generator, stateOn, type PureMode } from "../conformance/checks";
import type { AnyKit } from "../conformance/kit";
import { kit as declareResolve } from "../conformance/kits/declare-resolve";
import { kit as individual } from "../conformance/kits/individual";
import { kit as phases } from "../conformance/kits/phases";
import { kit as sides } from "../conformance/kits/sides";
import { kit as slots } from "../conformance/kits/slots";
import { RenderOracle, type OracleRealm, type OracleTracker } from "../oracle/render-oracle";
import { installDom } from "../sim/systems/index.js";
import type { Sim, SimClient } from "../sim/index.js";
import { ticks } from "../sim/utils.js";
import { freshIds } from "../rules/property-harness";
import { ACTOR, apiOn, combatOn, SCENE, tokenOf, type ActorKey } from "./world.js";

// The modes' glue reads Foundry's `Hooks` when its files load; here only their rules run (the
// simulated Foundry runs the built bundle in realms of its own).
vi.hoisted(() => Object.assign(globalThis, { Hooks: {} }));

const STEPS = Math.max(1, Number(process.env.ORACLE_STEPS ?? 200) || 200);
const SEED = Number(process.env.ORACLE_SEED ?? 20_261_202) || 20_261_202;

const KITS: readonly AnyKit[] = [individual, sides, slots, declareResolve, phases];

/** Time for one play on a slow, busy machine (it is not a timing test). */
const TIMEOUT = Math.max(120_000, STEPS * 1500);

/** What only documents and users do, beside the kit's commands, and how often (out of 100). */
const OWN_STEPS = { undo: 6, join: 4, leave: 3, type: 10, open: 4, drop: 3 } as const;

interface Tracker extends OracleTracker {
  render(options?: object): Promise<unknown>;
}

const trackerOf = (client: SimClient): Tracker => client.ui.combat as Tracker;

/** Let every delivery and every scheduled tracker render run. */
async function settled(sim: Sim): Promise<void> {
  await sim.settle();
  await ticks(2);
}

/** A realm event of `type` on `target`, bubbling, as the user's browser sends it. */
function fire(target: Element, type: string): void {
  const View = target.ownerDocument.defaultView;
  if (View !== null) target.dispatchEvent(new View.Event(type, { bubbles: true }));
}

/** A user types into, chooses in or ticks a field of their tracker (what the oracle must see kept). */
function typeInto(client: SimClient, random: () => number): string {
  const root = trackerOf(client).element as Element | null;
  const fields = Array.from(root?.querySelectorAll<HTMLInputElement | HTMLSelectElement>("input, select") ?? []).filter(
    // The mode select acts on a change (a command, not typing): left alone.
    (f) => !f.disabled && f.type !== "hidden" && f.type !== "color" && f.name !== "structured-initiative-mode",
  );
  const field = fields[Math.floor(random() * fields.length)];
  if (field === undefined) return "nothing to type into";
  if (field.tagName === "SELECT") {
    const options = Array.from((field as HTMLSelectElement).options);
    field.value = options[Math.floor(random() * options.length)]?.value ?? field.value;
  } else if (field.type === "checkbox" || field.type === "radio") field.checked = !field.checked;
  else
    field.value =
      field.type === "number" ? String(Math.floor(random() * 9)) : `typed ${String(Math.floor(random() * 100))}`;
  fire(field, "input");
  return `${field.getAttribute("name") ?? field.tagName} = ${field.type === "checkbox" ? String(field.checked) : field.value}`;
}

/** A user opens a closed disclosure of their tracker (one filled on use renders its form). */
function openDisclosure(client: SimClient, random: () => number): string {
  const root = trackerOf(client).element as Element | null;
  const closed = Array.from(root?.querySelectorAll<HTMLDetailsElement>("details:not([open])") ?? []);
  const details = closed[Math.floor(random() * closed.length)];
  if (details === undefined) return "nothing to open";
  details.open = true;
  details.dispatchEvent(new (details.ownerDocument.defaultView ?? window).Event("toggle"));
  return `opened ${details.className}`;
}

/**
 * Other code takes a tracker's list out of the page (a system's render hook rebuilding the sidebar,
 * say) and the tracker renders again: its list goes live whole, with nothing to patch, so each row
 * that stands for its live row (`shown-rows.ts`) must get its own HTML.
 */
async function dropList(client: SimClient): Promise<string> {
  const tracker = trackerOf(client);
  const list = (tracker.element as Element | null)?.querySelector(".si-list[data-application-part]") ?? null;
  if (list === null) return "has no list to drop";
  list.remove();
  await tracker.render();
  return "has its list dropped and renders again";
}

/** The GM adds a combatant for an actor of the scene not in the encounter (a join), as a token added to combat would. */
async function join(sim: Sim, random: () => number): Promise<string> {
  const present = new Set(combatOn(sim.gm).combatants.contents.map((c) => c.actorId));
  const keys = (Object.keys(ACTOR) as ActorKey[]).filter((key) => !present.has(ACTOR[key]));
  const key = keys[Math.floor(random() * keys.length)];
  if (key === undefined) return "nobody joins";
  await combatOn(sim.gm).createEmbeddedDocuments("Combatant", [
    { actorId: ACTOR[key], tokenId: tokenOf(key), sceneId: SCENE },
  ]);
  return `joins: ${key}`;
}

/** The GM removes a combatant (while more than two are left). */
async function leave(sim: Sim, random: () => number): Promise<string> {
  const combatants = combatOn(sim.gm).combatants.contents;
  if (combatants.length <= 2) return "nobody leaves";
  const gone = combatants[Math.floor(random() * combatants.length)];
  if (gone?.id == null) return "nobody leaves";
  await combatOn(sim.gm).deleteEmbeddedDocuments("Combatant", [gone.id]);
  return `leaves: ${gone.id}`;
}

/** Every client renders its tracker into the document (as the sidebar shows it). */
async function showTrackers(sim: Sim): Promise<void> {
  for (const client of sim.clients) {
    const tracker = trackerOf(client);
    await tracker.render({ force: true });
    const element = tracker.element as Element;
    if (!element.isConnected) element.ownerDocument.body.append(element);
  }
}

/** One randomised play of a mode; returns the steps taken (for the report) and the renders compared. */
async function play(module: PureMode, kit: AnyKit, seed: number): Promise<{ log: string[]; compared: number }> {
  const random = generator(seed);
  const actions = fc.sample(kit.sim.action ?? kit.action, { seed, numRuns: STEPS });
  const sim = await kit.sim.world(seed, { renderTemplates: true, systemSetup: installDom });
  const oracles = new Map(
    sim.clients.map((c) => [c, new RenderOracle(c.userId).install(c.api as unknown as OracleRealm)] as const),
  );
  await showTrackers(sim);
  await kit.sim.begin(sim);
  await settled(sim);
  const fresh = freshIds("oracle");
  const log: string[] = [];
  const pick = (): SimClient => sim.clients[Math.floor(random() * sim.clients.length)] ?? sim.gm;
  for (let i = 0; i < STEPS; i++) {
    for (const oracle of oracles.values()) oracle.mark();
    let roll = Math.floor(random() * 100);
    let kind: keyof typeof OWN_STEPS | "command" = "command";
    for (const [own, weight] of Object.entries(OWN_STEPS) as [keyof typeof OWN_STEPS, number][]) {
      if (roll < weight) {
        kind = own;
        break;
      }
      roll -= weight;
    }
    try {
      if (kind === "undo") {
        log.push(`${String(i)}: gm previousTurn`);
        await combatOn(sim.gm).previousTurn();
      } else if (kind === "join") log.push(`${String(i)}: ${await join(sim, random)}`);
      else if (kind === "leave") log.push(`${String(i)}: ${await leave(sim, random)}`);
      else if (kind === "type") {
        const client = pick();
        log.push(`${String(i)}: ${client.userId} types ${typeInto(client, random)}`);
      } else if (kind === "open") {
        const client = pick();
        log.push(`${String(i)}: ${client.userId} ${openDisclosure(client, random)}`);
      } else if (kind === "drop") {
        const client = pick();
        log.push(`${String(i)}: ${client.userId} ${await dropList(client)}`);
      } else
        for (const [command, who] of kit.resolve(actions[i], () => stateOn(module, sim.gm), fresh)) {
          const client = clientFor(sim, who, random);
          const result = await apiOn(client).command(combatOn(client), command);
          log.push(
            `${String(i)}: ${client.userId} ${JSON.stringify(command)} → ${result.ok ? "ok" : (result.code ?? "refused")}`,
          );
        }
    } catch (error) {
      throw new Error(`${module.id}: step ${String(i)} failed (seed ${String(seed)}):\n${log.slice(-25).join("\n")}`, {
        cause: error,
      });
    }
    await settled(sim);
    const found: string[] = [];
    for (const client of sim.clients) {
      const oracle = oracles.get(client);
      await oracle?.checkTrackers(trackerOf(client), `after step ${String(i)}`);
      found.push(...(oracle?.mismatches ?? []), ...client.errors.map((e) => `${client.userId}: error ${String(e)}`));
    }
    if (found.length > 0 || errors.mock.calls.length > 0)
      throw new Error(
        `${module.id}: after step ${String(i)} (seed ${String(seed)}; replay with ORACLE_SEED=${String(SEED)} ` +
          `ORACLE_STEPS=${String(STEPS)}${sim.generation === 14 ? " SIM_GENERATION=14" : ""} ` +
          `npx vitest run test/integration/render-oracle.test.ts -t "${module.id}"), the trackers differ from a fresh render:\n` +
          `${[...found, ...errors.mock.calls.map((c) => `console.error: ${c.map(String).join(" ")}`)].slice(0, 12).join("\n")}\n` +
          `Steps (the last 25):\n${log.slice(-25).join("\n")}`,
      );
  }
  return { log, compared: [...oracles.values()].reduce((n, o) => n + o.compared, 0) };
}

let errors: MockInstance<(...args: unknown[]) => void>;
beforeEach(() => {
  errors = vi.spyOn(console, "error");
});
afterEach(() => {
  errors.mockRestore();
});

describe.each(KITS.map((kit) => [kit.id, kit] as const))("the render oracle over a random play of %s", (id, kit) => {
  it(
    `a GM and two players, ${String(STEPS)} steps: every tracker equals a fresh render after every render and step`,
    async () => {
      const module = MODES.find((m) => m.id === id);
      if (module === undefined) throw new Error(`no mode ${id}`);
      const { log, compared } = await play(module, kit, SEED + MODES.indexOf(module));
      // Every command kind took part: most were accepted, and the trackers were compared many times.
      expect(log.filter((line) => line.endsWith("→ ok")).length).toBeGreaterThan(STEPS / 10);
      expect(compared).toBeGreaterThan(STEPS * 3);
    },
    TIMEOUT,
  );
});
