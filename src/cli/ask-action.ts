/** The [R]esume [S]ave [D]iscard [I]gnore question that start -i and recover -i ask about each draft. */
import { UsageError } from "../core/errors";
import type { RecoverAction } from "../core/sessions";
import type { CliIo } from "./output";
import type { LineReader } from "./prompt";

const ANSWERS: Record<string, RecoverAction> = { r: "resume", s: "save", d: "discard", i: "ignore" };

export async function askAction(
  reader: LineReader,
  io: CliIo,
  draftId: string,
  description: string,
): Promise<RecoverAction> {
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
