/**
 * The `sides` mode's mirror (ModeMirror, RULES.md §1): the rules state kept in line with the documents, and
 * the hook listeners that keep it so.
 *
 * **One source of truth for sides: the v13 CombatantGroup documents the module marks.** A side is a
 * CombatantGroup of the encounter that the module created or the GM marked (the group's `side`
 * module flag; its `name`; its colour in another flag). Groups a system or another module made
 * (dnd5e's groups, draw-steel's squads) are never sides. A combatant's side is its `sideId` module
 * flag, not its core `group` field: systems treat a combatant's group as theirs (dnd5e 5.3.3's
 * `Combatant5e._onUpdateOperation` writes each updated member's initiative to its group, which a
 * player may not update, so every player request on a grouped combatant failed). A GM who puts a
 * combatant into a side group with Foundry's own UI moves it there: the active GM moves the
 * membership into the flag and clears `group`. The rules state mirrors them: on every roster reconciliation the active GM's
 * client derives `defineSide` / `setSide` / `removeSide` commands from the documents (`syncSides`)
 * and applies them in the same write as the roster change, so a GM who edits either the groups
 * (Foundry's own UI, a macro) or the tracker's side controls (which write the groups) ends with the
 * same state. Actor traits (Dexterity, Perception, initiative score) are mirrored the same way with
 * `setTraits`, read through the world's formulas. Nothing else writes those commands.
 */
import { I18N, MODULE_ID } from "../../constants";
import { normaliseDiceCode } from "../../core/dice-code";
import { sidesMode } from "./rules/mode";
import type { SidesState } from "./rules/types";
import { isAuthority, reconcileActorEncounters, reconcileRoster } from "../../foundry/authority/controller";
import { modeOf } from "../../foundry/authority/encounters";
import { isGMUser } from "../../foundry/authority/guard";
import { createSerialQueue } from "../../core/queue";
import type { Json } from "../../core/patch";
import { sidesActionPenalty, sidesFormulas, sidesMaxReactions } from "./settings";
import { type SideRole, SIDE_FLAGS, SIDE_COLOURS } from "./constants";
import { traitsOf } from "./traits";
import { groupsOf, sideNameOf, sideColourOf, sideIdOf, sideIds, coreGroupOf, onSide, moduleFlag } from "./encounter";
import type { ModeMirror } from "../contract";
import { armClock, sidesEnd, sidesStepFlags } from "./countdown";

// Keeping the rules state in line with the documents

/**
 * The commands that bring a sides state in line with the encounter's documents: every group a side
 * (name, colour), every grouped combatant on its group's side, traits as the formulas read them, the
 * world's action penalty; sides whose group is gone are removed once empty.
 */
export function syncSides(combat: Combat.Implementation, state: SidesState): Json[] {
  const out: Json[] = [];
  const groups = groupsOf(combat);
  const ids = new Set<string>();
  groups.forEach((group, index) => {
    const sideId = group.id ?? "";
    ids.add(sideId);
    const name = sideNameOf(group, index);
    const colour = sideColourOf(group, index);
    const side = state.sides.find((s) => s.id === sideId);
    if (side === undefined || side.name !== name || side.colour !== colour)
      out.push({ type: "defineSide", sideId, name, colour });
  });
  const formulas = sidesFormulas();
  for (const combatant of combat.combatants.contents) {
    const id = combatant.id ?? "";
    const entry = state.combatants.find((c) => c.id === id);
    if (entry === undefined) continue;
    const groupId = sideIdOf(combatant, ids);
    if (groupId !== null && entry.sideId !== groupId) out.push({ type: "setSide", combatantId: id, sideId: groupId });
    const traits = traitsOf(combatant, formulas);
    if (
      traits !== null &&
      (traits.dexterity !== entry.dexterity ||
        traits.perception !== entry.perception ||
        traits.initiativeScore !== entry.initiativeScore)
    )
      out.push({ type: "setTraits", combatantId: id, ...traits });
  }
  const penalty = normaliseDiceCode(sidesActionPenalty()) ?? state.actionPenalty;
  const maxReactions = sidesMaxReactions();
  if (penalty !== state.actionPenalty || maxReactions !== state.maxReactions)
    out.push({ type: "configure", maxActions: state.maxActions, actionPenalty: penalty, maxReactions });
  for (const side of state.sides) if (!ids.has(side.id)) out.push({ type: "removeSide", sideId: side.id });
  return out;
}

/** The default side of a combatant: a PC or a friendly token → PCs' side; neutral → neutral; else hostile. */
export function roleOf(combatant: Combatant.Implementation): SideRole {
  if (combatant.hasPlayerOwner) return "friendly";
  const disposition = combatant.token?.disposition;
  if (disposition === 1) return "friendly";
  if (disposition === 0) return "neutral";
  return "hostile";
}

/** Default-side assignments run one after another per encounter (each sees the groups the last made). */
const assigning = createSerialQueue();

/**
 * On the active GM: put every combatant without a side on its default side, creating the default
 * sides it needs (one create and one update at most). The groups' hooks then mirror them.
 */
