/**
 * The contract of a mode module: everything one structured mode brings to the module, in one place.
 * A mode is a folder `src/modes/<id>/` (pure `rules/`, then its glue, tracker, actions and settings),
 * `templates/modes/<id>/`, `docs/modes/<id>.md` and one line in `src/modes/registry.ts`. The shared
 * glue (Combat class, authority, tracker, API, lifecycle) reaches a mode only through this contract
 * and never names one.
 */
import type {
  AllowedAction,
  Command,
  ModeDefinition,
  Requester,
  RosterEntry,
  RuleEvent,
  TurnView,
} from "../core/engine";
import type { BoundEncounter } from "../core/binding";
import type { Json } from "../core/patch";
import type { CommandResult } from "../core/protocol";
import type { Allowed, ControlContext, ControlFactory, Localiser } from "../core/ui";
import type { SettingDefinition } from "../core/settings";

/**
 * Where events come from: a command (a user's request, the GM's own action) or a reconciliation
 * (the state brought in line with the documents, which already say what the events say).
 */
export type EventOrigin = "command" | "reconcile";

/** How a mode rolls initiative: Combat's `rollInitiative`, `rollAll` and `rollNPC` in a structured encounter. */
export interface ModeInitiative {
  /** Roll for these combatants (a group or a side rolls once), post to chat and record through the rules. */
  rollInitiative(
    combat: Combat.Implementation,
    ids: readonly string[],
    options?: Combat.InitiativeOptions,
  ): Promise<CommandResult[]>;
  /** Roll every check the current user still owes. */
  rollAll(combat: Combat.Implementation, options?: Combat.InitiativeOptions): Promise<CommandResult[]>;
  /** Roll the checks non-player characters still owe. */
  rollNPC(combat: Combat.Implementation, options?: Combat.InitiativeOptions): Promise<CommandResult[]>;
}

/**
 * How a mode mirrors other documents. Every roster reconciliation on the authority applies the
 * commands `sync` derives (sides ↔ CombatantGroups); `defeated` opts the mode into the shared
 * defeated mirror (Foundry's defeated state ↔ the rules' flag, `src/foundry/defeated.ts`).
 */
export interface ModeMirror<S> {
  /** The commands that bring the state in line with the documents (nothing where nothing differs). */
  readonly sync?: (combat: Combat.Implementation, state: S) => readonly Json[];
  /** Each combatant's defeated flag as the rules hold it. */
  readonly defeated?: (state: S) => ReadonlyMap<string, boolean>;
  /**
   * Side effects of applied events on the authority (status effects). After an undo the controller
   * itself re-syncs a mode that mirrors documents (`sync` or `defeated`), before these run.
   */
  readonly effects?: (
    combat: Combat.Implementation,
    events: readonly RuleEvent[],
    origin: EventOrigin,
  ) => Promise<void>;
  /**
   * Module flags on the Combat that the authority writes with an applied command or reconciliation,
   * in the same update (a mode's record of when a step began, which every client then reads): null
   * when there is nothing to write. `events` are the applied events (an undo's `rewound` among them).
   */
  readonly stepFlags?: (
    combat: Combat.Implementation,
    state: S,
    events: readonly RuleEvent[],
  ) => Readonly<Record<string, Json>> | null;
  /**
   * On the active GM, once the encounter ended (was deleted): remove what the mode put outside the
   * encounter's own documents (status effects on actors) and stop what it runs for it (timers).
   * What lives in the encounter (flags, history snapshots, side groups, requests) went with it.
   */
  readonly end?: (combat: Combat.Implementation) => Promise<void>;
  /** Attaches the Foundry hooks the mirror listens to (named functions); `src/index.ts` calls it once. */
  readonly attachHooks?: () => void;
}

/**
 * How a structured encounter shows to core and to other modules (turn markers, carousels, "next up"):
 * the initiative mirror (`src/foundry/interop.ts`) keeps `Combatant#initiative` so that core's sort
 * gives the mode's order, and a turn written outside the module is taken as the mode's own jump-to
 * command where it has one.
 */
