/**
 * Foundry glue of the `declare-resolve` mode: IP rolled once per combat with Foundry's `Roll` from
 * the configured formula (posted to chat with the roll mode) and recorded through the rules;
 * declarations built from the catalogue or custom actions (each client keeps its draft until it is
 * sent); the GM's IP changes and conditions; the AP budget passed on to running encounters; and, on
 * the authority, the side effects of the rules' events: joiners' rolls, the upkeep's hits (applied
 * to the configured actor path or reported, announced in chat, given back on undo) and the DEF
 * change of a round as an ActiveEffect.
 */
import { I18N, MODULE_ID } from "../../constants";
import type { RuleEvent } from "../../core/engine";
import type { CommandResult } from "../../core/protocol";
import { applyAsAuthority, isAuthority, submit } from "../../foundry/authority/controller";
import { requesterFor, stateOf } from "../../foundry/authority/encounters";
import { askedRollMode, rolledWith, totalOf } from "../../foundry/chat";
import { rollFor } from "../../foundry/roll-for";
import { deletePath } from "../../foundry/compat";
import { formatCount } from "../../foundry/tracker/controls";
import type { EventOrigin, RollCheck } from "../contract";
import { resolveFormula, rollEach, rollTotal, shownRefusal } from "../../foundry/rolls";
import { DR_BLED_FLAG, DR_DEF_FLAG } from "./constants";
import {
  declarationLegality,
  declareResolveMode,
  defChange,
  type ActionInput,
  type DeclareResolveEvent,
  type DeclareResolveState,
  type IPChangeDuration,
} from "./rules/declare-resolve";
import { catalogueEntry, type CatalogueEntry } from "./rules/catalogue";
import { actionCatalogue, actorPath, apBudget, ipFormulas } from "./settings";

/** The declare-resolve state of a combat, or null when it is not a readable `declare-resolve` encounter. */
export function drState(combat: Combat.Implementation): DeclareResolveState | null {
  return stateOf(combat, declareResolveMode);
}

const refused = shownRefusal;

// ---------------------------------------------------------------------------------------------
// Initiative points

/** The tie-breaking modifier of an actor (a formula without dice), or null when it cannot be read. */
async function modifierOf(formula: string, data: Record<string, unknown>): Promise<number | null> {
  const resolved = resolveFormula(formula, data);
  if (resolved === null) return null;
  const roll = new Roll(resolved);
  if (roll.dice.length > 0) return null;
  await roll.evaluate();
  return rollTotal(roll);
}

/**
 * Roll the IP of these combatants from the configured formula, post each roll to chat honouring the
 * roll mode, and record it with its tie-breaking modifier. A roll the rules would refuse, a missing
 * actor or a malformed formula rolls nothing and says why.
 */
export async function rollIP(
  combat: Combat.Implementation,
  ids: readonly string[],
  options?: Combat.InitiativeOptions,
): Promise<CommandResult[]> {
  if (drState(combat) === null) return [refused(combat, { ok: false, code: "corrupted" })];
  const rollMode = askedRollMode(options);
  const formulas = ipFormulas();
  const probeOf = (combatant: Combatant.Implementation) => ({
    type: "recordIP",
    combatantId: combatant.id ?? "",
    total: 0,
    modifier: 0,
  });
  return rollEach(combat, ids, probeOf, async (combatant, actor) => {
    const probe = probeOf(combatant);
    const data = actor.getRollData();
    const formula = resolveFormula(formulas.roll, data);
    const modifier = await modifierOf(formulas.modifier, data);
    const bad = () => refused(combat, { ok: false, code: "invalidFormula", combatantId: probe.combatantId });
    // Nothing is rolled unless both formulas can be read.
    if (formula === null || modifier === null) return bad();
    const flavor = game.i18n.format(`${I18N}.Chat.DeclareResolveIP`, { name: combatant.name ?? "" });
    const posted = await rollFor(combat, probe, 0, new Roll(formula), combatant, flavor, rollMode);
    if (posted === null) return { ok: false, code: "malformedCommand", combatantId: probe.combatantId };
    const total = rollTotal(posted.roll);
    if (total === null) return bad();
    const message = posted.messageId;
    return submit(combat, { ...probe, total, modifier, ...(message === null ? {} : { rolls: [message] }) });
  });
}

