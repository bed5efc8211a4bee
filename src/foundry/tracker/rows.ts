/**
 * What a combatant row does besides its buttons, as rows do in Foundry's own tracker: a click pans
 * the canvas to the combatant's token and, for the token's owner, selects it (shift adds it to the
 * selection); a double click opens the actor's sheet for whoever may view it; the GM's right-click
 * menu edits the combatant, hides or reveals it, marks it defeated or not, and removes it.
 */
import { I18N } from "../../constants";
import { writeDefeated } from "../defeated";
import { refusalKey, logError } from "../notify";
import type { MenuEntry } from "../compat";

/** Inside a row, these have a meaning of their own: a click on them is not a click on the row. */
const OWN_CLICKS = "button, a, input, select, textarea, label, summary, details, [data-action], .si-controls";

/** The rows of the module's list (every mode's). */
export const ROW_SELECTOR = ".si-list > .si-row[data-combatant-id]";

/** The combatant id of the row an event happened on, or null (outside a row, or on a control in one). */
export function rowOf(event: Event): string | null {
  const target = event.target as Element | null;
  if (target === null || typeof target.closest !== "function") return null;
  const row = target.closest<HTMLElement>(ROW_SELECTOR);
  const control = target.closest(OWN_CLICKS);
  if (row === null || (control !== null && row.contains(control))) return null;
  return row.dataset.combatantId ?? null;
}

/** The combatant a row is for, or null with a message when it has left the encounter. */
function combatantOf(combat: Combat.Implementation, id: string): Combatant.Implementation | null {
  const combatant = combat.combatants.get(id) ?? null;
  if (combatant === null) ui.notifications.warn(game.i18n.localize(`${I18N}.Tracker.Row.Gone`));
  return combatant;
}

/**
 * A click on a row: pan to the combatant's token when this user can see it, and select it when
 * they own it (`additive`: keep the tokens already selected).
 */
export async function activateRow(combat: Combat.Implementation, id: string, additive: boolean): Promise<void> {
  const combatant = combatantOf(combat, id);
  if (combatant === null || !canvas.ready) return;
  const name = combatant.name ?? "";
  const token = combatant.token?.object ?? null;
  // One message whether the token is elsewhere or hidden from this user: it does not tell a player
  // that a token they cannot see is there.
  if (token === null || !token.isVisible) {
    ui.notifications.info(game.i18n.format(`${I18N}.Tracker.Row.NotSeen`, { name }));
    return;
  }
  if (token.isOwner) token.control({ releaseOthers: !additive });
  await canvas.animatePan(token.center);
}

/** A double click on a row: the actor's sheet, for a user who may view it. */
export function openRowSheet(combat: Combat.Implementation, id: string): void {
  const combatant = combatantOf(combat, id);
  const actor = combatant?.actor ?? null;
  if (actor?.testUserPermission(game.user, "OBSERVER")) void actor.sheet?.render(true);
}

/** A GM's change from the row menu; a failure is logged and shown, never thrown. */
async function change(
  combat: Combat.Implementation,
  row: HTMLElement,
  apply: (combatant: Combatant.Implementation) => Promise<unknown>,
): Promise<void> {
  const combatant = combatantOf(combat, row.dataset.combatantId ?? "");
  if (combatant === null) return;
  try {
    await apply(combatant);
  } catch (error) {
    logError(error);
    ui.notifications.error(game.i18n.localize(refusalKey("writeFailed")));
  }
}

/** The GM's row menu for the encounter `viewed()` returns when it opens (`compat.ts` gives it Foundry's shape). */
export function rowMenuEntries(viewed: () => Combat.Implementation | null): MenuEntry[] {
  /** The row's combatant when the GM may change it (null hides the entry). */
  const target = (row: HTMLElement): Combatant.Implementation | null =>
    game.user.isGM ? (viewed()?.combatants.get(row.dataset.combatantId ?? "") ?? null) : null;
  const entry = (
    key: string,
    icon: string,
    show: (combatant: Combatant.Implementation) => boolean,
    apply: (combatant: Combatant.Implementation) => Promise<unknown>,
  ): MenuEntry => ({
    label: `${I18N}.Tracker.Row.${key}`,
    icon: `fa-solid ${icon}`,
    visible: (row) => {
      const combatant = target(row);
      return combatant !== null && show(combatant);
    },
    run: async (row) => {
      const combat = viewed();
      if (combat !== null) await change(combat, row, apply);
    },
  });
  return [
    entry(
      "Edit",
      "fa-pen-to-square",
      () => true,
      async (c) => c.sheet?.render(true),
    ),
    entry(
      "Hide",
      "fa-eye-slash",
      (c) => !c.hidden,
      (c) => c.update({ hidden: true }),
    ),
    entry(
      "Reveal",
      "fa-eye",
      (c) => c.hidden,
      (c) => c.update({ hidden: false }),
    ),
    entry(
      "Defeat",
      "fa-skull",
      (c) => !c.isDefeated,
      (c) => writeDefeated(c, true),
    ),
    entry(
      "Revive",
      "fa-heart-pulse",
      (c) => c.isDefeated,
      (c) => writeDefeated(c, false),
    ),
    entry(
      "Remove",
      "fa-trash",
      () => true,
      (c) => c.delete(),
    ),
  ];
}
