import type { HotState } from "./hot-memory";
import { isOpen } from "./hot-memory";
import type { ConfirmedSession, Draft } from "./records";
import { compareDraftsOldestFirst } from "./records";
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

/**
 * Drafts named by more than one confirmed note: the same sitting saved twice (two devices ended or saved it
 * before sync carried the first note across, or a copy of a note). Never removed by the tool (a confirmed note
 * is never deleted): reported by name, so the learner keeps one.
 */
export function duplicateSaves(confirmed: readonly ConfirmedSession[]): string[] {
  const savers = new Map<string, ConfirmedSession[]>();
  for (const session of confirmed) {
    for (const id of new Set(session.absorbedDrafts)) savers.set(id, [...(savers.get(id) ?? []), session]);
  }
  const warnings: string[] = [];
  for (const [id, sessions] of savers) {
    if (sessions.length < 2) continue;
    const paths = sessions.map((s) => s.path).sort();
    warnings.push(`${paths.join(" and ")} both record the session ${id} (saved twice, e.g. on two devices at once); keep one and delete the others by hand`);
  }
  return warnings.sort();
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

/**
 * What Save would record for the copies of one sitting (see copiesOf): it starts at the earliest valid start
 * and ends at the latest last checkpoint among them (now if none has one). A recorded start never moves: a
 * last checkpoint before it (a clock set back) ends the session at its start, 0 minutes.
 */
export function savePlanOf(copies: readonly Draft[], now: number): SavePlan {
  const last = pick(copies, (d) => d.lastCheckpointMs, (d) => d.lastCheckpointAt, (a, b) => a > b);
  const first = pick(copies, (d) => d.startedMs, (d) => d.startedAt, (a, b) => a < b);
  let end = last ?? { ms: now, text: null };
  if (first !== null && first.ms > end.ms) end = first;
  const startedMs = first?.ms ?? end.ms;
  return { startedMs, endedMs: end.ms, durationMinutes: durationMinutes(startedMs, end.ms), startedAt: first?.text ?? null, endedAt: end.text };
}

/**
 * The instant that is `better` than every other among the drafts that have one, with its recorded text when
 * that is canonical (kept as written; of equal instants, one with canonical text wins).
 */
function pick(
  drafts: readonly Draft[],
  ms: (d: Draft) => number | null,
  text: (d: Draft) => string | null,
  better: (a: number, b: number) => boolean,
): { ms: number; text: string | null } | null {
  let best: { ms: number; text: string | null } | null = null;
  for (const d of drafts) {
    const at = ms(d);
    if (at === null) continue;
    const recorded = text(d);
    const written = recorded !== null && isCanonicalTimestamp(recorded) ? recorded : null;
    if (best === null || better(at, best.ms) || (at === best.ms && best.text === null && written !== null)) best = { ms: at, text: written };
  }
  return best;
}

/**
 * What Save of `draft` takes with it: the draft and its copies (copiesOf), except a copy that is still
 * running (alive on another device, or `openDraft`, this device's open session, checkpointed within the grace
 * period), which is left to its own end. The recovery modal's preview and the core's Save use this one rule.
 */
export function saveGroup(draft: Draft, drafts: readonly Draft[], device: string, now: number, graceMs: number, openDraft?: string | null): Draft[] {
  const running = (d: Draft): boolean =>
    isAliveElsewhere(d, device, now, graceMs) || (d.draftId === openDraft && checkpointedWithin(d.lastCheckpointMs, now, graceMs));
  return copiesOf(draft, drafts).filter((d) => d === draft || !running(d));
}

/**
 * The drafts that record the same sitting as `draft`, itself included, oldest first: a sync tool's conflict
 * copies keep the original's session_id under another file name. Two drafts of one topic are copies when
 * they record the same session_id or one's file name is the other's session_id; copies of copies count too.
 */
export function copiesOf(draft: Draft, drafts: readonly Draft[]): Draft[] {
  const linked = (a: Draft, b: Draft): boolean =>
    a.topicId === b.topicId && (a.recordId === b.recordId || a.draftId === b.recordId || a.recordId === b.draftId);
  const group = [draft];
  for (let i = 0; i < group.length; i++) {
    const member = group[i];
    for (const d of drafts) if (!group.some((g) => g.draftId === d.draftId) && linked(member, d)) group.push(d);
  }
  return group.sort(compareDraftsOldestFirst);
}