/**
 * The check of a player's IP (`rolledResults`): its one chat roll is the configured formula for that
 * actor, with the command's total, and the modifier is the configured modifier's.
 */
export const DECLARE_RESOLVE_ROLL_CHECKS: Readonly<Record<string, RollCheck>> = {
  async recordIP(combat, command, rolls) {
    const { combatantId, total, modifier } = command as { combatantId?: unknown; total?: unknown; modifier?: unknown };
    const actor = typeof combatantId === "string" ? combat.combatants.get(combatantId)?.actor : undefined;
    const [roll] = rolls;
    if (actor === undefined || actor === null || roll === undefined || rolls.length !== 1) return false;
    const data = actor.getRollData();
    const formulas = ipFormulas();
    const formula = resolveFormula(formulas.roll, data);
    const expected = await modifierOf(formulas.modifier, data);
    return formula !== null && rolledWith(roll, formula) && totalOf(roll) === total && expected === modifier;
  },
};

/** The combatants "roll all" (or "roll NPCs") rolls for: the current user's, still without IP. */
export function ipToRoll(combat: Combat.Implementation, npcsOnly: boolean): string[] {
  const state = drState(combat);
  if (state === null) return [];
  return state.combatants
    .filter((c) => c.ip === null && !c.defeated)
    .map((c) => c.id)
    .filter((id) => {
      const combatant = combat.combatants.get(id);
      return combatant !== undefined && combatant.isOwner && (!npcsOnly || combatant.isNPC);
    });
}

// ---------------------------------------------------------------------------------------------
// Declarations

/** An action as the API takes it: a catalogue entry by name, or a custom action. */
export type ActionChoice = { readonly catalogue: string } | ActionInput;

/** A catalogue choice or custom action as the rules take it; null for an unknown catalogue entry. */
export function toActionInput(choice: unknown, catalogue: readonly CatalogueEntry[]): ActionInput | null {
  if (typeof choice !== "object" || choice === null) return null;
  const c = choice as Record<string, unknown>;
  if (typeof c.catalogue === "string") {
    const entry = catalogueEntry(catalogue, c.catalogue);
    return entry === undefined ? null : { ...entry };
  }
  const cost =
    typeof c.cost === "number" ? c.cost : typeof c.cost === "string" && c.cost.trim() !== "" ? Number(c.cost) : NaN;
  const def = typeof c.def === "number" ? c.def : typeof c.def === "string" && c.def.trim() !== "" ? Number(c.def) : 0;
  return {
    name: typeof c.name === "string" ? c.name : "",
    cost,
    kind: typeof c.kind === "string" ? c.kind : "",
    def,
  };
}

/**
 * Declare for a combatant: catalogue entries by name (`{catalogue: "Dodge"}`) or custom actions
 * (`{name, cost, kind, def?}`), in order; an empty list declares no actions.
 */
export async function declareActions(
  combat: Combat.Implementation,
  combatantId: string,
  choices: readonly unknown[],
): Promise<CommandResult> {
  const catalogue = actionCatalogue();
  const actions: ActionInput[] = [];
  for (const choice of choices) {
    const action = toActionInput(choice, catalogue);
    if (action === null) return refused(combat, { ok: false, code: "unknownAction", combatantId });
    actions.push(action);
  }
  const result = await submit(combat, { type: "declare", combatantId, actions: actions.map((a) => ({ ...a })) });
  if (result.ok) clearDraft(combat, combatantId);
  return result;
}

/** Each client's declarations being put together, by combat, combatant and round. */
const drafts = new Map<string, ActionInput[]>();

function draftKey(combat: Combat.Implementation, combatantId: string): string {
  return `${combat.id ?? ""}|${combatantId}|${drState(combat)?.round ?? 0}`;
}

/** The actions picked so far for a combatant's declaration on this client. */
export function draftOf(combat: Combat.Implementation, combatantId: string): readonly ActionInput[] {
  return drafts.get(draftKey(combat, combatantId)) ?? [];
}

function rerender(): Promise<unknown> {
  return ui.combat.render();
}

/**
 * Add an action to the draft (checked first: an unnamed action or a bad cost is refused with its
 * message and not added). The tracker shows the draft's AP total and legality.
 */
