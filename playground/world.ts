/**
 * The playground's sample world: a GM and two players, each player owning one PC, and four NPCs on
 * one scene. Portraits are small inline SVGs so the page needs no assets.
 */
import { ROLES } from "../test/sim/server.js";
import type { JsonObject } from "../test/sim/utils.js";

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
  mod: number;
  owner?: string;
  colour: string;
  /** D6 traits for the `sides` sample: Dexterity, Perception (and Tactics). */
  d6: { dexterity: string; perception: string; tactics?: string };
}

const ACTOR_SPECS: ActorSpec[] = [
  {
    id: "actorAria0000001",
    name: "Aria",
    mod: 3,
    owner: USERS.alice,
    colour: "#2f7d4f",
    d6: { dexterity: "3D+2", perception: "3D" },
  },
  {
    id: "actorBrom0000001",
    name: "Brom",
    mod: 1,
    owner: USERS.bob,
    colour: "#2f5f9d",
    d6: { dexterity: "3D+2", perception: "2D+1" },
  },
  {
    id: "actorOfficer0001",
    name: "Officer",
    mod: 2,
    colour: "#8c2f39",
    d6: { dexterity: "3D", perception: "3D+1", tactics: "4D+1" },
  },
  { id: "actorTrooper0001", name: "Trooper 1", mod: 0, colour: "#7a4b2a", d6: { dexterity: "2D+2", perception: "2D" } },
  { id: "actorTrooper0002", name: "Trooper 2", mod: 1, colour: "#7a4b2a", d6: { dexterity: "3D", perception: "2D" } },
  {
    id: "actorTrooper0003",
    name: "Trooper 3",
    mod: 0,
    colour: "#7a4b2a",
    d6: { dexterity: "2D+1", perception: "2D+1" },
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
      system: { attributes: { init: { mod: a.mod } }, ...a.d6 },
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
      "structured-initiative.initiativeFormula": "1d20",
      "structured-initiative.modifierFormula": "@attributes.init.mod",
      // The sides sample: D6 traits from the actors, the Star Wars D6 Tactics rule, a roomy countdown.
      "structured-initiative.sidesDexterity": "@dexterity",
      "structured-initiative.sidesPerception": "@perception",
      "structured-initiative.sidesTactics": "@tactics",
      "structured-initiative.sidesCountdown": 30,
    },
  };
}

/** Combatant data for every token of the scene (what "add tokens to the encounter" creates). */
export function sceneCombatants(): JsonObject[] {
  return ACTOR_SPECS.map((a) => ({ actorId: a.id, tokenId: tokenId(a.id), sceneId: SCENE }));
}
