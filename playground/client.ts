/**
 * One playground client view: a user's "browser tab". This iframe's window is the realm: the
 * simulated Foundry globals are installed on it, then the built module bundle runs as a classic
 * script, exactly as Foundry would load it, and the combat tracker is mounted in a sidebar.
 */
import "../dist/styles/structured-initiative.css";
import type { SimCombat, SimRealm } from "../test/sim/runtime.js";
import type { Dict } from "../test/sim/utils.js";
import type { ClientHandle } from "./host.js";
import { bootRealm, MODULE_ID } from "./realm.js";
import { SAMPLES, SCENE, sceneCombatants } from "./world.js";
import { RenderOracle, type OracleRealm, type OracleTracker } from "../test/oracle/render-oracle.js";
const host = window.parent.siPlayground;
if (host === undefined) throw new Error("Open the playground's index.html: this page is one of its views.");
const { server, generation, lang } = host;
const userId = new URLSearchParams(location.search).get("user") ?? "";
// The page's language picks the fonts a browser uses for CJK text.
document.documentElement.lang = lang;

function byId(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`#${id} missing`);
  return el;
}

let api: SimRealm;

// ------------------------------------------------------------------ Foundry's UI stand-ins
/** Notifications appear as toasts (text only) and stay in the realm's list for the tests. */
function showToast(type: string, message: string): void {
  const list = byId("pg-notifications");
  const item = document.createElement("li");
  item.className = `pg-toast pg-toast--${type}`;
  item.setAttribute("role", type === "info" ? "status" : "alert");
  item.textContent = message;
  list.append(item);
  setTimeout(() => {
    item.remove();
  }, 6000);
}

interface DialogButton {
  action: string;
  label: string;
  default?: boolean;
  callback?: (event: Event, button: HTMLButtonElement, dialog: HTMLDialogElement) => unknown;
}

