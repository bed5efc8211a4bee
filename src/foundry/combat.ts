/**
 * The module's Combat and Combatant classes, built at `init` on top of whatever classes `CONFIG`
 * holds then (a game system's own). A combat in "system default" mode runs the parent class's code
 * untouched; a structured combat routes turn changes and initiative rolls to the rules.
 */
import { FLAGS, MODULE_ID, SYSTEM_DEFAULT } from "../constants";
import { isModeSetting } from "./modes";
import { compareRanked, onCombatApplied, submit } from "./authority/controller";
import { forgetLoaded, isStructured, loadBound, moduleOfCombat } from "./authority/encounters";
import { turnOrderOf } from "./interop";
import { registerSystemStart } from "./system-start";

/** How many `combatTurnChange` hooks each combat has had on this client (to tell whether core fired one). */
const turnChanges = new WeakMap<object, number>();

function turnChangesSeen(combat: object): number {
  return turnChanges.get(combat) ?? 0;
}

/** Count every `combatTurnChange`, core's and the module's (registered once, at `init`). */
export function countTurnChanges(): void {
  Hooks.on("combatTurnChange", (combat: Combat.Implementation) => {
    turnChanges.set(combat, turnChangesSeen(combat) + 1);
  });
}

/** Per combat, the rank of each combatant in the stored order (refreshed by `setupTurns`). */
const ranks = new WeakMap<object, ReadonlyMap<string, number>>();

/**
 * Each combatant's rank in the turn order: the order core's sort gives for the mirrored initiative
 * (`../interop.ts`), derived from the stored state alone, so every client agrees.
 */
function rankOf(combat: Combat.Implementation): ReadonlyMap<string, number> | null {
  const bound = loadBound(combat);
  if (bound === null) return null;
  return new Map(turnOrderOf(combat, moduleOfCombat(combat), bound).map((id, i) => [id, i]));
}

/** The Combat class of the module, derived from `Base`. */
export function createCombatClass(Base: typeof Combat) {
  registerSystemStart(Base);
  /** A Combat that runs structured encounters and leaves system-default ones to its parent class. */
  class SICombat extends Base {
    /** Derive `turns` from the stored order, so every client agrees. */
    override setupTurns(): Combatant.Implementation[] {
      const rank = isStructured(this) ? rankOf(this) : null;
      if (rank === null) ranks.delete(this);
      else ranks.set(this, rank);
      return super.setupTurns();
    }

    /**
     * Sort by the stored order. Core may call this unbound, so the combat is reached through the
     * combatant's parent rather than `this`.
     */
    override _sortCombatants(a: Combatant.Implementation, b: Combatant.Implementation): number {
      const rank = a.parent === null ? undefined : ranks.get(a.parent);
      if (rank === undefined) return super._sortCombatants(a, b);
      const nameOf = (id: string): string => (a.id === id ? a.name : b.name) ?? "";
      return compareRanked(a.id ?? "", b.id ?? "", rank, nameOf);
    }

    /**
     * Begin a structured encounter through the rules (refused if initiative is missing, …); the
     * system's own start effects follow on the authority (`./system-start.ts`).
     */
    override async startCombat(): Promise<this> {
      if (!isStructured(this)) return super.startCombat();
      await submit(this, { type: "start" });
      return this;
    }

    /** End the current turn: the GM, or the owner of the acting combatant. */
    override async nextTurn(): Promise<this> {
      if (!isStructured(this)) return super.nextTurn();
      await submit(this, { type: "nextTurn" });
      return this;
    }

    /**
     * Undo the last turn step (GM). Asked through this method (a macro, another module), it undoes
     * the start too without asking, as core's does; the tracker's button asks the GM first.
     */
    override async previousTurn(): Promise<this> {
      if (!isStructured(this)) return super.previousTurn();
      await submit(this, { type: "previousTurn" });
      return this;
    }

    /** Begin the next round (GM). */
    override async nextRound(): Promise<this> {
      if (!isStructured(this)) return super.nextRound();
      await submit(this, { type: "nextRound" });
      return this;
    }

    /** Return to the start of the previous round (GM); like previous turn, this method asks nothing. */
    override async previousRound(): Promise<this> {
      if (!isStructured(this)) return super.previousRound();
      await submit(this, { type: "previousRound" });
      return this;
    }

    /** Roll initiative with Foundry rolls, post them to chat and record them through the rules. */
    override async rollInitiative(ids: string | string[], options?: Combat.InitiativeOptions): Promise<this> {
      const module = moduleOfCombat(this);
      if (module === null) return super.rollInitiative(ids, options);
      await module.initiative.rollInitiative(this, typeof ids === "string" ? [ids] : ids, options);
      return this;
    }

    /** Roll every check the current user still owes (a group once); nothing for those who rolled. */
    override async rollAll(options?: Combat.InitiativeOptions): Promise<this> {
      const module = moduleOfCombat(this);
      if (module === null) return super.rollAll(options);
      await module.initiative.rollAll(this, options);
      return this;
    }

    /** Roll the checks non-player characters still owe (a group once). */
    override async rollNPC(options?: Combat.InitiativeOptions): Promise<this> {
      const module = moduleOfCombat(this);
      if (module === null) return super.rollNPC(options);
      await module.initiative.rollNPC(this, options);
      return this;
    }

    /**
     * Refresh the derived turn order when the stored encounter changed. A structured step can change
     * who acts without changing the turn index (a delay hands the turn to the next in line, who moves
     * up to the same index); a core that reports no turn change then (before
     * https://github.com/foundryvtt/foundryvtt/issues/9741) is filled in here, once: only when core's
     * own `combatTurnChange` did not fire for this update.
     */
    override _onUpdate(changed: Combat.UpdateData, options: Combat.Database.OnUpdateOperation, userId: string): void {
      const prior = { ...this.current };
      const flags = (changed as { flags?: Record<string, unknown> }).flags?.[MODULE_ID];
      // The stored encounter may have changed: nothing may read the last load before this.
      if (flags !== undefined) forgetLoaded(this);
      const seen = turnChangesSeen(this);
      super._onUpdate(changed, options, userId);
      if (flags === undefined || !isStructured(this)) return;
      this.setupTurns();
      if (typeof flags === "object" && flags !== null && FLAGS.encounter in flags) onCombatApplied(this);
      if (turnChangesSeen(this) !== seen) return;
      const acting = this.combatant;
      const current = {
        round: this.round,
        turn: this.turn,
        combatantId: acting?.id ?? null,
        tokenId: acting?.tokenId ?? null,
      };
      if (current.combatantId === prior.combatantId) return;
      this.previous = prior;
      this.current = current;
      Hooks.callAll("combatTurnChange", this, prior, current);
    }

    /**
     * Core's turn events follow the turn index; a structured encounter's follow its rules' acting
     * turn instead, run by the authority once per turn (`turn-lifecycle.ts`), so core's are left out.
     */
    override async _manageTurnEvents(): Promise<void> {
      if (isStructured(this)) return;
      return super._manageTurnEvents();
    }
  }
  return SICombat;
}

