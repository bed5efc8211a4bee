/**
 * The playground's top page: one simulated server and three client views (a GM and two players),
 * each an iframe with its own realm running the built module against that server.
 */
import { SimServer } from "../test/sim/server.js";
import { resetIds } from "../test/sim/utils.js";
import manifest from "../module.json";
import type { PlaygroundHost } from "./host.js";
import { SAMPLES, sampleWorld, USERS } from "./world.js";

const params = new URLSearchParams(location.search);
const sample = params.get("sample") ?? "individual";
const seed = Number(params.get("seed") ?? "1") || 1;
let theme: "dark" | "light" = params.get("theme") === "light" ? "light" : "dark";
/** The Foundry generation the simulated clients emulate: `?generation=14`, else 13. */
const generation: 13 | 14 = params.get("generation") === "14" ? 14 : 13;
/** The render oracle in every view: `?oracle=1` (the browser tests' setting). */
const oracle = params.get("oracle") === "1";
/** The language every view shows: `?lang=<code>` of a language module.json lists, else English. */
const lang = manifest.languages.some((l) => l.lang === params.get("lang")) ? (params.get("lang") ?? "en") : "en";

const VIEWS = [
  { userId: USERS.gm, title: "GM", who: "Gamemaster" },
  { userId: USERS.alice, title: "Player", who: "Alice — owns Aria" },
  { userId: USERS.bob, title: "Player", who: "Bob — owns Brom" },
] as const;

function byId(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`#${id} missing`);
  return el;
}

function freshHost(): PlaygroundHost {
  resetIds(seed);
  const server = new SimServer({ ...sampleWorld(), combats: [], seed });
  return { server, sample, theme, generation, oracle, lang };
}

const frames: HTMLIFrameElement[] = [];

function mountViews(): void {
  const views = byId("pg-views");
  views.replaceChildren();
  frames.length = 0;
  for (const view of VIEWS) {
    const column = document.createElement("section");
    column.className = "pg-view";
    column.setAttribute("aria-label", `${view.title} view: ${view.who}`);
    const heading = document.createElement("h2");
    heading.className = "pg-view__title";
    const strong = document.createElement("strong");
    strong.textContent = view.title;
    heading.append(strong, ` ${view.who}`);
    const frame = document.createElement("iframe");
    frame.className = "pg-view__frame";
    frame.title = `${view.title} view (${view.who})`;
    frame.dataset.user = view.userId;
    frame.src = `./client.html?user=${view.userId}`;
    column.append(heading, frame);
    views.append(column);
    frames.push(frame);
  }
}

function reset(): void {
  window.siPlayground = freshHost();
  mountViews();
}

byId("pg-reset").addEventListener("click", reset);
byId("pg-add-tokens").addEventListener("click", () => {
  void frames[0]?.contentWindow?.siClient?.addSceneTokens();
});
const themeButton = byId("pg-theme");
function applyTheme(): void {
  document.body.classList.toggle("theme-dark", theme === "dark");
  document.body.classList.toggle("theme-light", theme === "light");
  themeButton.setAttribute("aria-pressed", String(theme === "light"));
  for (const frame of frames) frame.contentWindow?.siClient?.setTheme(theme);
}
themeButton.addEventListener("click", () => {
  theme = theme === "dark" ? "light" : "dark";
  window.siPlayground = { ...(window.siPlayground ?? freshHost()), theme };
  applyTheme();
});

// The sample list, one button per mode's sample: the current one is pressed; another reloads the page with it.
for (const { id: mode, label } of SAMPLES) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "pg-mode";
  button.dataset.mode = mode;
  button.textContent = label;
  document.querySelector(".pg-modes")?.append(button);
  button.setAttribute("aria-pressed", String(mode === sample));
  button.addEventListener("click", () => {
    if (mode === sample) return;
    const next = new URLSearchParams(location.search);
    next.set("sample", mode);
    location.search = next.toString();
  });
}

// The language switch: every language module.json lists; another reloads the page in it.
const languages = byId("pg-lang") as HTMLSelectElement;
for (const language of manifest.languages) {
  const option = document.createElement("option");
  option.value = language.lang;
  option.textContent = language.name;
  option.selected = language.lang === lang;
  languages.append(option);
}
languages.addEventListener("change", () => {
  const next = new URLSearchParams(location.search);
  next.set("lang", languages.value);
  location.search = next.toString();
});
document.documentElement.lang = lang;

reset();
applyTheme();
// The title says which Foundry generation's API shapes the simulated clients emulate.
const subtitle = document.querySelector(".pg-sub");
if (subtitle !== null) subtitle.textContent = `playground · Foundry v${String(generation)} shapes`;
