/** The realm's `game.socket`: module messages go through the server to the other clients. */
import type { RealmTransport } from "../runtime.js";
import type { Fn } from "./constants.js";
import { toJson } from "../utils.js";

/** One realm's socket and its listeners (the realm hands each arriving message to them). */
export function createSocket(t: RealmTransport) {
  const socketListeners = new Map<string, Fn[]>();
  const socket = {
    on(event: string, fn: Fn): void {
      socketListeners.set(event, [...(socketListeners.get(event) ?? []), fn]);
    },
    off(event: string, fn?: Fn): void {
      socketListeners.set(event, fn ? (socketListeners.get(event) ?? []).filter((f) => f !== fn) : []);
    },
    emit(event: string, data: unknown): void {
      t.socketEmit(event, toJson(data));
    },
  };
  return { socket, socketListeners };
}
