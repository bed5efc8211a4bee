/** The module's own hooks (`structured-initiative.*`), documented in the README's API section. */

/** The part of Foundry's `Hooks` the module uses to emit its own events. */
interface ModuleHooks {
  call(hook: string, ...args: unknown[]): boolean;
  callAll(hook: string, ...args: unknown[]): boolean;
}

/** Foundry's `Hooks`, typed for the module's own hook names (the typed overloads know only core hooks). */
export const moduleHooks = Hooks as unknown as ModuleHooks;
