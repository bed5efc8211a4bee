/**
 * What the `sides` controls do on a user's behalf: the GM's side controls (document writes on
 * CombatantGroups; the mirror follows) and a character's declarations, reactions and slowing down
 * (commands through the rules). The tracker's buttons (actions.ts) and the module API (api.ts) both
 * call them.
 */
import { MODULE_ID } from "../../constants";
import type { ReactionKind } from "./rules/types";
import { isAuthority, reconcileRoster, submit } from "../../foundry/authority/controller";
import { shownRefusal } from "../../foundry/notify";
import type { CommandResult } from "../../core/protocol";
import { COLOUR, SIDE_FLAGS } from "./constants";
import { sideIds, onSide, isSideGroup, sideIdOf } from "./encounter";

// The GM's side controls (document writes; the mirror follows)

export function gmOnly(combat: Combat.Implementation): CommandResult | null {
  if (game.user.isGM) return null;
  return shownRefusal(combat, { ok: false, code: "notGM" });
}

/** GM: add a side, optionally moving these combatants onto it (a split). */
export async function addSide(
  combat: Combat.Implementation,
  name: string,
  colour: string,
  members: readonly string[] = [],
): Promise<CommandResult> {
  const refused = gmOnly(combat);
  if (refused !== null) return refused;
  if (!COLOUR.test(colour)) return invalid(combat);
  const [group] =
    (await combat.createEmbeddedDocuments("CombatantGroup", [
      {
        name: name.trim().slice(0, 100),
        flags: { [MODULE_ID]: { [SIDE_FLAGS.side]: true, [SIDE_FLAGS.colour]: colour } },
      },
    ])) ?? [];
  const groupId = group?.id ?? null;
  if (groupId === null) return { ok: false, code: "writeFailed" };
  const ids = sideIds(combat);
  const updates = members.flatMap((id) => {
    const combatant = combat.combatants.get(id);
    return combatant === undefined ? [] : [onSide(combatant, groupId, ids)];
  });
  if (updates.length > 0) await combat.updateEmbeddedDocuments("Combatant", updates);
  return { ok: true };
}

/** GM: rename and recolour a side. */
export async function editSide(
  combat: Combat.Implementation,
  sideId: string,
  name: string,
  colour: string,
): Promise<CommandResult> {
  const refused = gmOnly(combat);
  if (refused !== null) return refused;
  const group = combat.groups.get(sideId);
  if (group === undefined || !isSideGroup(group)) return unknownSide(combat);
  if (!COLOUR.test(colour) || name.trim() === "") return invalid(combat);
  await group.update({ name: name.trim().slice(0, 100), flags: { [MODULE_ID]: { [SIDE_FLAGS.colour]: colour } } });
  return { ok: true };
}

/**
 * GM: make one of the encounter's CombatantGroups a side, or stop it being one (`marked` false). A
 * group a system or another module made is not a side until the GM marks it; an unmarked side's
 * members go back to their default sides.
 */
export async function markSide(combat: Combat.Implementation, groupId: string, marked = true): Promise<CommandResult> {
  const refused = gmOnly(combat);
  if (refused !== null) return refused;
  const group = combat.groups.get(groupId);
  if (group === undefined) return unknownSide(combat);
  await group.update({ flags: { [MODULE_ID]: { [SIDE_FLAGS.side]: marked } } });
  return { ok: true };
}

/** GM: move a combatant to another side. */
export async function moveToSide(
  combat: Combat.Implementation,
  combatantId: string,
  sideId: string,
): Promise<CommandResult> {
  const refused = gmOnly(combat);
  if (refused !== null) return refused;
  const combatant = combat.combatants.get(combatantId);
  if (combatant === undefined) return shownRefusal(combat, { ok: false, code: "unknownCombatant" });
  const ids = sideIds(combat);
  if (!ids.has(sideId)) return unknownSide(combat);
  await combat.updateEmbeddedDocuments("Combatant", [onSide(combatant, sideId, ids)]);
  return { ok: true };
}

/** GM: delete an empty side. */
export async function deleteSide(combat: Combat.Implementation, sideId: string): Promise<CommandResult> {
  const refused = gmOnly(combat);
  if (refused !== null) return refused;
  const group = combat.groups.get(sideId);
  if (group === undefined || !isSideGroup(group)) return unknownSide(combat);
  const ids = sideIds(combat);
  if (combat.combatants.contents.some((c) => sideIdOf(c, ids) === sideId))
    return shownRefusal(combat, { ok: false, code: "sideNotEmpty" });
  await group.delete();
  return { ok: true };
}

/** GM: read every combatant's traits again through the formulas (the active GM applies them). */
export async function refreshTraits(combat: Combat.Implementation): Promise<CommandResult> {
  const refused = gmOnly(combat);
  if (refused !== null) return refused;
  if (isAuthority()) await reconcileRoster(combat);
  return { ok: true };
}

export function invalid(combat: Combat.Implementation): CommandResult {
  return shownRefusal(combat, { ok: false, code: "invalidValue" });
}

function unknownSide(combat: Combat.Implementation): CommandResult {
  return shownRefusal(combat, { ok: false, code: "unknownSide" });
}

// Declarations, reactions, slowing down

/** Declare a character's actions for this round (its owner or the GM; the current declarer only). */
export function declare(
  combat: Combat.Implementation,
  combatantId: string,
  texts: readonly string[],
  forcePoint: boolean,
): Promise<CommandResult> {
  return submit(combat, { type: "declare", combatantId, actions: texts.map((text) => ({ text })), forcePoint });
}

/** Add a dodge or parry (the character's owner or the GM, during the passes). */
export function react(combat: Combat.Implementation, combatantId: string, kind: ReactionKind): Promise<CommandResult> {
  return submit(combat, { type: "react", combatantId, kind });
}

/** Slow down to act right after another character of this pass. */
export function slowDown(combat: Combat.Implementation, combatantId: string, after: string): Promise<CommandResult> {
  return submit(combat, { type: "slowDown", combatantId, after });
}

/** A slowed character lets its moment pass: its action is lost, its penalty stands. */
export function letPass(combat: Combat.Implementation, combatantId: string): Promise<CommandResult> {
  return submit(combat, { type: "letPass", combatantId });
}