export function addToDraft(combat: Combat.Implementation, combatantId: string, choice: unknown): Promise<unknown> {
  const state = drState(combat);
  const action = toActionInput(choice, actionCatalogue());
  if (state === null) return Promise.resolve(refused(combat, { ok: false, code: "corrupted" }));
  if (action === null) return Promise.resolve(refused(combat, { ok: false, code: "unknownAction", combatantId }));
  const checked = declarationLegality(state, combatantId, [action]);
  if (!checked.ok && checked.refusal.code !== "apOverBudget" && checked.refusal.code !== "actionTooLong") {
    return Promise.resolve(refused(combat, { ok: false, code: checked.refusal.code, combatantId }));
  }
  const key = draftKey(combat, combatantId);
  drafts.set(key, [...(drafts.get(key) ?? []), action]);
  return rerender();
}

/** Take the action at `index` out of the draft. */
export function removeFromDraft(combat: Combat.Implementation, combatantId: string, index: number): Promise<unknown> {
  const key = draftKey(combat, combatantId);
  drafts.set(
    key,
    (drafts.get(key) ?? []).filter((_, i) => i !== index),
  );
  return rerender();
}

function clearDraft(combat: Combat.Implementation, combatantId: string): void {
  drafts.delete(draftKey(combat, combatantId));
}

/** Send the draft as the combatant's declaration. */
export function declareDraft(combat: Combat.Implementation, combatantId: string): Promise<CommandResult> {
  return declareActions(combat, combatantId, draftOf(combat, combatantId));
}

// ---------------------------------------------------------------------------------------------
// The GM's changes

function wholeOrNaN(text: string): number {
  return /^\s*[+-]?\d+\s*$/.test(text) ? Number(text) : Number.NaN;
}

/** A temporary IP change as the tracker's fields give it: cause, amount and duration (GM). */
export function addIPChange(
  combat: Combat.Implementation,
  combatantId: string,
  cause: string,
  amount: string,
  duration: string,
  rounds: string,
): Promise<CommandResult> {
  const span: IPChangeDuration =
    duration === "untilRemoved"
      ? { kind: "untilRemoved" }
      : duration === "rounds"
        ? { kind: "rounds", rounds: wholeOrNaN(rounds) }
        : { kind: "round" };
  if (span.kind === "rounds" && !Number.isInteger(span.rounds)) {
    return Promise.resolve(refused(combat, { ok: false, code: "invalidValue", combatantId }));
  }
  return submit(combat, { type: "addIPChange", combatantId, cause, amount: wholeOrNaN(amount), duration: span });
}

/** A combatant's bleeding, dazed and stunned as the tracker's fields give them (GM). */
export function setConditions(
  combat: Combat.Implementation,
  combatantId: string,
  values: { bleeding: string; dazed: string; stunned: string },
): Promise<CommandResult> {
  const number = (text: string): number => (text.trim() === "" ? 0 : wholeOrNaN(text));
  const command = {
    type: "setConditions",
    combatantId,
    bleeding: number(values.bleeding),
    dazed: number(values.dazed),
    stunned: number(values.stunned),
  };
  if (![command.bleeding, command.dazed, command.stunned].every(Number.isFinite)) {
    return Promise.resolve(refused(combat, { ok: false, code: "invalidValue", combatantId }));
  }
  return submit(combat, command);
}

/**
 * The GM changed the world's AP budget: the active GM passes it on to every `declare-resolve`
 * encounter where the rules allow it (before the round's first declaration).
 */
export async function applyBudget(): Promise<void> {
  if (!isAuthority()) return;
  const budget = apBudget();
  for (const combat of game.combats.contents) {
    const state = drState(combat);
    if (state === null || state.budget === budget) continue;
    await applyAsAuthority(combat, { type: "setBudget", budget }, requesterFor(combat, game.user), null);
  }
}

// ---------------------------------------------------------------------------------------------
// Side effects on the authority

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** "1 hit" / "2 hits": `count` in the plural form of the user's language (`<key>.one`, `.few`…). */
export function plural(key: string, count: number, data: Record<string, string> = {}): string {
  return formatCount(game.i18n, key, count, data, game.i18n.lang);
}

const U = `${I18N}.Chat.DeclareResolveUpkeep`;

