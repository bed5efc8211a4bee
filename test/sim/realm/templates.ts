/**
 * The realm's Handlebars templates (https://foundryvtt.com/api/modules/foundry.applications.handlebars.html):
 * `getTemplate`, `renderTemplate`, `loadTemplates` and the helpers the module's templates use, with
 * the sim's stand-ins for core's tracker templates.
 */
import Handlebars from "handlebars";
import type { RealmTransport } from "../runtime.js";
import type { SimI18n } from "./i18n.js";
import type { Dict } from "../utils.js";

/**
 * Stand-ins for the core tracker's part templates, written for the simulation (not Foundry's): just
 * enough for a "system default" encounter to render and be driven in the playground.
 */
const CORE_TEMPLATES: Record<string, string> = {
  "templates/sidebar/tabs/combat/header.hbs": [
    '<header class="sim-combat-header">',
    '{{#if user.isGM}}<button type="button" data-action="createCombat" aria-label="Create encounter">+</button>{{/if}}',
    '<span class="sim-round">{{#if hasCombat}}Round {{round}}{{else}}No encounter{{/if}}</span>',
    "</header>",
  ].join(""),
  "templates/sidebar/tabs/combat/tracker.hbs": [
    '<ol class="combat-tracker plain">',
    '{{#each turns}}<li class="combatant{{#if active}} active{{/if}}" data-combatant-id="{{id}}">',
    // Core's rows show the token image (dnd5e 5.3.3's renderGroups reads each row's `img`).
    '<img class="token-image" src="{{img}}" alt="{{name}}"> ',
    '<span class="name">{{name}}</span> <span class="initiative">{{initiative}}</span></li>{{/each}}',
    "</ol>",
  ].join(""),
  "templates/sidebar/tabs/combat/footer.hbs": [
    '<nav class="combat-controls">{{#if hasCombat}}{{#if user.isGM}}{{#if started}}',
    '<button type="button" data-action="previousTurn">Previous turn</button>',
    '<button type="button" data-action="nextTurn">Next turn</button>',
    '{{else}}<button type="button" data-action="startCombat">Begin combat</button>{{/if}}{{/if}}{{/if}}</nav>',
  ].join(""),
};

/** One realm's Handlebars environment: templates from the transport, else core's stand-ins. */
export function createTemplates(t: RealmTransport, i18n: SimI18n) {
  const hb = Handlebars.create();
  const templateCache = new Map<string, Handlebars.TemplateDelegate>();
  function getTemplate(path: string): Handlebars.TemplateDelegate {
    let tpl = templateCache.get(path);
    if (!tpl) {
      const src = t.loadTemplate(path) ?? CORE_TEMPLATES[path] ?? null;
      if (src === null) throw new Error(`Template ${path} not found`);
      tpl = hb.compile(src);
      templateCache.set(path, tpl);
    }
    return tpl;
  }
  /** https://foundryvtt.com/api/functions/foundry.applications.handlebars.renderTemplate.html */
  async function renderTemplate(path: string, data: Dict = {}): Promise<string> {
    return getTemplate(path)(data, { allowProtoPropertiesByDefault: true, allowProtoMethodsByDefault: true });
  }
  /** Registers each template as a partial under its path (or under the given names). */
  async function loadTemplates(paths: string[] | Record<string, string>): Promise<void> {
    const entries = Array.isArray(paths) ? paths.map((p) => [p, p] as const) : Object.entries(paths);
    for (const [name, path] of entries) hb.registerPartial(name, getTemplate(path));
  }
  const helperOpts = (args: unknown[]): Dict => (args[args.length - 1] as { hash?: Dict }).hash ?? {};
  hb.registerHelper({
    localize: (key: unknown, ...rest: unknown[]) => {
      const hash = helperOpts(rest);
      return Object.keys(hash).length ? i18n.format(String(key), hash) : i18n.localize(String(key));
    },
    eq: (a: unknown, b: unknown) => a === b,
    ne: (a: unknown, b: unknown) => a !== b,
    lt: (a: unknown, b: unknown) => Number(a) < Number(b),
    gt: (a: unknown, b: unknown) => Number(a) > Number(b),
    and: (...args: unknown[]) => args.slice(0, -1).every(Boolean),
    or: (...args: unknown[]) => args.slice(0, -1).some(Boolean),
    not: (a: unknown) => !a,
    concat: (...args: unknown[]) => args.slice(0, -1).map(String).join(""),
    ifThen: (c: unknown, a: unknown, b: unknown) => (c ? a : b),
    checked: (v: unknown) => (v ? "checked" : ""),
    disabled: (v: unknown) => (v ? "disabled" : ""),
  });
  return { hb, getTemplate, renderTemplate, loadTemplates };
}
