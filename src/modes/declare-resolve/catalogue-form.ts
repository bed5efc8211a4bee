/**
 * The action catalogue's settings form (`game.settings.registerMenu`): an ApplicationV2 form with
 * one row per action (name, AP cost, kind, optional DEF change), rows added and removed in place.
 * Saving checks every row (`checkCatalogueRows`): a form with an invalid row shows every error of
 * each row, marks each invalid field, focuses the first one and saves nothing.
 */
import { handlebarsFormBase, showFirstInvalid, type AppClass } from "../../foundry/app-base";
import { I18N, MODULE_ID } from "../../constants";
import { DR_CATALOGUE_MENU, DR_TEMPLATES } from "./constants";
import { ACTION_KINDS } from "./rules/types";
import {
  DEFAULT_CATALOGUE,
  MAX_CATALOGUE_ENTRIES,
  catalogueRows,
  checkCatalogueRows,
  ERROR_FIELD,
  type CatalogueField,
  type CatalogueRowErrors,
  type CatalogueRowInput,
} from "./rules/catalogue";
import { actionCatalogue, saveCatalogue } from "./settings";

const C = `${I18N}.Settings.DrCatalogue`;

/** One row of the form as the template shows it. */
export interface CatalogueRowContext {
  readonly index: string;
  readonly number: string;
  readonly name: string;
  readonly cost: string;
  readonly def: string;
  readonly kinds: readonly { readonly value: string; readonly label: string; readonly selected: boolean }[];
  /** Every error of the row, localised, in the fields' order (each with the id its field points to). */
  readonly errors: readonly { readonly id: string; readonly text: string }[];
  readonly invalid: boolean;
  /** Per field: the id of the error that field has, or "" when it is valid. */
  readonly errorOf: Readonly<Record<CatalogueField, string>>;
  readonly removeLabel: string;
}

/** The form's context. */
export interface CatalogueFormContext {
  readonly rootClass: string;
  readonly rows: readonly CatalogueRowContext[];
  readonly hasErrors: boolean;
  readonly canAdd: boolean;
}

/** The form's rows as typed (read back from the form before every change, so nothing typed is lost). */
function readRows(root: HTMLElement | null): CatalogueRowInput[] | null {
  if (root === null) return null;
  const value = (row: Element, field: string): string => {
    const el = row.querySelector<HTMLInputElement | HTMLSelectElement>(`[data-field="${field}"]`);
    return el === null ? "" : el.value;
  };
  return Array.from(root.querySelectorAll(".si-dr-catalogue__row")).map((row) => ({
    name: value(row, "name"),
    cost: value(row, "cost"),
    kind: value(row, "kind"),
    def: value(row, "def"),
  }));
}

/** The row context of the template (every decision made here). */
export function catalogueContext(
  rows: readonly CatalogueRowInput[],
  errors: readonly CatalogueRowErrors[],
  localize: (key: string) => string,
  format: (key: string, data: Record<string, string>) => string,
): CatalogueFormContext {
  return {
    rootClass: MODULE_ID,
    rows: rows.map((row, i) => {
      const found = errors[i] ?? [];
      const listed = found.map((code) => ({
        field: ERROR_FIELD[code],
        id: `si-dr-catalogue-error-${String(i)}-${code}`,
        text: localize(`${C}.Error.${code}`),
      }));
      const errorOf = (field: CatalogueField): string => listed.find((e) => e.field === field)?.id ?? "";
      return {
        index: String(i),
        number: String(i + 1),
        name: row.name,
        cost: row.cost,
        def: row.def,
        kinds: ACTION_KINDS.map((kind) => ({
          value: kind,
          label: localize(`${I18N}.Tracker.DeclareResolve.Kind.${kind}`),
          selected: kind === row.kind,
        })),
        errors: listed.map(({ id, text }) => ({ id, text })),
        invalid: listed.length > 0,
        errorOf: { name: errorOf("name"), cost: errorOf("cost"), kind: errorOf("kind"), def: errorOf("def") },
        removeLabel: format(`${C}.RemoveRow`, { number: String(i + 1) }),
      };
    }),
    hasErrors: errors.some((e) => e.length > 0),
    canAdd: rows.length < MAX_CATALOGUE_ENTRIES,
  };
}

let formClass: AppClass | null = null;

/** The form's class, built once from Foundry's ApplicationV2 (at `init`, when it exists). */
export function catalogueFormClass(): AppClass {
  if (formClass !== null) return formClass;
  const Base = handlebarsFormBase();

  class CatalogueForm extends Base {
    static DEFAULT_OPTIONS = {
      id: `${MODULE_ID}-dr-catalogue`,
      tag: "form",
      classes: [MODULE_ID, "si-dr-catalogue"],
      window: { title: `${C}.Title`, contentClasses: ["standard-form"] },
      position: { width: 560 },
      form: { handler: CatalogueForm.#onSubmit, closeOnSubmit: false, submitOnChange: false },
      actions: {
        siDrCatalogueAdd: CatalogueForm.#onAdd,
        siDrCatalogueRemove: CatalogueForm.#onRemove,
        siDrCatalogueDefaults: CatalogueForm.#onDefaults,
      },
    };

    static PARTS = { form: { template: DR_TEMPLATES.catalogue } };

    #rows: CatalogueRowInput[] = catalogueRows(actionCatalogue());
    #errors: CatalogueRowErrors[] = [];

    async _prepareContext(): Promise<CatalogueFormContext> {
      await Promise.resolve();
      return catalogueContext(
        this.#rows,
        this.#errors,
        (key) => game.i18n.localize(key),
        (key, data) => game.i18n.format(key, data),
      );
    }

    /** Keep what was typed, then change the rows and show them again. */
    #edit(change: (rows: CatalogueRowInput[]) => CatalogueRowInput[]): Promise<unknown> {
      this.#rows = change(readRows(this.element) ?? this.#rows);
      this.#errors = [];
      return this.render();
    }

    static #onAdd(this: CatalogueForm): Promise<unknown> {
      return this.#edit((rows) => [...rows, { name: "", cost: "0", kind: "other", def: "" }]);
    }

    static #onRemove(this: CatalogueForm, _event: Event, target: HTMLElement): Promise<unknown> {
      const index = Number(target.dataset.index);
      return this.#edit((rows) => rows.filter((_, i) => i !== index));
    }

    static #onDefaults(this: CatalogueForm): Promise<unknown> {
      return this.#edit(() => catalogueRows(DEFAULT_CATALOGUE));
    }

    /** Save when every row is valid; otherwise show every error of each row and save nothing. */
    static async #onSubmit(this: CatalogueForm): Promise<void> {
      this.#rows = readRows(this.element) ?? this.#rows;
      const checked = checkCatalogueRows(this.#rows);
      if (checked.entries === null) {
        this.#errors = [...checked.errors];
        ui.notifications.warn(game.i18n.localize(`${C}.NotSaved`));
        await this.render();
        showFirstInvalid(this.element);
        return;
      }
      this.#errors = [];
      await saveCatalogue(checked.entries);
      ui.notifications.info(game.i18n.localize(`${C}.Saved`));
      await this.close();
    }
  }
  formClass = CatalogueForm;
  return formClass;
}

/** Register the catalogue's settings menu, which opens the form (GM only; at `init`). */
export function registerCatalogueMenu(): void {
  game.settings.registerMenu(MODULE_ID, DR_CATALOGUE_MENU, {
    name: `${C}.Name`,
    label: `${C}.Label`,
    hint: `${C}.Hint`,
    icon: "fa-solid fa-list",
    type: catalogueFormClass() as never,
    restricted: true,
  });
}
