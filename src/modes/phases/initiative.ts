/** The `phases` mode's rolls: nobody rolls initiative (the phases give the order); a skill roll's check. */

import { rolledWith } from "../../foundry/chat";
import type { ModeInitiative, RollCheck } from "../contract";
import { facesOf } from "./skills";

/** Nobody rolls initiative: the phases give the order. */
export const PHASES_INITIATIVE: ModeInitiative = {
  rollInitiative: () => Promise.resolve([]),
  rollAll: () => Promise.resolve([]),
  rollNPC: () => Promise.resolve([]),
};

/**
 * The check of a player's skill roll (`rolledResults`): its one chat roll is `{n}d{size}` of the
 * command's die size and the dice the command sends are that roll's faces (a typed or forged set of
 * dice, say one without doubles, does not check).
 */
export const PHASES_ROLL_CHECKS: Readonly<Record<string, RollCheck>> = {
  skillRoll(_combat, command, rolls) {
    const { dieSize, dice } = command as { dieSize?: unknown; dice?: unknown };
    const [roll] = rolls;
    if (roll === undefined || rolls.length !== 1 || !Array.isArray(dice) || typeof dieSize !== "number")
      return Promise.resolve(false);
    const faces = facesOf(roll);
    return Promise.resolve(
      rolledWith(roll, `${String(dice.length)}d${String(dieSize)}`) &&
        faces.length === dice.length &&
        faces.every((face, i) => face === dice[i]),
    );
  },
};
