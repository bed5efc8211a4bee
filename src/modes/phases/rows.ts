/**
 * The `phases` tracker's rows: per combatant the hero's or foe's standing, "Take turn" (or the
 * hand-off pick) for whoever may start it; in a foe's row its intents this round (as the viewer may
 * see them) and the GM's intent form; in a hero's row the press-your-luck form of its running turn,
 * its last roll and the GM's answer to its failed roll (issue 29: each in the row it concerns).
 */

import type { PhasesState } from "./rules/types";
import { handOffPicker } from "./rules/derived";
import type { ControlContext } from "../../core/ui";
import type { ModeInput, ModeRow } from "../contract";
import {
  failureContext,
  intentsOf,
  intentsShown,
  luckContext,
  P,
  rollContext,
  type FailureContext,
  type IntentContext,
  type LuckContext,
  type RollContext,
} from "./panel";

/** The `phases` part of one combatant row. */
export interface PhasesRowContext {
  readonly isPC: boolean;
  /** i18n key: "Hero" or "Foe". */
  readonly kindLabel: string;
  /** A hero that has started its turn this round (and is not acting now). */
  readonly acted: boolean;
  /** A hero still to take its turn this round (phase 2). */
  readonly toAct: boolean;
  /** A foe's intents this round, as the viewer may see them. */
  readonly intents: readonly IntentContext[];
  /** A foe that has declared, told to players while the foes declare (they see no intents yet). */
  readonly declared: boolean;
  /** The hero whose player picks who acts next (hand-off order). */
  readonly picks: boolean;
  /** The press-your-luck form of this hero's running turn, or null. */
  readonly turn: LuckContext | null;
  /** This hero's roll, the last one made, or null. */
  readonly roll: RollContext | null;
  /** This hero's failed roll waiting for the GM's answer, or null. */
  readonly failure: FailureContext | null;
  /** A live foe with no intent once the heroes act: it does nothing this round. */
  readonly idle: boolean;
  /** The GM's intent form of a foe, or null. */
  readonly form: IntentFormContext | null;
}

/** The GM's intent form of one foe (in its row). */
export interface IntentFormContext {
  readonly foeId: string;
  /** Its identity across renders: an intent's form and an extra attack's are not the same disclosure. */
  readonly key: string;
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
  /**
   * Only an extra attack is offered: rarely used, the form sits in the row's ⋯ menu rather than on
   * every foe row (issue 29), and opens in the row from there.
   */
  readonly inMenu: boolean;
  /** Localised accessible name of the row menu's button ("More for Officer"). */
  readonly menuLabel: string;
  /** The heroes it may attack, the obvious target (the only hero standing) ticked. */
  readonly targets: readonly { readonly id: string; readonly name: string; readonly checked: boolean }[];
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
    key: `${canDeclare ? "intent" : "extra"}:${foeId}`,
    summary: i18n.format(`${P}.${canDeclare ? "IntentOf" : "ExtraOf"}`, { name }),
    open: declaringNow,
    textLabel: i18n.format(`${P}.IntentTextFor`, { name }),
    kindLabel: i18n.format(`${P}.IntentKindFor`, { name }),
    targetsLabel: i18n.format(`${P}.TargetsFor`, { name }),
    canDeclare,
    inMenu: !canDeclare,
    menuLabel: i18n.format(`${P}.MoreFor`, { name }),
    targets: heroTargets(state, input),
    controls,
  };
}

/** The heroes a foe may attack; the obvious target, the only hero standing, ticked. */
function heroTargets(state: PhasesState, input: ModeInput<PhasesState>): IntentFormContext["targets"] {
  const heroes = state.combatants.filter((c) => c.isPC && !c.defeated);
  return heroes.map((c) => ({ id: c.id, name: input.nameOf(c.id), checked: heroes.length === 1 }));
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
  const { state, who } = input;
  const rows = new Map<string, ModeRow>();
  const view = input.bound.view;
  const intentsByFoe = new Map<string, IntentContext[]>();
  for (const i of intentsOf(state, input)) intentsByFoe.set(i.foeId, [...(intentsByFoe.get(i.foeId) ?? []), i]);
  const declaredFoes = new Set(state.intents.map((i) => i.foeId));
  const heroesPhase = state.started && state.phase === "heroes";
  const playersWait = !intentsShown(state, who) && state.started;
  const turn = luckContext(state, input);
  const roll = rollContext(state, input.i18n, input.nameOf);
  const failure = failureContext(state, input);
  const picker = heroesPhase ? (handOffPicker(state)?.picker ?? null) : null;
  for (const c of state.combatants) {
    const acting = state.turn?.combatantId === c.id;
    const declaring = state.started && state.phase === "foesDeclare" && view.current === c.id;
    const data: PhasesRowContext = {
      isPC: c.isPC,
      kindLabel: `${P}.${c.isPC ? "Hero" : "Foe"}`,
      acted: c.isPC && state.started && c.acted && !acting,
      toAct: c.isPC && heroesPhase && !c.acted && !c.defeated,
      intents: c.isPC ? [] : (intentsByFoe.get(c.id) ?? []),
      declared: !c.isPC && playersWait && declaredFoes.has(c.id),
      picks: picker === c.id,
      idle: !c.isPC && state.started && state.phase !== "foesDeclare" && !declaredFoes.has(c.id) && !c.defeated,
      form: c.isPC ? null : intentForm(state, c.id, input, declaring),
      turn: turn?.combatantId === c.id ? turn : null,
      roll: roll?.combatantId === c.id ? roll : null,
      failure: failure?.combatantId === c.id ? failure : null,
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
