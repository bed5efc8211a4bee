/** Listeners of Foundry's document hooks (named functions, attached in `src/index.ts`). */
import { FLAGS, MIRROR_OPTION, MODULE_ID, SYSTEM_DEFAULT } from "../../constants";
import {
  dropRequestsOf,
  handleRequest,
  isAuthority,
  onAuthorityChange,
  onInitiativeWritten,
  onTurnWritten,
  reconcileRoster,
} from "./controller";
import { isStructured, moduleOfCombat } from "./encounters";
import { guardCombatant, isGMUser, rememberGuarded } from "./guard";
import { tracksDefeat } from "../defeated";
import { bindingOf, isModeSetting } from "../modes";
import { defaultMode } from "../settings";
import { logError } from "../notify";

function moduleFlags(changed: object): Record<string, unknown> | undefined {
  const flags = (changed as { flags?: Record<string, unknown> }).flags?.[MODULE_ID];
  return typeof flags === "object" && flags !== null ? (flags as Record<string, unknown>) : undefined;
}

/**
 * `preCreateCombat` (creating client only): a new encounter gets the mode chosen at creation, or the
 * world's default, and a fresh structured state — written with the creation, no extra update.
 */
export function onPreCreateCombat(combat: Combat.Implementation, data: object): void {
  const chosen = moduleFlags(data)?.[FLAGS.mode];
  const mode = isModeSetting(chosen) ? chosen : defaultMode();
  const binding = bindingOf(mode);
  const flags: Record<string, unknown> = { [FLAGS.mode]: binding === null ? SYSTEM_DEFAULT : mode };
  if (binding !== null) flags[FLAGS.encounter] = binding.create([]);
  combat.updateSource({ flags: { [MODULE_ID]: flags } });
}

/** `createCombat`: an encounter created with combatants already in it is brought in line. */
export function onCreateCombat(combat: Combat.Implementation): void {
  for (const combatant of combat.combatants.contents) rememberGuarded(combatant);
  if (isAuthority() && isStructured(combat) && combat.combatants.size > 0) void reconcileRoster(combat);
}

/**
 * `deleteCombat` (the encounter ended, e.g. "End combat"): the flags, history snapshots, side groups
 * and requests went with the document; this client's requests still waiting for it end at once,
 * and the active GM removes what the mode put outside it (status effects) and stops its timers.
 */
export function onDeleteCombat(combat: Combat.Implementation): void {
  dropRequestsOf(combat.id ?? "");
  if (!isAuthority() || !isStructured(combat)) return;
  const end = moduleOfCombat(combat)?.mirror?.end;
  if (end !== undefined)
    end(combat).catch((error: unknown) => {
      console.error(`${MODULE_ID} | cleaning up after the encounter failed`, error);
    });
}

/**
 * `updateCombat` on the authority: a GM's request written on the Combat is applied; a turn or round
 * change written outside the module's path (by a GM, a player or another module) becomes the mode's
 * jump-to command where it has one, and is put back otherwise (`onTurnWritten`).
 */
export function onUpdateCombat(
  combat: Combat.Implementation,
  changed: Combat.UpdateData,
  _options: unknown,
  userId: string,
): void {
  if (!isAuthority() || !isStructured(combat)) return;
  const flags = moduleFlags(changed);
  const request = flags?.[FLAGS.request];
  if (request !== undefined) void handleRequest(combat, request, userId, null);
  const author = game.users.contents.find((u) => u.id === userId);
  const turnChanged = "turn" in changed || "round" in changed;
  // The authority's own writes carry the encounter they apply; its restores agree with it.
  if (!turnChanged || author === undefined || flags?.[FLAGS.encounter] !== undefined) return;
  // The combatant the written turn names, read now: `combat.turns` is the order the writer saw.
  const named = combat.combatant?.id ?? null;
  void onTurnWritten(combat, author, named, "round" in changed).catch((error: unknown) => {
    logError(error);
  });
}

/**
 * `updateCombatant`: GM-only data a player wrote is put back (`guard.ts`; every client remembers what
 * a GM wrote). On the authority: a request a player wrote on a combatant they own; a combatant
 * marked defeated (or revived) in Foundry is mirrored into the rules of the modes that track it.
 */
export function onUpdateCombatant(
  combatant: Combatant.Implementation,
  changed: Combatant.UpdateData,
  options: unknown,
  userId: string,
): void {
  const combat = combatant.parent;
  const structured = combat !== null && isStructured(combat);
  guardCombatant(combatant, changed, userId, structured && isAuthority());
  if (combat === null || !isAuthority() || !structured) return;
  const request = moduleFlags(changed)?.[FLAGS.request];
  if (request !== undefined) void handleRequest(combat, request, userId, combatant.id);
  if ("defeated" in changed && tracksDefeat(combat)) void reconcileRoster(combat);
  // The mirror's own writes (this client's, marked) are left alone; a GM's other writes (core's
  // buttons, another module) are brought back in line with the order. A player's is the guard's:
  // put back whatever it is (above).
  if ("initiative" in changed && !ownMirrorWrite(options, userId) && isGMUser(userId)) {
    const author = game.users.contents.find((u) => u.id === userId);
    void onInitiativeWritten(combat, author, combatant.id ?? "").catch((error: unknown) => {
      logError(error);
    });
  }
}

/** Whether a combatant update is the authority's own write of the initiative mirror (`updateWithMirror`). */
function ownMirrorWrite(options: unknown, userId: string): boolean {
  const marked = typeof options === "object" && options !== null && (options as Record<string, unknown>)[MIRROR_OPTION];
  return marked === true && userId === game.user.id;
}

/**
 * `createCombatant`: module flags a player created it with are put back (GM-only data, `guard.ts`);
 * on the authority, the combatant joins the structured state.
 */
export function onCreateCombatant(combatant: Combatant.Implementation, _options: unknown, userId: string): void {
  const combat = combatant.parent;
  const flags = (combatant._source as { flags?: unknown }).flags;
  guardCombatant(combatant, { flags }, userId, combat !== null && isStructured(combat) && isAuthority());
  if (combat !== null && isAuthority() && isStructured(combat)) void reconcileRoster(combat);
}

/** `deleteCombatant` on the authority: the combatant leaves the state; if it was acting, the next one acts. */
export function onDeleteCombatant(combatant: Combatant.Implementation): void {
  const combat = combatant.parent;
  if (combat !== null && isAuthority() && isStructured(combat)) void reconcileRoster(combat);
}

/**
 * `userConnected`: a client that has just become the authority (its GM is now the active one)
 * reconciles the structured encounters; when a GM comes or goes, a structured tracker re-renders,
 * so players see at once whether their controls can be applied ("No GM is connected" appears and
 * goes away).
 */
export function onUserConnected(user: User.Implementation, _connected: boolean): void {
  onAuthorityChange();
  const tracker = ui.combat;
  const combat = tracker.viewed;
  if (!user.isGM || !tracker.rendered || combat === null || !isStructured(combat)) return;
  void tracker.render();
}
