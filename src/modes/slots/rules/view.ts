/** The `slots` view (whose turn, the order) and the actions `who` may take now. */

import type { TurnView, Requester } from "../../../core/engine";
import { probe, type RefusalChecks, allowedByTrial, gmCombatantRefusal } from "../../../core/common";
import type { SlotsState, SlotsStep, SlotsAllowedAction, SlotsCommand } from "./types";
import { advance } from "./flow";
import { isPassed } from "./derived";
import { holder, claimRefusal, fillRefusal, applyCommand } from "./commands";
import { kindOf } from "./ranking";

/** Who filled a slot this round, in that order; then claimants by slot; then the rest in joining order. */
function viewOrder(state: SlotsState): string[] {
  const claimants = state.slots.flatMap((s) => (s.claimedBy === null ? [] : [s.claimedBy]));
  const first = [...state.acted, ...claimants.filter((id) => !state.acted.includes(id))];
  return [...first, ...state.combatants.map((c) => c.id).filter((id) => !first.includes(id))];
}

function fillerOf(state: SlotsState): string | null {
  return state.slotIndex === null ? null : (state.slots[state.slotIndex]?.filledBy ?? null);
}

export function view(state: SlotsState): TurnView {
  const step: SlotsStep = state.started ? "round" : "setup";
  return {
    started: state.started,
    round: state.round,
    step,
    order: viewOrder(state),
    current: state.started ? fillerOf(state) : null,
    next: state.started ? fillerOf(advance(state, [])) : null,
  };
}

interface Probe {
  readonly action: SlotsAllowedAction;
  readonly command: SlotsCommand;
}

/** A probe of `command` for the action of its type, about `about`. */
const on = (command: SlotsCommand, about?: Omit<SlotsAllowedAction, "type">): Probe => probe(command, about);

function probes(state: SlotsState): Probe[] {
  const list: Probe[] = [
    on({ type: "start" }),
    on({ type: "nextTurn" }),
    on({ type: "nextRound" }),
    on({ type: "setKeepSlots", keepSlots: state.keepSlots }),
  ];
  for (const c of state.combatants) {
    const combatantId = c.id;
    const about = { combatantId };
    list.push(
      on({ type: "recordCheck", combatantId, primary: 0, secondary: 0 }, about),
      on({ type: "setDefeated", combatantId, defeated: !c.defeated }, about),
      on({ type: "removeCombatant", combatantId }, about),
    );
  }
  state.slots.forEach((slot, index) => {
    if (slot.claimedBy !== null) {
      list.push(on({ type: "releaseClaim", slot: index }, { slot: index, combatantId: slot.claimedBy }));
    }
    // Only a slot that can be taken now is tried, by the combatants of its kind: every other claim
    // or fill would be refused (see `claimRefusal`, `fillRefusal`; the property tests compare this
    // with trying every combatant on every slot).
    if (!state.started || isPassed(state, index) || holder(slot) !== null) return;
    const claimable = slot.kind === "pc";
    const fillable = index === state.slotIndex;
    if (!claimable && !fillable) return;
    for (const c of state.combatants) {
      if (kindOf(c) !== slot.kind) continue;
      const about = { slot: index, combatantId: c.id };
      if (claimable) list.push(on({ type: "claimSlot", ...about }, about));
      if (fillable) list.push(on({ type: "fillSlot", ...about }, about));
    }
  });
  return list;
}

/**
 * The commands tried by their refusal check alone: their handlers, once past it, always accept (a
 * claim, a fill, a removal, a defeat), so that no new state is built for each combatant and each
 * slot it could take. Every other command is tried through the rules.
 */
const refusalChecks: RefusalChecks<SlotsState, SlotsCommand> = {
  claimSlot: claimRefusal,
  fillSlot: fillRefusal,
  removeCombatant: (state, { combatantId }, who) => gmCombatantRefusal(state, combatantId, who),
  setDefeated: (state, { combatantId }, who) => gmCombatantRefusal(state, combatantId, who),
};

/** What this user may do now, with the slot each claim, release or fill is about. */
export function slotsAllowed(state: SlotsState, who: Requester): readonly SlotsAllowedAction[] {
  const given: SlotsAllowedAction[] = who.isGM ? [{ type: "addCombatant" }] : [];
  return allowedByTrial(state, who, given, probes(state), applyCommand, refusalChecks);
}

/** Initiative slots (RULES.md §4): checks, PC and NPC slots with the names dropped, claims and fills. */
/** The acting turn: a filled slot, named by round, slot and filler; an open slot is nobody's turn. */
export function slotsTurnKey(state: SlotsState): string | null {
  const filler = state.started ? fillerOf(state) : null;
  return filler === null ? null : `${state.round}:slot${String(state.slotIndex)}:${filler}`;
}
