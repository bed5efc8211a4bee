/**
 * What the `slots` tracker's buttons do, by `data-action`: claim, release and fill a slot,
 * roll the checks, and the GM's skill choice. Each goes through the rules (`submit`) or the slots
 * glue; refusals come back as localised notifications.
 */
import { submit } from "../../foundry/authority/controller";
import type { CommandResult } from "../../core/protocol";
import type { ActionTable } from "../contract";
import { setSlotsSkill } from "./api";
import { SLOTS_INITIATIVE } from "./initiative";

/** The slot index a slot button acts on (-1 when missing: the rules refuse it). */
function slotOf(target: HTMLElement): number {
  const value = Number(target.dataset.slot);
  return Number.isInteger(value) ? value : -1;
}

const idOf = (target: HTMLElement): string => target.dataset.combatantId ?? "";

/** Claim a slot for a combatant (the Claim button and the claim key). */
export function claimSlot(combat: Combat.Implementation, slot: number, combatantId: string): Promise<CommandResult> {
  return submit(combat, { type: "claimSlot", slot, combatantId });
}

/** The `slots` buttons. */
export const SLOTS_ACTIONS: ActionTable = {
  siRollAll: (combat) => SLOTS_INITIATIVE.rollAll(combat),
  siSlotClaim: (combat, target) => claimSlot(combat, slotOf(target), idOf(target)),
  siSlotRelease: (combat, target) => submit(combat, { type: "releaseClaim", slot: slotOf(target) }),
  siSlotFill: (combat, target) => submit(combat, { type: "fillSlot", slot: slotOf(target), combatantId: idOf(target) }),
  siSlotCool: (combat, target) => setSlotsSkill(combat, idOf(target), "cool"),
  siSlotVigilance: (combat, target) => setSlotsSkill(combat, idOf(target), "vigilance"),
};
