/**
 * The peak memory of a call that scans every note (issue 36: `stats`, `export`). V8 doubles its young generation
 * (new objects) each time many of them survive a collection, up to 16 MB semi-spaces: a full scan, which keeps a
 * record per note, grows it to the most, and the process then holds ~30 MB more for it at 30 000 notes (peak
 * 150 → 116–119 MB measured with it kept as it is; CPU within the noise). Growth is a V8 flag read each time
 * the young generation would grow, so setting it once the call knows it will scan everything keeps the young
 * generation at the size it has then. Only the sizing of memory depends on it, never an answer; a Node that
 * refuses the flag only keeps its default. The bin sets it before it loads the CLI when the arguments say so
 * (bin.ts), the earlier the smaller; the command sets it again whatever the arguments' order.
 */

/** Keeps V8's young generation at its present size for the rest of the process. */
export function keepYoungGenerationSmall(): void {
  try {
    // Required here, not imported: loading node:v8 costs 1–3 ms, which the other calls need not pay.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only by the calls that use it
    const v8 = require("node:v8") as typeof import("node:v8");
    v8.setFlagsFromString("--semi-space-growth-factor=1");
  } catch {
    // The default sizing: more memory, the same answers.
  }
}
