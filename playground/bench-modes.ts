/**
 * The render benchmark's sample encounters, one per mode: how the GM brings a fresh encounter of
 * the bench's combatants to a started, mid-round state that shows the mode's tracker features, and
 * the step the bench times as that mode's "turn advance". Every step is the GM's commands through
 * the module's API (untimed); the bench times the tracker render that follows.
 */
import { availableAP, declareOrder } from "../src/modes/declare-resolve/rules/points.js";
import { currentDeclarer as drDeclarer } from "../src/modes/declare-resolve/rules/derived.js";
import type { DeclareResolveState } from "../src/modes/declare-resolve/rules/types.js";
import type { PhasesState } from "../src/modes/phases/rules/types.js";
import { currentDeclarer, pendingSideTies, pendingTies, sidesToRoll } from "../src/modes/sides/rules/derived.js";
import type { SidesState } from "../src/modes/sides/rules/types.js";
import type { SlotsState } from "../src/modes/slots/rules/types.js";

/** What a driver may use: the GM's commands, the stored state, the combatant ids in joining order. */
export interface DriverWorld {
  readonly cmd: (command: { type: string } & Record<string, unknown>) => Promise<void>;
  /** The stored state, decoded (each driver reads it as its mode's state). */
  readonly state: () => unknown;
  readonly ids: readonly string[];
}

/** A mode's sample encounter, set up; `step` is its turn advance. */
export interface Driver {
  readonly step: () => Promise<void>;
}

/** What each mode's "turn advance" is (printed beside the figures). */
export const STEP_LABELS: Record<string, string> = {
  individual: "next turn",
  sides: "resolved action (next turn in a pass)",
  slots: "next turn, then the next slot filled",
  "declare-resolve": "resolved turn (next turn in the resolution)",
  phases: "a foe's intents resolve (next turn in phase 3)",
};

/** Guard against a driver that loops without reaching its state. */
const LIMIT = 10_000;

