/**
 * `--summary -` / `--next -` (contract §4b): the text read from standard input, so an agent host can pass any
 * text without quoting it on a command line. Bounded: more than STDIN_TEXT_MAX bytes is refused (nothing is
 * written); empty or blank input is no text, as if the option had not been given.
 */
import { UsageError } from "../core/errors";
import { readBoundedStdin } from "./bounded-stdin";

export const STDIN_TEXT_MAX = 100 * 1024;

/**
 * How long standard input may stay silent before `-` gives up (issue 35 §4: a host that never closes it made
 * the command wait forever). A terminal is never timed: the learner types at their own pace.
 */
export const STDIN_TEXT_IDLE_MS = 10_000;

export async function readStdinText(
  stdin: NodeJS.ReadableStream,
  option: string,
  idleMs = STDIN_TEXT_IDLE_MS,
): Promise<string | null> {
  const bytes = await readBoundedStdin(stdin, {
    maxBytes: STDIN_TEXT_MAX,
    idleMs: (stdin as { isTTY?: boolean }).isTTY === true ? null : idleMs,
    tooLarge: () =>
      new UsageError(`--${option} -: standard input holds more than ${STDIN_TEXT_MAX / 1024} KB; nothing was written`),
    silent: () =>
      new UsageError(
        `--${option} -: standard input did not end within ${idleMs / 1000} s of silence; ` +
          "close it after the text (nothing was written)",
      ),
  });
  const text = bytes.toString("utf8");
  return text.trim() === "" ? null : text;
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
