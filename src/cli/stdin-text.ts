/**
 * `--summary -` / `--next -` (contract §4b): the text read from standard input, so an agent host can pass any
 * text without quoting it on a command line. Bounded: more than STDIN_TEXT_MAX bytes is refused (nothing is
 * written); empty or blank input is no text, as if the option had not been given.
 */
import { UsageError } from "../core/errors";

export const STDIN_TEXT_MAX = 100 * 1024;

/**
 * How long standard input may stay silent before `-` gives up (issue 35 §4: a host that never closes it made
 * the command wait forever). A terminal is never timed: the learner types at their own pace.
 */
export const STDIN_TEXT_IDLE_MS = 10_000;

export function readStdinText(
  stdin: NodeJS.ReadableStream,
  option: string,
  idleMs = STDIN_TEXT_IDLE_MS,
): Promise<string | null> {
  const timed = (stdin as { isTTY?: boolean }).isTTY !== true;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const finish = (error: Error | null): void => {
      if (timer !== null) clearTimeout(timer);
      stdin.removeListener("data", onData);
      stdin.removeListener("end", onEnd);
      stdin.removeListener("error", finish);
      if (error !== null) {
        // Let go of a standard input that is still open, so the process can exit.
        (stdin as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
        reject(error);
        return;
      }
      const text = Buffer.concat(chunks).toString("utf8");
      resolve(text.trim() === "" ? null : text);
    };
    const arm = (): void => {
      if (!timed) return;
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(() => {
        const why = `standard input did not end within ${idleMs / 1000} s of silence`;
        finish(new UsageError(`--${option} -: ${why}; close it after the text (nothing was written)`));
      }, idleMs);
    };
    const onData = (chunk: Buffer | string): void => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      size += bytes.length;
      if (size > STDIN_TEXT_MAX) {
        const why = `standard input holds more than ${STDIN_TEXT_MAX / 1024} KB`;
        finish(new UsageError(`--${option} -: ${why}; nothing was written`));
        return;
      }
      chunks.push(bytes);
      arm();
    };
    const onEnd = (): void => finish(null);
    stdin.on("data", onData);
    stdin.once("end", onEnd);
    stdin.once("error", finish);
    arm();
  });
}

/**
 * The values of --summary, --next and --recall, with `-` read from standard input; at most one of them may be
 * `-` (standard input is read once): two are refused (usage, exit 2).
 */
export async function endTexts(
  stdin: NodeJS.ReadableStream,
  values: { summary?: string; next?: string; recall?: string },
): Promise<{ summary: string | null; nextAction: string | null; recall: string | null }> {
  const fromStdin = (["summary", "next", "recall"] as const).filter((k) => values[k] === "-");
  if (fromStdin.length > 1) {
    const named = fromStdin.map((k) => `--${k} -`).join(" and ");
    throw new UsageError(`${named} cannot all read standard input: give all but one of them as text`);
  }
  const read = async (value: string | undefined, option: string): Promise<string | null> =>
    value === "-" ? readStdinText(stdin, option) : (value ?? null);
  return {
    summary: await read(values.summary, "summary"),
    nextAction: await read(values.next, "next"),
    recall: await read(values.recall, "recall"),
  };
}
