import type { HotState } from "./hot-memory";
import { isOpen } from "./hot-memory";
import type { ConfirmedSession, Draft } from "./records";
import { durationMinutes, isCanonicalTimestamp, parseTimestamp } from "./time";

export const DEFAULT_GRACE_MS = 15 * 60_000;

/**
 * A draft is alive elsewhere when another device wrote it and checkpointed it within the grace period
 * (SPEC §4 Devices). Nothing on this device touches such a draft unless the user chose that very draft.
 */
export function isAliveElsewhere(draft: Draft, device: string, now: number, graceMs: number): boolean {
  if (draft.device === null || draft.device === device) return false;
  return draft.lastCheckpointMs !== null && now - draft.lastCheckpointMs <= graceMs;
}

/**
 * Whether a session checkpointed at `lastCheckpointMs` still counts as running: its last checkpoint is within
 * the grace period of now, on either side (a clock a little ahead on another device is not "silent").
 */
export function checkpointedWithin(lastCheckpointMs: number | null, now: number, graceMs: number): boolean {
  return lastCheckpointMs !== null && Math.abs(now - lastCheckpointMs) <= graceMs;
}

/** Which confirmed session absorbed each draft ID (SPEC §2 absorbed_drafts). */
export function absorbedBy(confirmed: readonly ConfirmedSession[]): Map<string, ConfirmedSession> {
  const map = new Map<string, ConfirmedSession>();
  for (const session of confirmed) for (const id of session.absorbedDrafts) if (!map.has(id)) map.set(id, session);
  return map;
}

/** What reconcile would do; decided here, performed by the caller. */
export interface ReconcilePlan {
  /** Drafts already named in a confirmed note's absorbed_drafts: finished business, to the trash. */
  trash: Draft[];
  /** hot.md names an open session that is finished (its draft was absorbed) or whose draft is gone. */
  closeOpen: null | { draftId: string; reason: "absorbed" | "missing" };
}

/** Who is reconciling: a pointer of another device whose draft is missing may just not have synced yet. */
export interface ReconcileContext {
  device: string;
  now: number;
  graceMs: number;
  offsetAt: (at: number) => number;
}

export function planReconcile(
  hot: HotState,
  drafts: readonly Draft[],
  draftFiles: ReadonlySet<string>,
  absorbed: ReadonlyMap<string, ConfirmedSession>,
  context: ReconcileContext,
): ReconcilePlan {
  const trash = drafts.filter((d) => absorbed.has(d.draftId));
  let closeOpen: ReconcilePlan["closeOpen"] = null;
  if (isOpen(hot)) {
    if (absorbed.has(hot.openDraft)) closeOpen = { draftId: hot.openDraft, reason: "absorbed" };
    else if (!draftFiles.has(hot.openDraft)) {
      const started = parseTimestamp(hot.startedAt, context.offsetAt);
      const mine = hot.device === null || hot.device === context.device;
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
  ignored: ReadonlySet<string> = new Set(),
): Draft[] {
  const open = isOpen(hot) ? hot.openDraft : null;
  return drafts.filter((d) => !absorbed.has(d.draftId) && d.draftId !== open && !ignored.has(d.draftId));
}

/** What Save would record for an interrupted draft: it ends at its last checkpoint (SPEC §4, §9). */
export interface SavePlan {
  startedMs: number;
  endedMs: number;
  durationMinutes: number;
  /** The recorded timestamps to keep as written; null where the instant must be written afresh. */
  startedAt: string | null;
  endedAt: string | null;
}

export function savePlan(draft: Draft, now: number): SavePlan {
  const endedMs = draft.lastCheckpointMs ?? now;
  const validStart = draft.startedMs !== null && draft.startedMs <= endedMs;
  const startedMs = validStart && draft.startedMs !== null ? draft.startedMs : endedMs;
  return {
    startedMs,
    endedMs,
    durationMinutes: durationMinutes(startedMs, endedMs),
    startedAt: validStart && draft.startedAt !== null && isCanonicalTimestamp(draft.startedAt) ? draft.startedAt : null,
    endedAt: draft.lastCheckpointAt !== null && isCanonicalTimestamp(draft.lastCheckpointAt) ? draft.lastCheckpointAt : null,
  };
}