export interface ModeInterop<S> {
  /**
   * The combatants that show a number (they have rolled, or the encounter runs), each with the
   * number the mode would like shown (a check's total), or null where only its place counts. The
   * others keep no initiative: core and other modules read that as "has not rolled". Default: every
   * combatant once the encounter has started, none before; no numbers.
   */
  readonly initiative?: (state: S, view: TurnView) => ReadonlyMap<string, number | null>;
  /**
   * The command that makes `combatantId` act now, as the user who wrote the turn (a GM's "set as
   * current combatant"), or null where the mode has none for this state: the turn is then put back.
   */
  readonly jumpTo?: (state: S, combatantId: string) => Json | null;
}

/** What a mode's tracker builder is given: the loaded encounter, the viewer and the tools to make controls. */
export interface ModeInput<S> {
  readonly bound: BoundEncounter<S>;
  readonly state: S;
  readonly allowed: Allowed;
  /** The allowed actions as the rules listed them (with any mode-specific fields, e.g. a slot). */
  readonly actions: readonly AllowedAction[];
  readonly combat: Combat.Implementation;
  readonly i18n: Localiser;
  readonly who: Requester;
  readonly nameOf: (id: string) => string;
  readonly control: ControlFactory;
  /**
   * Whether this user opened a disclosure filled on use (`data-si-fill="<kind>"`) for the combatant:
   * a closed one shows its summary only, so its form's texts and controls need not be built. Absent:
   * build them all.
   */
  readonly opened?: (kind: string, combatantId: string) => boolean;
}

/** What a mode adds to one row. */
export interface ModeRow {
  /** The initiative the mode ranks by (stored in the encounter, not on the Combatant). */
  readonly initiative: number | null;
  readonly controls: ControlContext[];
  /** The data of the mode's row partials (badges and body). */
  readonly data: object;
  /** The row's combatant has acted this round (greyed out). */
  readonly acted?: boolean;
  /** The row's combatant is waiting out of the order (a delay). */
  readonly waiting?: boolean;
  /**
   * The i18n key of the "now" badge when this row is the current one and the step is not an action
   * (a declaration: "Declaring"); absent: "Acting now".
   */
  readonly currentLabel?: string;
}

/** What a mode's tracker returns. */
export interface ModeOutput {
  readonly rows: ReadonlyMap<string, ModeRow>;
  readonly setupControls: ControlContext[];
  /** The data of the mode's panel partial (above the set-up controls), or null. */
  readonly panel: object | null;
  /** The data of the mode's list partial (below the set-up controls), or null. */
  readonly list: object | null;
  /** The step pill is emphasised (a surprise round). */
  readonly emphasiseStep: boolean;
  /** The mode's panel names the step itself (a banner): the glance strip then shows no step pill. */
  readonly stepShown?: boolean;
  /** The step pill's text, localised, where the mode names the step more closely than `Step.<step>` ("Pass 2"). */
  readonly stepText?: string;
  /**
   * What the live region says, after the round, when the turn passes to nobody ("Slot 3 (PC) is open."),
   * localised; by default the step's text.
   */
  readonly idleAnnouncement?: string;
}

/** A mode's part of the tracker: its partials and the context builder that feeds them. */
export interface ModeTracker<S> {
  /** One combatant row's mode-specific badges; rendered with the row's `mode` data. */
  readonly rowPartial: string;
  /**
   * One combatant row's body under its badges (forms, lists, a field with its button); rendered with
   * the row's `mode` data in the row's body region, when set.
   */
  readonly rowBodyPartial?: string;
  /** Rendered in the glance strip above the set-up controls with `panel` data, when set. */
  readonly panelPartial?: string;
  /** Rendered in the glance strip below the set-up controls with `list` data, when set. */
  readonly listPartial?: string;
  /**
   * The mode's partials show hints (`.si-hint`: one muted line each, never the only place that says
   * what a user needs): the glance offers the toggle that folds them away for the user.
   */
  readonly hints?: boolean;
  /** Every decision the templates show, made here. */
  build(input: ModeInput<S>): ModeOutput;
  /** Runs after every render of a tracker showing this mode (a countdown's ticking). */
  afterRender?(root: HTMLElement): void;
}

/**
 * A tracker button: `data-action` names it; it runs with the viewed combat, the clicked element and the
 * tracker's element (for form fields next to the button). Refusals are shown by the code it calls.
 */
export type TrackerAction = (combat: Combat.Implementation, target: HTMLElement, root: HTMLElement) => Promise<unknown>;

