/**
 * The render oracle (issue 26): what the user sees is what the state says. After every render of a
 * combat tracker, the tracker as patched in place (unchanged rows kept, the rest morphed) must equal
 * the tracker a first render of the same state makes, rendered aside through the application's own
 * render steps ({@link freshParts}): the same elements, text and attributes, and
 * the same values in the form fields the user has not touched. Two things are the user's, not the
 * state's: a disclosure the user opened stays open (`<details open>`), and a field keeps what the user
 * typed or chose in it — across every render, which the oracle checks around each one. A render made
 * while a document changed shows the state before the change; the render the change asks for is the
 * one compared (`afterRender`).
 *
 * It runs wherever a realm renders real elements: each playground view in the browser tests
 * (`playground/client.ts`, asserted after every test by `test/e2e/browser.ts`) and the simulated
 * Foundry's clients in the randomised plays (`test/integration/render-oracle.test.ts`). It knows
 * nothing of how the tracker keeps or patches: it compares what is shown with what should be.
 */

/** What the oracle uses of a tracker application. */
export interface OracleTracker {
  readonly element: unknown;
  readonly parts: Record<string, unknown>;
  readonly rendered?: boolean;
  readonly popout?: OracleTracker;
  _configureRenderParts(options: unknown): unknown;
  _prepareContext(options: unknown): unknown;
  _renderHTML(context: unknown, options: unknown): unknown;
  _replaceHTML(...args: unknown[]): unknown;
}

/**
 * Every part of a tracker as a first render of the current state makes it, with the disclosures the
 * user opened: ApplicationV2's render steps (`_configureRenderParts`, `_prepareContext`, `_renderHTML`,
 * https://foundryvtt.com/api/classes/foundry.applications.api.ApplicationV2.html) run aside, with
 * nothing of the tracker's live parts changed. Parts are elements where there is a DOM.
 */
export async function freshParts(app: OracleTracker): Promise<Record<string, unknown>> {
  // A first render (ApplicationRenderOptions' `isFirstRender`): the tracker reuses no row's HTML of
  // an earlier render, so a row reused where it should have been rendered again shows as a difference.
  const options: Record<string, unknown> = { force: true, isFirstRender: true };
  const parts = await app._configureRenderParts(options);
  options.parts = typeof parts === "object" && parts !== null ? Object.keys(parts) : [];
  const context = await app._prepareContext(options);
  const rendered = await app._renderHTML(context, options);
  return typeof rendered === "object" && rendered !== null ? (rendered as Record<string, unknown>) : {};
}

/** What the oracle uses of a realm: its hooks. */
export interface OracleRealm {
  readonly Hooks: { on(name: string, fn: (...args: never[]) => unknown): unknown };
}

/** The render hook of the module's tracker class (`render` + its class name). */
const RENDER_HOOK = "renderSICombatTracker";

/**
 * The document hooks after which a tracker may have something new to show (each asks for its own
 * render): every create, update and delete of the documents a tracker reads.
 */
const DOCUMENT_HOOKS = ["Combat", "Combatant", "CombatantGroup", "Actor", "Token", "Scene", "User", "Setting"].flatMap(
  (name) => ["create", "update", "delete"].map((action) => `${action}${name}`),
);

/** Attributes that name an element across renders (a row, an entry, a control, a part, an application). */
const IDENTITY = [
  "id",
  "data-application-part",
  "data-action",
  "name",
  "data-combatant-id",
  "data-group-id",
  "data-si-key",
] as const;

/** Differences reported per comparison (the first ones say where it goes wrong). */
const MAX_REPORTED = 4;

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const isElement = (node: unknown): node is Element =>
  typeof node === "object" && node !== null && (node as Partial<Node>).nodeType === 1;

const isControl = (element: Element): element is Control =>
  element.tagName === "INPUT" || element.tagName === "SELECT" || element.tagName === "TEXTAREA";

const isToggle = (control: Control): boolean =>
  control.tagName === "INPUT" && ["checkbox", "radio"].includes((control as HTMLInputElement).type);