/** A number at an actor's data path, or null. */
function numberAt(actor: Actor.Implementation, path: string): number | null {
  const value: unknown = foundry.utils.getProperty(actor, path);
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

interface Bled {
  readonly hits: number;
  /** The path the hits were taken from; "" when they were reported for the GM to apply. */
  readonly path: string;
}

function bledKey(combat: Combat.Implementation, round: number): string {
  return `${combat.id ?? ""}_${round}`;
}

function bledOf(actor: Actor.Implementation): Record<string, Bled> {
  const value: unknown = foundry.utils.getProperty(actor, `flags.${MODULE_ID}.${DR_BLED_FLAG}`);
  return typeof value === "object" && value !== null ? (value as Record<string, Bled>) : {};
}

async function postCard(lines: readonly string[], heading: string): Promise<void> {
  if (lines.length === 0) return;
  const items = lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("");
  await ChatMessage.create({
    content: `<div class="${MODULE_ID} si-dr-card"><h4>${escapeHtml(heading)}</h4><ul>${items}</ul></div>`,
    flavor: heading,
    speaker: { alias: game.i18n.localize(`${I18N}.Mode.declare-resolve`) },
  });
}

/** The upkeep of `round`: hits removed (or reported), dazed and stunned ticked down, announced in chat. */
async function applyUpkeep(combat: Combat.Implementation, events: readonly DeclareResolveEvent[]): Promise<void> {
  const path = actorPath("drHitsPath");
  const lines: string[] = [];
  let round = 0;
  for (const event of events) {
    if (event.type !== "upkeepApplied" || event.combatantId === undefined) continue;
    round = event.round ?? round;
    const combatant = combat.combatants.get(event.combatantId);
    const name = combatant?.name ?? "";
    const hits = event.hits ?? 0;
    const ended = (condition: "dazed" | "stunned"): boolean =>
      events.some(
        (e) => e.type === "conditionEnded" && e.combatantId === event.combatantId && e.condition === condition,
      );
    const parts: string[] = [];
    const actor = combatant?.actor ?? null;
    if (hits > 0) {
      const current = actor === null || path === "" ? null : numberAt(actor, path);
      if (actor !== null && current !== null) {
        const bled: Bled = { hits, path };
        await actor.update({
          [path]: current - hits,
          [`flags.${MODULE_ID}.${DR_BLED_FLAG}.${bledKey(combat, round)}`]: bled,
        });
        parts.push(plural(`${U}.Lost`, hits, { value: String(current - hits) }));
      } else {
        if (actor !== null) {
          const bled: Bled = { hits, path: "" };
          await actor.update({ [`flags.${MODULE_ID}.${DR_BLED_FLAG}.${bledKey(combat, round)}`]: bled });
        }
        parts.push(plural(`${U}.Report`, hits));
      }
    }
    for (const condition of ["dazed", "stunned"] as const) {
      const after = event[condition] ?? 0;
      if (ended(condition)) parts.push(game.i18n.localize(`${U}.Ended.${condition}`));
      else if (after > 0) parts.push(game.i18n.format(`${U}.Down.${condition}`, { value: String(after) }));
    }
    if (parts.length > 0) lines.push(game.i18n.format(`${U}.Line`, { name, what: parts.join("; ") }));
  }
  await postCard(lines, game.i18n.format(`${U}.Heading`, { round: String(round) }));
}

/** An undo went back to `round` or earlier: the hits taken by the upkeeps undone are given back. */
async function undoUpkeeps(combat: Combat.Implementation, round: number): Promise<void> {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const combatant of combat.combatants.contents) {
    const actor = combatant.actor;
    if (actor === null || seen.has(actor.uuid)) continue;
    seen.add(actor.uuid);
    const update: Record<string, unknown> = {};
    for (const [key, bled] of Object.entries(bledOf(actor))) {
      const [combatId, at] = key.split("_");
      if (combatId !== combat.id || Number(at) < round) continue;
      Object.assign(update, deletePath(`flags.${MODULE_ID}.${DR_BLED_FLAG}.${key}`));
      const current = bled.path === "" ? null : numberAt(actor, bled.path);
      const name = combatant.name ?? "";
      if (current !== null) {
        update[bled.path] = current + bled.hits;
        lines.push(plural(`${U}.Restored`, bled.hits, { name }));
      } else lines.push(plural(`${U}.RestoreByHand`, bled.hits, { name }));
    }
    if (Object.keys(update).length > 0) await actor.update(update);
  }
  await postCard(lines, game.i18n.localize(`${U}.Undone`));
}

