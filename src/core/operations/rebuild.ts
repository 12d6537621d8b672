import type { HotState } from "../records/hot-memory";
import { isOpen } from "../records/hot-memory";
import type { ConfirmedSession, Skipped } from "../records/records";
import { duplicateSaves } from "../recovery";
import type { SessionContext } from "./context";
import { writeViews } from "./views";

export interface RebuildResult {
  totalConfirmed: number;
  skipped: Skipped[];
  /** Problems in the history that the rebuild does not fix (e.g. a session saved twice). */
  warnings: string[];
}

/** Regenerates hot.md and index.md from the session notes; writes nothing else (but stale temp files). */
export async function rebuild(ctx: SessionContext): Promise<RebuildResult> {
  const swept = (await ctx.tempFiles?.(ctx.ports, ctx.layout)) ?? [];
  const scan = await ctx.scan();
  const viewWarnings = await writeViews(ctx, scan.confirmed, rebuiltPointer, { replaceForeign: true });
  return {
    totalConfirmed: scan.confirmed.length,
    skipped: scan.skipped,
    warnings: [...swept, ...viewWarnings, ...duplicateSaves(scan.confirmed, ctx.offsetAt)],
  };
}

/**
 * With no session open, the newest session's topic becomes the active one, so a plain start continues where
 * the learner stopped. A damaged pointer is cleared. An open session is left as it is.
 */
function rebuiltPointer(current: HotState, newest: ConfirmedSession | null): HotState {
  if (isOpen(current)) return current;
  return {
    ...current,
    ...(current.damagedPointer && { startedAt: null, device: null }),
    activeTopic: newest?.topicId ?? current.activeTopic,
  };
}