/** What a field holds: its value, or whether it is ticked. */
function valueOf(control: Control): string {
  return isToggle(control) ? `checked=${String((control as HTMLInputElement).checked)}` : control.value;
}

/** What a field holds when nobody touched it: what its markup says. */
function defaultOf(control: Control): string {
  if (isToggle(control)) return `checked=${String((control as HTMLInputElement).defaultChecked)}`;
  if (control.tagName === "SELECT") {
    const options = Array.from((control as HTMLSelectElement).options);
    return (options.find((o) => o.defaultSelected) ?? options[0])?.value ?? "";
  }
  return (control as HTMLInputElement | HTMLTextAreaElement).defaultValue;
}

/** An element as one step of a path: its tag and its identity attributes. */
function step(element: Element): string {
  let out = element.tagName.toLowerCase();
  for (const name of IDENTITY) {
    const value = element.getAttribute(name);
    if (value !== null) out += `[${name}=${value}]`;
  }
  if (element.tagName === "INPUT") {
    const type = element.getAttribute("type") ?? "text";
    out += `[type=${type}]`;
    // Boxes of one list (the targets of an intent) share their name: each is its value's.
    if (type === "checkbox" || type === "radio") out += `[value=${element.getAttribute("value") ?? "on"}]`;
  }
  return out;
}

/** Where a field is, for the user: its identified ancestors (application, part, row, entry) and itself. */
function pathOf(element: Element): string {
  const steps = [step(element)];
  for (let at = element.parentElement; at !== null; at = at.parentElement)
    if (IDENTITY.some((name) => at.hasAttribute(name))) steps.unshift(step(at));
  return steps.join(" > ");
}

/** The fields under `root` by path; a path shared by several fields is told apart by its rank (`#2`). */
function fieldsOf(root: Element): Map<string, Control> {
  const out = new Map<string, Control>();
  for (const element of Array.from(root.querySelectorAll("input, select, textarea"))) {
    if (!isControl(element)) continue;
    const path = pathOf(element);
    let rank = 1;
    while (out.has(rank === 1 ? path : `${path} #${String(rank)}`)) rank++;
    out.set(rank === 1 ? path : `${path} #${String(rank)}`, element);
  }
  return out;
}

/** A short description of a node for a report. */
function describe(node: Node | undefined): string {
  if (node === undefined) return "nothing";
  if (isElement(node)) {
    const html = node.outerHTML;
    return html.length > 240 ? `${html.slice(0, 240)}…` : html;
  }
  return JSON.stringify(node.nodeValue);
}

/** One render oracle per realm: it watches every tracker of the module that renders there. */
export class RenderOracle {
  /** Every difference found so far, each with where and after which render. */
  readonly mismatches: string[] = [];
  /** Renders compared with a fresh render. */
  compared = 0;
  /** Renders not compared: a document changed while they were made ({@link afterRender}). */
  overtaken = 0;

  /** Document changes seen so far (the hooks of {@link DOCUMENT_HOOKS}). */
  #changes = 0;
  /** Per render's options object, {@link #changes} when that render began preparing its context. */
  readonly #preparedAt = new WeakMap<object, number>();

  /** The values the user gave each field (typed, chosen, ticked), by the field's path. */
  readonly #given = new Map<string, Set<string>>();
  readonly #watched = new WeakSet<object>();
  /** The trackers compared since the last {@link mark}. */
  #checked = new WeakSet<object>();

  /** `label` names the realm in reports (a user). */
  constructor(readonly label: string) {}

  /** Watch every render of the module's trackers in `realm`. */
  install(realm: OracleRealm): this {
    for (const hook of DOCUMENT_HOOKS)
      realm.Hooks.on(hook, () => {
        this.#changes++;
      });
    // A render hook's arguments: the application, its element, the context and the render's options.
    realm.Hooks.on(RENDER_HOOK, (app: OracleTracker, _element: unknown, _context: unknown, options: unknown) => {
      void this.afterRender(app, options);
    });
    return this;
  }

