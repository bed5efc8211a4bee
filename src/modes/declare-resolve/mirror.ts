/**
 * The `declare-resolve` mirror (ModeMirror): on the authority, the side effects of the rules' events:
 * joiners' rolls, the upkeep's hits (applied to the configured actor path or reported, announced in
 * chat, given back on undo) and the DEF change of a round as an ActiveEffect.
 */
import { I18N, MODULE_ID } from "../../constants";
import type { RuleEvent } from "../../core/engine";
import { deletePath } from "../../foundry/compat";
import { formatCount } from "../../foundry/tracker/controls";
import type { EventOrigin, ModeMirror } from "../contract";
import { defeatedMirror } from "../../foundry/defeated";
import { DR_BLED_FLAG, DR_DEF_FLAG } from "./constants";
import { defChange } from "./rules/points";
import type { DeclareResolveEvent, DeclareResolveState } from "./rules/types";
import { actorPath } from "./settings";
import { drState } from "./encounter";
import { rollIP } from "./initiative";

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

/** The `declare-resolve` mirror: the shared defeated mirror, the events' side effects, and the DEF effects' end. */
export const DR_MIRROR: ModeMirror<DeclareResolveState> = {
  ...defeatedMirror<DeclareResolveState>(declareResolveEffects),
  end: declareResolveEnd,
};
