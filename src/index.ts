/**
 * Structured Initiative — entry point. Wiring only: attaches hook listeners, does nothing else at
 * import time.
 */
import { onInit, onReady } from "./foundry/lifecycle";
import {
  onCreateCombat,
  onCreateCombatant,
  onDeleteCombatant,
  onPreCreateCombat,
  onUpdateCombat,
  onUpdateCombatant,
} from "./foundry/document-hooks";

Hooks.once("init", onInit);
Hooks.once("ready", onReady);
Hooks.on("preCreateCombat", onPreCreateCombat);
Hooks.on("createCombat", onCreateCombat);
Hooks.on("updateCombat", onUpdateCombat);
Hooks.on("createCombatant", onCreateCombatant);
Hooks.on("deleteCombatant", onDeleteCombatant);
Hooks.on("updateCombatant", onUpdateCombatant);