  /**
   * After a render: compare the tracker with a fresh render of the same state (and watch it from now
   * on). A render whose context was prepared before a document changed shows the state before that
   * change, which is not the state now: it is not compared (counted in {@link overtaken}). The render
   * that change asks for is compared in its turn, and {@link checkTrackers} compares every tracker
   * not compared since a step began, so a tracker left showing an old state is still found.
   */
  async afterRender(app: OracleTracker, options?: unknown): Promise<string[]> {
    this.#watch(app);
    const prepared = typeof options === "object" && options !== null ? this.#preparedAt.get(options) : undefined;
    if (prepared !== undefined && prepared !== this.#changes) {
      this.overtaken++;
      return [];
    }
    return this.check(app, "after a render");
  }

  /**
   * Compare a tracker with a fresh render of the current state now (call it when nothing is
   * pending, as after a settled step); what differs is added to {@link mismatches} and returned.
   */
  async check(app: OracleTracker, when: string): Promise<string[]> {
    if (!isElement(app.element)) return [];
    const fresh = await freshParts(app);
    const found: string[] = [];
    for (const [id, part] of Object.entries(fresh)) {
      const live = app.parts[id];
      if (!isElement(part)) continue;
      if (!isElement(live)) {
        found.push(`part ${id}: not shown, a fresh render shows ${describe(part)}`);
        continue;
      }
      this.#compare(live, part, `part ${id}`, found);
      if (found.length >= MAX_REPORTED) break;
    }
    this.compared++;
    this.#checked.add(app);
    const where = `${this.label}, ${app.element.id || "tracker"}, ${when}`;
    return this.#report(found.slice(0, MAX_REPORTED).map((f) => `${where}: ${f}`));
  }

  /** Start a step: {@link checkTrackers} compares each tracker unless a render is compared after this. */
  mark(): void {
    this.#checked = new WeakSet();
  }

  /**
   * After a step, once everything is delivered and rendered: check the realm's sidebar tracker and
   * its pop-out (when rendered) that were not compared since the step began (the comparison after a
   * tracker's last render already saw the state it settled on).
   */
  async checkTrackers(tracker: OracleTracker | null | undefined, when: string): Promise<string[]> {
    const found: string[] = [];
    for (const app of [tracker, tracker?.popout])
      if (app !== undefined && app !== null && app.rendered !== false && !this.#checked.has(app))
        found.push(...(await this.check(app, when)));
    return found;
  }

  #report(found: string[]): string[] {
    this.mismatches.push(...found);
    return found;
  }

  /**
   * From its second render on, around each `_replaceHTML` of `app`: a field the user edited keeps
   * what they typed or chose; and every value the user gives a field is noted (input and change events).
   */
  #watch(app: OracleTracker): void {
    if (this.#watched.has(app) || !isElement(app.element)) return;
    this.#watched.add(app);
    const note = (event: Event): void => {
      const target = event.target;
      if (!isElement(target) || !isControl(target)) return;
      const path = pathOf(target);
      this.#given.set(path, (this.#given.get(path) ?? new Set()).add(valueOf(target)));
    };
    app.element.addEventListener("input", note, true);
    app.element.addEventListener("change", note, true);
    // When each render (its options object) began preparing its context, for `afterRender`.
    const prepare = app._prepareContext.bind(app);
    Object.defineProperty(app, "_prepareContext", {
      configurable: true,
      writable: true,
      value: (options: unknown): unknown => {
        if (typeof options === "object" && options !== null) this.#preparedAt.set(options, this.#changes);
        return prepare(options);
      },
    });
    const replace = app._replaceHTML.bind(app);
    // The application's own method runs as before; the oracle looks at the fields before and after.
    Object.defineProperty(app, "_replaceHTML", {
      configurable: true,
      writable: true,
      value: (...args: unknown[]): unknown => {
        const edited = this.#edited(app);
        const result = replace(...args);
        this.#report(this.#keptEdits(app, edited));
        return result;
      },
    });
  }

