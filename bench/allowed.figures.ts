/**
 * What a user may do (`allowed`), timed in Node on the rules alone, for each mode's render-bench
 * sample encounter (`src/modes/<id>/sample.ts`, field `bench`: every fifth combatant a PC, mid-round) at 50 and 200
 * combatants, for the GM and a player who owns one PC (`npm run bench`). The tracker's context
 * phase computes it once per render. Prints a table and JSON; asserts nothing about speed.
 */
import { it } from "vitest";
import type { Requester, RosterEntry } from "../src/core/engine.js";
import { PURE_MODES } from "../test/rules/pure-modes.js";
import { DRIVERS } from "../playground/bench-modes.js";
import { report, sizes } from "./shared.js";

const GM_REQ: Requester = { userId: "gm", isGM: true, owns: [] };
const SIZES = sizes("50,200");
const MODES = (process.env.BENCH_MODES ?? PURE_MODES.map((m) => m.id).join(",")).split(",");

interface Row {
  mode: string;
  combatants: number;
  view: "gm" | "player";
  actions: number;
  "allowed (ms, median)": number;
}

/** The mode's render-bench sample state at `n` combatants, driven by the GM on the rules alone. */
async function sample(modeId: string, n: number): Promise<{ state: unknown; ids: string[] }> {
  const mode = PURE_MODES.find((m) => m.id === modeId);
  const drive = DRIVERS[modeId];
  if (mode === undefined || drive === undefined) throw new Error(`no mode ${modeId}`);
  const roster: RosterEntry[] = Array.from({ length: n }, (_, i) => ({
    id: `combatant${String(i).padStart(7, "0")}`,
    name: `C${i}`,
    isPC: i % 5 === 0,
  }));
  let state = mode.rules.create(roster);
  const cmd = (command: { type: string } & Record<string, unknown>): Promise<void> => {
    const outcome = mode.rules.apply(state, command, GM_REQ);
    if (!outcome.ok) throw new Error(`${modeId}: ${command.type} refused: ${JSON.stringify(outcome.refusal)}`);
    state = outcome.state;
    return Promise.resolve();
  };
  // The glue gives a sides encounter its sides and traits from the Foundry documents (CombatantGroups
  // or the default heroes and foes, and the actors' attributes); here the GM's commands do it.
  if (modeId === "sides") {
    await cmd({ type: "defineSide", sideId: "heroes", name: "Heroes", colour: "#3a7d44" });
    await cmd({ type: "defineSide", sideId: "foes", name: "Foes", colour: "#8e2f2f" });
    for (const [i, r] of roster.entries()) {
      await cmd({ type: "setSide", combatantId: r.id, sideId: r.isPC ? "heroes" : "foes" });
      const dice = (k: number): string => `${String(2 + (k % 3))}D${k % 2 === 0 ? "" : "+1"}`;
      await cmd({
        type: "setTraits",
        combatantId: r.id,
        dexterity: dice(i),
        perception: dice(i + 1),
        initiativeScore: dice(i + 2),
      });
    }
  }
  await drive({ cmd, state: () => state, ids: roster.map((r) => r.id) });
  return { state, ids: roster.map((r) => r.id) };
}

/** The median time of `run`, in ms, over `rounds` rounds after 20 warm-up ones. */
function median(run: () => void, rounds: number): number {
  for (let i = 0; i < 20; i++) run();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return Math.round((times[Math.floor(times.length / 2)] ?? 0) * 100) / 100;
}

it("prints the time of allowed per mode", async () => {
  const rows: Row[] = [];
  for (const modeId of MODES) {
    const mode = PURE_MODES.find((m) => m.id === modeId);
    if (mode === undefined) continue;
    for (const n of SIZES) {
      const { state, ids } = await sample(modeId, n);
      const player: Requester = { userId: "alice", isGM: false, owns: ids.slice(0, 1) };
      for (const [view, who] of [
        ["gm", GM_REQ],
        ["player", player],
      ] as const) {
        const actions = mode.rules.allowed(state, who).length;
        const ms = median(() => mode.rules.allowed(state, who), n >= 200 ? 30 : 60);
        rows.push({ mode: modeId, combatants: n, view, actions, "allowed (ms, median)": ms });
      }
    }
  }
  report(
    "What a user may do (allowed), in Node",
    "allowed",
    ["mode", "combatants", "view", "actions", "allowed (ms, median)"],
    rows,
  );
});