export function assignDefaultSides(combat: Combat.Implementation): Promise<void> {
  return assigning(combat.id ?? "", async () => {
    if (!isAuthority() || modeOf(combat) !== sidesMode.id) return;
    const groupIds = sideIds(combat);
    // Members recorded in the core field (Foundry's UI, an earlier version) move to the flag.
    const moved = combat.combatants.contents.flatMap((c) => {
      const core = coreGroupOf(c);
      return core !== null && groupIds.has(core) ? [onSide(c, core, groupIds)] : [];
    });
    const loose = combat.combatants.contents.filter((c) => sideIdOf(c, groupIds) === null);
    if (loose.length === 0) {
      if (moved.length > 0) await combat.updateEmbeddedDocuments("Combatant", moved);
      return;
    }
    const byRole = new Map<SideRole, string>();
    for (const group of groupsOf(combat)) {
      const role = moduleFlag(group, SIDE_FLAGS.role);
      if ((role === "friendly" || role === "hostile" || role === "neutral") && !byRole.has(role))
        byRole.set(role, group.id ?? "");
    }
    const missing = [...new Set(loose.map(roleOf))].filter((role) => !byRole.has(role));
    if (missing.length > 0) {
      const created = await combat.createEmbeddedDocuments(
        "CombatantGroup",
        missing.map((role) => ({
          name: game.i18n.localize(`${I18N}.Tracker.Sides.Default.${role}`),
          flags: {
            [MODULE_ID]: { [SIDE_FLAGS.side]: true, [SIDE_FLAGS.colour]: SIDE_COLOURS[role], [SIDE_FLAGS.role]: role },
          },
        })),
      );
      (created ?? []).forEach((group, i) => {
        const role = missing[i];
        if (role !== undefined) byRole.set(role, group.id);
      });
    }
    for (const id of byRole.values()) groupIds.add(id);
    const updates = loose.flatMap((c) => {
      const side = byRole.get(roleOf(c));
      return side === undefined ? [] : [onSide(c, side, groupIds)];
    });
    const all = [...moved, ...updates];
    if (all.length > 0) await combat.updateEmbeddedDocuments("Combatant", all);
  });
}

// Hook listeners (the module's `mirror.hooks`, attached in src/index.ts)

function sidesCombat(combat: Combat.Implementation | null): combat is Combat.Implementation {
  return combat !== null && modeOf(combat) === sidesMode.id;
}

/** `createCombatant`: new combatants get their default side (active GM). */
export function onSidesCombatantCreated(combatant: Combatant.Implementation): void {
  const combat = combatant.parent;
  if (sidesCombat(combat) && isAuthority()) void assignDefaultSides(combat);
}

/**
 * `updateCombatant`: a GM's side change (the `sideId` flag, or the `group` field set to a side with
 * Foundry's own UI) is mirrored (active GM). A player's is not: only the GM changes sides, and the
 * shared guard puts it back (module flags and `gmOnlyCombatantKeys`).
 */
export function onSidesCombatantUpdated(
  combatant: Combatant.Implementation,
  changed: object,
  _options: unknown,
  userId: string,
): void {
  const combat = combatant.parent;
  if (!sidesCombat(combat) || !isAuthority() || !isGMUser(userId)) return;
  const flags = (changed as { flags?: Record<string, Record<string, unknown> | undefined> }).flags;
  const sideChanged = flags?.[MODULE_ID] !== undefined && SIDE_FLAGS.sideId in flags[MODULE_ID];
  // A side group set with Foundry's own UI moves to the flag first; the mirror follows either way.
  if ("group" in changed) void assignDefaultSides(combat).then(() => reconcileRoster(combat));
  else if (sideChanged) void reconcileRoster(combat);
}

/** `create/update/deleteCombatantGroup`: a side added, renamed, recoloured or removed is mirrored. */
export function onSidesGroupChanged(group: { readonly parent: Combat.Implementation | null }): void {
  const combat = group.parent;
  if (sidesCombat(combat) && isAuthority()) void reconcileRoster(combat);
}

/** `updateActor`: traits read from a changed actor are mirrored into the sides encounters it fights in. */
export function onSidesActorUpdated(actor: { readonly id: string | null }): void {
  reconcileActorEncounters(actor.id, sidesCombat);
}

/** `updateCombat`: the countdown follows the current declarer and the GM's controls (active GM). */
export function onSidesCombatUpdated(combat: Combat.Implementation): void {
  if (sidesCombat(combat)) armClock(combat);
}

/** On the active GM, after an encounter became a `sides` encounter: default sides, then the mirror. */
export async function prepareSides(combat: Combat.Implementation): Promise<void> {
  if (!isAuthority() || modeOf(combat) !== sidesMode.id) return;
  await assignDefaultSides(combat);
  await reconcileRoster(combat);
}

/**
 * New combatants get their default side; side and group changes, actor traits and the countdown's
 * controls are mirrored on the active GM.
 */
function attachSidesHooks(): void {
  Hooks.on("createCombatant", onSidesCombatantCreated);
  Hooks.on("updateCombatant", onSidesCombatantUpdated);
  Hooks.on("createCombatantGroup", onSidesGroupChanged);
  Hooks.on("updateCombatantGroup", onSidesGroupChanged);
  Hooks.on("deleteCombatantGroup", onSidesGroupChanged);
  Hooks.on("updateCombat", onSidesCombatUpdated);
  Hooks.on("updateActor", onSidesActorUpdated);
}

/** The `sides` mirror: sides and traits from the documents (re-synced after an undo by the controller), the countdown's stamp and end. */
export const SIDES_MIRROR: ModeMirror<SidesState> = {
  sync: syncSides,
  stepFlags: sidesStepFlags,
  end: sidesEnd,
  attachHooks: attachSidesHooks,
};
