/**
 * The module's one settings form (`game.settings.registerMenu`, GM only): an ApplicationV2 form that
 * shows every world setting of the module grouped by mode — the shared ones first — each with its
 * hint and, where the running system's preset cannot read something through roll data, a note.
 * Saving checks every field first: a field that does not check is shown with its error and nothing
 * is saved; otherwise only the settings whose value changed are written, together. "Reset to preset"
 * puts a group's fields back to the running system's preset (saved with the next Save).
 */
import { handlebarsFormBase, showFirstInvalid, type AppClass } from "./app-base";
import { CSS_ROOT, I18N, MODULE_ID, SETTINGS_MENU, TEMPLATES } from "../constants";
import { settingStem, type SettingDefinition, type SettingValue } from "../core/settings";
import { checkField, presetContext, storedValue, type FieldError, type SettingGroup } from "./setting-defs";

const F = `${I18N}.SettingsForm`;

/** A value as the form holds it: text, or a checkbox's state. */
export type FormValue = string | boolean;

/** One field as the template shows it. */
export interface SettingFieldContext {
  readonly key: string;
  readonly id: string;
  readonly label: string;
  readonly hint: string;
  /** What the running system's preset cannot read (localised), or "". */
  readonly note: string;
  readonly isText: boolean;
  readonly isNumber: boolean;
  readonly isCheckbox: boolean;
  readonly isSelect: boolean;
  readonly value: string;
  readonly checked: boolean;
  readonly options: readonly { readonly value: string; readonly label: string; readonly selected: boolean }[];
  /** The field's localised error, or "". */
  readonly error: string;
  readonly invalid: boolean;
}

/** One group as the template shows it. */
export interface SettingGroupContext {
  readonly id: string;
  readonly label: string;
  readonly resetLabel: string;
  readonly fields: readonly SettingFieldContext[];
}

/** The form's context. */
export interface SettingsFormContext {
  readonly rootClass: string;
  readonly system: string;
  readonly groups: readonly SettingGroupContext[];
  readonly hasErrors: boolean;
}

/** What a save did: nothing (with each refused field's error), or which settings it wrote. */
export type SaveOutcome =
  | { readonly saved: false; readonly errors: Readonly<Record<string, FieldError>> }
  | { readonly saved: true; readonly changed: readonly string[] };

/** A setting's value as the form shows it. */
function formValue(def: SettingDefinition, value: unknown): FormValue {
  if (def.type === "boolean") return value === true;
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
}

/** Every field's stored value, as the form shows it. */
export function storedFormValues(groups: readonly SettingGroup[]): Record<string, FormValue> {
  const out: Record<string, FormValue> = {};
  for (const group of groups) for (const def of group.settings) out[def.key] = formValue(def, storedValue(def));
  return out;
}

/** The running system's preset of every field of one group, as the form shows it. */
export function presetFormValues(group: SettingGroup): Record<string, FormValue> {
  const context = presetContext();
  const out: Record<string, FormValue> = {};
  for (const def of group.settings) out[def.key] = formValue(def, def.preset(context));
  return out;
}

/** The template's context (every decision made here). */
export function settingsFormContext(
  groups: readonly SettingGroup[],
  values: Readonly<Record<string, FormValue>>,
  errors: Readonly<Record<string, FieldError>>,
): SettingsFormContext {
  const i18n = game.i18n;
  const systemId = game.system.id;
  const field = (def: SettingDefinition): SettingFieldContext => {
    const value = values[def.key] ?? formValue(def, storedValue(def));
    const error = errors[def.key];
    const noteKey = def.systemNote?.(systemId) ?? null;
    return {
      key: def.key,
      id: `${MODULE_ID}-setting-${def.key}`,
      label: i18n.localize(`${I18N}.Settings.${settingStem(def)}.Name`),
      hint: i18n.localize(`${I18N}.Settings.${settingStem(def)}.Hint`),
      note: noteKey === null ? "" : i18n.localize(noteKey),
      isText: def.type === "string" && def.choices === undefined,
      isNumber: def.type === "number",
      isCheckbox: def.type === "boolean",
      isSelect: def.choices !== undefined,
      value: typeof value === "boolean" ? "" : value,
      checked: value === true,
      options: Object.entries(def.choices ?? {}).map(([choice, label]) => ({
        value: choice,
        label: i18n.localize(label),
        selected: choice === value,
      })),
      error: error === undefined ? "" : i18n.localize(`${F}.Error.${error}`),
      invalid: error !== undefined,
    };
  };
  return {
    rootClass: CSS_ROOT,
    system: i18n.format(`${F}.System`, { system: game.system.title || systemId }),
    groups: groups.map((group) => ({
      id: group.id,
      label: i18n.localize(group.label),
      resetLabel: i18n.format(`${F}.Reset`, { group: i18n.localize(group.label) }),
      fields: group.settings.map(field),
    })),
    hasErrors: Object.keys(errors).length > 0,
  };
}

/**
 * Check every field and, when all check, write the settings whose value changed (together). When a
 * field does not check, nothing is written. Fields missing from `values` keep their stored value.
 */
