/**
 * The `slots` tracker's rows (RULES.md §4): per combatant, its kind, the skill of its check, the
 * check's scores, acted or still to act, the slot it claimed, and the controls the rules allow the
 * viewer (roll or re-roll; the GM's skill choice before the start; in its body, the slot buttons:
 * claim, fill, release).
 */
import { canAct, slotsView } from "./rules/derived";
import type { SlotsCombatant, SlotsState } from "./rules/types";
import { skillOf as slotSkillOf } from "./initiative";
import type { ControlContext } from "../../core/ui";
import type { ModeInput, ModeRow } from "../contract";
import { S, slotButtons, type SlotButtonContext, type SlotsTexts } from "./panel";

/** The `slots` part of one combatant row. */
export interface SlotsRowContext {
  readonly isPC: boolean;
  /** i18n key: "PC" or "NPC". */
  readonly kindLabel: string;
  /** i18n key of the check's skill. */
  readonly skillLabel: string;
  readonly showSkill: boolean;
  readonly needsRoll: boolean;
  /** The GM typed the check instead of rolling it. */
  readonly typed: boolean;
  readonly hasCheck: boolean;
  /** Localised scores of its check ("2 successes, 1 advantage"). */
  readonly scores: string;
  /** Filled a slot this round. */
  readonly acted: boolean;
  /** Can still fill a slot this round. */
  readonly toAct: boolean;
  /** Localised "claimed slot N", or "". */
  readonly claim: string;
  /** The slot buttons on this row (claim, fill, release), in slot order. */
  readonly slotButtons: readonly SlotButtonContext[];
  readonly hasSlotButtons: boolean;
}

function isSkill(value: string | null | undefined): value is "cool" | "vigilance" {
  return value === "cool" || value === "vigilance";
}

/** A row's controls: roll (or re-roll before the start), and the GM's skill choice before the start. */
function rowControls(c: SlotsCombatant, input: ModeInput<SlotsState>, skill: string): ControlContext[] {
  const { state, allowed, who, nameOf, control } = input;
  const base = { name: nameOf(c.id), combatantId: c.id };
  const controls: ControlContext[] = [];
  if (allowed.for(c.id, "recordCheck") && (c.check === null || !state.started))
    controls.push(
      control({
        ...base,
        action: "siRoll",
        label: c.check === null ? "Roll" : "Slots.Reroll",
        aria: c.check === null ? "RollFor" : "Slots.RerollFor",
        primary: c.check === null,
      }),
    );
  if (who.isGM && !state.started) {
    for (const [value, action] of [
      ["cool", "siSlotCool"],
      ["vigilance", "siSlotVigilance"],
    ] as const) {
      controls.push(
        control({
          ...base,
          action,
          label: `Slots.Skill.${value}`,
          aria: `Slots.SkillFor.${value}`,
          toggle: true,
          pressed: skill === value,
        }),
      );
    }
  }
  return controls;
}

/** The rows of every combatant, by id. */
export function slotsRows(input: ModeInput<SlotsState>, texts: SlotsTexts): Map<string, ModeRow> {
  const { state, combat } = input;
  const rows = new Map<string, ModeRow>();
  const skillOf = (id: string): string => slotSkillOf(combat.combatants.get(id));
  const view = slotsView(state);
  const currentFiller = view.find((s) => s.current)?.filledBy ?? null;
  const actedIds = new Set(state.acted);
  const claimOfId = new Map<string, number>();
  for (const s of view) if (s.claimedBy !== null) claimOfId.set(s.claimedBy, s.index);
  const buttons = slotButtons(input, texts);

  for (const c of state.combatants) {
    const controls = rowControls(c, input, skillOf(c.id));
    // Acted this round; the combatant filling the current slot is acting, not done.
    const acted = state.started && actedIds.has(c.id) && c.id !== currentFiller;
    const claim = claimOfId.get(c.id);
    const data: SlotsRowContext = {
      isPC: c.isPC,
      kindLabel: c.isPC ? `${S}.PC` : `${S}.NPC`,
      // Before the start the GM's choice (the next roll uses it); after it, the skill rolled.
      skillLabel: `${S}.Skill.${state.started && isSkill(c.check?.skill) ? c.check.skill : skillOf(c.id)}`,
      showSkill: c.check !== null || !state.started,
      needsRoll: c.check === null && !c.defeated,
      hasCheck: c.check !== null,
      typed: c.check?.typed === true,
      scores: c.check === null ? "" : texts.scoresText(c.check.primary, c.check.secondary),
      acted,
      toAct: state.started && canAct(state, c),
      claim: claim === undefined ? "" : texts.format("ClaimedSlot", { number: String(claim + 1) }),
      slotButtons: buttons.get(c.id) ?? [],
      hasSlotButtons: buttons.has(c.id),
    };
    rows.set(c.id, { initiative: null, controls, acted, data });
  }
  return rows;
}
