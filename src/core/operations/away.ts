import { UsageError } from "../errors";
import type { BreakInterval } from "../honest-time";
import { countAllAwayUpdate, countBackUpdate } from "../honest-time";
import { isOpen } from "../records/hot-memory";
import type { SessionContext } from "./context";
import { honestOf, recordedAway, updateDraft } from "./draft-fields";
import { readDraft, readHot } from "./reading";

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
  const updated = await updateDraft(ctx, draft, (current, text) => {
    const recorded = recordedAway(ctx, text, draft.path);
    const change = countBackUpdate(honestOf(current), { fromMs, toMs }, ctx.offsetAt, recorded);
    countedMinutes = change.countedMinutes;
    return change.updates;
  });
  return { breakMinutes: updated.breakMinutes, countedMinutes };
}

export interface CountAllAwayResult {
  draftId: string;
  /** The time-away intervals counted as study (none: nothing was recorded, nothing changed). */
  counted: BreakInterval[];
  countedMinutes: number;
  breakMinutes: number;
}

/**
 * `--count-away` (contract §5 version 4): every time away recorded in the open session's draft (its `away`
 * list, never a pause) is counted as study after all, in one write. Nothing recorded: nothing written.
 */
export async function countAllAway(ctx: SessionContext): Promise<CountAllAwayResult> {
  const hot = (await readHot(ctx)).state;
  if (!isOpen(hot)) throw nothingOpenToCount();
  const draft = await readDraft(ctx, hot.openDraft);
  if (!draft) throw nothingOpenToCount();
  const text = (await ctx.ports.store.read(draft.path)) ?? "";
  if (recordedAway(ctx, text, draft.path).length === 0) {
    return { draftId: draft.draftId, counted: [], countedMinutes: 0, breakMinutes: draft.breakMinutes };
  }
  let counted: BreakInterval[] = [];
  let countedMinutes = 0;
  const updated = await updateDraft(ctx, draft, (current, now) => {
    const change = countAllAwayUpdate(honestOf(current), recordedAway(ctx, now, draft.path), ctx.offsetAt);
    counted = change.counted;
    countedMinutes = change.countedMinutes;
    return change.updates;
  });
  return { draftId: draft.draftId, counted, countedMinutes, breakMinutes: updated.breakMinutes };
}

function nothingOpenToCount(): UsageError {
  return new UsageError("no open session: there is no time away to count", "nothing_open");
}
