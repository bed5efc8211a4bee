/**
 * Structured Initiative — entry point. Wiring only: installs the registered modes and attaches hook
 * listeners; does nothing else at import time.
 */
import { onDefeatedEffectCreatedOrDeleted, onDefeatedEffectUpdated } from "./foundry/defeated";
import { onInit, onReady } from "./foundry/lifecycle";
import {
  onCreateCombat,
  onCreateCombatant,
  onDeleteCombat,
  onDeleteCombatant,
  onPreCreateCombat,
  onUpdateCombat,
  onUpdateCombatant,
  onUserConnected,
} from "./foundry/authority/document-hooks";
import { installModes } from "./foundry/modes";
import { rememberRoll } from "./foundry/authority/purpose";
import { onNoticeCombatDelete, onNoticeCombatUpdate } from "./foundry/notices";
import { MODES } from "./modes/registry";

installModes(MODES);
Hooks.once("init", onInit);
Hooks.once("ready", onReady);
Hooks.on("preCreateCombat", onPreCreateCombat);
Hooks.on("createCombat", onCreateCombat);
Hooks.on("updateCombat", onUpdateCombat);
Hooks.on("deleteCombat", onDeleteCombat);
Hooks.on("createCombatant", onCreateCombatant);
Hooks.on("deleteCombatant", onDeleteCombatant);
Hooks.on("updateCombatant", onUpdateCombatant);
Hooks.on("userConnected", onUserConnected);
// The authority remembers each roll made for a purpose as it arrives: the first counts, even deleted.
Hooks.on("createChatMessage", rememberRoll);
// Every client: a player's "your turn" (and their mode's) notice, once per change.
Hooks.on("updateCombat", onNoticeCombatUpdate);
Hooks.on("deleteCombat", onNoticeCombatDelete);
// The modes whose rules keep a defeated flag mirror Foundry's defeated state, which an actor's
// defeated status also sets: a status is an ActiveEffect of the actor. Every client's tracker shows it.
Hooks.on("createActiveEffect", onDefeatedEffectCreatedOrDeleted);
Hooks.on("updateActiveEffect", onDefeatedEffectUpdated);
Hooks.on("deleteActiveEffect", onDefeatedEffectCreatedOrDeleted);
// Each mode's own document hooks (the `sides` mirror of CombatantGroups, …).
for (const mode of MODES) mode.mirror?.attachHooks?.();
