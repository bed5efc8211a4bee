/**
 * Structured Initiative — entry point. Wiring only: attaches hook listeners, does nothing else at
 * import time.
 */
import { onDefeatedEffectCreatedOrDeleted, onDefeatedEffectUpdated } from "./foundry/defeated";
import { onInit, onReady } from "./foundry/lifecycle";
import {
  onCreateCombat,
  onCreateCombatant,
  onDeleteCombatant,
  onPreCreateCombat,
  onUpdateCombat,
  onUpdateCombatant,
  onUserConnected,
} from "./foundry/authority/document-hooks";
import {
  onSidesCombatUpdated,
  onSidesCombatantCreated,
  onSidesCombatantUpdated,
  onSidesActorUpdated,
  onSidesGroupChanged,
} from "./modes/sides/glue";

Hooks.once("init", onInit);
Hooks.once("ready", onReady);
Hooks.on("preCreateCombat", onPreCreateCombat);
Hooks.on("createCombat", onCreateCombat);
Hooks.on("updateCombat", onUpdateCombat);
Hooks.on("createCombatant", onCreateCombatant);
Hooks.on("deleteCombatant", onDeleteCombatant);
Hooks.on("updateCombatant", onUpdateCombatant);
Hooks.on("userConnected", onUserConnected);
// The `sides` mode mirrors CombatantGroups and runs the hesitation countdown on the active GM.
Hooks.on("createCombatant", onSidesCombatantCreated);
Hooks.on("updateCombatant", onSidesCombatantUpdated);
Hooks.on("createCombatantGroup", onSidesGroupChanged);
Hooks.on("updateCombatantGroup", onSidesGroupChanged);
Hooks.on("deleteCombatantGroup", onSidesGroupChanged);
Hooks.on("updateCombat", onSidesCombatUpdated);
Hooks.on("updateActor", onSidesActorUpdated);
// `individual` and `slots` mirror Foundry's defeated state, which an actor's defeated status also sets:
// a status is an ActiveEffect of the actor (creating or deleting one does not update the actor).
Hooks.on("createActiveEffect", onDefeatedEffectCreatedOrDeleted);
Hooks.on("updateActiveEffect", onDefeatedEffectUpdated);
Hooks.on("deleteActiveEffect", onDefeatedEffectCreatedOrDeleted);
