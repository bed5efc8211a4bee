/**
 * Foundry glue of the `phases` mode: skill rolls as real Foundry rolls of `n` dice of the skill's
 * die size, posted to chat with the roll mode and recorded through the rules with the faces read
 * from the roll (the rules check them against the complexity: a forged roll is refused); the skill
 * list read from each actor's roll data; and, on the active GM, what events leave in chat (the GM's
 * answer to a failed roll on its card, an Advantage spent, a free action) and the GM's notice that
 * a failed roll waits for an answer.
 */
import { I18N, MODULE_ID } from "../../constants";
import { PHASES_ROLL_FLAG } from "./constants";
import { FIRST_COMPLEXITY, type DieSize, type PhasesEvent, type PhasesState } from "./rules/types";
import { isDieSize } from "./rules/dice";
import { nextComplexity } from "./rules/derived";
import { phasesMode } from "./rules/mode";
import { precheck, submit } from "../../foundry/authority/controller";
import { stateOf } from "../../foundry/authority/encounters";
import { rolledWith } from "../../foundry/chat";
import { rollFor } from "../../foundry/roll-for";
import { rollModeOf } from "../../foundry/compat";
import type { RollCheck } from "../contract";
import { notifyRefusal } from "../../foundry/notify";
import type { RuleEvent } from "../../core/engine";
import type { CommandResult, RefusalDetail } from "../../core/protocol";
import type { EventOrigin } from "../contract";
import { phasesSkills } from "./settings";
import { dieSizeOf } from "./rules/skills";

/** Refusal codes of the phases glue (each has a message). */
export const PHASES_GLUE_REFUSALS = [
  /** The skill is not in the skill list, or the actor's data gives it no die size; `{skill}`. */
  "noSkillDie",
] as const;

/** The phases state of a combat, or null when it is not a readable `phases` encounter. */
export function phasesState(combat: Combat.Implementation): PhasesState | null {
  return stateOf(combat, phasesMode);
}

/** A skill a combatant can roll, with its die size from the actor's data. */
export interface SkillChoice {
  readonly name: string;
  readonly dieSize: DieSize;
}

/** The configured skills whose roll-data path gives this combatant's actor a die size (d4…d12). */
export function skillsOf(combatant: Combatant.Implementation | undefined): SkillChoice[] {
  const actor = combatant?.actor ?? null;
  if (actor === null) return [];
  const data = actor.getRollData() as Record<string, unknown>;
  return phasesSkills().flatMap((skill) => {
    const value = Roll.replaceFormulaData(skill.path, data, { warn: false });
    const dieSize = value.includes("@") ? null : dieSizeOf(value);
    return dieSize === null ? [] : [{ name: skill.name, dieSize }];
  });
}

/** What a skill roll is: the skill (from the list) or a die size picked in the tracker, and its marks. */
export interface SkillRollOptions {
  /** A skill of the list: its die size comes from the actor. */
  readonly skill?: string;
  /** A die size picked by hand (used when no skill is named). */
  readonly dieSize?: number;
  readonly gainsAdvantage?: boolean;
  /** The id of a declared attack this roll defends against. */
  readonly defendsIntent?: string;
  /** A movement made with a skill roll. */
  readonly move?: boolean;
  /** Who sees the chat card, in either generation's words or "public"/"private"/"blind"/"self" (else the roller's own mode). */
  readonly rollMode?: string;
}

function refused(
  combat: Combat.Implementation,
  result: CommandResult & { ok: false },
  detail?: RefusalDetail,
): CommandResult {
  notifyRefusal(combat, result.code, result.combatantId, detail ?? result.detail);
  return detail === undefined ? result : { ...result, detail };
}