export const DRIVERS: Record<string, (w: DriverWorld) => Promise<Driver>> = {
  /** Initiative recorded for everyone, started; the turn moves down the list. */
  async individual({ cmd, ids }) {
    for (const [i, combatantId] of ids.entries())
      await cmd({ type: "recordInitiative", combatantId, total: 1000 - i, modifier: 0 });
    await cmd({ type: "start" });
    return { step: () => cmd({ type: "nextTurn" }) };
  },

  /**
   * Sides from the tokens' dispositions (heroes, foes); each round the sides roll, everyone
   * declares (every third character two actions, so there are later passes and penalties) and the
   * GM orders every tie; the step resolves one action of the pass.
   */
  async sides({ cmd, state }) {
    const toPass = async (): Promise<void> => {
      for (let guard = 0; guard < LIMIT; guard++) {
        const s = state() as SidesState;
        const tie = s.step === "initiative" ? pendingSideTies(s)[0] : pendingTies(s)[0];
        if (s.step === "initiative" && tie !== undefined) await cmd({ type: "orderTiedSides", sideIds: tie });
        else if (s.step === "initiative") {
          for (const [i, sideId] of sidesToRoll(s).entries())
            await cmd({ type: "recordSideRoll", sideId, total: 12 + i });
        } else if (s.step === "declaration") {
          const who = currentDeclarer(s);
          if (who === null) throw new Error("sides: no declarer");
          const many = s.combatants.findIndex((c) => c.id === who) % 3 === 0;
          const actions = (many ? ["Shoot", "Dodge"] : ["Shoot"]).map((text) => ({ text }));
          await cmd({ type: "declare", combatantId: who, actions, forcePoint: false });
        } else if (s.step === "pass" && tie !== undefined)
          await cmd({ type: "orderTied", pass: s.pass, combatantIds: tie });
        else if (s.step === "pass") return;
        else throw new Error(`sides: unexpected step ${s.step}`);
      }
      throw new Error("sides: no pass reached");
    };
    await cmd({ type: "start" });
    await toPass();
    return {
      async step() {
        await cmd({ type: "nextTurn" });
        await toPass();
      },
    };
  },

  /** Checks recorded for everyone (spread scores), started; the step ends a turn and fills the next slot. */
  async slots({ cmd, state, ids }) {
    for (const [i, combatantId] of ids.entries())
      await cmd({ type: "recordCheck", combatantId, primary: 1 + ((i * 7) % 6), secondary: 1 + (i % 6) });
    await cmd({ type: "start" });
    const fill = async (): Promise<void> => {
      const s = state() as SlotsState;
      if (s.slotIndex === null) return;
      const slot = s.slots[s.slotIndex];
      if (slot === undefined || slot.filledBy !== null) return;
      const claimed = new Set(s.slots.map((x) => x.claimedBy));
      const who = s.combatants.find(
        (c) => c.isPC === (slot.kind === "pc") && !c.defeated && !s.acted.includes(c.id) && !claimed.has(c.id),
      );
      if (who !== undefined) await cmd({ type: "fillSlot", slot: s.slotIndex, combatantId: who.id });
    };
    await fill();
    return {
      async step() {
        await cmd({ type: "nextTurn" });
        await fill();
      },
    };
  },

  /**
   * IP recorded for everyone (no ties), started; each round everyone declares from the default
   * catalogue (an attack, every other one a dodge too, within its AP) and the upkeep is confirmed; the step
   * resolves one turn.
   */
  async "declare-resolve"({ cmd, state, ids }) {
    for (const [i, combatantId] of ids.entries())
      await cmd({ type: "recordIP", combatantId, total: 1000 - i, modifier: 0 });
    await cmd({ type: "start" });
    const toResolve = async (): Promise<void> => {
      for (let guard = 0; guard < LIMIT; guard++) {
        const s = state() as DeclareResolveState;
        if (s.phase === "resolve") return;
        if (s.phase === "upkeep") await cmd({ type: "upkeep" });
        else if (s.phase === "declare") {
          const who = drDeclarer(s);
          if (who === null) throw new Error("declare-resolve: no declarer");
          const attack = { name: "Melee Attack", cost: 4, kind: "attack" };
          const dodge = { name: "Dodge", cost: 2, kind: "defence" };
          const c = s.combatants.find((x) => x.id === who);
          const ap = c === undefined ? 0 : availableAP(s, c);
          const both = declareOrder(s).indexOf(who) % 2 === 0 && ap >= attack.cost + dodge.cost;
          const actions = both ? [attack, dodge] : ap >= attack.cost ? [attack] : ap >= dodge.cost ? [dodge] : [];
          await cmd({ type: "declare", combatantId: who, actions });
        } else await cmd({ type: "nextTurn" });
      }
      throw new Error("declare-resolve: no resolution reached");
    };
    await toResolve();
    return {
      async step() {
        await cmd({ type: "nextTurn" });
        await toResolve();
      },
    };
  },

  /**
   * Started without surprise; each round every foe declares an attack on a hero, every other hero
   * takes a turn (a free move) in phase 2, then phase 3; the step resolves one foe's intents.
   */
  async phases({ cmd, state }) {
    const toResolve = async (): Promise<void> => {
      for (let guard = 0; guard < LIMIT; guard++) {
        const s = state() as PhasesState;
        if (s.phase === "foesResolve") return;
        if (s.phase === "foesDeclare") {
          const heroes = s.combatants.filter((c) => c.isPC && !c.defeated);
          const declared = new Set(s.intents.map((x) => x.foeId));
          const foes = s.combatants.filter((c) => !c.isPC && !c.defeated && !declared.has(c.id));
          for (const [i, foe] of foes.entries()) {
            const target = heroes[i % heroes.length]?.id;
            await cmd({ type: "declareIntent", foeId: foe.id, text: "Strike", kind: "attack", targets: [target] });
          }
          await cmd({ type: "nextPhase" });
        } else if (s.phase === "heroes") {
          const heroes = s.combatants.filter((c) => c.isPC && !c.defeated);
          for (const hero of heroes.filter((_, i) => i % 2 === 0)) {
            await cmd({ type: "startTurn", combatantId: hero.id });
            await cmd({ type: "freeAction", combatantId: hero.id, kind: "move" });
            await cmd({ type: "endTurn", combatantId: hero.id });
            if ((state() as PhasesState).phase !== "heroes") break;
          }
          if ((state() as PhasesState).phase === "heroes") await cmd({ type: "nextPhase" });
        } else throw new Error(`phases: unexpected phase ${s.phase}`);
      }
      throw new Error("phases: phase 3 not reached");
    };
    await cmd({ type: "start", surprise: false });
    await toResolve();
    return {
      async step() {
        await cmd({ type: "nextTurn" });
        await toResolve();
      },
    };
  },
};