/** The Combatant class of the module, derived from `Base`. */
export function createCombatantClass(Base: typeof Combatant) {
  /**
   * A Combatant whose operations in a structured encounter never move the combat's turn: core adds
   * the requesting client's idea of the turn index to every Combatant operation
   * (`operation.combatTurn`, https://github.com/foundryvtt/foundryvtt/issues/12990), and a player's
   * request racing the GM's next turn would put back the turn the GM just moved on. A structured
   * turn is the authority's alone (written with the stored state); a deletion keeps core's, which
   * holds the acting combatant current until the authority has reconciled the roster.
   */
  class SICombatant extends Base {
    /**
     * A structured encounter's combatants show their own initiative, the mirror of the mode's order
     * (`interop.ts`), never a CombatantGroup's: core gives a group's initiative to its members here
     * ("The initiative value that will be used for all group members",
     * https://foundryvtt.com/api/interfaces/foundry.documents.types.CombatantGroupData.html), which
     * would let a system's group (dnd5e's) override the mode's numbers. draw-steel removes the same
     * override in its `_prepareGroup` (src/module/documents/combatant.mjs).
     */
    override _prepareGroup(): void {
      super._prepareGroup();
      if (structuredSource(this.parent)) this.initiative = this._source.initiative;
    }

    static override async _preCreateOperation(
      ...args: Parameters<typeof Base._preCreateOperation>
    ): ReturnType<typeof Base._preCreateOperation> {
      const result = await super._preCreateOperation(...args);
      dropCombatTurn(args[1]);
      return result;
    }

    static override async _preUpdateOperation(
      ...args: Parameters<typeof Base._preUpdateOperation>
    ): ReturnType<typeof Base._preUpdateOperation> {
      const result = await super._preUpdateOperation(...args);
      dropCombatTurn(args[1]);
      return result;
    }
  }
  return SICombatant;
}

/**
 * Whether a Combat is structured, read from its source: a combatant prepares its data while its
 * Combat is still being built, before the Combat's own prepared flags may be read.
 */
function structuredSource(combat: Combat.Implementation | null): boolean {
  const flags = (combat?._source as { flags?: Record<string, Record<string, unknown> | undefined> } | undefined)?.flags;
  const mode = flags?.[MODULE_ID]?.[FLAGS.mode];
  return isModeSetting(mode) && mode !== SYSTEM_DEFAULT;
}

/** Leave a structured encounter's turn to the authority: drop the operation's `combatTurn`. */
function dropCombatTurn(operation: object): void {
  const parent = (operation as { parent?: unknown }).parent;
  if (parent instanceof foundry.documents.Combat && isStructured(parent as Combat.Implementation)) {
    delete (operation as { combatTurn?: unknown }).combatTurn;
  }
}
