/**
 * What the tracker's shared buttons do (turns, start, roll, reset) and the encounter creation. Each
 * goes through the same path as a macro: the rules (via `submit`) or the mode's roll helpers;
 * refusals come back as localised notifications. A mode's own buttons are in its module's table.
 */
import { FLAGS, I18N, MODULE_ID, SYSTEM_DEFAULT, TEMPLATES } from "../../constants";
import { resetEncounter, submit } from "../authority/controller";
import { modeIds } from "../modes";
import { loadBound, moduleOfCombat } from "../authority/encounters";
import type { CommandResult } from "../../core/protocol";
import { defaultMode, toggleHints } from "../settings";
import type { Json } from "../../core/patch";
import type { ActionTable } from "../../modes/contract";

/** A structured command for the current user. */
export function command(combat: Combat.Implementation, data: Json): Promise<CommandResult> {
  return submit(combat, data);
}

/** The next turn: the GM moves on; a player ends the turn of their combatant acting now (the button and the key). */
export function nextTurn(combat: Combat.Implementation): Promise<CommandResult> {
  return command(combat, { type: "nextTurn" });
}

/** The part of DialogV2 the mode choice uses. */
interface ModeDialog {
  wait(config: {
    window: { title: string };
    content: string;
    rejectClose: boolean;
    buttons: {
      action: string;
      label: string;
      default?: boolean;
      callback: (event: Event, button: HTMLButtonElement) => string;
    }[];
  }): Promise<unknown>;
}

/** The part of DialogV2 an undo's confirmation uses (https://foundryvtt.com/api/classes/foundry.applications.api.DialogV2.html#confirm). */
interface ConfirmDialog {
  confirm(config: {
    window: { title: string };
    content: string;
    rejectClose: boolean;
    modal: boolean;
  }): Promise<unknown>;
}

/**
 * Previous turn or previous round. One that would return the encounter to setting up (undoing the
 * start) asks the GM first; cancelled, nothing is sent (null).
 */
export async function undoStep(
  combat: Combat.Implementation,
  type: "previousTurn" | "previousRound",
): Promise<CommandResult | null> {
  const target = loadBound(combat)?.undoTarget(type) ?? null;
  if (target !== null && !target.started) {
    const Dialog = (foundry.applications.api as unknown as { DialogV2?: Partial<ConfirmDialog> }).DialogV2;
    if (typeof Dialog?.confirm === "function") {
      const yes = await Dialog.confirm({
        window: { title: game.i18n.localize(`${I18N}.Tracker.UndoSetupTitle`) },
        content: `<p>${game.i18n.localize(`${I18N}.Tracker.UndoSetup`)}</p>`,
        rejectClose: false,
        modal: true,
      });
      if (yes !== true) return null;
    }
  }
  return command(combat, { type });
}

/**
 * Ask the GM which mode a new encounter uses (world default preselected); null when cancelled.
 * Without a dialog class (tests), the world default is used.
 */
export async function chooseMode(): Promise<string | null> {
  const fallback = defaultMode();
  const Dialog = (foundry.applications.api as unknown as { DialogV2?: Partial<ModeDialog> }).DialogV2;
  if (typeof Dialog?.wait !== "function") return fallback;
  const modes = [SYSTEM_DEFAULT, ...modeIds()].map((value) => ({
    value,
    label: `${I18N}.Mode.${value}`,
    selected: value === fallback,
  }));
  const content = await foundry.applications.handlebars.renderTemplate(TEMPLATES.modeDialog, {
    modes,
    rootClass: MODULE_ID,
  });
  const chosen = await Dialog.wait({
    window: { title: game.i18n.localize(`${I18N}.Tracker.NewEncounter`) },
    content,
    rejectClose: false,
    buttons: [
      {
        action: "create",
        label: game.i18n.localize(`${I18N}.Tracker.Create`),
        default: true,
        callback: (_event, button) => {
          const select = button.form?.elements.namedItem("mode");
          return select instanceof HTMLSelectElement ? select.value : fallback;
        },
      },
    ],
  });
  return typeof chosen === "string" ? chosen : null;
}

/** Create an encounter on the viewed scene in the chosen mode, and view it. */
export async function createEncounter(mode: string): Promise<void> {
  const scene = game.scenes.viewed ?? game.scenes.active ?? null;
  const CombatClass = CONFIG.Combat.documentClass;
  const data = {
    scene: scene?.id ?? null,
    active: true,
    flags: { [MODULE_ID]: { [FLAGS.mode]: mode } },
  };
  const created = await CombatClass.create(data);
  await created?.activate();
}

/** The buttons every mode shares, by `data-action`; a mode's own table may override one. */
export const SHARED_ACTIONS: ActionTable = {
  /** Roll for one combatant (a member of a group rolls the group's check, for the GM). */
  siRoll: async (combat, target) =>
    moduleOfCombat(combat)?.initiative.rollInitiative(combat, [target.dataset.combatantId ?? ""]) ?? [],
  siStart: (combat) => command(combat, { type: "start", surprise: false }),
  siNextTurn: (combat) => nextTurn(combat),
  siPreviousTurn: (combat) => undoStep(combat, "previousTurn"),
  siNextRound: (combat) => command(combat, { type: "nextRound" }),
  siPreviousRound: (combat) => undoStep(combat, "previousRound"),
  siReset: (combat) => resetEncounter(combat),
  /** Fold the hints away for this user, or show them again (their user setting). */
  siToggleHints: () => toggleHints(),
  /**
   * End the encounter as core's footer does: `Combat#endCombat` asks the GM to confirm (DialogV2),
   * then deletes it (https://foundryvtt.com/api/classes/foundry.documents.Combat.html#endcombat).
   * The module's state outside the encounter goes with it (`onDeleteCombat`).
   */
  siEndCombat: async (combat) => {
    if (game.user.isGM) await combat.endCombat();
  },
};
