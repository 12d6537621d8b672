import { UsageError } from "../errors";
import { countBackUpdate } from "../honest-time";
import type { SessionContext } from "./context";
import { honestOf, updateDraft } from "./draft-fields";
import { readDraft } from "./reading";

export interface CountAwayBackOptions {
  /** The draft whose recorded time away is counted after all (the notice's session). */
  draftId: string;
  /** The minutes of that time away, as recorded (CheckpointResult.away.minutes, RecoverResult.away.minutes). */
  minutes: number;
}

/**
 * The learner chose to count a recorded time away after all: its minutes come off break_minutes (never
 * below 0), in one write. Refused when the session is no longer a draft (ended or saved meanwhile).
 */
export async function countAwayBack(
  ctx: SessionContext,
  options: CountAwayBackOptions,
): Promise<{ breakMinutes: number }> {
  const { draftId, minutes } = options;
  if (!Number.isSafeInteger(minutes) || minutes < 0) {
    throw new UsageError(`${JSON.stringify(minutes)} is not a whole number of minutes ≥ 0`);
  }
  const draft = await readDraft(ctx, draftId);
  if (!draft) {
    const savedIn = ctx.absorbedIn((await ctx.scan()).confirmed).get(draftId);
    throw new UsageError(
      savedIn
        ? `${draftId} was already saved in ${savedIn.sessionId}; its time away can no longer be counted`
        : `no such draft: ${draftId} (it was removed, or cannot be read)`,
      "no_such_draft",
    );
  }
  const updated = await updateDraft(ctx, draft, (current) =>
    countBackUpdate(honestOf(current), { fromMs: 0, toMs: 0, minutes }),
  );
  return { breakMinutes: updated.breakMinutes };
}
