/**
 * The `declare-resolve` tracker's panel (RULES.md §3), kept to a line or two above the rows: the AP
 * budget and a one-line hint of the step, the resolution and extra-attack queues in a disclosure,
 * the GM's upkeep button, and the live region; and the set-up controls. The declaration form, the
 * ties and what the upkeep does sit in the rows they concern (rows.ts, declare-form.ts). Every
 * decision is made here; the panel template only loops, branches and localises.
 */
import { I18N } from "../../constants";
import { currentStep, currentTurn } from "./rules/derived";
import { extraAttackQueue, resolutionQueue, upkeepPreview, type ResolutionTurn } from "./rules/resolution";
import type { DeclareResolveState } from "./rules/types";
import { actionName, counted, D, K } from "./chips";
import { upkeepWhat } from "./rows";
import { pendingTies } from "./rules/points";
import { pluralCategory, remembered } from "../../foundry/tracker/controls";
import type { ControlContext, Localiser } from "../../core/ui";
import type { KeyedEntry } from "../../foundry/tracker/dom-patch";
import type { ModeInput } from "../contract";

/** An entry of a queue (found again across renders by `keepKey`). */
export interface QueueEntryContext extends KeyedEntry {
  readonly name: string;
  readonly actions: string;
  readonly now: boolean;
  /** Localised pass: "finishing", "initial actions", "2nd attack". */
  readonly passText: string;
}

/** The `declare-resolve` panel. */
export interface DrPanelContext {
  /** i18n key of the step (the panel shows it: the glance strip shows no step pill). */
  readonly stepLabel: string;
  /** Localised one-line hint of the step, or "" where the GM's upkeep button says it. */
  readonly stepHint: string;
  /** Localised "5 AP a round" while the budget matters (before the start and while declaring), or "". */
  readonly budget: string;
  /** Localised "Resolution order (6)": the summary of the queues' disclosure. */
  readonly queueSummary: string;
  readonly queue: readonly QueueEntryContext[];
  readonly extraQueue: readonly QueueEntryContext[];
  /** Either queue has an entry: the disclosure is shown. */
  readonly hasQueues: boolean;
  /** What the upkeep does, one line per combatant it changes (the rows show each their own). */
  readonly upkeep: readonly string[];
  readonly isUpkeep: boolean;
  readonly upkeepControl: ControlContext | null;
  /** What the tracker's live region announces (the upkeep, a tie waiting). */
  readonly live: string;
}

/** The pass of a turn, localised; the k-th attack with its English-style ordinal form (`Pass.extra.<form>`). */
function passText(pass: number, i18n: Localiser): string {
  if (pass === 0) return i18n.localize(`${K}.Pass.finishing`);
  if (pass === 1) return i18n.localize(`${K}.Pass.initial`);
  const form = pluralCategory(game.i18n.lang, pass, "ordinal");
  return i18n.format(`${K}.Pass.extra.${form}`, { pass: String(pass) });
}

/** A queue's entries, the current turn marked. */
function queueEntries(
  turns: readonly ResolutionTurn[],
  nameOf: (id: string) => string,
  current: ResolutionTurn | null,
  i18n: Localiser,
): QueueEntryContext[] {
  // Most turns share their actions and pass: each text is formatted once.
  const actionsText = remembered(
    (name: string, cost: number) => `${actionName(i18n, name)} (${counted(i18n, `${K}.AP`, cost)})`,
  );
  const passOf = remembered((pass: number) => passText(pass, i18n));
  return turns.map((t) => ({
    keepKey: `dr-turn:${t.combatantId}:${t.pass}`,
    name: nameOf(t.combatantId),
    actions: t.actions.map((a) => actionsText(a.name, a.cost)).join(", "),
    now: current !== null && t.combatantId === current.combatantId && t.pass === current.pass,
    passText: passOf(t.pass),
  }));
}

/** The upkeep the GM confirms, one line per combatant it changes, during the upkeep; else none. */
function upkeepLines(input: ModeInput<DeclareResolveState>): string[] {
  const { state, i18n, nameOf } = input;
  return state.phase === "upkeep"
    ? upkeepPreview(state).map((entry) =>
        i18n.format(`${K}.UpkeepLine`, { name: nameOf(entry.combatantId), what: upkeepWhat(input, entry) }),
      )
    : [];
}

/** The set-up controls: "roll all" while more than one may roll, and start. */
export function drSetupControls({ state, allowed, control }: ModeInput<DeclareResolveState>): ControlContext[] {
  const setupControls: ControlContext[] = [];
  const rollable = state.combatants.filter((c) => c.ip === null && !c.defeated && allowed.for(c.id, "recordIP"));
  if (rollable.length > 1) setupControls.push(control({ action: "siDrRollAll", label: "RollAll" }));
  if (allowed.has("start")) setupControls.push(control({ action: "siStart", label: "Start", primary: true }));
  return setupControls;
}

/** The panel. */
export function drPanel(input: ModeInput<DeclareResolveState>): DrPanelContext {
  const { state, allowed, i18n, nameOf, control } = input;
  const text = (key: string, data: Record<string, string> = {}): string => i18n.format(`${K}.${key}`, data);
  const turn = currentTurn(state);
  // The queues while the actions resolve (while declaring, each row shows its own actions).
  const resolving = state.phase === "resolve";
  const queue = resolving
    ? queueEntries(
        resolutionQueue(state).filter((t) => t.pass < 2),
        nameOf,
        turn,
        i18n,
      )
    : [];
  const extraQueue = resolving ? queueEntries(extraAttackQueue(state), nameOf, turn, i18n) : [];
  const isUpkeep = state.phase === "upkeep";
  const upkeep = upkeepLines(input);
  const live = isUpkeep
    ? [text("UpkeepAnnounce", { round: String(state.round) }), ...upkeep].join(" ")
    : pendingTies(state).length > 0
      ? text("TiesAnnounce")
      : "";
  const step = currentStep(state);
  const upkeepControl = allowed.has("upkeep")
    ? control({ action: "siDrUpkeep", label: `${D}.ConfirmUpkeep`, primary: true })
    : null;
  return {
    stepLabel: `${I18N}.Step.${step}`,
    stepHint: upkeepControl === null ? text(`StepHint.${step}`) : "",
    budget: step === "setup" || step === "declare" ? counted(i18n, `${K}.Budget`, state.budget) : "",
    queueSummary: text("QueueSummary", { count: String(queue.length + extraQueue.length) }),
    queue,
    extraQueue,
    hasQueues: queue.length + extraQueue.length > 0,
    upkeep,
    isUpkeep,
    upkeepControl,
    live,
  };
}
