/**
 * A `sides` encounter as its documents hold it: its rules state, and its sides, the CombatantGroups the
 * module marks (see mirror.ts), with their members, names and colours.
 */
import { I18N, MODULE_ID } from "../../constants";
import { sidesMode } from "./rules/mode";
import type { SidesState } from "./rules/types";
import { stateOf } from "../../foundry/authority/encounters";
import { SIDE_FLAGS, COLOUR, PALETTE } from "./constants";

/** The sides state of a combat, or null when it is not a readable `sides` encounter. */
export function sidesState(combat: Combat.Implementation): SidesState | null {
  return stateOf(combat, sidesMode);
}

export function moduleFlag(document: { flags: unknown }, key: string): unknown {
  const flags = document.flags as Record<string, Record<string, unknown> | undefined> | undefined;
  return flags?.[MODULE_ID]?.[key];
}

type Group = Combat.Implementation["groups"] extends { contents: (infer G)[] } ? G : never;

/**
 * Whether a CombatantGroup is a side: marked with the `side` flag, or made by an earlier version of
 * the module (which gave its groups a colour or a role flag and no mark).
 */
export function isSideGroup(group: Group): boolean {
  const mark = moduleFlag(group, SIDE_FLAGS.side);
  if (mark !== undefined) return mark === true;
  return (
    typeof moduleFlag(group, SIDE_FLAGS.colour) === "string" || typeof moduleFlag(group, SIDE_FLAGS.role) === "string"
  );
}

/** The encounter's sides: its CombatantGroups that are sides, in their order. */
export function groupsOf(combat: Combat.Implementation): Group[] {
  return combat.groups.contents.filter(isSideGroup);
}

/** The id in a combatant's core `group` field, or null. */
export function coreGroupOf(combatant: Combatant.Implementation): string | null {
  const id: unknown = (combatant._source as { group?: unknown }).group;
  return typeof id === "string" && id !== "" ? id : null;
}

/**
 * The side a combatant is on among these side ids, or null: its core `group` when that is a side
 * (the GM just moved it there with Foundry's own UI, or it was stored so by an earlier version),
 * else its `sideId` flag.
 */
export function sideIdOf(combatant: Combatant.Implementation, sides: ReadonlySet<string>): string | null {
  const core = coreGroupOf(combatant);
  if (core !== null && sides.has(core)) return core;
  const flag = moduleFlag(combatant, SIDE_FLAGS.sideId);
  return typeof flag === "string" && sides.has(flag) ? flag : null;
}

/** The update that puts a combatant on a side: the flag, and `group` cleared if it named a side. */
export function onSide(combatant: Combatant.Implementation, sideId: string, sides: ReadonlySet<string>): object {
  const core = coreGroupOf(combatant);
  return {
    _id: combatant.id ?? "",
    flags: { [MODULE_ID]: { [SIDE_FLAGS.sideId]: sideId } },
    ...(core !== null && sides.has(core) ? { group: null } : {}),
  };
}

export function sideIds(combat: Combat.Implementation): Set<string> {
  return new Set(groupsOf(combat).map((g) => g.id ?? ""));
}

/** The side name of a group as the rules store it: its name, or "Side n" (1-based position). */
export function sideNameOf(group: Group, index: number): string {
  const name = (group.name ?? "").trim().slice(0, 100);
  return name !== "" ? name : game.i18n.format(`${I18N}.Tracker.Sides.Unnamed`, { n: String(index + 1) });
}

/** The side colour of a group: its flag when well-formed, else one of the palette by position. */
export function sideColourOf(group: Group, index: number): string {
  const value = moduleFlag(group, SIDE_FLAGS.colour);
  return typeof value === "string" && COLOUR.test(value) ? value : (PALETTE[index % PALETTE.length] ?? "#777777");
}
