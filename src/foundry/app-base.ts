/** The base the module's ApplicationV2 forms extend: Foundry's Handlebars mixin over ApplicationV2. */

/** A form class, as the module opens it. */
export type AppClass = new (options?: object) => { render(options?: object): Promise<unknown> };

/** What the module's forms use of an ApplicationV2 instance. */
export interface AppInstance {
  element: HTMLElement | null;
  render(options?: object): Promise<unknown>;
  close(): Promise<unknown>;
}

/**
 * `HandlebarsApplicationMixin(ApplicationV2)`, typed to what the forms use (the types package's
 * generic signature cannot be extended by a local class here). Call it at `init` or later, when
 * `foundry.applications.api` exists.
 */
export function handlebarsFormBase(): new (options?: object) => AppInstance {
  const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;
  return HandlebarsApplicationMixin(ApplicationV2);
}

/** After a refused save: a form's first invalid field is scrolled into view and focused. */
export function showFirstInvalid(form: HTMLElement | null | undefined): void {
  const field = form?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? null;
  if (field === null) return;
  // Not every DOM scrolls (jsdom has no layout): focusing still moves the user to the field.
  if (typeof field.scrollIntoView === "function") field.scrollIntoView({ block: "center" });
  field.focus();
}
