/**
 * The `phases` mode's skill rolls: the skill list read from each actor's roll data, and a skill action
 * rolled as a real Foundry roll of `n` dice of the skill's die size, posted to chat with the roll mode
 * and recorded through the rules with the faces read from the roll (the rules check them against the
 * complexity: a forged roll is refused).
 */

import { I18N, MODULE_ID } from "../../constants";
import { PHASES_ROLL_FLAG } from "./constants";
import { type DieSize, FIRST_COMPLEXITY } from "./rules/types";
import { isDieSize } from "./rules/dice";
import { nextComplexity } from "./rules/derived";
import { precheck, submit } from "../../foundry/authority/controller";
import { rollFor } from "../../foundry/roll-for";
import { rollModeOf } from "../../foundry/compat";
import { shownRefusal } from "../../foundry/notify";
import type { CommandResult } from "../../core/protocol";
import { phasesSkills } from "./settings";
import { dieSizeOf } from "./rules/skills";
import { escapeText } from "./mirror";
import { phasesState } from "./encounter";

/** Refusal codes of the phases glue (each has a message). */
export const PHASES_GLUE_REFUSALS = [
  /** The skill is not in the skill list, or the actor's data gives it no die size; `{skill}`. */
  "noSkillDie",
] as const;

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

/** The faces of an evaluated roll's first die term, as rolled. */
export function facesOf(roll: Roll): number[] {
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
  if (state === null) return shownRefusal(combat, { ok: false, code: "corrupted" });
  const combatant = combat.combatants.get(combatantId);
  if (combatant === undefined) return shownRefusal(combat, { ok: false, code: "unknownCombatant" });
  let dieSize: number | undefined = options.dieSize;
  const skill = options.skill === undefined || options.skill === "" ? undefined : options.skill;
  if (skill !== undefined) {
    const found = skillsOf(combatant).find((s) => s.name === skill);
    if (found === undefined)
      return shownRefusal(combat, { ok: false, code: "noSkillDie", combatantId, detail: { skill } });
    dieSize = found.dieSize;
  }
  if (!isDieSize(dieSize)) return shownRefusal(combat, { ok: false, code: "invalidValue", combatantId });
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
  if (early !== null && !early.ok) return shownRefusal(combat, early);
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
