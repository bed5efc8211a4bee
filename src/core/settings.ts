/**
 * A world setting described as data (its kind of value, how a typed value is checked, its
 * per-system preset), shared by the mode contract (`src/modes/contract.ts`) and the shared glue
 * that registers and shows it (`src/foundry/setting-defs.ts`, `settings-form.ts`). Pure: no Foundry.
 */

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
 * A check a mode supplies for a kind of text only it knows (a dice code, a skill list): whether a
 * typed text (trimmed, not empty) may be saved, and why not.
 */
export interface TextRule {
  /** The code of the refusal's message, under `STRUCTURED_INITIATIVE.SettingsForm.Error`. */
  readonly error: string;
  accepts(text: string): boolean;
}

/**
 * How a text setting is checked before it is saved:
 * - `roll`: a Foundry roll formula (`@`-paths allowed, dice allowed);
 * - `modifier`: a roll formula without dice;
 * - `path`: a dotted data path into the actor ("system.hits");
 * - a mode's own `TextRule`.
 */
export type TextCheck = "roll" | "modifier" | "path" | TextRule;

/**
 * The language stem of a setting, its key with a capital first letter:
 * `STRUCTURED_INITIATIVE.Settings.<stem>.Name` / `.Hint`.
 */
export function settingStem(def: SettingDefinition): string {
  return def.key.charAt(0).toUpperCase() + def.key.slice(1);
}

/** One world setting of the module. */
export interface SettingDefinition {
  /** The setting key (under the module's namespace). */
  readonly key: string;
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
