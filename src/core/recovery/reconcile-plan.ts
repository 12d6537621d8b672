import type { HotState } from "../records/hot-memory";
import { isOpen } from "../records/hot-memory";
import type { ConfirmedSession, Draft } from "../records/records";
import { parseTimestamp } from "../time";
import { absorbedCopies, savedDraft, savedIn } from "./absorbed";
import { isThisDevice } from "./liveness";
import type { OffsetAt } from "../time";

/** What reconcile would do; decided here, performed by the caller (operations/reconcile.ts). */
export interface ReconcilePlan {
  /** Drafts already saved in a confirmed note (named in absorbed_drafts, or a sync copy of one): to the trash. */
  trash: Draft[];
  /** hot.md names an open session that is finished (its draft was absorbed) or whose draft is gone. */
  closeOpen: null | { draftId: string; reason: "absorbed" | "missing" };
}

/** Who is reconciling: a pointer of another device whose draft is missing may just not have synced yet. */
export interface ReconcileContext {
  device: string;
  now: number;
  graceMs: number;
  offsetAt: OffsetAt;
}

export function planReconcile(
  hot: HotState,
  drafts: readonly Draft[],
  draftFiles: ReadonlySet<string>,
  absorbed: ReadonlyMap<string, ConfirmedSession>,
  context: ReconcileContext,
): ReconcilePlan {
  const { offsetAt } = context;
  const copies = absorbedCopies(absorbed);
  const trash = drafts.filter((d) => savedDraft(absorbed, copies, d, offsetAt));
  let closeOpen: ReconcilePlan["closeOpen"] = null;
  if (isOpen(hot)) {
    const started = parseTimestamp(hot.startedAt, offsetAt);
    if (savedIn(absorbed, hot.openDraft, started, offsetAt)) closeOpen = { draftId: hot.openDraft, reason: "absorbed" };
    else if (!draftFiles.has(hot.openDraft)) {
      const mine = isThisDevice(hot.device, context.device);
      const longGone = started === null || context.now - started > context.graceMs;
      if (mine || longGone) closeOpen = { draftId: hot.openDraft, reason: "missing" };
    }
  }
  return { trash, closeOpen };
}

/** Drafts to offer for recovery at start: every usable draft that is neither finished nor the open one. */
export function pendingDrafts(
  hot: HotState,
  drafts: readonly Draft[],
  absorbed: ReadonlyMap<string, ConfirmedSession>,
  offsetAt: OffsetAt,
  ignored: ReadonlySet<string> = new Set(),
): Draft[] {
  const open = isOpen(hot) ? hot.openDraft : null;
  const copies = absorbedCopies(absorbed);
  const saved = (d: Draft): boolean => savedDraft(absorbed, copies, d, offsetAt) !== undefined;
  return drafts.filter((d) => !saved(d) && d.draftId !== open && !ignored.has(d.draftId));
}
