/**
 * World settings of the `phases` mode: the skill list (names and the roll-data paths of their die
 * sizes), the Advantage pool's cap and the Collapse points a new encounter starts with, and whether
 * players see the Collapse points.
 */
import { MODULE_ID } from "../../constants";
import type { SettingDefinition, TextRule } from "../../core/settings";
import { registerDefinitions, validFormula } from "../../foundry/setting-defs";
import { DEFAULT_COLLAPSE, DEFAULT_POOL_CAP, MAX_POINTS } from "./rules/types";
import { PHASES_SETTINGS } from "./constants";
import { parseSkillList, type SkillEntry } from "./rules/skills";

/** The skill list a world starts with: generic skills, each die size read from `@skills.<name>`. */
export const DEFAULT_SKILLS =
  "Athletics = @skills.athletics; Melee = @skills.melee; Ranged = @skills.ranged; Stealth = @skills.stealth; " +
  "Knowledge = @skills.knowledge; Presence = @skills.presence";

/** A skill list ("Name = @path; …"): every entry is `Name = path` with a path that is a valid formula. */
export const SKILLS_CHECK: TextRule = { error: "skills", accepts: (text) => checkSkillList(text) };

function checkSkillList(text: string): boolean {
  const entries = text
    .split(/[;\n]/u)
    .map((e) => e.trim())
    .filter((e) => e !== "");
  if (entries.length === 0) return false;
  return entries.every((entry) => {
    const at = entry.search(/[=:]/u);
    if (at <= 0) return false;
    const raw = entry.slice(at + 1).trim();
    if (raw === "" || /\s/u.test(raw)) return false;
    return validFormula(raw.startsWith("@") ? raw : `@${raw}`);
  });
}

/** The `phases` settings (registered at `init`, shown in the settings form). */
export const PHASES_SETTING_DEFS: readonly SettingDefinition[] = [
  {
    key: PHASES_SETTINGS.phasesSkills,
    type: "string",
    check: SKILLS_CHECK,
    preset: () => DEFAULT_SKILLS,
  },
  {
    key: PHASES_SETTINGS.phasesPoolCap,
    type: "number",
    range: { min: 0, max: MAX_POINTS, integer: true },
    preset: () => DEFAULT_POOL_CAP,
  },
  {
    key: PHASES_SETTINGS.phasesCollapse,
    type: "number",
    range: { min: 0, max: MAX_POINTS, integer: true },
    preset: () => DEFAULT_COLLAPSE,
  },
  { key: PHASES_SETTINGS.phasesShowCollapse, type: "boolean", preset: () => true },
];

/** Register the `phases` settings (at `init`). */
export function registerPhasesSettings(): void {
  registerDefinitions(PHASES_SETTING_DEFS);
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