/** A mode's buttons, by `data-action`. */
export type ActionTable = Readonly<Record<string, TrackerAction>>;

/**
 * A key binding as Foundry stores it: a `KeyboardEvent#code` and the modifiers it needs
 * (https://foundryvtt.com/api/interfaces/foundry.types.KeybindingActionBinding.html).
 */
export interface KeyBinding {
  readonly key: string;
  readonly modifiers?: readonly string[];
}

/**
 * A keyboard action, rebindable in Configure Controls. The shared glue (`src/foundry/keys.ts`)
 * registers each id once, named `Keys.<id>.Name` / `.Hint`, and runs the viewed encounter's mode's
 * entry; a mode's entry with a shared id (`endTurn`) takes the shared one's place in that mode. An
 * id no entry of the encounter's mode (or the shared table) holds gets the "not in this mode" message.
 */
export interface ModeKey {
  readonly id: string;
  /** The default bindings (none: unbound until the user binds it). The first entry of an id gives them. */
  readonly editable?: readonly KeyBinding[];
  /** Only a GM may bind and use it. */
  readonly restricted?: boolean;
  /**
   * Do what the tracker's button does, through the same call (the command path shows refusals);
   * `root` is the tracker's element, or null when it has none.
   */
  run(combat: Combat.Implementation, root: HTMLElement | null): Promise<unknown>;
}

/**
 * A notice one player is owed now (`src/foundry/notices.ts` shows it once per change, on that
 * player's client only): its text is `Notice.<kind>`, naming the combatant.
 */
export interface ModeNotice {
  /** The key under `STRUCTURED_INITIATIVE.Notice` (`Turn`, or a mode's own: a claim, a declaration). */
  readonly kind: string;
  /** The player's combatant it is about; null when any of theirs may answer it (an open slot). */
  readonly combatantId: string | null;
  /** What makes this occasion new (a round and a slot); the glue adds the kind and the combatant. */
  readonly occasion: string;
  /**
   * Told at most once per occasion, however often it comes back (`phases`' "the heroes act", owed
   * again after another hero's turn); otherwise each time the user's notice changes to it.
   */
  readonly once?: boolean;
}

/**
 * The playground's sample of a mode (in `src/modes/<id>/sample.ts`, which the playground discovers):
 * the world settings its sample encounter is played with and what the sample actors carry for it.
 * It also holds the render bench's encounter of the mode (`bench`). Read by the playground and the
 * benches alone: no mode module names it, so the bundle does not carry it.
 */
export interface ModeSample {
  /** The mode id. */
  readonly id: string;
  /** The sample's button text in the playground (English: the playground is not localised). */
  readonly label: string;
  /** Where the sample's button stands among the others (lower first). */
  readonly order: number;
  /** World settings of the module, by key without the module id. */
  readonly settings: Readonly<Record<string, string | number | boolean>>;
  /** Per sample actor name, what its `system` data adds for this mode. */
  readonly actors?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The render bench's sample encounter (`npm run bench:render` refuses a mode without one). */
  readonly bench: ModeBench;
}

/** What a bench driver may use: the GM's commands, the stored state, the combatant ids in joining order. */
export interface BenchWorld {
  readonly cmd: (command: { type: string } & Record<string, unknown>) => Promise<void>;
  /** The stored state, decoded (each driver reads it as its mode's state). */
  readonly state: () => unknown;
  readonly ids: readonly string[];
}

/**
 * The render bench's sample encounter of a mode: how the GM brings a fresh encounter of the bench's
 * combatants to a started, mid-round state that shows the mode's tracker features (through the
 * module's API, untimed), and the step the bench times as the mode's "turn advance".
 */
export interface ModeBench {
  /** What the timed step is, printed beside the figures. */
  readonly step: string;
  /** Sets the encounter up; the returned `step` is the timed turn advance. */
  readonly drive: (world: BenchWorld) => Promise<{ readonly step: () => Promise<void> }>;
}

/**
 * Whether a command's numbers came from these rolls: the rolls of the requester's own chat messages
 * the command names (in order), to be checked against the formulas the settings give for the actor
 * as it stands now and against the command's totals.
 */
export type RollCheck = (combat: Combat.Implementation, command: Json, rolls: readonly Roll[]) => Promise<boolean>;

