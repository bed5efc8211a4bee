/**
 * Who sees an initiative roll, asked for either way (issue 28 item 2), in every mode, on the flavour
 * the suite runs (`SIM_GENERATION`: `npx vitest run` is v13, `npm run test:v14` is v14), through each
 * caller core offers: `Combat#rollInitiative`, `rollAll` and `rollNPC`.
 *
 * - v14 takes the mode as the top-level `messageMode` option; the older `messageOptions.rollMode` is
 *   deprecated (since 14, until 16) and still honoured, with core's warning (dnd5e PR #7370 moves to
 *   `initiativeOptions: {messageMode}` to fix that warning; a public v14 system's override repeats it).
 * - v13 knows `messageOptions.rollMode` only. The structured modes also take a top-level `messageMode`
 *   there (it can only mean that mode); the system's own combat is core's, which does not.
 *
 * The world has a second GM (not logged in), so a GM roll (whispered to every GM) and a self roll
 * (to its author alone) differ when the GM rolls.
 */
import { describe, expect, it } from "vitest";
import type { Sim, SimCombat } from "../sim/index.js";
import type { JsonObject } from "../sim/utils.js";
import { DEFAULT_USERS, createSim } from "../sim/index.js";
import { GM, SCENES, SETTINGS, encounter } from "./world.js";
import { DR_ACTORS } from "./declare-resolve-world.js";

const GM2 = "gmUser0000000002";
const MODES = ["system", "individual", "sides", "slots", "declare-resolve", "phases"] as const;
const ASKED = ["public", "gm", "blind", "self"] as const;
type Asked = (typeof ASKED)[number];
const V13_WORDS: Record<Asked, string> = { public: "publicroll", gm: "gmroll", blind: "blindroll", self: "selfroll" };
const CALLERS = ["rollInitiative", "rollAll", "rollNPC"] as const;
type Caller = (typeof CALLERS)[number];
const FORMS = ["messageMode", "messageOptions.rollMode"] as const;
type Form = (typeof FORMS)[number];

/** Who sees a message in each mode: its whisper list and blind flag. */
const SEEN: Record<Asked, { whisper: string[]; blind: boolean }> = {
  public: { whisper: [], blind: false },
  gm: { whisper: [GM, GM2], blind: false },
  blind: { whisper: [GM, GM2], blind: true },
  self: { whisper: [GM], blind: false },
};

const DEPRECATION =
  "The rollMode option of Combat#rollInitiative messageOptions is deprecated in favor of the `messageMode` option, a string key of CONFIG.ChatMessage.modes";

function optionsFor(form: Form, asked: Asked): JsonObject {
  return form === "messageMode" ? { messageMode: asked } : { messageOptions: { rollMode: V13_WORDS[asked] } };
}

async function call(combat: SimCombat, caller: Caller, ids: string[], options: JsonObject): Promise<void> {
  if (caller === "rollInitiative") await combat.rollInitiative(ids, options);
  else if (caller === "rollAll") await combat.rollAll(options);
  else await combat.rollNPC(options);
}

/** The shared test world's cast with what every mode reads: D6 traits for `sides`, bonuses for `declare-resolve`. */
const ACTORS: JsonObject[] = DR_ACTORS.map((actor) => ({
  ...actor,
  system: { ...(actor.system as JsonObject), dexterity: "3D", perception: "2D+1" },
}));

function world(mode: string): Promise<Sim> {
  return createSim({
    actors: ACTORS,
    scenes: SCENES,
    settings: {
      ...SETTINGS,
      "structured-initiative.defaultMode": mode,
      "structured-initiative.sidesDexterity": "@dexterity",
      "structured-initiative.sidesPerception": "@perception",
      "structured-initiative.sidesCountdown": 0,
    },
    users: [...DEFAULT_USERS, { id: GM2, name: "Assistant", role: 4, connect: false }],
  });
}

describe.each(MODES)("roll modes asked of %s", (mode) => {
  it.each(CALLERS)("%s: every mode asked either way is honoured", async (caller) => {
    const sim = await world(mode);
    const v14 = sim.generation >= 14;
    for (const form of FORMS)
      for (const asked of ASKED) {
        const combat = await encounter(sim, ["officer", "trooper1"]);
        // A side rolls at the start of each round, once the encounter runs.
        if (mode === "sides") await combat.startCombat();
        await sim.settle();
        const ids = combat.combatants.contents.map((c) => String(c.id));
        const before = sim.server.world.messages.length;
        sim.dice.push(12, 4, 9, 3, 5, 6, 2, 1);
        await call(combat, caller, ids, optionsFor(form, asked));
        await sim.settle();
        const messages = sim.server.world.messages.slice(before);
        const label = `${form} ${asked} (v${String(sim.generation)})`;
        if (mode === "phases") expect(messages, label).toEqual([]);
        else {
          expect(messages.length, label).toBeGreaterThan(0);
          // Core on v13 knows no top-level messageMode: the GM's own mode (public) applies.
          const expected = mode === "system" && !v14 && form === "messageMode" ? "public" : asked;
          for (const message of messages) expect(message, label).toMatchObject(SEEN[expected]);
        }
        // The old form on v14 warns, once per call, as core does (not where nothing is rolled).
        const legacyWarned = v14 && form !== "messageMode" && mode !== "phases";
        expect(sim.gm.compatWarnings, label).toEqual(legacyWarned ? [DEPRECATION] : []);
        sim.gm.compatWarnings.length = 0;
        await combat.delete();
        await sim.settle();
      }
    for (const client of sim.clients) expect(client.errors, client.userId).toEqual([]);
  });
});
