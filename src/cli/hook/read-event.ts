/**
 * The hook's standard input, read bounded (contract §4b hook, bad input): at most HOOK_INPUT_MAX bytes, never
 * buffered beyond that. It ends at end of input, or as soon as what was read is one whole JSON object (a host
 * that leaves stdin open must not make the hook wait), or after HOOK_INPUT_IDLE_MS without a byte.
 */
import { UsageError } from "../../core/errors";
import { readBoundedStdin } from "../bounded-stdin";

export const HOOK_INPUT_MAX = 1024 * 1024;
export const HOOK_INPUT_IDLE_MS = 2_000;

/** Whether the input so far is one complete JSON object; parsed only when its last chunk ends like one. */
function completeObject(chunks: readonly Buffer[]): boolean {
  const last = chunks[chunks.length - 1];
  if (
    !last
      .subarray(Math.max(0, last.length - 64))
      .toString("latin1")
      .trimEnd()
      .endsWith("}")
  )
    return false;
  try {
    JSON.parse(Buffer.concat(chunks).toString("utf8"));
    return true;
  } catch {
    return false;
  }
}

export async function readHookInput(
  stdin: NodeJS.ReadableStream,
  limits = { maxBytes: HOOK_INPUT_MAX, idleMs: HOOK_INPUT_IDLE_MS },
): Promise<string> {
  const bytes = await readBoundedStdin(stdin, {
    ...limits,
    complete: completeObject,
    tooLarge: () =>
      new UsageError(
        `the hook event on standard input is larger than ${limits.maxBytes / (1024 * 1024)} MB: nothing was done`,
      ),
    silent: (size) => {
      const what = size === 0 ? "no hook event arrived" : "the hook event did not end";
      return new UsageError(`${what} on standard input within ${limits.idleMs / 1000} s: nothing was done`);
    },
    failed: (error) => {
      const code = (error as { code?: unknown }).code;
      const why = typeof code === "string" ? code : error.message;
      return new UsageError(`cannot read the hook event from standard input (${why})`);
    },
  });
  return bytes.toString("utf8");
}
