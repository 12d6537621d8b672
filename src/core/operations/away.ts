import { UsageError } from "../errors";
import { countBackUpdate } from "../honest-time";
import type { SessionContext } from "./context";
import { honestOf, updateDraft } from "./draft-fields";
import { readDraft } from "./reading";

export interface CountAwayBackOptions {
  /** The draft whose recorded time away is counted after all (the notice's session). */
  draftId: string;
  /** That time away as recorded (CheckpointResult.away, RecoverResult.away): epoch ms, from ≤ to. */
  fromMs: number;
  toMs: number;
}

export interface CountAwayBackResult {
  /** break_minutes after counting it. */
  breakMinutes: number;
  /** The minutes that left breaks (0: that time away was no longer recorded, e.g. counted already). */
  countedMinutes: number;
}

/**
 * The learner chose to count a recorded time away after all: that interval leaves breaks (contract §4 time
 * away), in one write. Refused when the session is no longer a draft (ended or saved meanwhile).
 */
export async function countAwayBack(ctx: SessionContext, options: CountAwayBackOptions): Promise<CountAwayBackResult> {
  const { draftId, fromMs, toMs } = options;
  if (!Number.isFinite(fromMs) || !Number.isFinite(toMs) || toMs < fromMs) {
    throw new UsageError(`${JSON.stringify({ fromMs, toMs })} is not a time away (from, then to)`);
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
  let countedMinutes = 0;
  const updated = await updateDraft(ctx, draft, (current) => {
    const change = countBackUpdate(honestOf(current), { fromMs, toMs }, ctx.offsetAt);
    countedMinutes = change.countedMinutes;
    return change.updates;
  });
  return { breakMinutes: updated.breakMinutes, countedMinutes };
}
