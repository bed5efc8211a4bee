/**
 * The playground's sample world: a GM and two players, each player owning one PC, and four NPCs on
 * one scene. Portraits are small inline SVGs so the page needs no assets.
 */
import { ROLES } from "../test/sim/server.js";
import type { JsonObject } from "../test/sim/utils.js";
import type { ModeSample } from "../src/modes/contract.js";

/** Every mode's playground sample (`src/modes/<id>/sample.ts`), in button order. */
export const SAMPLES: readonly ModeSample[] = Object.values(
  import.meta.glob<Record<string, ModeSample>>("../src/modes/*/sample.ts", { eager: true }),
)
  .flatMap((module) => Object.values(module))
  .sort((a, b) => a.order - b.order);

/** User ids. */
export const USERS = {
  gm: "gmUser0000000001",
  alice: "player0000000001",
  bob: "player0000000002",
} as const;

/** The scene every token is on. */
export const SCENE = "scene00000000001";

/** A round portrait with an initial, as a data URI. */
export function portrait(letter: string, colour: string): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="4" fill="${colour}"/>` +
    `<text x="16" y="22" font-family="sans-serif" font-size="16" font-weight="bold" text-anchor="middle" fill="#fff">${letter}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

interface ActorSpec {
  id: string;
  name: string;
  owner?: string;
  colour: string;
}

const ACTOR_SPECS: ActorSpec[] = [
  {
    id: "actorAria0000001",
    name: "Aria",
    owner: USERS.alice,
    colour: "#2f7d4f",
  },
  {
    id: "actorBrom0000001",
    name: "Brom",
    owner: USERS.bob,
    colour: "#2f5f9d",
  },
  {
    id: "actorOfficer0001",
    name: "Officer",
    colour: "#8c2f39",
  },
  { id: "actorTrooper0001", name: "Trooper 1", colour: "#7a4b2a" },
  { id: "actorTrooper0002", name: "Trooper 2", colour: "#7a4b2a" },
  {
    id: "actorTrooper0003",
    name: "Trooper 3",
    colour: "#7a4b2a",
  },
];

/** The token id of an actor on the scene. */
export function tokenId(actorId: string): string {
  return `tok${actorId.slice(5, 18)}`.padEnd(16, "0").slice(0, 16);
}

/** Everything the simulated server starts with. */
export function sampleWorld(): {
  users: JsonObject[];
  actors: JsonObject[];
  scenes: JsonObject[];
  settings: Record<string, string | number>;
} {
  return {
    users: [
      { _id: USERS.gm, name: "Gamemaster", role: ROLES.GAMEMASTER },
      { _id: USERS.alice, name: "Alice", role: ROLES.PLAYER, character: "actorAria0000001" },
      { _id: USERS.bob, name: "Bob", role: ROLES.PLAYER, character: "actorBrom0000001" },
    ],
    actors: ACTOR_SPECS.map((a) => ({
      _id: a.id,
      name: a.name,
      img: portrait(a.name.charAt(0), a.colour),
      type: a.owner ? "character" : "npc",
      ownership: a.owner ? { default: 0, [a.owner]: 3 } : { default: 0 },
      // What each mode's sample gives this actor (its traits for that mode).
      system: Object.assign({}, ...SAMPLES.map((sample) => sample.actors?.[a.name] ?? {})) as JsonObject,
    })),
    scenes: [
      {
        _id: SCENE,
        name: "Hangar",
        active: true,
        // Heroes on the left, the others across the hangar, a grid square (100 px) apart.
        tokens: ACTOR_SPECS.map((a, i) => ({
          _id: tokenId(a.id),
          actorId: a.id,
          name: a.name,
          disposition: a.owner ? 1 : -1,
          x: a.owner ? 200 : 1000 + 200 * (i % 2),
          y: 200 + 200 * i,
        })),
      },
    ],
    settings: {
      "structured-initiative.defaultMode": "individual",
      ...Object.fromEntries(
        SAMPLES.flatMap((sample) => Object.entries(sample.settings)).map(([key, value]) => [
          `structured-initiative.${key}`,
          value,
        ]),
      ),
    },
  };
}

/** Combatant data for every token of the scene (what "add tokens to the encounter" creates). */
export function sceneCombatants(): JsonObject[] {
  return ACTOR_SPECS.map((a) => ({ actorId: a.id, tokenId: tokenId(a.id), sceneId: SCENE }));
}
