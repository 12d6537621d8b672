/** The [R]esume [S]ave [D]iscard [I]gnore question that start -i and recover -i ask about each draft. */
import { UsageError } from "../core/errors";
import type { RecoverAction, SaveShown } from "../core/sessions";
import type { OffsetAt } from "../core/time";
import { describeInstant, formatDuration } from "../core/time";
import type { CommandContext } from "./commands/command";
import type { CliIo } from "./output";
import type { LineReader } from "./prompt";

const ANSWERS: Record<string, RecoverAction> = { r: "resume", s: "save", d: "discard", i: "ignore" };

/**
 * What Save would record, for the learner to see before choosing (issue 35 §4): "Save would record 14:02–15:10
 * (interrupted): 48 min studied; 20 min away not counted".
 */
export function saveLine(shown: SaveShown, now: number, offsetAt: OffsetAt): string {
  const span = `${describeInstant(shown.startedMs, now, offsetAt)}–${describeInstant(shown.endedMs, now, offsetAt)}`;
  const pauses = shown.breakMinutes - shown.awayMinutes;
  const notCounted = [
    ...(shown.awayMinutes > 0 ? [`${formatDuration(shown.awayMinutes)} away`] : []),
    ...(pauses > 0 ? [`${formatDuration(pauses)} of pauses`] : []),
  ];
  const left = notCounted.length === 0 ? "no time away" : `${notCounted.join(" and ")} not counted`;
  return `Save would record ${span} (interrupted): ${formatDuration(shown.durationMinutes)} studied; ${left}`;
}

/** The question about one draft, with what Save would record of it as it stands now. */
export async function askAboutDraft(
  ctx: CommandContext,
  reader: LineReader,
  draftId: string,
  description: string,
): Promise<RecoverAction> {
  const shown = await ctx.core.savePreview(draftId);
  const save = shown === null ? "" : `\n${saveLine(shown, ctx.clock.now(), ctx.offsetAt)}`;
  return askAction(reader, ctx.io, draftId, `${description}${save}`);
}

async function askAction(reader: LineReader, io: CliIo, draftId: string, description: string): Promise<RecoverAction> {
  for (;;) {
    io.stderr(`${description}\n[R]esume [S]ave [D]iscard [I]gnore? `);
    const line = await reader.next();
    if (line === null) {
      io.stderr("\n");
      throw new UsageError(`no answer for ${draftId}: input ended, nothing more was changed`);
    }
    const action = ANSWERS[line.trim().toLowerCase().slice(0, 1)];
    if (action) return action;
    io.stderr(`Please answer r, s, d or i.\n`);
  }
}
