/**
 * The generators of the `slots` mode, shared by its property test and its conformance kit: abstract
 * actions (checks, claims, releases, fills, turn changes, defeats, the keep-slots policy, joins and
 * removals) from the GM, owners and strangers, how each becomes commands against the state it meets,
 * and the command an allowed action names.
 */
import fc from "fast-check";
import type { AllowedAction } from "../../src/core/engine";
import { eligibleFillers } from "../../src/modes/slots/rules/derived";
import { type SlotsAllowedAction, type SlotsCommand, type SlotsState } from "../../src/modes/slots/rules/types";
import type { Sent } from "../conformance/kit";
import { GM, T as t, pickId, requester, senders, variant, type By } from "./property-harness";

/** An abstract action. */
export type SlotsAction =
  | { k: "check"; t: number; p: number; s: number; by: By }
  | { k: "begin"; scores: readonly number[] }
  | { k: "start"; by: By }
  | { k: "claim"; slot: number; t: number; by: By }
  | { k: "release"; slot: number; by: By }
  | { k: "fill"; current: boolean; slot: number; t: number; by: By }
  | { k: "next"; by: By }
  | { k: "nextRound"; by: By }
  | { k: "defeat"; t: number; v: boolean }
  | { k: "keep"; pc: boolean; npc: boolean }
  | { k: "add"; isPC: boolean }
  | { k: "remove"; t: number };

/**
 * The actions. `roster: false` leaves out joins and removals (in Foundry they come from combatant
 * documents); `maxSlot` bounds the slot numbers drawn (past the last slot now and then), `scores`
 * is how many check scores a `begin` draws.
 */
export function slotsActions({
  roster = true,
  maxSlot = 8,
  scores = 6,
}: { roster?: boolean; maxSlot?: number; scores?: number } = {}): fc.Arbitrary<SlotsAction> {
  const by = senders(["gm", "gm", "owner", "owner", "other"]);
  const slot = fc.nat(maxSlot);
  const score = fc.integer({ min: -1, max: 3 });
  const play = [
    variant("check", { t, p: score, s: score, by }, 3),
    variant("begin", { scores: fc.array(score, { minLength: scores, maxLength: scores }) }, 3),
    variant("start", { by }, 1),
    variant("claim", { slot, t, by }, 6),
    variant("release", { slot, by }, 3),
    variant("fill", { current: fc.boolean(), slot, t, by }, 8),
    variant("next", { by }, 7),
    variant("nextRound", { by }, 1),
    variant("defeat", { t, v: fc.boolean() }, 1),
    variant("keep", { pc: fc.boolean(), npc: fc.boolean() }, 1),
  ] as const;
  if (!roster) return fc.oneof(...play);
  return fc.oneof(...play, variant("add", { isPC: fc.boolean() }, 1), variant("remove", { t }, 1));
}

/** A combatant id from a number: mostly a live one, sometimes a stranger. */
function pick(state: SlotsState, n: number): string {
  return pickId(
    state.combatants.map((c) => c.id),
    n,
    11,
  );
}

function filler(state: SlotsState): string | null {
  return state.slotIndex === null ? null : (state.slots[state.slotIndex]?.filledBy ?? null);
}

/**
 * Turn an action into commands and their senders, each against the state `now()` returns at the time
 * (`begin` reads the state between its checks). `fresh` names joiners.
 */
