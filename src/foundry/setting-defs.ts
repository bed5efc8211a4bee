/**
 * Settings as data: every world setting of the module (shared and per mode) is described once, with
 * the kind of value it holds, how a typed value is checked and its per-system preset. The
 * registration (`registerDefinitions`) and the settings form (`settings-form.ts`) both read these
 * descriptions, so the form can group, check and reset exactly what is registered.
 */
import { I18N, MODULE_ID } from "../constants";
import { settingStem, type PresetContext, type SettingDefinition, type SettingValue } from "../core/settings";

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
      name: `${I18N}.Settings.${settingStem(def)}.Name`,
      hint: `${I18N}.Settings.${settingStem(def)}.Hint`,
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

/**
 * Why a typed value was refused: a code under `STRUCTURED_INITIATIVE.SettingsForm.Error`, one of the
 * shared ones (`required`, `formula`, `dice`, `path`, `number`, `whole`, `range`, `choice`) or the
 * `error` of a mode's own `TextRule`.
 */
export type FieldError = string;

/** A checked value: what would be stored, or why not. */
export type CheckedField =
  { readonly ok: true; readonly value: SettingValue } | { readonly ok: false; readonly error: FieldError };

/** Whether a formula is a valid Foundry roll formula (`@`-paths read as 0, as `Roll.validate` does). */
export function validFormula(text: string): boolean {
  try {
    return Roll.validate(text);
  } catch {
    return false;
  }
}

/** Whether a valid formula rolls dice. */
export function rollsDice(text: string): boolean {
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
    case "path":
      return PATH.test(text) ? { ok: true, value: text } : { ok: false, error: "path" };
    case undefined:
      return { ok: true, value: text };
    default:
      return def.check.accepts(text) ? { ok: true, value: text } : { ok: false, error: def.check.error };
  }
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
