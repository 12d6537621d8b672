/**
 * Standard input read bounded, the one reader of `-` texts (stdin-text.ts) and of the hook's event
 * (hook/read-event.ts): at most `maxBytes`, never buffered beyond that; it ends at end of input, as soon as
 * `complete` says what was read is whole, or after `idleMs` without a byte. Whatever way it ends, a standard
 * input still open is let go of, so the process can exit.
 */
export interface StdinBounds {
  maxBytes: number;
  /** Silence after which reading gives up; null: never (a terminal, where the learner types at their pace). */
  idleMs: number | null;
  /** Whether the bytes read so far are a whole input (the hook's one JSON object); read on after each chunk. */
  complete?: (chunks: readonly Buffer[]) => boolean;
  /** The refusals, in the caller's words: more than maxBytes; idleMs of silence (`size` bytes read); a failed read. */
  tooLarge: () => Error;
  silent: (size: number) => Error;
  failed?: (error: Error) => Error;
}

export function readBoundedStdin(stdin: NodeJS.ReadableStream, bounds: StdinBounds): Promise<Buffer> {
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
      const closable = stdin as NodeJS.ReadableStream & { destroy?: () => void; readableEnded?: boolean };
      if (error !== null || closable.readableEnded !== true) closable.destroy?.();
      if (error !== null) reject(error);
      else resolve(Buffer.concat(chunks));
    };
    const arm = (): void => {
      const idleMs = bounds.idleMs;
      if (idleMs === null) return;
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(() => finish(bounds.silent(size)), idleMs);
    };
    const onData = (chunk: Buffer | string): void => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      size += bytes.length;
      if (size > bounds.maxBytes) {
        finish(bounds.tooLarge());
        return;
      }
      chunks.push(bytes);
      if (bounds.complete?.(chunks) === true) finish(null);
      else arm();
    };
    const onEnd = (): void => finish(null);
    const onError = (error: Error): void => finish(bounds.failed ? bounds.failed(error) : error);
    stdin.on("data", onData);
    stdin.once("end", onEnd);
    stdin.once("error", onError);
    arm();
    stdin.resume();
  });
}
