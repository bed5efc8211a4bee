/**
 * The `phases` tracker's rows: per combatant the hero's or foe's standing, "Take turn" (or the
 * hand-off pick) for whoever may start it, and the GM's intent form of each foe.
 */

import type { PhasesState } from "./rules/types";
import type { ControlContext } from "../../core/ui";
import type { ModeInput, ModeRow } from "../contract";
import { P, plural } from "./panel";

/** The `phases` part of one combatant row. */
export interface PhasesRowContext {
  readonly isPC: boolean;
  /** i18n key: "Hero" or "Foe". */
  readonly kindLabel: string;
  /** A hero that has started its turn this round (and is not acting now). */
  readonly acted: boolean;
  /** A hero still to take its turn this round (phase 2). */
  readonly toAct: boolean;
  /** Localised "2 intents" of a foe, as the viewer may see them, or "". */
  readonly intents: string;
  /** A live foe with no intent once the heroes act: it does nothing this round. */
  readonly idle: boolean;
  /** The GM's intent form of a foe, or null. */
  readonly form: IntentFormContext | null;
}

/** The GM's intent form of one foe (in its row). */
export interface IntentFormContext {
  readonly foeId: string;
  /** Localised summary of the disclosure ("Intent of Officer"). */
  readonly summary: string;
  /** Rendered open: the foe whose intent is awaited now. */
  readonly open: boolean;
  /** Localised accessible names of the fields. */
  readonly textLabel: string;
  readonly kindLabel: string;
  readonly targetsLabel: string;
  /** The kind select is offered (an extra attack bought with Collapse is always an attack). */
  readonly canDeclare: boolean;
  readonly targets: readonly { readonly id: string; readonly name: string }[];
  readonly controls: readonly ControlContext[];
}

/** The GM's intent form of a foe, when the rules allow a declaration or an extra attack for it now. */
export function intentForm(
  state: PhasesState,
  foeId: string,
  input: ModeInput<PhasesState>,
  declaringNow: boolean,
): IntentFormContext | null {
  const { allowed, i18n, nameOf, control, who } = input;
  if (!who.isGM) return null;
  const canDeclare = allowed.for(foeId, "declareIntent");
  const canExtra = allowed.for(foeId, "spendCollapse");
  if (!canDeclare && !canExtra) return null;
  const name = nameOf(foeId);
  const base = { name, combatantId: foeId };
  const controls: ControlContext[] = [];
  if (canDeclare)
    controls.push(
      control({
        ...base,
        action: "siPhasesDeclare",
        label: "Phases.Declare",
        aria: "Phases.DeclareFor",
        primary: true,
      }),
    );
  if (canExtra)
    controls.push(
      control({ ...base, action: "siPhasesExtraAttack", label: "Phases.ExtraAttack", aria: "Phases.ExtraAttackFor" }),
    );
  return {
    foeId,
    summary: i18n.format(`${P}.${canDeclare ? "IntentOf" : "ExtraOf"}`, { name }),
    open: declaringNow,
    textLabel: i18n.format(`${P}.IntentTextFor`, { name }),
    kindLabel: i18n.format(`${P}.IntentKindFor`, { name }),
    targetsLabel: i18n.format(`${P}.TargetsFor`, { name }),
    canDeclare,
    targets: state.combatants.filter((c) => c.isPC && !c.defeated).map((c) => ({ id: c.id, name: nameOf(c.id) })),
    controls,
  };
}

export function heroControls(state: PhasesState, id: string, input: ModeInput<PhasesState>): ControlContext[] {
  const { allowed, nameOf, control } = input;
  const base = { name: nameOf(id), combatantId: id, primary: true };
  if (state.handOff)
    return allowed.for(id, "pickNext")
      ? [control({ ...base, action: "siPhasesPick", label: "Phases.Pick", aria: "Phases.PickFor" })]
      : [];
  return allowed.for(id, "startTurn")
    ? [control({ ...base, action: "siPhasesTakeTurn", label: "Phases.TakeTurn", aria: "Phases.TakeTurnFor" })]
    : [];
}

/** Every combatant's row: its standing, its turn control (heroes) or the GM's intent form (foes). */
export function phasesRows(input: ModeInput<PhasesState>): Map<string, ModeRow> {
  const { state, who, i18n } = input;
  const rows = new Map<string, ModeRow>();
  const view = input.bound.view;
  const intentsSeen = who.isGM || (state.started && state.phase !== "foesDeclare");
  const intentCount = new Map<string, number>();
  for (const i of state.intents) intentCount.set(i.foeId, (intentCount.get(i.foeId) ?? 0) + 1);
  const heroesPhase = state.started && state.phase === "heroes";
  for (const c of state.combatants) {
    const acting = state.turn?.combatantId === c.id;
    const count = intentCount.get(c.id) ?? 0;
    const declaring = state.started && state.phase === "foesDeclare" && view.current === c.id;
    const data: PhasesRowContext = {
      isPC: c.isPC,
      kindLabel: `${P}.${c.isPC ? "Hero" : "Foe"}`,
      acted: c.isPC && state.started && c.acted && !acting,
      toAct: c.isPC && heroesPhase && !c.acted && !c.defeated,
      intents: !c.isPC && intentsSeen && count > 0 ? plural(i18n, `${P}.IntentCount`, count) : "",
      idle: !c.isPC && state.started && state.phase !== "foesDeclare" && count === 0 && !c.defeated,
      form: c.isPC ? null : intentForm(state, c.id, input, declaring),
    };
    rows.set(c.id, {
      initiative: null,
      controls: c.isPC ? heroControls(state, c.id, input) : [],
      acted: data.acted,
      data,
    });
  }
  return rows;
}
