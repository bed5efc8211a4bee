/**
 * The order changes of `effect-order-changes.test.ts`, each made through the GM's commands (or a new
 * Combatant document) once the encounter has come to where the change can be made: each returns a
 * label for the step it made, or false (not yet). The bearer is the combatant carrying the effects.
 */
import { expect } from "vitest";
import { turnKeyCombatant } from "../../src/core/engine";
import type { SimCombat } from "../sim/index.js";
import { ACTOR, tokenOf } from "./world.js";
import { D6, d6Token } from "./sides-world.js";
import { roundOf, type DriveContext } from "./effect-drive.js";

/** Whether the encounter is in a later round than the bearer's first turn. */
export const later = (ctx: DriveContext): boolean => ctx.combat.round > ctx.bearer.round;

/** The live combatants ahead of the bearer in `combat.turns`, nearest first. */
export function ahead(combat: SimCombat, bearer: string): string[] {
  const order = combat.turns.map((c) => c.id ?? "");
  return order.slice(0, Math.max(order.indexOf(bearer), 0)).reverse();
}

/** The command sent, or false where the rules refuse it. */
export async function tried(ctx: DriveContext, command: Record<string, unknown>): Promise<boolean> {
  return (await ctx.api.command(ctx.combat, command)).ok;
}

/** individual: the one acting now, ahead of the bearer, delays until after the bearer's turn. */
export async function delayAhead(ctx: DriveContext): Promise<string | false> {
  const key = ctx.key();
  if (!later(ctx) || key === null || roundOf(key) <= ctx.bearer.round) return false;
  const acting = turnKeyCombatant(key);
  if (acting === ctx.bearer.combatantId || !ahead(ctx.combat, ctx.bearer.combatantId).includes(acting)) return false;
  if (!(await tried(ctx, { type: "delay", combatantId: acting, after: ctx.bearer.combatantId }))) return false;
  return `delay (${acting} after the bearer)`;
}

/** sides: someone ahead of the bearer in this pass slows down to act right after it. */
export async function slowDownAhead(ctx: DriveContext): Promise<string | false> {
  if (!later(ctx)) return false;
  for (const id of ahead(ctx.combat, ctx.bearer.combatantId)) {
    if (await tried(ctx, { type: "slowDown", combatantId: id, after: ctx.bearer.combatantId }))
      return `slowDown (${id} after the bearer)`;
  }
  return false;
}

/** declare-resolve: the one just ahead of the bearer gets an IP change that puts it behind (a slow-down). */
export async function ipChangeAhead(ctx: DriveContext): Promise<string | false> {
  if (!later(ctx)) return false;
  const [id] = ahead(ctx.combat, ctx.bearer.combatantId);
  if (id === undefined) return false;
  const command = { type: "addIPChange", combatantId: id, cause: "slowed", amount: -20, duration: { kind: "round" } };
  if (!(await tried(ctx, command))) return false;
  return `addIPChange (${id} −20)`;
}

/** slots: another PC claims the bearer's slot of round 1, a later PC slot; the bearer fills the open one. */
export async function claimOutOfOrder(ctx: DriveContext): Promise<string | false> {
  if (!later(ctx)) return false;
  const state = ctx.state() as {
    slotIndex: number | null;
    slots: { kind: string; filledBy: string | null; claimedBy: string | null }[];
    combatants: { id: string; isPC: boolean }[];
  };
  const current = state.slotIndex;
  if (current === null || state.slots[current]?.kind !== "pc" || state.slots[current].filledBy !== null) return false;
  const laterPC = state.slots.findIndex((s, i) => i > current && s.kind === "pc" && s.claimedBy === null);
  const other = state.combatants.find((c) => c.isPC && c.id !== ctx.bearer.combatantId);
  if (laterPC < 0 || other === undefined) return false;
  if (!(await tried(ctx, { type: "claimSlot", slot: laterPC, combatantId: other.id }))) return false;
  if (!(await tried(ctx, { type: "fillSlot", slot: current, combatantId: ctx.bearer.combatantId }))) return false;
  return `claimSlot (slot ${laterPC} by ${other.id}), fillSlot (slot ${current} by the bearer)`;
}

/** phases: the GM sets hand-off order for the round and hands the first hero turn to the bearer. */
export async function handOff(ctx: DriveContext): Promise<string | false> {
  if (!later(ctx)) return false;
  const state = ctx.state() as { phase: string; handOff: boolean };
  if (state.phase !== "heroes") return false;
  if (!(await tried(ctx, { type: "setHandOff", on: true }))) return false;
  if (!(await tried(ctx, { type: "pickNext", combatantId: ctx.bearer.combatantId }))) return false;
  return "setHandOff, pickNext (the bearer)";
}

/** A new combatant joins the encounter (for a mode that rolls, with a roll that puts it first). */
export function join(roll: ((ctx: DriveContext, id: string) => Record<string, unknown>) | null, sides = false) {
  return async (ctx: DriveContext): Promise<string | false> => {
    const [created] = (await ctx.combat.createEmbeddedDocuments("Combatant", [
      sides
        ? { actorId: D6.smuggler, tokenId: d6Token("smuggler"), sceneId: ctx.combat.scene?.id ?? null }
        : { actorId: ACTOR.trooper3, tokenId: tokenOf("trooper3"), sceneId: ctx.combat.scene?.id ?? null },
    ])) as { id: string }[];
    await ctx.sim.settle();
    const id = created?.id ?? "";
    if (roll !== null)
      expect(await ctx.api.command(ctx.combat, roll(ctx, id)), "the joiner's roll").toEqual({ ok: true });
    return `joined (${id})`;
  };
}

/** Each mode's change that moves the bearer up, as `effect-order-changes.test.ts` lists it. */
export const MOVING_CHANGE: Readonly<Record<string, (ctx: DriveContext) => Promise<string | false>>> = {
  individual: delayAhead,
  sides: slowDownAhead,
  slots: claimOutOfOrder,
  "declare-resolve": ipChangeAhead,
  phases: handOff,
};
