/**
 * The module's keyboard actions, registered the Foundry way at `init`
 * (`game.keybindings.register`, https://foundryvtt.com/api/classes/foundry.helpers.interaction.ClientKeybindings.html#register)
 * so that each is rebindable in Configure Controls. The shared ones (end my turn, next turn) and every
 * installed mode's (`ModeModule.keys`) are registered once per id; a press runs the viewed
 * encounter's mode's entry through the same call its tracker button makes, so permissions and refusal
 * messages are the button's. A press that does not apply says why, as a localised warning.
 */
import { I18N, KEYS, MODULE_ID } from "../constants";
import type { KeyBinding, ModeKey } from "../modes/contract";
import type { Json } from "../core/patch";
import { isStructured, loadBound, moduleOfCombat, modeOf, requesterFor } from "./authority/encounters";
import { installedModes } from "./modes";
import { notifyRefusal, shownRefusal } from "./notify";
import { nextTurn } from "./tracker/actions";

/** The keyboard actions every mode shares; a mode's entry with the same id replaces one in that mode. */
export const SHARED_KEYS: readonly ModeKey[] = [
  // Shift+E / Shift+N: neither key is among the core controls of https://foundryvtt.com/article/controls/
  // (Shift+W A S D faces a token, Shift+C focuses the chat).
  { id: KEYS.endTurn, editable: [{ key: "KeyE", modifiers: ["Shift"] }], run: (combat) => nextTurn(combat) },
  {
    id: KEYS.nextTurn,
    editable: [{ key: "KeyN", modifiers: ["Shift"] }],
    restricted: true,
    run: (combat) => nextTurn(combat),
  },
];

/** Every keyboard action id, in registration order (shared first, then each mode's), with its first entry. */
export function keyActions(): ModeKey[] {
  const byId = new Map<string, ModeKey>();
  for (const key of [...SHARED_KEYS, ...installedModes().flatMap((mode) => mode.keys ?? [])])
    if (!byId.has(key.id)) byId.set(key.id, key);
  return [...byId.values()];
}

/** The i18n key of a keyboard action's name. */
export function keyName(id: string): string {
  return `${I18N}.Keys.${id}.Name`;
}

/** The part of `game.keybindings` the module uses (the v13 types name the modifier keys more narrowly). */
interface Keybindings {
  register(
    namespace: string,
    action: string,
    data: {
      name: string;
      hint?: string;
      editable?: KeyBinding[];
      onDown?: () => boolean;
      restricted?: boolean;
      precedence?: number;
    },
  ): void;
}

/** Register every keyboard action (at `init`, as Foundry requires). */
export function registerKeybindings(): void {
  const bindings = (game as unknown as { keybindings?: Keybindings }).keybindings;
  if (bindings === undefined) return;
  for (const key of keyActions()) {
    bindings.register(MODULE_ID, key.id, {
      name: keyName(key.id),
      hint: `${I18N}.Keys.${key.id}.Hint`,
      editable: (key.editable ?? []).map((b) => ({ key: b.key, modifiers: [...(b.modifiers ?? [])] })),
      restricted: key.restricted === true,
      // Returning true consumes the key: no other action bound to it runs.
      onDown: () => {
        void pressKey(key.id);
        return true;
      },
      precedence: CONST.KEYBINDING_PRECEDENCE.NORMAL,
    });
  }
}

/** The encounter the tracker shows (what its buttons act on), or null. */
function viewedCombat(): Combat.Implementation | null {
  const tracker = ui.combat as { viewed?: Combat.Implementation | null } | undefined;
  return tracker?.viewed ?? game.combat ?? null;
}

/**
 * Run a keyboard action for the current user on the viewed encounter. Without an encounter, in a
 * system-default one, or in a mode without that action, a warning says so; the action's own refusals
 * come from the command path, as for its button.
 */
export async function pressKey(id: string): Promise<unknown> {
  const combat = viewedCombat();
  if (combat === null) {
    ui.notifications.warn(game.i18n.localize(`${I18N}.Keys.NoCombat`));
    return null;
  }
  if (!isStructured(combat)) {
    notifyRefusal(combat, "notStructured");
    return null;
  }
  const mode = moduleOfCombat(combat);
  const key = mode?.keys?.find((k) => k.id === id) ?? SHARED_KEYS.find((k) => k.id === id);
  if (key === undefined) {
    ui.notifications.warn(
      game.i18n.format(`${I18N}.Keys.NotInMode`, {
        action: game.i18n.localize(keyName(id)),
        mode: game.i18n.localize(`${I18N}.Mode.${modeOf(combat)}`),
      }),
    );
    return null;
  }
  if (key.restricted === true && !game.user.isGM) {
    notifyRefusal(combat, "notGM");
    return null;
  }
  const root = (ui.combat as { element?: HTMLElement | null } | undefined)?.element ?? null;
  return key.run(combat, root);
}

/**
 * Of these combatants, the one a key acts for: the first whose token the user controls on the
 * canvas, else the first. Null when there is none.
 */
export function preferredCombatant(combat: Combat.Implementation, ids: readonly string[]): string | null {
  const controlled = new Set(
    (
      (canvas as { tokens?: { controlled?: { document?: { id?: string | null } }[] } } | undefined)?.tokens
        ?.controlled ?? []
    ).map((token) => token.document?.id ?? ""),
  );
  const held = ids.find((id) => {
    const tokenId = combat.combatants.get(id)?.tokenId ?? null;
    return tokenId !== null && controlled.has(tokenId);
  });
  return held ?? ids[0] ?? null;
}

/** The part of the sidebar a key uses to show the tracker (https://foundryvtt.com/api/classes/foundry.applications.sidebar.Sidebar.html). */
interface SidebarLike {
  expand?: () => unknown;
  changeTab?: (tab: string, group: string) => unknown;
}

/** Bring the combat tracker into view: the sidebar open on its tab. */
function revealTracker(): void {
  const sidebar = (ui as unknown as { sidebar?: SidebarLike }).sidebar;
  sidebar?.expand?.();
  sidebar?.changeTab?.("combat", "primary");
}

/**
 * A form key (declare): when the rules let the user do `type` for `combatantId` now, the tracker
 * comes into view and the form's first field (`selector`, inside the tracker) takes the focus. Otherwise
 * the rules' check of the command the form would send (`command`) says why not, as the form's button
 * would; the check applies nothing.
 */
export function focusForm(
  combat: Combat.Implementation,
  root: HTMLElement | null,
  form: {
    readonly type: string;
    readonly combatantId: string | null;
    readonly selector: string;
    readonly command: Json;
  },
): Promise<unknown> {
  const who = requesterFor(combat, game.user);
  const bound = loadBound(combat);
  if (bound === null) return Promise.resolve(shownRefusal(combat, { ok: false, code: "corrupted" }));
  const open =
    form.combatantId !== null &&
    bound.allowed(who).some((a) => a.type === form.type && a.combatantId === form.combatantId);
  if (!open) {
    const refusal = bound.check(form.command, who) ?? { code: "wrongStep" };
    const about = "combatantId" in refusal ? refusal.combatantId : undefined;
    return Promise.resolve(
      shownRefusal(combat, { ok: false, code: refusal.code, ...(about === undefined ? {} : { combatantId: about }) }),
    );
  }
  revealTracker();
  const field = root?.querySelector<HTMLElement>(form.selector) ?? null;
  field?.focus();
  return Promise.resolve({ ok: true });
}
