/**
 * Structured Initiative — entry point. Wiring only: attaches hook listeners, does nothing else at import time.
 */
import { MODULE_ID } from "./constants";

Hooks.once("init", function structuredInitiativeInit() {
  console.info(`${MODULE_ID} | initialising`);
});
