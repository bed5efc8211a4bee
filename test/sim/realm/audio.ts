/** The realm's `AudioHelper`: the sim records each sound instead of playing it. */
import type { Dict } from "../utils.js";

/** One realm's audio helper and its record of sounds. */
export function createAudio() {
  /** Every sound `AudioHelper.play` was asked to play here (the sim's record; nothing is heard). */
  const sounds: Dict[] = [];
  /**
   * `foundry.audio.AudioHelper.play(data, socketOptions)` (https://foundryvtt.com/api/classes/foundry.audio.AudioHelper.html#play):
   * plays `data.src` on this client; `socketOptions` true would also push it to the others, which the
   * sim records as `broadcast`.
   */
  const AudioHelper = {
    async play(data: Dict, socketOptions: unknown = false): Promise<Dict> {
      const sound = { ...data, broadcast: socketOptions !== false && socketOptions !== undefined };
      sounds.push(sound);
      return sound;
    },
  };
  return { sounds, AudioHelper };
}