/**
 * The roster commands of every mode so far: the shared `addCombatant` and `removeCombatant`, and
 * the ids of the state's `combatants`.
 */
export const SHARED_ROSTER = {
  add: (entry: RosterEntry) => ({ type: "addCombatant", combatant: entry }) as const,
  remove: (id: string) => ({ type: "removeCombatant", combatantId: id }) as const,
  ids: (state: { readonly combatants: readonly { readonly id: string }[] }) => state.combatants.map((c) => c.id),
};

/** Everything one structured mode brings. */
export interface ModeModule<S extends Json, C extends Command> {
  readonly id: string;
  /** The pure rules. */
  readonly rules: ModeDefinition<S, C>;
  /** Narrows untrusted stored data to the mode's state. */
  readonly parseState: (data: unknown) => S | null;
  /** The roster commands the authority derives when combatants join or leave. */
  readonly roster: {
    add(entry: RosterEntry): C;
    remove(id: string): C;
    ids(state: S): readonly string[];
  };
  /** The refusal codes the mode's rules add to the shared ones (each has a message). */
  readonly refusalCodes: readonly string[];
  /**
   * The Combatant data only the GM may write in this mode, as paths in the Combatant's source: every
   * module flag the mode keeps on a combatant (`flags.structured-initiative.<key>`) and any Foundry
   * field it reads as the GM's (a side's `group`). Every module flag but the player's request is the
   * GM's whether listed or not; the active GM puts back what a player wrote to any of them
   * (`src/foundry/authority/guard.ts`), and the permission matrix tests each listed path.
   */
  readonly gmOnlyCombatantKeys: readonly string[];
  /**
   * The commands whose numbers are dice results, by type, with their check. A command of one of these
   * types names the ChatMessages of its rolls (`rolls`: ids, `src/foundry/authority/proofs.ts`); the
   * authority refuses a player's without them (a typed number) or whose rolls do not check, and marks
   * the GM's without them as typed (`typed: true`), which the tracker shows.
   */
  readonly rolledResults: Readonly<Record<string, RollCheck>>;
  /** A fresh state from world settings (a policy the rules take at creation); the rules' `create` otherwise. */
  readonly create?: (roster: readonly RosterEntry[]) => S;
  /**
   * Commands a rebuilt state takes from what can still be read (a reset of a corrupted encounter keeps
   * initiative values): `stored` is the unreadable state as raw data.
   */
  readonly salvage?: (combat: Combat.Implementation, stored: unknown) => readonly Json[];
  readonly initiative: ModeInitiative;
  readonly mirror?: ModeMirror<S>;
  /** How the encounter shows to core and other modules: the initiative mirror, turn writes. */
  readonly interop?: ModeInterop<S>;
  /**
   * The mode's world settings as data (what `registerSettings` registers): the settings form shows
   * them in the mode's group, checks them and resets them to the running system's preset.
   */
  readonly settings?: readonly SettingDefinition[];
  /** Registers the mode's settings at `init` (before the classes are built). */
  readonly registerSettings?: () => void;
  /** What else the mode adds at `init`, after the classes are built (a status effect). */
  readonly init?: () => void;
  /** On the active GM, after an encounter was set to this mode (before it starts). */
  readonly prepare?: (combat: Combat.Implementation) => Promise<void>;
  readonly tracker: ModeTracker<S>;
  readonly actions: ActionTable;
  /** The mode's keyboard actions (and its own take on a shared one), by id; see `ModeKey`. */
  readonly keys?: readonly ModeKey[];
  /**
   * The notice a (non-GM) user is owed in this state; absent, the shared one: "your turn" when the
   * combatant acting now is theirs (`turnNotice` in `src/foundry/notices.ts`).
   */
  readonly notice?: (state: S, view: TurnView, who: Requester) => ModeNotice | null;
  /** What the mode adds to the module API (`game.modules.get(id).api`). */
  readonly api?: object;
}

/** A mode module with its state and command types hidden, as the registry holds it. */
// The registry holds modules of different state types; each is only ever given its own states.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyModeModule = ModeModule<any, Command>;

/** Declare a mode module (checks it against the contract, keeps its types for its own folder). */
export function defineMode<S extends Json, C extends Command>(module: ModeModule<S, C>): ModeModule<S, C> {
  return module;
}
