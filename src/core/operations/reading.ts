import type { ReadResult } from "../records/frontmatter";
import { classifyRecord } from "../records/frontmatter";
import type { HotState } from "../records/hot-memory";
import { describeDamagedPointer, hotStateOf } from "../records/hot-memory";
import { normalizeTopic, validateNewTopicId } from "../topics/ids";
import { UsageError } from "../errors";
import { sessionPath } from "../records/layout";
import type { ConfirmedSession, Draft } from "../records/records";
import { interpretDraft, skippedWarning } from "../records/records";
import type { Scan } from "../scan";
import { scanRecentSessions } from "../scan";
import { formatLocalDate, formatTimestamp, isCanonicalTimestamp, parseTimestamp } from "../time";
import type { SessionContext } from "./context";

export interface HotRead {
  text: string | null;
  read: ReadResult;
  state: HotState;
}

export async function readHot(ctx: SessionContext): Promise<HotRead> {
  const text = await ctx.ports.store.read(ctx.layout.hot);
  const read = classifyRecord(text);
  return { text, read, state: hotStateOf(read) };
}

/** What hot.md's damaged open_draft pointer is, as a warning (none when the pointer is sound). */
export function damagedPointerWarnings(ctx: SessionContext, hot: HotState): string[] {
  return hot.damagedPointer === undefined ? [] : [describeDamagedPointer(ctx.layout.hot, hot.damagedPointer)];
}

/** A draft as it is now, or null (missing or unreadable). Never writes. */
export async function readDraft(ctx: SessionContext, draftId: string): Promise<Draft | null> {
  const path = sessionPath(ctx.layout, `${draftId}.md`);
  return draftFromText(ctx, path, await ctx.ports.store.read(path));
}

/** A draft from text this operation wrote: never read back (an app's cache may lag behind the write). */
export function draftFromText(ctx: SessionContext, path: string, text: string | null): Draft | null {
  const result = interpretDraft(path, classifyRecord(text), ctx.offsetAt, ctx.ports.clock.now());
  return "record" in result ? result.record : null;
}

/** When hot.md says its open session started (null: none, or it cannot tell). */
export function startOf(ctx: SessionContext, hot: HotState): number | null {
  return parseTimestamp(hot.startedAt, ctx.offsetAt);
}

/** Every confirmed note: the scan's own, or a full scan when it read only the recent ones (Scan.partial). */
export async function everyNote(ctx: SessionContext, scan: Scan): Promise<ConfirmedSession[]> {
  return (scan.partial ? await ctx.scan() : scan).confirmed;
}

/** An instant as a timestamp in the local offset of that instant. */
export function stamp(ctx: SessionContext, at: number): string {
  return formatTimestamp(at, ctx.offsetAt(at));
}

/** A recorded timestamp kept as written when canonical, else the instant written afresh. */
export function keptOrStamped(ctx: SessionContext, recorded: string | null, at: number): string {
  return recorded !== null && isCanonicalTimestamp(recorded) ? recorded : stamp(ctx, at);
}

/** The start a pointer to `draft` records: the draft's own, as written when it can be (else now). */
export function draftStart(ctx: SessionContext, draft: Draft, now: number): string {
  return keptOrStamped(ctx, draft.startedAt, draft.startedMs ?? now);
}

export function today(ctx: SessionContext): string {
  const now = ctx.ports.clock.now();
  return formatLocalDate(now, ctx.offsetAt(now));
}

/** The files a scan could not use, one warning each, then the damaged fields it read as absent. */
export function skippedWarnings(scan: Scan): string[] {
  return [...scan.skipped.map(skippedWarning), ...scan.warnings];
}

/** An explicit topic is validated as new input; otherwise the first usable fallback (e.g. hot.md's). */
export function resolveTopic(explicit: string | null | undefined, fallbacks: ReadonlyArray<string | null>): string {
  const given = normalizeTopic(explicit);
  if (given !== null) return validateNewTopicId(given);
  for (const candidate of fallbacks) {
    const topic = normalizeTopic(candidate);
    if (topic !== null) return topic;
  }
  throw new UsageError("topic required: pass --topic T-… (no active topic in hot.md)", "topic_required");
}

/**
 * The bounded scan (scan/recent-scan.ts) on the context's store, with what this device remembers when it does
 * (CorePorts.memory); null when it cannot be bounded.
 */
export function scanRecent(
  ctx: SessionContext,
  at: { now: number; starts: ReadonlyArray<number | null>; required: readonly string[] },
): Promise<Scan | null> {
  return scanRecentSessions(ctx.ports.store, ctx.layout, ctx.offsetAt, at, ctx.ports.memory);
}
