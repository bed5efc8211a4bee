/**
 * The `individual` mode (RULES.md §2): d20 initiative with group checks, roll-offs, surprise, delay
 * and ready, as one mode module.
 */
import { I18N } from "../../constants";
import { decodeArrays, type Json } from "../../core/patch";
import { FLAT_FOOTED_STATUS } from "./constants";
import { defineMode } from "../contract";
import { individualSample } from "./sample";
import { defeatedMirror } from "../../foundry/defeated";
import { INDIVIDUAL_ACTIONS } from "./actions";
import {
  combatantsToRoll,
  groupCombatants,
  INDIVIDUAL_ROLL_CHECKS,
  individualEffects,
  individualEnd,
  rollStructuredInitiative,
} from "./glue";
import { rollPendingRollOffs } from "./rolloff";
import { individualMode, type IndividualCommand, type IndividualState } from "./rules/individual";
import { parseIndividualState } from "./rules/state";
import { INDIVIDUAL_SETTING_DEFS, registerIndividualSettings } from "./settings";
import { individualTracker } from "./tracker";

/**
 * Initiative values that can still be read for each combatant, from the unreadable state where its
 * combatant entries are intact. `Combatant#initiative` is not read: in a structured encounter it is
 * the interop mirror of the order (`src/foundry/interop.ts`), not a roll.
 */
function salvageInitiative(combat: Combat.Implementation, stored: unknown): Json[] {
  const found = new Map<string, { total: number; modifier: number }>();
  const entries = stored === undefined ? undefined : decodeArrays(stored as Json);
  const list =
    typeof entries === "object" && entries !== null ? (entries as { combatants?: unknown }).combatants : undefined;
  if (Array.isArray(list)) {
    for (const item of list as unknown[]) {
      if (typeof item !== "object" || item === null) continue;
      const { id, initiative, modifier } = item as { id?: unknown; initiative?: unknown; modifier?: unknown };
      if (typeof id === "string" && typeof initiative === "number" && Number.isFinite(initiative)) {
        found.set(id, {
          total: initiative,
          modifier: typeof modifier === "number" && Number.isFinite(modifier) ? modifier : 0,
        });
      }
    }
  }
  return [...found]
    .filter(([id]) => combat.combatants.has(id))
    .map(([combatantId, { total, modifier }]) => ({ type: "recordInitiative", combatantId, total, modifier }));
}

/** The `individual` mode module. */
export const individualModule = defineMode<IndividualState, IndividualCommand>({
  id: individualMode.id,
  rules: individualMode,
  parseState: parseIndividualState,
  roster: {
    add: (entry) => ({ type: "addCombatant", combatant: entry }),
    remove: (id) => ({ type: "removeCombatant", combatantId: id }),
    ids: (state) => state.combatants.map((c) => c.id),
  },
  // Its refusal codes are among the shared ones.
  refusalCodes: [],
  // It keeps no data of its own on combatants (its module flags are the GM's all the same).
  gmOnlyCombatantKeys: [],
  rolledResults: INDIVIDUAL_ROLL_CHECKS,
  salvage: salvageInitiative,
  initiative: {
    rollInitiative: (combat, ids, options) => rollStructuredInitiative(combat, ids, options),
    rollAll: (combat, options) => rollStructuredInitiative(combat, combatantsToRoll(combat, false), options),
    rollNPC: (combat, options) => rollStructuredInitiative(combat, combatantsToRoll(combat, true), options),
  },
  mirror: {
    ...defeatedMirror<IndividualState>(
      (state) => new Map(state.combatants.map((c) => [c.id, c.defeated])),
      (combat, events) => individualEffects(combat, events),
    ),
    end: individualEnd,
  },
  // Other modules see each check's total (a tie or a moved place a little off it, to keep the order).
  interop: {
    initiative: (state) =>
      new Map(state.combatants.flatMap((c) => (c.initiative === null ? [] : [[c.id, c.initiative] as const]))),
  },
  settings: INDIVIDUAL_SETTING_DEFS,
  registerSettings: registerIndividualSettings,
  init: () => {
    CONFIG.statusEffects.push({
      id: FLAT_FOOTED_STATUS,
      name: `${I18N}.Status.FlatFooted`,
      img: "icons/svg/falling.svg",
    });
  },
  tracker: individualTracker,
  actions: INDIVIDUAL_ACTIONS,
  api: { rollOffs: rollPendingRollOffs, groupCombatants },
  sample: individualSample,
});
