/** The registry of the modes the module runs. */
import type { ModeId } from "../core/engine";
import { bindMode, type ModeBinding } from "../core/binding";
import { individualMode } from "./individual/rules/individual";
import { parseIndividualState } from "./individual/rules/state";
import { sidesMode } from "./sides/rules/sides";
import { parseSidesState } from "./sides/rules/state";
import { slotsMode } from "./slots/rules/slots";
import { parseSlotsState } from "./slots/rules/state";
import { slotsKeepPolicy } from "../foundry/settings";

/** Every mode the glue can run now; the others fall back to "not available". */
export const MODE_BINDINGS: Partial<Record<ModeId, ModeBinding>> = {
  individual: bindMode(individualMode, parseIndividualState, {
    add: (entry) => ({ type: "addCombatant" as const, combatant: entry }),
    remove: (id) => ({ type: "removeCombatant" as const, combatantId: id }),
    ids: (state) => state.combatants.map((c) => c.id),
  }),
  sides: bindMode(sidesMode, parseSidesState, {
    add: (entry) => ({ type: "addCombatant" as const, combatant: entry }),
    remove: (id) => ({ type: "removeCombatant" as const, combatantId: id }),
    ids: (state) => state.combatants.map((c) => c.id),
  }),
  // A new slots encounter starts with the world's keep-slot policy.
  slots: bindMode(
    { ...slotsMode, create: (roster) => ({ ...slotsMode.create(roster), keepSlots: slotsKeepPolicy() }) },
    parseSlotsState,
    {
      add: (entry) => ({ type: "addCombatant" as const, combatant: entry }),
      remove: (id) => ({ type: "removeCombatant" as const, combatantId: id }),
      ids: (state) => state.combatants.map((c) => c.id),
    },
  ),
};
