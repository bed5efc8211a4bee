/**
 * The module's entry with its stored-encounter parse counter (`parseCount()`) on `globalThis`, for
 * `bench/parses.figures.ts` alone: the bench builds a second bundle from this entry, so the shipped
 * bundle exposes nothing and the minifier's names do not matter.
 */
import "../src/index";
import { parseCount } from "../src/foundry/authority/encounters";

Object.assign(globalThis, { __siParseCount: parseCount });
