/**
 * World settings of the `phases` mode: the skill list (names and the roll-data paths of their die
 * sizes), the Advantage pool's cap and the Collapse points a new encounter starts with, and whether
 * players see the Collapse points.
 */
import { I18N, MODULE_ID } from "../../constants";
import { DEFAULT_COLLAPSE, DEFAULT_POOL_CAP, MAX_POINTS } from "./rules/phases";
import { PHASES_SETTINGS } from "./constants";
import { parseSkillList, type SkillEntry } from "./rules/skills";

/** The skill list a world starts with: generic skills, each die size read from `@skills.<name>`. */
export const DEFAULT_SKILLS =
  "Athletics = @skills.athletics; Melee = @skills.melee; Ranged = @skills.ranged; Stealth = @skills.stealth; " +
  "Knowledge = @skills.knowledge; Presence = @skills.presence";

/** Register the `phases` settings (at `init`). */
export function registerPhasesSettings(): void {
  const meta = (name: string): { name: string; hint: string; scope: "world"; config: true } => ({
    name: `${I18N}.Settings.${name}.Name`,
    hint: `${I18N}.Settings.${name}.Hint`,
    scope: "world",
    config: true,
  });
  game.settings.register(MODULE_ID, PHASES_SETTINGS.phasesSkills, {
    ...meta("PhasesSkills"),
    type: String,
    default: DEFAULT_SKILLS,
  });
  game.settings.register(MODULE_ID, PHASES_SETTINGS.phasesPoolCap, {
    ...meta("PhasesPoolCap"),
    type: Number,
    default: DEFAULT_POOL_CAP,
  });
  game.settings.register(MODULE_ID, PHASES_SETTINGS.phasesCollapse, {
    ...meta("PhasesCollapse"),
    type: Number,
    default: DEFAULT_COLLAPSE,
  });
  game.settings.register(MODULE_ID, PHASES_SETTINGS.phasesShowCollapse, {
    ...meta("PhasesShowCollapse"),
    type: Boolean,
    default: true,
  });
}

/** The configured skills. */
export function phasesSkills(): SkillEntry[] {
  return parseSkillList(game.settings.get(MODULE_ID, PHASES_SETTINGS.phasesSkills));
}

function points(value: unknown, fallback: number): number {
  return Number.isInteger(value) ? Math.min(Math.max(value as number, 0), MAX_POINTS) : fallback;
}

/** What a new encounter starts with: the pool's cap and the GM's Collapse points. */
export function phasesDefaults(): { readonly poolCap: number; readonly collapse: number } {
  return {
    poolCap: points(game.settings.get(MODULE_ID, PHASES_SETTINGS.phasesPoolCap), DEFAULT_POOL_CAP),
    collapse: points(game.settings.get(MODULE_ID, PHASES_SETTINGS.phasesCollapse), DEFAULT_COLLAPSE),
  };
}

/** Whether players see the GM's Collapse points. */
export function collapseShown(): boolean {
  return game.settings.get(MODULE_ID, PHASES_SETTINGS.phasesShowCollapse);
}