export function* slotsCommands(
  a: SlotsAction,
  now: () => SlotsState,
  fresh: () => string,
): Iterable<Sent<SlotsCommand>> {
  const s = now();
  switch (a.k) {
    case "check": {
      const id = pick(s, a.t);
      yield [{ type: "recordCheck", combatantId: id, primary: a.p, secondary: a.s }, requester(a.by, id)];
      return;
    }
    case "begin":
      // The GM rolls every missing check and starts.
      for (const [i, c] of s.combatants.entries()) {
        if (c.check !== null) continue;
        const primary = a.scores[i % a.scores.length] ?? 0;
        const secondary = a.scores[(i + 3) % a.scores.length] ?? 0;
        yield [{ type: "recordCheck", combatantId: c.id, primary, secondary }, GM];
      }
      yield [{ type: "start" }, GM];
      return;
    case "start":
      yield [{ type: "start" }, requester(a.by, null)];
      return;
    case "claim": {
      // Mostly a PC on a PC slot still to come, so that claims race for the same slots.
      const pcs = s.combatants.filter((c) => c.isPC);
      const id = a.t % 5 === 4 ? pick(s, a.t) : (pcs[a.t % Math.max(pcs.length, 1)]?.id ?? pick(s, a.t));
      const open = s.slots.flatMap((x, i) =>
        x.kind === "pc" && (s.slotIndex === null || i >= s.slotIndex) ? [i] : [],
      );
      const index = a.slot % 4 === 3 ? a.slot : (open[a.slot % Math.max(open.length, 1)] ?? a.slot);
      yield [{ type: "claimSlot", slot: index, combatantId: id }, requester(a.by, id)];
      return;
    }
    case "release": {
      const claimed = s.slots.flatMap((x, i) => (x.claimedBy === null ? [] : [i]));
      const index = a.slot % 4 === 3 ? a.slot : (claimed[a.slot % Math.max(claimed.length, 1)] ?? a.slot);
      yield [{ type: "releaseClaim", slot: index }, requester(a.by, s.slots[index]?.claimedBy ?? null)];
      return;
    }
    case "fill": {
      const index = a.current && s.slotIndex !== null ? s.slotIndex : a.slot;
      const eligible = eligibleFillers(s, index);
      const id = a.t % 4 === 3 ? pick(s, a.t) : (eligible[a.t % Math.max(eligible.length, 1)] ?? pick(s, a.t));
      yield [{ type: "fillSlot", slot: index, combatantId: id }, requester(a.by, id)];
      return;
    }
    case "next":
      yield [{ type: "nextTurn" }, requester(a.by, filler(s))];
      return;
    case "nextRound":
      yield [{ type: "nextRound" }, requester(a.by, null)];
      return;
    case "defeat":
      yield [{ type: "setDefeated", combatantId: pick(s, a.t), defeated: a.v }, GM];
      return;
    case "keep":
      yield [{ type: "setKeepSlots", keepSlots: { pc: a.pc, npc: a.npc } }, GM];
      return;
    case "add":
      yield [{ type: "addCombatant", combatant: { id: fresh(), name: "joiner", isPC: a.isPC } }, GM];
      return;
    case "remove":
      yield [{ type: "removeCombatant", combatantId: pick(s, a.t) }, GM];
      return;
  }
}

/** The command an allowed action names, or null when it names none this helper builds. */
export function slotsCommandFor(state: SlotsState, action: AllowedAction): SlotsCommand | null {
  const id = action.combatantId ?? "";
  const index = (action as SlotsAllowedAction).slot;
  const c = state.combatants.find((x) => x.id === id);
  switch (action.type) {
    case "addCombatant":
      return { type: "addCombatant", combatant: { id: "kit-joiner", name: "Joiner", isPC: true } };
    case "removeCombatant":
      return { type: "removeCombatant", combatantId: id };
    case "setDefeated":
      return c === undefined ? null : { type: "setDefeated", combatantId: id, defeated: !c.defeated };
    case "setKeepSlots":
      return { type: "setKeepSlots", keepSlots: { pc: !state.keepSlots.pc, npc: state.keepSlots.npc } };
    case "recordCheck":
      return { type: "recordCheck", combatantId: id, primary: 2, secondary: 1 };
    case "start":
    case "nextTurn":
    case "nextRound":
      return { type: action.type };
    case "claimSlot":
    case "fillSlot":
      return index === undefined ? null : { type: action.type, slot: index, combatantId: id };
    case "releaseClaim":
      return index === undefined ? null : { type: "releaseClaim", slot: index };
    default:
      return null;
  }
}
