/**
 * The peak memory of a call that scans every note (issue 36: `stats`, `export`). V8 doubles its young generation
 * (new objects) each time many of them survive a collection, up to 16 MB semi-spaces: a full scan, which keeps a
 * record per note, grows it to the most, and the process then holds ~30 MB more for it at 30 000 notes (peak
 * 150 → 116–119 MB measured with it kept as it is; CPU within the noise). Growth is a V8 flag read each time
 * the young generation would grow, so setting it once the call knows it will scan everything keeps the young
 * generation at the size it has then. Only the sizing of memory depends on it, never an answer; a Node that
 * refuses the flag only keeps its default.
 */
import { setFlagsFromString } from "node:v8";

export function keepYoungGenerationSmall(): void {
  try {
    setFlagsFromString("--semi-space-growth-factor=1");
  } catch {
    // The default sizing: more memory, the same answers.
  }
}