interface DefMark {
  readonly combatId: string;
  readonly combatantId: string;
  readonly round: number;
  readonly amount: number;
}

function defMarkOf(effect: ActiveEffect.Implementation): DefMark | null {
  const value: unknown = foundry.utils.getProperty(effect, `flags.${MODULE_ID}.${DR_DEF_FLAG}`);
  return typeof value === "object" && value !== null ? (value as DefMark) : null;
}

/** Foundry's "add" change mode (CONST.ACTIVE_EFFECT_MODES.ADD). */
const ADD_MODE = 2;

/**
 * The round's DEF changes as ActiveEffects on the actors (when a DEF path is set): each combatant
 * with a declared DEF change this round has one, which goes when the round ends or the declaration
 * is undone. Only what differs is written.
 */
async function syncDefEffects(combat: Combat.Implementation): Promise<void> {
  const path = actorPath("drDefPath");
  const state = drState(combat);
  if (path === "" || state === null) return;
  for (const combatant of combat.combatants.contents) {
    const actor = combatant.actor;
    const c = state.combatants.find((x) => x.id === combatant.id);
    if (actor === null || c === undefined) continue;
    const amount = c.defeated ? 0 : defChange(state, c);
    const mine = actor.effects.contents.filter((e) => {
      const mark = defMarkOf(e);
      return mark !== null && mark.combatId === combat.id && mark.combatantId === c.id;
    });
    const keep = mine.find((e) => defMarkOf(e)?.round === state.round && defMarkOf(e)?.amount === amount);
    const stale = mine.filter((e) => e !== keep || amount === 0).map((e) => e.id ?? "");
    if (stale.length > 0) await actor.deleteEmbeddedDocuments("ActiveEffect", stale);
    if (amount === 0 || keep !== undefined) continue;
    const mark: DefMark = { combatId: combat.id ?? "", combatantId: c.id, round: state.round, amount };
    const sign = amount > 0 ? `+${amount}` : String(amount);
    await actor.createEmbeddedDocuments("ActiveEffect", [
      {
        name: game.i18n.format(`${I18N}.Tracker.DeclareResolve.DefEffect`, { def: sign }),
        changes: [{ key: path, mode: ADD_MODE, value: String(amount) }],
        duration: { combat: combat.id, rounds: 1, startRound: state.round },
        flags: { [MODULE_ID]: { [DR_DEF_FLAG]: mark } },
      },
    ] as never);
  }
}

/** The encounter ended (active GM): its DEF effects come off the actors. */
export async function declareResolveEnd(combat: Combat.Implementation): Promise<void> {
  for (const combatant of combat.combatants.contents) {
    const actor = combatant.actor;
    if (actor === null) continue;
    const mine = actor.effects.contents.filter((e) => defMarkOf(e)?.combatId === combat.id).map((e) => e.id ?? "");
    if (mine.length > 0) await actor.deleteEmbeddedDocuments("ActiveEffect", mine);
  }
}

const DEF_EVENTS = new Set(["declared", "roundStarted", "rewound", "defeatedChanged", "combatStarted"]);

/**
 * Side effects of applied events on the authority: an NPC joining after the start rolls its IP;
 * the upkeep's hits and its chat card; an undo gives back the hits of the upkeeps it undid; the
 * round's DEF effects follow the declarations.
 */
export async function declareResolveEffects(
  combat: Combat.Implementation,
  events: readonly RuleEvent[],
  origin: EventOrigin,
): Promise<void> {
  const list = events as readonly DeclareResolveEvent[];
  const state = drState(combat);
  if (state === null) return;
  if (origin === "reconcile" && state.phase !== "setup") {
    const joiners = list.flatMap((e) =>
      e.type === "combatantAdded" && e.combatantId !== undefined && combat.combatants.get(e.combatantId)?.isNPC === true
        ? [e.combatantId]
        : [],
    );
    // Not awaited: the roll goes through the authority's queue, which is running this.
    if (joiners.length > 0) void rollIP(combat, joiners);
  }
  if (list.some((e) => e.type === "upkeepApplied")) await applyUpkeep(combat, list);
  const rewound = events.find((e) => e.type === "rewound");
  if (rewound !== undefined) await undoUpkeeps(combat, rewound.round ?? state.round);
  if (list.some((e) => DEF_EVENTS.has(e.type))) await syncDefEffects(combat);
}
