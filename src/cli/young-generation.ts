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

/**
 * Set once the flag is: on globalThis, as V8's flags are the process's, and the bin (dist/cli.js) and the CLI
 * (dist/palee.js) each bundle a copy of this module.
 */
const KEPT_SMALL = Symbol.for("palee.young-generation-kept-small");
const marks = globalThis as { [KEPT_SMALL]?: boolean };

/** Whether this process has set the flag (code-cache.ts: V8 checks a code cache against the flags it was made in). */
export const youngGenerationKeptSmall = (): boolean => marks[KEPT_SMALL] === true;

/**
 * Gives the flag back its default (V8's, `node --v8-options`), at the end of a call that set it after loading the
 * CLI: its code cache, made then, would otherwise carry the flags' hash and be refused by every next call.
 */
export function restoreYoungGenerationGrowth(): void {
  if (marks[KEPT_SMALL] !== true) return;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded already by keepYoungGenerationSmall
    (require("node:v8") as typeof import("node:v8")).setFlagsFromString("--semi-space-growth-factor=2");
    marks[KEPT_SMALL] = false;
  } catch {
    // The cache is then refused and made again by the next call, as without this.
  }
}

/** Keeps V8's young generation at its present size for the rest of the process. */
export function keepYoungGenerationSmall(): void {
  marks[KEPT_SMALL] = true;
  try {
    // Required here, not imported: loading node:v8 costs 1–3 ms, which the other calls need not pay.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only by the calls that use it
    const v8 = require("node:v8") as typeof import("node:v8");
    v8.setFlagsFromString("--semi-space-growth-factor=1");
  } catch {
    // The default sizing: more memory, the same answers.
  }
}