/** A small DialogV2.wait stand-in: a modal <dialog> holding the module's rendered template. */
function dialogWait(config: {
  window?: { title?: string };
  content?: string;
  buttons?: DialogButton[];
}): Promise<unknown> {
  return new Promise((resolve) => {
    const dialog = document.createElement("dialog");
    dialog.className = "pg-dialog";
    const form = document.createElement("form");
    const title = document.createElement("h3");
    title.className = "pg-dialog__title";
    title.textContent = config.window?.title ?? "";
    const body = document.createElement("div");
    // The content is a module template rendered by Handlebars (escaped), as DialogV2 inserts it.
    const template = document.createElement("template");
    template.innerHTML = config.content ?? "";
    body.append(template.content);
    const footer = document.createElement("footer");
    footer.className = "pg-dialog__buttons";
    let settled = false;
    const finish = (value: unknown): void => {
      if (settled) return;
      settled = true;
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    for (const spec of config.buttons ?? []) {
      const button = document.createElement("button");
      button.type = "submit";
      button.dataset.action = spec.action;
      button.textContent = spec.label;
      if (spec.default) button.autofocus = true;
      button.addEventListener("click", (event) => {
        event.preventDefault();
        finish(spec.callback ? spec.callback(event, button, dialog) : spec.action);
      });
      footer.append(button);
    }
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = "Cancel";
    cancel.addEventListener("click", () => {
      finish(null);
    });
    footer.append(cancel);
    dialog.addEventListener("cancel", () => {
      finish(null);
    });
    form.append(title, body, footer);
    dialog.append(form);
    document.body.append(dialog);
    dialog.showModal();
  });
}

function showChat(message: Dict): void {
  if (message.visible === false) return;
  const log = byId("pg-chat");
  const item = document.createElement("li");
  item.className = "pg-chat__message";
  const flavor = document.createElement("span");
  flavor.className = "pg-chat__flavor";
  flavor.textContent = typeof message.flavor === "string" ? message.flavor : "";
  item.append(flavor);
  const rolls = Array.isArray(message.rolls) ? (message.rolls as { total?: unknown; formula?: unknown }[]) : [];
  for (const roll of rolls) {
    const total = document.createElement("strong");
    total.className = "pg-chat__total";
    total.textContent = `${typeof roll.formula === "string" ? roll.formula : ""} = ${typeof roll.total === "number" ? roll.total : ""}`;
    item.append(total);
  }
  log.prepend(item);
}

function setTheme(theme: "dark" | "light"): void {
  for (const el of [document.body, byId("sidebar")]) {
    el.classList.toggle("theme-dark", theme === "dark");
    el.classList.toggle("theme-light", theme === "light");
  }
}

// ------------------------------------------------------------------ boot
/** The Foundry UI stand-ins of this view: toasts, a dialog, a chat log. */
function prepare(realm: SimRealm): void {
  const notifications = realm.ui.notifications;
  for (const [method, type] of [
    ["info", "info"],
    ["warn", "warning"],
    ["error", "error"],
  ] as const) {
    const original = notifications[method];
    notifications[method] = (message: unknown, options?: Dict) => {
      const result = original(message, options);
      showToast(type, realm.notifications.at(-1)?.message ?? String(message));
      return result;
    };
  }
  // DialogV2.wait and DialogV2.confirm (https://foundryvtt.com/api/classes/foundry.applications.api.DialogV2.html)
  // in the playground's dialog: confirm resolves true for Yes, false for No, null when cancelled.
  const dialogConfirm = (config: { window?: { title?: string }; content?: string }): Promise<unknown> =>
    dialogWait({
      ...config,
      buttons: [
        { action: "yes", label: "Yes", default: true, callback: () => true },
        { action: "no", label: "No", callback: () => false },
      ],
    });
  (realm.foundry.applications.api as Dict).DialogV2 = { wait: dialogWait, confirm: dialogConfirm };
  realm.Hooks.on("createChatMessage", (message: unknown) => {
    showChat(message as Dict);
  });
  if (host?.oracle === true) watchRenders(realm);
}

/** The render oracle of this view: every render of its trackers is compared with a fresh one (`?oracle=1`). */
function watchRenders(realm: SimRealm): void {
  const oracle = new RenderOracle(userId).install(realm as unknown as OracleRealm);
  window.siRenderOracle = {
    get mismatches() {
      return oracle.mismatches;
    },
    async take() {
      oracle.mark();
      await oracle.checkTrackers(realm.ui.combat as OracleTracker | null, "at the end of the test");
      return oracle.mismatches.splice(0);
    },
  };
}

async function boot(): Promise<void> {
  api = await bootRealm(server, userId, prepare, generation, lang);
  const element = (api.ui.combat as { element?: HTMLElement | null }).element;
  if (element) {
    element.classList.add("pg-tracker", "tab", "sidebar-tab");
    byId("pg-combat").append(element);
  }
  for (const message of api.game.messages.contents) showChat(message as unknown as Dict);
  document.title = `${api.game.user?.name ?? userId} — Structured Initiative playground`;
  document.body.dataset.ready = "true";
}

async function addSceneTokens(): Promise<void> {
  const Combat = api.classes.Combat.implementation;
  const combat =
    api.game.combats.viewed ?? ((await Combat.create({ scene: SCENE, active: true })) as unknown as SimCombat);
  const present = new Set(combat.combatants.contents.map((c) => c.tokenId));
  const missing = sceneCombatants().filter((c) => !present.has(typeof c.tokenId === "string" ? c.tokenId : ""));
  if (missing.length > 0) await combat.createEmbeddedDocuments("Combatant", missing);
}

/** The modes with a playable sample encounter (the sample's name is its mode). */
const SAMPLE_MODES: readonly string[] = SAMPLES.map((s) => s.id);

async function createSample(): Promise<void> {
  const sample = host?.sample ?? "none";
  if (!SAMPLE_MODES.includes(sample) || !api.game.user?.isGM || api.game.combats.size > 0) return;
  const Combat = api.classes.Combat.implementation;
  const combat = await Combat.create({ scene: SCENE, active: true, flags: { [MODULE_ID]: { mode: sample } } });
  await (combat as unknown as SimCombat).createEmbeddedDocuments("Combatant", sceneCombatants());
}

const handleForTop: ClientHandle = { addSceneTokens, setTheme };
window.siClient = handleForTop;
setTheme(host.theme);
boot()
  .then(createSample)
  .catch((err: unknown) => {
    console.error(`[playground ${userId}]`, err);
    showToast("error", err instanceof Error ? err.message : String(err));
  });
