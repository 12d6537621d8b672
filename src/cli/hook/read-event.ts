/**
 * The hook's standard input, read bounded (contract §4b hook, bad input): at most HOOK_INPUT_MAX bytes, never
 * buffered beyond that. It ends at end of input, or as soon as what was read is one whole JSON object (a host
 * that leaves stdin open must not make the hook wait), or after HOOK_INPUT_IDLE_MS without a byte.
 */
import { UsageError } from "../../core/errors";

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

export function readHookInput(
  stdin: NodeJS.ReadableStream,
  limits = { maxBytes: HOOK_INPUT_MAX, idleMs: HOOK_INPUT_IDLE_MS },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const finish = (error: Error | null): void => {
      if (timer !== null) clearTimeout(timer);
      stdin.removeListener("data", onData);
      stdin.removeListener("end", onEnd);
      stdin.removeListener("error", onError);
      stdin.pause();
      // Standard input may still be open (a host that never closes it): let go of it, so the process can exit.
      const closable = stdin as NodeJS.ReadableStream & { destroy?: () => void };
      if (error !== null || !(stdin as { readableEnded?: boolean }).readableEnded) closable.destroy?.();
      if (error) reject(error);
      else resolve(Buffer.concat(chunks).toString("utf8"));
    };
    const arm = (): void => {
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(() => {
        const what = size === 0 ? "no hook event arrived" : "the hook event did not end";
        finish(new UsageError(`${what} on standard input within ${limits.idleMs / 1000} s: nothing was done`));
      }, limits.idleMs);
    };
    const onData = (chunk: Buffer | string): void => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      size += bytes.length;
      if (size > limits.maxBytes) {
        finish(
          new UsageError(
            `the hook event on standard input is larger than ${limits.maxBytes / (1024 * 1024)} MB: nothing was done`,
          ),
        );
        return;
      }
      chunks.push(bytes);
      if (completeObject(chunks)) finish(null);
      else arm();
    };
    const onEnd = (): void => finish(null);
    const onError = (error: Error): void => {
      const code = (error as { code?: unknown }).code;
      const why = typeof code === "string" ? code : error.message;
      finish(new UsageError(`cannot read the hook event from standard input (${why})`));
    };
    stdin.on("data", onData);
    stdin.on("end", onEnd);
    stdin.on("error", onError);
    arm();
    stdin.resume();
  });
}