  /** The fields of `app` the user edited (what they hold is not what their markup says), by path. */
  #edited(app: OracleTracker): Map<string, string> {
    const out = new Map<string, string>();
    if (!isElement(app.element)) return out;
    for (const [path, control] of fieldsOf(app.element))
      if (valueOf(control) !== defaultOf(control)) out.set(path, valueOf(control));
    return out;
  }

  /** Where a field edited before a render lost what the user gave it (it is still shown, and could hold it). */
  #keptEdits(app: OracleTracker, edited: ReadonlyMap<string, string>): string[] {
    if (edited.size === 0 || !isElement(app.element)) return [];
    const now = fieldsOf(app.element);
    const found: string[] = [];
    for (const [path, value] of edited) {
      const control = now.get(path);
      if (control === undefined || valueOf(control) === value) continue;
      if (
        control.tagName === "SELECT" &&
        !Array.from((control as HTMLSelectElement).options).some((o) => o.value === value)
      )
        continue;
      found.push(
        `${this.label}: a render wiped what the user gave ${path}: it held ${JSON.stringify(value)}, now ${JSON.stringify(valueOf(control))}`,
      );
    }
    return found;
  }

  /** Compare a live node with the fresh one at its place, adding what differs to `found`. */
  #compare(live: Node, fresh: Node, where: string, found: string[]): void {
    if (found.length >= MAX_REPORTED) return;
    if (live.nodeType !== fresh.nodeType || live.nodeName !== fresh.nodeName) {
      found.push(`${where}: shows ${describe(live)} where a fresh render has ${describe(fresh)}`);
      return;
    }
    if (!isElement(live) || !isElement(fresh)) {
      if (live.nodeValue !== fresh.nodeValue)
        found.push(`${where}: text ${describe(live)} where a fresh render has ${describe(fresh)}`);
      return;
    }
    const names = new Set([...live.getAttributeNames(), ...fresh.getAttributeNames()]);
    for (const name of names) {
      const [shown, wanted] = [live.getAttribute(name), fresh.getAttribute(name)];
      if (shown === wanted) continue;
      // A disclosure the user opened stays open.
      if (name === "open" && live.tagName === "DETAILS" && wanted === null) continue;
      // The browser tests' screenshots hide the text caret with an inline style (Playwright's
      // `caret: "hide"`), left empty after: the test's, not the tracker's.
      if (name === "style" && wanted === null && /^(caret-color: transparent !important;)?$/u.test(shown ?? ""))
        continue;
      found.push(
        `${where}: attribute ${name}=${JSON.stringify(shown)} where a fresh render has ${JSON.stringify(wanted)} on ${describe(fresh)}`,
      );
    }
    if (isControl(live) && isControl(fresh)) {
      const [shown, wanted] = [valueOf(live), valueOf(fresh)];
      if (shown !== wanted && this.#given.get(pathOf(live))?.has(shown) !== true)
        found.push(
          `${where}: the field holds ${JSON.stringify(shown)}, which the user never gave it; a fresh render holds ${JSON.stringify(wanted)}`,
        );
    }
    // A countdown's seconds tick on their own clock between renders (the sides mode's deadlines).
    if (live.hasAttribute("data-si-deadline")) return;
    const [shown, wanted] = [Array.from(live.childNodes), Array.from(fresh.childNodes)];
    for (let i = 0; i < Math.max(shown.length, wanted.length); i++) {
      const [a, b] = [shown[i], wanted[i]];
      if (a === undefined || b === undefined) {
        found.push(
          `${where}: ${String(shown.length)} children where a fresh render has ${String(wanted.length)}; ` +
            `at ${String(i)} ${describe(a)} vs ${describe(b)}`,
        );
        return;
      }
      this.#compare(a, b, `${where} > ${isElement(a) ? step(a) : a.nodeName}:${String(i)}`, found);
      if (found.length >= MAX_REPORTED) return;
    }
  }
}
