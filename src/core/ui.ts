/**
 * What a tracker is built from, shared by the mode contract (`src/modes/contract.ts`) and the shared
 * glue that renders it: a control as templates render it, the index of what the viewer may do and
 * the localisation function. Pure: no Foundry, so the contract imports it downward.
 */
import type { AllowedAction } from "./engine";

/** One button. Its visible text is `label`, its accessible name `aria` formatted with `name`. */
export interface ControlContext {
  /** The `data-action` the tracker's `actions` handle. */
  readonly action: string;
  /** i18n key of the visible text. */
  readonly label: string;
  /** The accessible name, localised (it may hold a name, so it is escaped like any text). */
  readonly ariaLabel: string;
  /** Accessible name of the text input that goes with the control (the ready trigger), or "". */
  readonly inputLabel: string;
  /** The combatant the control acts for, or "". */
  readonly combatantId: string;
  /** The group the control acts for, or "". */
  readonly groupId: string;
  /** A toggle button (rendered with `aria-pressed`). */
  readonly toggle: boolean;
  /** The toggle's state. */
  readonly pressed: boolean;
  /** Styled as the main action of its row or strip. */
  readonly primary: boolean;
}

/** A control in its plain form, before defaults. */
export interface ControlSpec {
  readonly action: string;
  readonly label: string;
  readonly aria?: string;
  readonly name?: string;
  readonly combatantId?: string;
  readonly groupId?: string;
  readonly toggle?: boolean;
  readonly pressed?: boolean;
  readonly primary?: boolean;
  /** i18n key of the accessible name of a text input that goes with the control. */
  readonly input?: string;
}

/** Makes a control from its plain form. */
export type ControlFactory = (spec: ControlSpec) => ControlContext;

/** The actions allowed to the viewer, indexed for quick look-up. */
export class Allowed {
  private readonly global = new Set<string>();
  private readonly byCombatant = new Map<string, Set<string>>();
  private readonly byGroup = new Map<string, Set<string>>();

  constructor(actions: readonly AllowedAction[]) {
    for (const action of actions) {
      if (action.groupId !== undefined) add(this.byGroup, action.groupId, action.type);
      else if (action.combatantId !== undefined) add(this.byCombatant, action.combatantId, action.type);
      else this.global.add(action.type);
    }
  }

  has(type: string): boolean {
    return this.global.has(type);
  }

  for(combatantId: string, type: string): boolean {
    return this.byCombatant.get(combatantId)?.has(type) ?? false;
  }

  forGroup(groupId: string, type: string): boolean {
    return this.byGroup.get(groupId)?.has(type) ?? false;
  }

  /** Combatant ids with this action allowed. */
  combatants(type: string): string[] {
    const out: string[] = [];
    for (const [id, types] of this.byCombatant) if (types.has(type)) out.push(id);
    return out;
  }
}

function add(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (set === undefined) map.set(key, new Set([value]));
  else set.add(value);
}

/** Localisation function the context builder uses (Foundry's `game.i18n`). */
export interface Localiser {
  localize(key: string): string;
  format(key: string, data: Record<string, string>): string;
  /** The language code (Foundry's `game.i18n.lang`). */
  readonly lang?: string;
}
