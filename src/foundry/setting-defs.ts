/**
 * Settings as data: every world setting of the module (shared and per mode) is described once, with
 * the kind of value it holds, how a typed value is checked and its per-system preset. The
 * registration (`registerDefinitions`) and the settings form (`settings-form.ts`) both read these
 * descriptions, so the form can group, check and reset exactly what is registered.
 */
import { I18N, MODULE_ID } from "../constants";
import { isDiceCode, normaliseDiceCode } from "../core/dice-code";

/** A stored setting value. */
export type SettingValue = string | number | boolean;

/** What a preset may look at: the running game system and its own settings (read at `init`). */
export interface PresetContext {
  /** `game.system.id`. */
  readonly systemId: string;
  /** One of the game system's own settings, or undefined when it has none of that name. */
  systemSetting(key: string): unknown;
}

/**
 * How a text setting is checked before it is saved:
 * - `roll`: a Foundry roll formula (`@`-paths allowed, dice allowed);
 * - `modifier`: a roll formula without dice;
 * - `trait`: a D6 dice code ("3D+2") or a roll formula giving a number (dice or pips);
 * - `penalty`: a D6 dice code;
 * - `path`: a dotted data path into the actor ("system.hits");
 * - `skills`: the `phases` skill list ("Name = @path; …").
 */
export type TextCheck = "roll" | "modifier" | "trait" | "penalty" | "path" | "skills";

/** One world setting of the module. */
export interface SettingDefinition {
  /** The setting key (under the module's namespace). */
  readonly key: string;
  /** The language stem: `STRUCTURED_INITIATIVE.Settings.<name>.Name` / `.Hint`. */
  readonly name: string;
  readonly type: "string" | "number" | "boolean";
  /** A choice setting: the values and their language keys. */
  readonly choices?: Readonly<Record<string, string>>;
  /** How a text setting is checked. */
  readonly check?: TextCheck;
  /** An empty text is allowed (the feature is then off). */
  readonly optional?: boolean;
  /** A number setting's bounds (inclusive) and whether it must be whole. */
  readonly range?: { readonly min: number; readonly max: number; readonly integer: boolean };
  /** The value for this game system (the registered default, and what "reset to preset" restores). */
  readonly preset: (context: PresetContext) => SettingValue;
  /**
   * The language key of what the preset of this system cannot read through roll data (shown under
   * the hint), or null.
   */
  readonly systemNote?: (systemId: string) => string | null;
  readonly onChange?: () => void;
}

/** A named group of settings: the shared ones, or one mode's. */
export interface SettingGroup {
  /** "shared" or a mode id. */
  readonly id: string;
  /** The language key of the group's heading. */
  readonly label: string;
  readonly settings: readonly SettingDefinition[];
}

/** The preset context of the running world. */
export function presetContext(): PresetContext {
  const systemId = game.system.id;
  return {
    systemId,
    systemSetting(key: string): unknown {
      const settings = game.settings.settings as unknown as Map<string, unknown>;
      if (!settings.has(`${systemId}.${key}`)) return undefined;
      return (game.settings.get as (namespace: string, key: string) => unknown)(systemId, key);
    },
  };
}

/** Register these settings as world settings hidden from the flat list (the settings form shows them). */
export function registerDefinitions(definitions: readonly SettingDefinition[]): void {
  const context = presetContext();
  for (const def of definitions) {
    const type = def.type === "number" ? Number : def.type === "boolean" ? Boolean : String;
    const data: Record<string, unknown> = {
      name: `${I18N}.Settings.${def.name}.Name`,
      hint: `${I18N}.Settings.${def.name}.Hint`,
      scope: "world",
      config: false,
      type,
      default: def.preset(context),
    };
    if (def.choices !== undefined) data.choices = def.choices;
    if (def.onChange !== undefined) data.onChange = def.onChange;
    // The keys are declared per mode in the SettingConfig interfaces; here they come from data.
    (game.settings.register as (namespace: string, key: string, data: object) => void)(MODULE_ID, def.key, data);
  }
}

/** A setting's stored value. */
export function storedValue(def: SettingDefinition): unknown {
  return (game.settings.get as (namespace: string, key: string) => unknown)(MODULE_ID, def.key);
}

/** Why a typed value was refused: a code under `STRUCTURED_INITIATIVE.SettingsForm.Error`. */
export type FieldError =
  "required" | "formula" | "dice" | "trait" | "penalty" | "path" | "skills" | "number" | "whole" | "range" | "choice";

/** A checked value: what would be stored, or why not. */
export type CheckedField =
  { readonly ok: true; readonly value: SettingValue } | { readonly ok: false; readonly error: FieldError };

/** Whether a formula is a valid Foundry roll formula (`@`-paths read as 0, as `Roll.validate` does). */
function validFormula(text: string): boolean {
  try {
    return Roll.validate(text);
  } catch {
    return false;
  }
}

/** Whether a valid formula rolls dice. */
function rollsDice(text: string): boolean {
  try {
    return new Roll(Roll.replaceFormulaData(text, {}, { missing: "0", warn: false })).dice.length > 0;
  } catch {
    return true;
  }
}

const PATH = /^[A-Za-z_$][\w$]*(?:\.[\w$-]+)*$/u;

function checkText(def: SettingDefinition, text: string): CheckedField {
  if (text === "") return def.optional === true ? { ok: true, value: "" } : { ok: false, error: "required" };
  switch (def.check) {
    case "roll":
      return validFormula(text) ? { ok: true, value: text } : { ok: false, error: "formula" };
    case "modifier":
      if (!validFormula(text)) return { ok: false, error: "formula" };
      return rollsDice(text) ? { ok: false, error: "dice" } : { ok: true, value: text };
    case "trait":
      return isDiceCode(text) || (validFormula(text) && !rollsDice(text))
        ? { ok: true, value: text }
        : { ok: false, error: "trait" };
    case "penalty": {
      const code = normaliseDiceCode(text);
      return code === null ? { ok: false, error: "penalty" } : { ok: true, value: text };
    }
    case "path":
      return PATH.test(text) ? { ok: true, value: text } : { ok: false, error: "path" };
    case "skills":
      return checkSkillList(text) ? { ok: true, value: text } : { ok: false, error: "skills" };
    default:
      return { ok: true, value: text };
  }
}

/** Every entry of a skill list is `Name = path` with a path that is a valid formula. */
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

/**
 * Check a value as typed in the form (text; a checkbox gives a boolean). Text is trimmed; numbers
 * must be finite, whole where asked and inside their bounds; a choice must be one of the choices.
 */
export function checkField(def: SettingDefinition, raw: string | boolean): CheckedField {
  if (def.type === "boolean") return { ok: true, value: raw === true || raw === "true" || raw === "on" };
  const text = String(raw).trim();
  if (def.choices !== undefined)
    return text in def.choices ? { ok: true, value: text } : { ok: false, error: "choice" };
  if (def.type === "number") {
    if (text === "" || !Number.isFinite(Number(text))) return { ok: false, error: "number" };
    const value = Number(text);
    const range = def.range;
    if (range?.integer === true && !Number.isInteger(value)) return { ok: false, error: "whole" };
    if (range !== undefined && (value < range.min || value > range.max)) return { ok: false, error: "range" };
    return { ok: true, value };
  }
  return checkText(def, text);
}