/** Minimal HTML escaping for text typed by users that goes into a chat card's flavour. */
export function escapeText(text: string): string {
  return text.replace(
    /[&<>"']/gu,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

/** The faces of an evaluated roll's first die term, as rolled. */
function facesOf(roll: Roll): number[] {
  const die = roll.dice[0];
  if (die === undefined) return [];
  return die.results.filter((r) => r.active !== false).map((r) => r.result);
}

/**
 * Roll a skill action of the acting hero: `n` dice of the skill's die size, `n` the complexity of
 * its next skill action; posted to chat (roll mode honoured), then sent to the rules with the faces
 * rolled. The rules are asked first, so a roll they would refuse (not this hero's turn, a full pool,
 * another player's PC) rolls no die.
 */
export async function rollSkill(
  combat: Combat.Implementation,
  combatantId: string,
  options: SkillRollOptions,
): Promise<CommandResult> {
  const state = phasesState(combat);
  if (state === null) return refused(combat, { ok: false, code: "corrupted" });
  const combatant = combat.combatants.get(combatantId);
  if (combatant === undefined) return refused(combat, { ok: false, code: "unknownCombatant" });
  let dieSize: number | undefined = options.dieSize;
  const skill = options.skill === undefined || options.skill === "" ? undefined : options.skill;
  if (skill !== undefined) {
    const found = skillsOf(combatant).find((s) => s.name === skill);
    if (found === undefined) return refused(combat, { ok: false, code: "noSkillDie", combatantId }, { skill });
    dieSize = found.dieSize;
  }
  if (!isDieSize(dieSize)) return refused(combat, { ok: false, code: "invalidValue", combatantId });
  const complexity = nextComplexity(state) ?? FIRST_COMPLEXITY;
  const base = {
    type: "skillRoll",
    combatantId,
    dieSize,
    ...(skill === undefined ? {} : { skill }),
    ...(options.gainsAdvantage === true ? { gainsAdvantage: true } : {}),
    ...(options.defendsIntent === undefined || options.defendsIntent === ""
      ? {}
      : { defendsIntent: options.defendsIntent }),
    ...(options.move === true ? { move: true } : {}),
  };
  // Distinct faces in range: only the count and the range matter to the rules' early answer.
  const probe = Array.from({ length: complexity }, (_, i) => (i % dieSize) + 1);
  const early = precheck(combat, { ...base, dice: probe });
  if (early !== null && !early.ok) return refused(combat, early);
  const formula = `${String(complexity)}d${String(dieSize)}`;
  const name = combatant.name ?? "";
  const skillText = escapeText(skill ?? game.i18n.format(`${I18N}.Tracker.Phases.Die`, { size: String(dieSize) }));
  const intent = state.intents.find((i) => i.id === base.defendsIntent);
  const flavor =
    intent === undefined
      ? game.i18n.format(`${I18N}.Chat.PhasesRoll`, { name, skill: skillText, complexity: String(complexity), formula })
      : game.i18n.format(`${I18N}.Chat.PhasesDefend`, {
          name,
          skill: skillText,
          complexity: String(complexity),
          formula,
          foe: combat.combatants.get(intent.foeId)?.name ?? "",
          intent: escapeText(intent.text),
        });
  const card = { combatId: combat.id ?? "", combatantId, round: state.round, flavor };
  const posted = await rollFor(
    combat,
    { ...base, dice: probe },
    0,
    new Roll(formula),
    combatant,
    flavor,
    rollModeOf(options.rollMode),
    {
      [MODULE_ID]: { [PHASES_ROLL_FLAG]: card },
    },
  );
  if (posted === null) return { ok: false, code: "malformedCommand", combatantId };
  const message = posted.messageId;
  return submit(combat, { ...base, dice: facesOf(posted.roll), ...(message === null ? {} : { rolls: [message] }) });
}

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

/** The roll card's flag, narrowed. */
function cardOf(message: ChatMessage.Implementation): { combatId: string; combatantId: string; flavor: string } | null {
  // Read as plain data: the module declares no chat message flags to Foundry's types.
  const scope: unknown = (message.flags as unknown as Record<string, unknown>)[MODULE_ID];
  const flag: unknown =
    typeof scope === "object" && scope !== null ? (scope as Record<string, unknown>)[PHASES_ROLL_FLAG] : undefined;
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

/** What the mode adds to the API (`api.phases`). */
export const PHASES_API = {
  rollSkill,
  skillsOf: (combat: Combat.Implementation, combatantId: string): SkillChoice[] =>
    skillsOf(combat.combatants.get(combatantId)),
};
