/**
 * The `phases` mode's mirror: defeat mirrored both ways, and what events leave in chat on the active
 * GM (the GM's answer to a failed roll on its card, an Advantage spent, a free action) with the GM's
 * notice that a failed roll waits for an answer.
 */

import { MODULE_ID, I18N } from "../../constants";
import { PHASES_ROLL_FLAG } from "./constants";
import type { PhasesState, PhasesEvent } from "./rules/types";
import type { EventOrigin, ModeMirror } from "../contract";
import { defeatedMirror } from "../../foundry/defeated";
import type { RuleEvent } from "../../core/engine";
import { fieldOf } from "../../core/common";

/** Minimal HTML escaping for text typed by users that goes into a chat card's flavour. */
export function escapeText(text: string): string {
  return text.replace(
    /[&<>"']/gu,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

/** The roll card's flag, narrowed. */
function cardOf(message: ChatMessage.Implementation): { combatId: string; combatantId: string; flavor: string } | null {
  // Read as plain data: the module declares no chat message flags to Foundry's types.
  const scope: unknown = (message.flags as unknown as Record<string, unknown>)[MODULE_ID];
  const flag = fieldOf(scope, PHASES_ROLL_FLAG);
  if (typeof flag !== "object" || flag === null) return null;
  const { combatId, combatantId, flavor } = flag as Record<string, unknown>;
  return typeof combatId === "string" && typeof combatantId === "string" && typeof flavor === "string"
    ? { combatId, combatantId, flavor }
    : null;
}

/** The GM's answer to a failed roll, written on the hero's last roll card of this encounter. */
async function recordAnswer(combat: Combat.Implementation, combatantId: string, answer: string): Promise<void> {
  const messages = game.messages.contents;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message === undefined) continue;
    const card = cardOf(message);
    if (card === null || card.combatId !== combat.id || card.combatantId !== combatantId) continue;
    // Written from the card's own first flavour: an answer given again after an undo replaces the last.
    await message.update({ flavor: `${card.flavor} ${answer}` });
    return;
  }
}

/** A chat line from the encounter's combatant (or the GM, for none). */
async function say(combat: Combat.Implementation, combatantId: string | undefined, text: string): Promise<void> {
  const combatant = combatantId === undefined ? undefined : combat.combatants.get(combatantId);
  const speaker = ChatMessage.getSpeaker({
    actor: combatant?.actor ?? null,
    token: combatant?.token ?? null,
    ...(combatant === undefined ? {} : { alias: combatant.name ?? "" }),
  });
  await ChatMessage.implementation.create({ speaker, content: text });
}

/**
 * What `phases` events leave behind, on the active GM: the answer to a failed roll on its card, a
 * chat line for an Advantage spent and for a free action, and a notice that a failed roll waits for
 * the GM's answer. Reconciliations leave nothing.
 */
export async function phasesEffects(
  combat: Combat.Implementation,
  events: readonly RuleEvent[],
  origin: EventOrigin,
): Promise<void> {
  if (origin !== "command") return;
  const nameOf = (id: string | undefined): string => (id === undefined ? "" : (combat.combatants.get(id)?.name ?? ""));
  for (const event of events as readonly PhasesEvent[]) {
    const id = event.combatantId;
    switch (event.type) {
      case "rollFailed":
        ui.notifications.info(game.i18n.format(`${I18N}.Tracker.Phases.FailureNotice`, { name: nameOf(id) }));
        break;
      case "failureEffect":
        if (id !== undefined)
          await recordAnswer(
            combat,
            id,
            game.i18n.format(`${I18N}.Chat.PhasesFailureEffect`, { text: escapeText(event.text ?? "") }),
          );
        break;
      case "collapseGained":
        if (id !== undefined) await recordAnswer(combat, id, game.i18n.localize(`${I18N}.Chat.PhasesCollapseGained`));
        break;
      case "advantageSpent": {
        const note = escapeText(event.text ?? "");
        const key = id === undefined ? "PhasesAdvantageSpent" : "PhasesAdvantageSpentBy";
        await say(combat, id, game.i18n.format(`${I18N}.Chat.${key}`, { name: nameOf(id), note }));
        break;
      }
      case "freeAction": {
        const [kind = "", ...rest] = (event.text ?? "").split(": ");
        const action = game.i18n.localize(`${I18N}.Tracker.Phases.Free.${kind === "move" ? "move" : "item"}`);
        const note = escapeText(rest.join(": "));
        const key = note === "" ? "PhasesFreeAction" : "PhasesFreeActionNote";
        await say(combat, id, game.i18n.format(`${I18N}.Chat.${key}`, { name: nameOf(id), action, note }));
        break;
      }
      default:
        break;
    }
  }
}

/** Defeat mirrored both ways, and what events leave behind (`phasesEffects`). */
export const PHASES_MIRROR: ModeMirror<PhasesState> = defeatedMirror<PhasesState>(phasesEffects);
