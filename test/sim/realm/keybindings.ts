/** The realm's `game.keybindings`; the sim has no keyboard, `press` stands for a key down. */
import { call } from "./constants.js";
import type { Dict } from "../utils.js";

/** One realm's keybindings; `currentUser` says whether a GM presses. */
export function createKeybindings(currentUser: () => { readonly isGM: boolean } | null) {
  /**
   * `game.keybindings` (https://foundryvtt.com/api/classes/foundry.helpers.interaction.ClientKeybindings.html):
   * `register(namespace, action, config)` records an action with its default `editable` bindings
   * (https://foundryvtt.com/api/interfaces/foundry.types.KeybindingActionConfig.html); `get` returns its
   * bindings. The sim has no keyboard: `press(namespace, action)` runs what a key down on a binding
   * of the action runs, its `onDown`, which a `restricted` action does only for a GM ("If true, only a
   * GM can edit and execute this Action").
   */
  interface KeybindingConfig extends Dict {
    name?: string;
    hint?: string;
    editable?: Dict[];
    onDown?: unknown;
    restricted?: boolean;
    precedence?: number;
  }
  const keybindingActions = new Map<string, KeybindingConfig>();
  const keybindings = {
    actions: keybindingActions,
    register(namespace: string, action: string, config: KeybindingConfig): void {
      keybindingActions.set(`${namespace}.${action}`, { ...config, namespace });
    },
    get(namespace: string, action: string): Dict[] {
      const config = keybindingActions.get(`${namespace}.${action}`);
      if (config === undefined) throw new Error(`No keybinding action ${namespace}.${action}`);
      return (config.editable ?? []).map((b) => ({ ...b }));
    },
    /** The sim's key press: the action's `onDown` (its result says whether the key was consumed). */
    press(namespace: string, action: string): unknown {
      const config = keybindingActions.get(`${namespace}.${action}`);
      if (config === undefined) throw new Error(`No keybinding action ${namespace}.${action}`);
      if (config.restricted === true && currentUser()?.isGM !== true) return false;
      return call(config.onDown, config, { key: String(config.editable?.[0]?.key ?? ""), repeat: false });
    },
  };
  return keybindings;
}