export async function saveSettingsForm(
  groups: readonly SettingGroup[],
  values: Readonly<Record<string, FormValue>>,
): Promise<SaveOutcome> {
  const errors: Record<string, FieldError> = {};
  const changes: [SettingDefinition, SettingValue][] = [];
  for (const group of groups)
    for (const def of group.settings) {
      const stored = storedValue(def);
      const raw = values[def.key] ?? formValue(def, stored);
      const checked = checkField(def, raw);
      if (!checked.ok) errors[def.key] = checked.error;
      else if (checked.value !== stored) changes.push([def, checked.value]);
    }
  if (Object.keys(errors).length > 0) return { saved: false, errors };
  // The keys are declared per mode in the SettingConfig interfaces; here they come from data.
  const settings = game.settings as unknown as {
    set(namespace: string, key: string, value: SettingValue): Promise<unknown>;
  };
  await Promise.all(changes.map(([def, value]) => settings.set(MODULE_ID, def.key, value)));
  return { saved: true, changed: changes.map(([def]) => def.key) };
}

/** The fields' values as typed in the form element (read before every change, so nothing typed is lost). */
function readForm(root: HTMLElement | null, groups: readonly SettingGroup[]): Record<string, FormValue> | null {
  if (root === null) return null;
  const out: Record<string, FormValue> = {};
  for (const group of groups)
    for (const def of group.settings) {
      const el = root.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${def.key}"]`);
      if (el === null) continue;
      out[def.key] = el instanceof HTMLInputElement && el.type === "checkbox" ? el.checked : el.value;
    }
  return out;
}

let formClass: AppClass | null = null;

/** The form's class, built once from Foundry's ApplicationV2 (at `init`, when it exists). */
export function settingsFormClass(groupsOf: () => readonly SettingGroup[]): AppClass {
  if (formClass !== null) return formClass;
  const Base = handlebarsFormBase();

  class SISettingsForm extends Base {
    static DEFAULT_OPTIONS = {
      id: `${MODULE_ID}-settings`,
      tag: "form",
      classes: [CSS_ROOT, "si-settings"],
      window: { title: `${F}.Title`, contentClasses: ["standard-form"], resizable: true },
      position: { width: 640, height: 720 },
      form: { handler: SISettingsForm.#onSubmit, closeOnSubmit: false, submitOnChange: false },
      actions: { siSettingsReset: SISettingsForm.#onReset },
    };

    static PARTS = { form: { template: TEMPLATES.settingsForm, scrollable: [".si-settings__body"] } };

    readonly #groups: readonly SettingGroup[] = groupsOf();
    #values: Record<string, FormValue> = storedFormValues(this.#groups);
    #errors: Record<string, FieldError> = {};

    async _prepareContext(): Promise<SettingsFormContext> {
      await Promise.resolve();
      return settingsFormContext(this.#groups, this.#values, this.#errors);
    }

    /** Put one group's fields back to the running system's preset (saved with the next Save). */
    resetGroup(groupId: string): Promise<unknown> {
      const group = this.#groups.find((g) => g.id === groupId);
      this.#values = { ...this.#values, ...(readForm(this.element, this.#groups) ?? {}) };
      if (group !== undefined) {
        this.#values = { ...this.#values, ...presetFormValues(group) };
        const keys = new Set(group.settings.map((def) => def.key));
        this.#errors = Object.fromEntries(Object.entries(this.#errors).filter(([key]) => !keys.has(key)));
      }
      return this.render();
    }

    /**
     * Save these values (what the form's fields hold): every field is checked first; nothing is
     * written when one fails, which the form then shows.
     */
    async submitValues(values: Readonly<Record<string, FormValue>>): Promise<SaveOutcome> {
      this.#values = { ...this.#values, ...values };
      if (!game.user.isGM) {
        ui.notifications.warn(game.i18n.localize(`${F}.NotGM`));
        return { saved: false, errors: {} };
      }
      const outcome = await saveSettingsForm(this.#groups, this.#values);
      if (!outcome.saved) {
        this.#errors = { ...outcome.errors };
        ui.notifications.warn(game.i18n.localize(`${F}.NotSaved`));
        await this.render();
        showFirstInvalid(this.element);
        return outcome;
      }
      this.#errors = {};
      ui.notifications.info(game.i18n.localize(outcome.changed.length === 0 ? `${F}.NothingChanged` : `${F}.Saved`));
      await this.close();
      return outcome;
    }

    static #onReset(this: SISettingsForm, _event: Event, target: HTMLElement): Promise<unknown> {
      return this.resetGroup(target.dataset.group ?? "");
    }

    static async #onSubmit(this: SISettingsForm): Promise<void> {
      await this.submitValues(readForm(this.element, this.#groups) ?? {});
    }
  }
  formClass = SISettingsForm;
  return formClass;
}

/** Register the settings menu, which opens the form (GM only; at `init`). */
export function registerSettingsMenu(groupsOf: () => readonly SettingGroup[]): void {
  game.settings.registerMenu(MODULE_ID, SETTINGS_MENU, {
    name: `${F}.Name`,
    label: `${F}.Label`,
    hint: `${F}.Hint`,
    icon: "fa-solid fa-sliders",
    type: settingsFormClass(groupsOf) as never,
    restricted: true,
  });
}
