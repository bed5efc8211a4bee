/**
 * Who rolls a player's dice. Every roll the module asks for goes through {@link rollForCommand}: with
 * the world setting on "player" (the default) the player's own client rolls and posts it with its
 * purpose (`purpose.ts`); on "gm" a player's client sends a dice request instead, and the active GM's
 * client makes the roll and posts it for that player ("rolled by the GM for Bob"), with the purpose
 * naming the player and the roll mode the player asked for. The player's client then sends its
 * result with that message, as with its own roll: the authority takes a GM's message for the player
 * it names, and under "gm" nothing else, so no player's client chooses or edits the faces.
 *
 * A dice request travels like any other request (written on a document the player may write, so its
 * author is the one the server attests), and the GM's client answers it with the roll's data.
 */
import { I18N } from "../../constants";
import type { Requester } from "../../core/engine";
import type { Json } from "../../core/patch";
import type { CommandResult } from "../../core/protocol";
import { postRoll, rollModeFor, type RollMode } from "../chat";
import { rollModeOf } from "../compat";
import { diceRoller } from "../settings";
import { loadBound, loadProblem } from "./encounters";
import { checkPurpose, purposeFlags, purposeFor, purposeOf, tellRolledAgain } from "./purpose";
import { recordOf as record } from "../../core/common";

/** The command type of a dice request (never reaches a mode's rules). */
export const DICE_REQUEST = "rollDice";

/** A roll posted for roll `part` of a command: the evaluated roll and its message (null: none was posted). */
export interface PostedRoll {
  readonly roll: Roll;
  readonly messageId: string | null;
}

/** Module flags merged with a purpose: the mode's own keys kept, the purpose added. */
function withPurpose(
  flags: Record<string, unknown> | undefined,
  purpose: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...(flags ?? {}) };
  for (const [scope, value] of Object.entries(purpose))
    merged[scope] = { ...(record(merged[scope]) ?? {}), ...(record(value) ?? {}) };
  return merged;
}

/**
 * Roll `roll` (not yet evaluated) as roll `part` of `command` for the current user, and post it to
 * chat as the combatant's with its purpose (plus the mode's own `flags`). On the "gm" setting a
 * player's client asks the active GM's client to roll it instead; `send` carries that request
 * (the controller's request path). Null when the roll was refused (the refusal is shown).
 */
export async function rollForCommand(
  combat: Combat.Implementation,
  command: Json,
  part: number,
  roll: Roll,
  combatant: Combatant.Implementation | undefined,
  flavor: string,
  rollMode: RollMode | undefined,
  flags: Record<string, unknown> | undefined,
  send: (combat: Combat.Implementation, request: Json) => Promise<CommandResult>,
): Promise<PostedRoll | null> {
  if (diceRoller() === "player" || game.user.isGM) {
    await roll.evaluate();
    const data = withPurpose(flags, purposeFlags(purposeFor(combat, command, part)));
    return { roll, messageId: await postRoll(roll, combatant, flavor, rollMode, data) };
  }
  const request = {
    type: DICE_REQUEST,
    command,
    part,
    roll: { class: roll.constructor.name, formula: roll.formula },
    speaker: combatant?.id ?? null,
    flavor,
    mode: rollModeFor(combatant, rollMode),
    ...(flags === undefined ? {} : { flags: flags as Json }),
  };
  const result = await send(combat, request);
  if (!result.ok || result.rolled === undefined) return null;
  const rolled = Roll.fromData(result.rolled.roll as never) as Roll;
  return { roll: rolled, messageId: result.rolled.messageId };
}

/**
 * On the authority: a player's dice request. The rules must be ready to take the result it is for
 * from this player now; a roll already made for that purpose in its window is not made again (the GM
 * is told). Otherwise the roll is made here, posted for the player, and its data returned.
 */
export async function rollForRequester(
  combat: Combat.Implementation,
  raw: Json,
  who: Requester,
): Promise<CommandResult> {
  const request = record(raw);
  const command = (request?.command ?? null) as Json;
  const part = request?.part;
  const data = record(request?.roll);
  const flavor = request?.flavor;
  const mode = rollModeOf(request?.mode);
  const flags = record(request?.flags) ?? undefined;
  if (
    record(command) === null ||
    typeof part !== "number" ||
    !Number.isInteger(part) ||
    part < 0 ||
    part > 31 ||
    data === null ||
    typeof flavor !== "string" ||
    flavor.length > 2000
  )
    return { ok: false, code: "malformedCommand" };
  const bound = loadBound(combat);
  if (bound === null) return { ok: false, code: loadProblem(combat) ?? "notStructured" };
  const early = bound.check(command, who);
  if (early !== null)
    return { ok: false, code: early.code, ...("combatantId" in early ? { combatantId: early.combatantId } : {}) };
  const purpose = purposeFor(combat, command, part, who.userId);
  // A second request for the same roll gets no second roll: the first counts.
  const made = game.messages.contents.filter((m) => {
    const p = purposeOf(m);
    const id: unknown = m.id;
    return p !== null && typeof id === "string" && checkPurpose(combat, command, part, id, p, who.userId).ok;
  });
  if (made.length > 0) {
    await tellRolledAgain(combat, command, part, who.userId, made.length + 1);
    return { ok: false, code: "notFirstRoll" };
  }
  // The faces are the GM's: only the roll's class and formula are taken from the request.
  const formula = typeof data.formula === "string" ? data.formula : "";
  if (formula === "" || formula.length > 500 || !Roll.validate(formula)) return { ok: false, code: "malformedCommand" };
  const rolls: unknown = CONFIG.Dice.rolls;
  const registered: unknown[] = Array.isArray(rolls) ? rolls : [];
  const found = registered.find((c) => typeof c === "function" && c.name === data.class);
  const RollClass = (found ?? Roll) as typeof Roll;
  let roll: Roll;
  try {
    roll = new RollClass(formula);
    await roll.evaluate();
  } catch {
    return { ok: false, code: "malformedCommand" };
  }
  const speakerId = request?.speaker;
  const subject = typeof speakerId === "string" ? combat.combatants.get(speakerId) : undefined;
  const user = userNamed(who.userId);
  const byGM = `${flavor} ${game.i18n.format(`${I18N}.Dice.RolledByGM`, { user })}`;
  const messageId = await postRoll(roll, subject, byGM, mode ?? "public", withPurpose(flags, purposeFlags(purpose)));
  if (messageId === null) return { ok: false, code: "writeFailed" };
  return { ok: true, rolled: { roll: roll.toJSON() as unknown as Record<string, unknown>, messageId } };
}

/** A user's name, or the id when no such user is known. */
function userNamed(id: string): string {
  return game.users.contents.find((u) => u.id === id)?.name ?? id;
}
