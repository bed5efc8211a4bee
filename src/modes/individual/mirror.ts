/**
 * The `individual` mode's mirror: defeat mirrored both ways, and flat-footed shown as an optional
 * status effect (put on at a surprise start, taken off at each first regular turn and at the end).
 */
import { I18N } from "../../constants";
import { FLAT_FOOTED_STATUS } from "./constants";
import type { RuleEvent } from "../../core/engine";
import { defeatedMirror } from "../../foundry/defeated";
import type { ModeMirror } from "../contract";
import type { IndividualState } from "./rules/types";
import { flatFootedAsStatus } from "./settings";
import { individualState } from "./encounter";

/** Flat-footed as a status effect Foundry knows (`init`), which the setting may apply. */
export function registerFlatFootedStatus(): void {
  CONFIG.statusEffects.push({
    id: FLAT_FOOTED_STATUS,
    name: `${I18N}.Status.FlatFooted`,
    img: "icons/svg/falling.svg",
  });
}

/**
 * The encounter ended (active GM): the flat-footed status the module put on combatants still
 * flat-footed comes off their actors (a status set by anything else is left alone).
 */
export async function individualEnd(combat: Combat.Implementation): Promise<void> {
  const state = individualState(combat);
  if (state === null || !flatFootedAsStatus()) return;
  for (const id of state.flatFooted) {
    const actor = combat.combatants.get(id)?.actor;
    if (actor?.statuses.has(FLAT_FOOTED_STATUS) === true)
      await actor.toggleStatusEffect(FLAT_FOOTED_STATUS, { active: false });
  }
}

/**
 * Side effects of the individual mode's events on the authority: the flat-footed status effect,
 * when the world setting applies it.
 */
export async function individualEffects(combat: Combat.Implementation, events: readonly RuleEvent[]): Promise<void> {
  if (!flatFootedAsStatus()) return;
  const state = individualState(combat);
  if (state === null) return;
  for (const event of events) {
    const on = event.type === "combatStarted" && state.surpriseBattle;
    const off = event.type === "flatFootedEnded" || event.type === "combatantRemoved";
    if (!on && !off) continue;
    const targets = on ? state.flatFooted : event.combatantId === undefined ? [] : [event.combatantId];
    for (const id of targets) {
      const actor = combat.combatants.get(id)?.actor;
      if (actor) await actor.toggleStatusEffect(FLAT_FOOTED_STATUS, { active: on });
    }
  }
}

/** Defeat, mirrored both ways; the flat-footed status; what the end takes off. */
export const INDIVIDUAL_MIRROR: ModeMirror<IndividualState> = {
  ...defeatedMirror<IndividualState>((combat, events) => individualEffects(combat, events)),
  end: individualEnd,
};
