/** What Save of a draft would record, as the CLI's -i prompts show it before the learner chooses (issue 35 §4). */
import { clipBreaks, totalBreakMinutes } from "../honest-time";
import { isOpen } from "../records/hot-memory";
import { previewSave } from "../recovery";
import type { SessionContext } from "./context";
import { recordedAway } from "./draft-fields";
import { readHot } from "./reading";
import { scanForReconcile } from "./reconcile";

export interface SaveShown {
  startedMs: number;
  endedMs: number;
  /** Time studied: the span without its breaks. */
  durationMinutes: number;
  /** Every break in the span (pauses and time away), not counted. */
  breakMinutes: number;
  /** Of those, the time away (the draft's `away` list, contract §2 version 4). */
  awayMinutes: number;
}

/** Save's record of `draftId` as it would be written now (the same plan Save follows), or null. Never writes. */
export async function savePreviewOf(ctx: SessionContext, draftId: string): Promise<SaveShown | null> {
  const hot = await readHot(ctx);
  const scan = await scanForReconcile(ctx, hot.state, [draftId]);
  const draft = scan.drafts.find((d) => d.draftId === draftId);
  if (!draft) return null;
  const now = ctx.ports.clock.now();
  const openDraft = isOpen(hot.state) ? hot.state.openDraft : null;
  const { plan } = previewSave(draft, scan.drafts, { device: ctx.ports.device, now, graceMs: ctx.graceMs, openDraft });
  const text = await ctx.ports.store.read(draft.path);
  const away = text === null ? [] : clipBreaks(recordedAway(ctx, text, draft.path), plan.startedMs, plan.endedMs);
  return {
    startedMs: plan.startedMs,
    endedMs: plan.endedMs,
    durationMinutes: plan.durationMinutes,
    breakMinutes: plan.breakMinutes,
    awayMinutes: Math.min(totalBreakMinutes(away), plan.breakMinutes),
  };
}
