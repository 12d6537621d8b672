import type { OtherSession } from "../honest-time";
import { resolveLogInterval } from "../honest-time";
import type { HotState } from "../records/hot-memory";
import { isOpen } from "../records/hot-memory";
import type { ConfirmedSession } from "../records/records";
import type { RecallOptions } from "../review/recall";
import { recallFields } from "../review/recall";
import type { Scan } from "../scan";
import { MINUTE_MS, parseTimestamp } from "../time";
import type { SessionContext } from "./context";
import { readHot, resolveTopic, skippedWarnings, stamp } from "./reading";
import { withSession, writeViews } from "./views";
import { afterSaving, writeConfirmed } from "./writes";

export interface LogOptions extends RecallOptions {
  /** Explicit topic; else hot.md's active topic. */
  topic?: string | null;
  /** HH:MM or ISO 8601; with `to`. */
  from?: string;
  /** HH:MM or ISO 8601; default now. */
  to?: string;
  /** Instead of `from`: the minutes studied, ending at `to`. */
  minutes?: number | string;
  summary?: string | null;
  nextAction?: string | null;
  /** Who logs it when it is not the learner by hand (contract §5 version 4: every writing tool takes agent). */
  agent?: string | null;
  /** The topic note's link, when the face found one (contract §5 version 4: topics by name). */
  topicNote?: string | null;
}

export interface LogResult {
  session: ConfirmedSession;
  /** The interval with its day named, "yesterday 11:00–13:00" (contract §4 log: the answer names the day). */
  when: string;
  warnings: string[];
}

/**
 * Logs a session that happened without the timer (contract §4 log): (1) a create-only confirmed note with
 * `outcome: logged` and no absorbed drafts, (2) index.md, then hot.md. Refused, before anything is written,
 * for bad times, an end in the future and an overlap with a confirmed session or the open session. A crash
 * after (1) leaves stale views (a rebuild refreshes them); a retried log is refused as an overlap with it.
 */
export async function log(ctx: SessionContext, options: LogOptions): Promise<LogResult> {
  const recall = recallFields(options);
  const hot = await readHot(ctx);
  const topicId = resolveTopic(options.topic, [hot.state.activeTopic]);
  const scan = await ctx.scan();
  const now = ctx.ports.clock.now();
  const interval = resolveLogInterval(options, othersOf(ctx, scan, hot.state, now), now, ctx.offsetAt);
  const session = await writeConfirmed(ctx, interval.startMs, {
    topicId,
    startedAt: stamp(ctx, interval.startMs),
    endedAt: stamp(ctx, interval.endMs),
    durationMinutes: interval.durationMinutes,
    outcome: "logged",
    absorbedDrafts: [],
    topicNote: options.topicNote ?? null,
    summary: options.summary ?? null,
    ...recall,
    nextAction: options.nextAction ?? null,
    notes: null,
    agent: options.agent ?? null,
  });
  const sessions = withSession(scan.confirmed, session);
  const warnings = await afterSaving(session, () =>
    writeViews(ctx, sessions, activeWhenNewest(sessions[0] === session, topicId)),
  );
  return { session, when: interval.when, warnings: [...warnings, ...skippedWarnings(scan)] };
}

/** Like rebuild: with no session open, the newest session's topic becomes the active one. */
function activeWhenNewest(newest: boolean, topicId: string): (current: HotState) => HotState {
  return (current) => (newest && !isOpen(current) ? { ...current, activeTopic: topicId } : current);
}

/** What a logged session must not overlap: every confirmed session, and the open session up to now. */
function othersOf(ctx: SessionContext, scan: Scan, hot: HotState, now: number): OtherSession[] {
  const others = scan.confirmed.map((s) => ({ id: s.sessionId, startMs: s.startedMs, endMs: endOf(ctx, s) }));
  const openStart = isOpen(hot) ? parseTimestamp(hot.startedAt, ctx.offsetAt) : null;
  if (isOpen(hot) && openStart !== null) others.push({ id: hot.openDraft, startMs: openStart, endMs: now });
  return others;
}

function endOf(ctx: SessionContext, session: ConfirmedSession): number {
  return parseTimestamp(session.endedAt, ctx.offsetAt) ?? session.startedMs + session.durationMinutes * MINUTE_MS;
}
