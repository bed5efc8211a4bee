/**
 * The playground as a static site (issue 16 item 8): `npm run build:playground`'s output served by a
 * plain static file server (files only, from a sub-folder as a project page would be, no server
 * code) runs the simulated Foundry and the module in the browser, and one round of each of the five
 * modes is played there: the GM and both players act from their own views, which end the round
 * agreeing on round 2.
 *
 * With SI_JOURNAL_IMAGES=1 (`npm run journal:images`) it also saves the GM's tracker of each mode,
 * mid-round, as the rules journal's images (assets/journal/<mode>.png), and the three views of the
 * slots mode side by side as the manifest's cover (assets/journal/cover.png); otherwise they go to
 * test-artefacts/.
 */
import { createServer } from "node:http";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Frame } from "playwright-core";
import { describe, expect, it } from "vitest";
import "../../playground/host.js";
import { buildPlayground } from "../../scripts/build-playground.mjs";
import { agreedOn, ARTEFACTS, loadViews, ROOT, shown, useSession, type Served, type View } from "./browser.js";

/** Where the site is served from on the static server, as a host's project folder would be. */
const BASE = "/structured-initiative/";
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** Build the static playground into a temporary folder and serve its files, nothing else. */
async function serveStatic(): Promise<Served> {
  const folder = await buildPlayground(mkdtempSync(path.join(os.tmpdir(), "si-static-")), { quiet: true });
  const server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? "/", "http://localhost");
    const relative = decodeURIComponent(pathname).slice(BASE.length);
    const file = path.join(folder, relative === "" || relative.endsWith("/") ? `${relative}index.html` : relative);
    const inside = pathname.startsWith(BASE) && file.startsWith(folder) && statSync(file, { throwIfNoEntry: false });
    if (request.method !== "GET" || !inside || !inside.isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    response.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${String(port)}${BASE}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          rmSync(folder, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

const session = useSession(serveStatic);

/**
 * Wait until every view shows the same round, order and acting combatant (what each user sees of
 * the others' secrets may differ: phases hides the foes' intents from players); the GM's round text.
 */
async function agreed(frames: Record<View, Frame>, check: (round: string) => boolean = () => true): Promise<string> {
  const glance = async (frame: Frame): Promise<[string, string[], string]> => {
    const s = await shown(frame);
    return [s.round, s.order, s.current];
  };
  const [round] = await agreedOn(frames, glance, { check: ([r]) => check(r) });
  return round;
}

/** The step a view takes, as its user, in the round being played (run in that view's frame). */
interface Step {
  did: string;
  round: number;
  current: string | null;
}

/**
 * One step of a round in `frame`, as its user: what the encounter waits for (a side roll, a
 * declaration, an intent, a slot to fill, a hero to start, the upkeep) if this user may do it, else
 * the end of the current turn. Everything goes through the module's public API and Combat methods.
 */
function step(frame: Frame): Promise<Step> {
  return frame.evaluate(async (): Promise<Step> => {
    type Result = { ok?: boolean; code?: string } | undefined;
    interface Allowed {
      type: string;
      combatantId?: string;
      groupId?: string;
      slot?: number;
    }
    interface Api {
      modeOf(c: unknown): string;
      view(c: unknown): { round: number; step: string; current: string | null } | null;
      allowed(c: unknown): Allowed[];
      command(c: unknown, command: Record<string, unknown>): Promise<Result>;
      sides: { declare(c: unknown, id: string, texts: string[], force: boolean): Promise<Result> };
    }
    const g = globalThis as unknown as {
      game: {
        combat: { rollAll(): Promise<unknown> };
        modules: { get(id: string): { api: Api } };
        user: { isGM: boolean };
      };
    };
    const api = g.game.modules.get("structured-initiative").api;
    const combat = g.game.combat;
    const view = api.view(combat);
    const current = view?.current ?? null;
    const allowed = api.allowed(combat);
    const find = (type: string): Allowed | undefined =>
      allowed.find((a) => a.type === type && (a.combatantId === undefined || a.combatantId === current));
    const anyOf = (type: string): Allowed | undefined => allowed.find((a) => a.type === type);
    const mode = api.modeOf(combat);
    let did: string;
    let result: Result;
    if (view !== null && view.step === "initiative" && g.game.user.isGM) {
      did = "roll";
      await combat.rollAll();
    } else if (mode === "sides" && find("declare") && current !== null) {
      did = "declare";
      result = await api.sides.declare(combat, current, ["Fire a blaster"], false);
    } else if (mode === "declare-resolve" && find("declare") && current !== null) {
      did = "declare";
      result = await api.command(combat, { type: "declare", combatantId: current, actions: [] });
    } else if (anyOf("orderTiedSides")) {
      did = "orderTiedSides";
      result = await api.command(combat, {
        type: "orderTiedSides",
        sideIds: (anyOf("orderTiedSides")?.groupId ?? "").split(","),
      });
    } else if (anyOf("upkeep")) {
      did = "upkeep";
      result = await api.command(combat, { type: "upkeep" });
    } else if (anyOf("fillSlot") && current === null) {
      const fill = anyOf("fillSlot");
      did = "fillSlot";
      result = await api.command(combat, { type: "fillSlot", slot: fill?.slot, combatantId: fill?.combatantId });
    } else if (anyOf("declareIntent")) {
      did = "declareIntent";
      const foeId = anyOf("declareIntent")?.combatantId;
      result = await api.command(combat, { type: "declareIntent", foeId, text: "Charge", kind: "other", targets: [] });
    } else if (anyOf("startTurn") && current === null) {
      did = "startTurn";
      result = await api.command(combat, { type: "startTurn", combatantId: anyOf("startTurn")?.combatantId });
    } else {
      did = "nextTurn";
      result = await api.command(combat, { type: "nextTurn" });
    }
    if (result !== undefined && result.ok !== true) did += ` refused: ${String(result.code)}`;
    return { did, round: view?.round ?? 0, current };
  });
}

/** Each mode's sample, and the step after which its tracker is photographed for the journal. */
const MODES: readonly { mode: string; photoAt: number }[] = [
  { mode: "individual", photoAt: 2 },
  { mode: "sides", photoAt: 9 },
  { mode: "slots", photoAt: 3 },
  { mode: "declare-resolve", photoAt: 3 },
  { mode: "phases", photoAt: 7 },
];

const JOURNAL_IMAGES = process.env.SI_JOURNAL_IMAGES === "1";

describe("the static playground (npm run build:playground) on a plain static server", () => {
  it("is a folder of static files with relative URLs", () => {
    expect(session.url).toContain(BASE);
  });

  for (const { mode, photoAt } of MODES) {
    it(`plays one round of ${mode}: the GM and both players act, and every view reaches round 2`, async () => {
      const frames = await loadViews(session, `sample=${mode}`);
      const gm = frames.gm;
      // The GM rolls what the mode rolls before the start, and starts.
      const started = await gm.evaluate(async () => {
        const g = globalThis as unknown as {
          game: {
            combat: { rollAll(): Promise<unknown>; startCombat(): Promise<unknown>; started: boolean } | null;
          };
        };
        const combat = g.game.combat;
        if (combat === null) return false;
        await combat.rollAll();
        await combat.startCombat();
        return combat.started;
      });
      expect(started).toBe(true);
      await agreed(frames, (round) => round.includes("1"));

      const owners: Record<string, View> = { Aria: "alice", Brom: "bob" };
      const log: string[] = [];
      const actors = new Set<View>();
      for (let i = 0; i < 40; i += 1) {
        // The player whose PC acts takes the step from their own view; the GM takes the others.
        const current = await gm.evaluate(() => {
          const g = globalThis as unknown as { game: { combat: { combatant: { name: string } | null } } };
          return g.game.combat.combatant?.name ?? null;
        });
        const view: View = (current === null ? undefined : owners[current]) ?? "gm";
        const done = await step(frames[view]);
        log.push(`${view}: ${done.did}`);
        expect(done.did, log.join("; ")).not.toContain("refused");
        actors.add(view);
        // Wait until every view shows the step (the GM applied it and every client re-rendered).
        const round = await agreed(frames);
        if (i + 1 === photoAt) {
          const folder = JOURNAL_IMAGES ? path.join(ROOT, "assets/journal") : ARTEFACTS;
          mkdirSync(folder, { recursive: true });
          await gm.locator("#pg-combat").screenshot({ path: path.join(folder, `${mode}.png`) });
          // The manifest's cover: the three views side by side, mid-round in the slots mode.
          if (mode === "slots")
            await session.page.locator("#pg-views").screenshot({ path: path.join(folder, "cover.png") });
        }
        if (round.includes("2")) break;
      }
      expect(await agreed(frames), log.join("; ")).toContain("2");
      // Both players took part from their own views, and the GM.
      expect([...actors].sort(), log.join("; ")).toEqual(["alice", "bob", "gm"]);
      expect(session.errors).toEqual([]);
    });
  }
});
