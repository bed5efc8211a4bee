/**
 * The modes this client runs, as `src/index.ts` installs them from the registry at import. The shared
 * glue looks a mode up here by id and never imports a mode: modes depend on the glue, not the
 * other way round.
 */
import { SYSTEM_DEFAULT } from "../constants";
import { bindMode, type ModeBinding } from "../core/binding";
import type { AnyModeModule } from "../modes/contract";

/** The mode stored on a Combat: a registered mode's id or the game system's own behaviour. */
export type ModeSetting = string;

interface Installed {
  readonly module: AnyModeModule;
  readonly binding: ModeBinding;
}

const installed = new Map<string, Installed>();

function bind(mode: AnyModeModule): ModeBinding {
  const create = mode.create;
  return bindMode(create === undefined ? mode.rules : { ...mode.rules, create }, mode.parseState, mode.roster);
}

/** Install the registered modes (once, from `src/index.ts`; again in tests). */
export function installModes(modes: readonly AnyModeModule[]): void {
  installed.clear();
  for (const module of modes) installed.set(module.id, { module, binding: bind(module) });
}

/** Every installed mode, in registry order. */
export function installedModes(): AnyModeModule[] {
  return [...installed.values()].map((entry) => entry.module);
}

/** The ids of the installed modes, in registry order. */
export function modeIds(): string[] {
  return [...installed.keys()];
}

/** Whether a value names an installed mode or the system's behaviour (flags and settings are untrusted). */
export function isModeSetting(value: unknown): value is ModeSetting {
  return value === SYSTEM_DEFAULT || (typeof value === "string" && installed.has(value));
}

/** The module of an installed mode; null for any other id. */
export function modeModule(id: string): AnyModeModule | null {
  return installed.get(id)?.module ?? null;
}

/** An installed mode's rules bound to its stored form; null for any other id. */
export function bindingOf(id: string): ModeBinding | null {
  return installed.get(id)?.binding ?? null;
}
