/**
 * The `phases` skill list, pure: the world setting's text (`Name = @roll.data.path` entries,
 * separated by `;` or new lines) parsed into skills, and a die size read from what a roll-data path
 * gives (8, "8", "d8" or "1d8"). Nothing here touches Foundry globals.
 */
import { isDieSize } from "./dice";
import type { DieSize } from "./types";

/** One configured skill: its name and the roll-data path that gives its die size. */
export interface SkillEntry {
  readonly name: string;
  /** `@path`, as written (the leading `@` is added when missing). */
  readonly path: string;
}

/** Longest skill name kept (the rules take names as ids of at most 128 characters). */
export const MAX_SKILL_NAME = 60;
/** Most skills kept from the setting. */
export const MAX_SKILLS = 40;

/** The skills of the setting's text; malformed entries and repeated names are left out. */
export function parseSkillList(text: string): SkillEntry[] {
  const out: SkillEntry[] = [];
  const seen = new Set<string>();
  for (const entry of text.split(/[;\n]/u)) {
    const at = entry.search(/[=:]/u);
    if (at < 0) continue;
    const name = entry.slice(0, at).trim().slice(0, MAX_SKILL_NAME);
    const raw = entry.slice(at + 1).trim();
    if (name === "" || raw === "" || /\s/u.test(raw) || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    out.push({ name, path: raw.startsWith("@") ? raw : `@${raw}` });
    if (out.length >= MAX_SKILLS) break;
  }
  return out;
}

/** The die size a roll-data value names (8, "8", "d8", "1d8"), or null when it names none of d4…d12. */
export function dieSizeOf(value: unknown): DieSize | null {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  const match = /^(?:1?d)?(\d{1,2})$/iu.exec(text);
  const size = match === null ? NaN : Number(match[1]);
  return isDieSize(size) ? size : null;
}
