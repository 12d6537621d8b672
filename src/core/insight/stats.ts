/**
 * Study statistics over confirmed sessions (contract §4a). Pure: the faces pass the sessions, the instant "now"
 * and the local offset; nothing here reads a file. A session counts on the day it started as recorded in its
 * started_at (sessionDay: its own offset, not the viewer's); "today" is the viewer's local day. Weeks are ISO
 * weeks, Monday first.
 */
import type { ConfirmedSession } from "../records/records";
import { insertedInto } from "../scan/sorted";
import type { FlaggedSession, KeptTally, Tally, TopicBucket, Totals } from "./stats-tally";
import { tallyAfter, tallyAll } from "./stats-tally";

export type { FlaggedSession, Totals } from "./stats-tally";
import type { OffsetAt } from "../time";
import {
  EARLIEST_PLAUSIBLE_MS,
  MINUTE_MS,
  dailyOffsets,
  dayOf,
  dayText,
  isoWeekLabel,
  localDay,
  mondayOf,
  parseTimestamp,
  sessionDay,
} from "../time";

/**
 * The fields of a confirmed session that statistics and export use; `breakMinutes` (pauses and time away,
 * contract §2 version 2) may be absent.
 */
export type InsightSession = Pick<
  ConfirmedSession,
  "sessionId" | "path" | "topicId" | "startedAt" | "startedMs" | "endedAt" | "durationMinutes" | "outcome" | "topicNote"
> &
  Partial<Pick<ConfirmedSession, "breakMinutes">>;

/** A session longer than this is counted as this long (and listed as needing a look). */
export const MAX_COUNTED_MINUTES = 24 * 60;

export interface DayTotal extends Totals {
  /** Local calendar day, YYYY-MM-DD. */
  date: string;
}

export interface WeekTotal extends Totals {
  /** ISO week, e.g. "2026-W49". */
  week: string;
  /** Its Monday, YYYY-MM-DD. */
  start: string;
}

export interface TopicTotal extends Totals {
  topicId: string;
  /** Local days of the first and the last session on the topic. */
  first: string;
  last: string;
  /** The newest recorded topic_note link, if any. */
  topicNote: string | null;
}

export interface SessionStats {
  /** The local day "now" falls on. */
  today: DayTotal;
  thisWeek: WeekTotal;
  lastWeek: WeekTotal;
  total: Totals;
  /** Days and weeks with at least one session, oldest first. */
  byDay: DayTotal[];
  byWeek: WeekTotal[];
  /** Most minutes first, then by topic ID. */
  byTopic: TopicTotal[];
  streak: { current: number; longest: number };
  flagged: FlaggedSession[];
}

export interface StatsOptions {
  now: number;
  offsetAt: OffsetAt;
  /** Local days, inclusive (YYYY-MM-DD); sessions outside are not counted at all. */
  since?: string | null;
  until?: string | null;
  /** What was worked out per session by earlier calls (a view recounting after each end); see statsMemo. */
  memo?: StatsMemo;
}

/** A session's day and counted minutes, as computeStats worked them out. */
export interface Counted {
  day: number;
  counted: ReturnType<typeof countedMinutes>;
}

/**
 * Per-session results of computeStats, kept by its caller between calls (no module state): the same record
 * (the scan hands out the same records while their notes do not change) gets the same day and minutes for the
 * same `offsetAt`. A session that started after "now" is worked out afresh each time (it is not counted yet).
 */
export interface StatsMemo {
  offsetAt: OffsetAt | null;
  known: WeakMap<InsightSession, Counted>;
  /** The totals of the last count without a range (stats-tally.ts), taken forward by the notes added since. */
  tally: KeptTally<InsightSession> | null;
}

export const statsMemo = (): StatsMemo => ({ offsetAt: null, known: new WeakMap(), tally: null });

/** A session's day and counted minutes, from `memo` when an earlier count (stats, with the same offsets) has them. */
export function countedWith(
  session: InsightSession,
  now: number,
  offsetAt: OffsetAt,
  memo: StatsMemo | undefined,
): Counted {
  const past = session.startedMs <= now;
  const known = past ? memo?.known.get(session) : undefined;
  if (known) return known;
  const result = { day: sessionDay(session, offsetAt), counted: countedMinutes(session, now, offsetAt) };
  if (past) memo?.known.set(session, result);
  return result;
}

// ---- counting ------------------------------------------------------------------------------------------

/**
 * The minutes a session counts for, or a reason it is left out. Recorded values are trusted only as far as
 * they agree with each other: a duration longer than started→ended is cut to that span, one over a day to
 * a day; a start in the future or before 2000 is not counted. Never throws.
 */
export function countedMinutes(
  session: InsightSession,
  now: number,
  offsetAt: OffsetAt,
): { minutes: number; problem: string | null; counted: boolean } {
  const recorded = Number.isFinite(session.durationMinutes) ? Math.max(0, Math.floor(session.durationMinutes)) : 0;
  if (!Number.isFinite(session.startedMs) || session.startedMs > now) {
    return { minutes: 0, problem: `started_at ${session.startedAt} is in the future: not counted`, counted: false };
  }
  if (session.startedMs < EARLIEST_PLAUSIBLE_MS) {
    return { minutes: 0, problem: `started_at ${session.startedAt} is before 2000: not counted`, counted: false };
  }
  const endedMs = instantOf(session.endedAt, offsetAt);
  let minutes = recorded;
  let problem: string | null = null;
  if (endedMs !== null && endedMs < session.startedMs) {
    problem = `ended_at ${session.endedAt} is before started_at ${session.startedAt}`;
  } else if (endedMs !== null) {
    const span = Math.round((endedMs - session.startedMs) / MINUTE_MS);
    if (recorded > span + 1) {
      minutes = span;
      problem = `duration_minutes ${recorded} is longer than started_at→ended_at (${span} min)`;
    }
  }
  if (minutes > MAX_COUNTED_MINUTES) {
    problem = `${problem ? `${problem}; ` : ""}${minutes} min is longer than a day`;
    minutes = MAX_COUNTED_MINUTES;
  }
  return { minutes, problem: problem && `${problem}: counted ${minutes} min`, counted: true };
}

const WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A recorded timestamp as an instant. The written form (with seconds and an offset, already validated by the
 * scan) goes through the platform's parser, several times faster at 10 000 sessions; anything else through
 * parseTimestamp, which also resolves local times with the Clock's offset.
 */
function instantOf(text: string, offsetAt: OffsetAt): number | null {
  if (WITH_ZONE.test(text)) {
    const ms = Date.parse(text);
    if (!Number.isNaN(ms)) return ms;
  }
  return parseTimestamp(text, offsetAt);
}

const dayTotal = (day: number, b?: Totals): DayTotal => ({
  date: dayText(day),
  minutes: b?.minutes ?? 0,
  sessions: b?.sessions ?? 0,
});
const weekTotal = (monday: number, b?: Totals): WeekTotal => ({
  week: isoWeekLabel(monday),
  start: dayText(monday),
  minutes: b?.minutes ?? 0,
  sessions: b?.sessions ?? 0,
});

/** Most minutes first, then by topic ID. */
function topicTotals(topics: Map<string, TopicBucket>): TopicTotal[] {
  return [...topics.values()]
    .map(({ topicId, minutes, sessions, firstDay, lastDay, topicNote }) => ({
      topicId,
      minutes,
      sessions,
      first: dayText(firstDay),
      last: dayText(lastDay),
      topicNote,
    }))
    .sort((a, b) => b.minutes - a.minutes || (a.topicId < b.topicId ? -1 : a.topicId > b.topicId ? 1 : 0));
}

/** contract §4a stats. Sessions may come in any order; the result does not depend on it. */
export function computeStats(sessions: readonly InsightSession[], options: StatsOptions): SessionStats {
  const now = options.now;
  const offsetAt = dailyOffsets(options.offsetAt);
  const since = options.since ? dayOf(options.since) : null;
  const until = options.until ? dayOf(options.until) : null;
  const memo = options.memo;
  if (memo && memo.offsetAt !== options.offsetAt) Object.assign(memo, statsMemo(), { offsetAt: options.offsetAt });
  const count = (session: InsightSession): Counted => countedWith(session, now, offsetAt, memo);
  const inRange = (day: number): boolean =>
    !((since !== null && !(day >= since)) || (until !== null && !(day <= until)));
  let kept: KeptTally<InsightSession> | null = null;
  if (memo && since === null && until === null) {
    const last = memo.tally;
    kept = last && tallyAfter(last, sessions, now, count, insertedInto(last.list, sessions));
    memo.tally = kept ??= tallyAll(sessions, now, count);
  }
  return statsOfTally((kept ?? tallyAll(sessions, now, count, inRange)).tally, now, offsetAt);
}

/** The stats of a tally (computeStats's, or one with the older notes' totals added, with-older.ts). */
export function statsOfTally(tally: Tally, now: number, offsetAt: OffsetAt): SessionStats {
  const { total, days, weeks, topics, flagged } = tally;
  const today = localDay(now, offsetAt);
  const monday = mondayOf(today);
  return {
    today: dayTotal(today, days.get(today)),
    thisWeek: weekTotal(monday, weeks.get(monday)),
    lastWeek: weekTotal(monday - 7, weeks.get(monday - 7)),
    total: { ...total },
    byDay: [...days.values()].sort((a, b) => a.key - b.key).map((b) => dayTotal(b.key, b)),
    byWeek: [...weeks.values()].sort((a, b) => a.key - b.key).map((b) => weekTotal(b.key, b)),
    byTopic: topicTotals(topics),
    streak: streaks(new Set(days.keys()), today),
    flagged: flagged.slice(),
  };
}

/**
 * Consecutive local days with a session. The current streak still holds today when yesterday had one (the
 * day is not over yet); it is 0 once a whole day passed without study.
 */
function streaks(days: ReadonlySet<number>, today: number): { current: number; longest: number } {
  let longest = 0;
  for (const day of days) {
    if (days.has(day - 1)) continue;
    let length = 1;
    while (days.has(day + length)) length += 1;
    longest = Math.max(longest, length);
  }
  let current = 0;
  for (let day = days.has(today) ? today : today - 1; days.has(day); day -= 1) current += 1;
  return { current, longest };
}

/** Which answers of a stats over a --since/--until range are answers about that range (periodsInRange). */
export interface RangeAnswers {
  today: boolean;
  thisWeek: boolean;
  lastWeek: boolean;
  /** The current streak counts back from today: today inside the range, and every day it looked at too. */
  currentStreak: boolean;
  /** The days a chart of the range shows (at most `maxDays`, the last ones up to today), oldest first. */
  days: { last: string; count: number };
}

/**
 * What a stats over --since/--until may show (decision, docs/decisions.md "stats over a range"): a period is
 * shown only when it lies inside the range up to today (days after today have no sessions yet); one that
 * does not would show sessions outside the range as missing, so it is left out, never given as 0. The chart
 * shows the range's own days. Without a range everything is shown and the chart ends today.
 */
export function periodsInRange(
  stats: SessionStats,
  range: { since?: string | null; until?: string | null },
  maxDays: number,
): RangeAnswers {
  const today = dayOf(stats.today.date) as number;
  const since = range.since ? dayOf(range.since) : null;
  const until = range.until ? dayOf(range.until) : null;
  const inside = (first: number, last: number) =>
    (since === null || since <= first) && (until === null || last <= until);
  const monday = mondayOf(today);
  const last = until === null ? today : Math.min(until, today);
  const first = Math.max(since ?? last - maxDays + 1, last - maxDays + 1);
  return {
    today: inside(today, today),
    thisWeek: inside(monday, today),
    lastWeek: inside(monday - 7, monday - 1),
    // The streak looked back from today (or yesterday, when today has no session) to the first day without one.
    currentStreak:
      inside(today, today) && inside((stats.today.sessions > 0 ? today : today - 1) - stats.streak.current, today),
    days: { last: dayText(last), count: Math.max(0, last - first + 1) },
  };
}

/** Every day of the `count` days ending on `lastDay` (YYYY-MM-DD), zeros included: a chart's series. */
export function daySeries(stats: SessionStats, lastDay: string, count: number): DayTotal[] {
  const end = dayOf(lastDay);
  if (end === null) return [];
  const known = new Map(stats.byDay.map((d) => [d.date, d]));
  return Array.from({ length: count }, (_, i) => {
    const day = end - count + 1 + i;
    return known.get(dayText(day)) ?? dayTotal(day);
  });
}

/** Every ISO week of the `count` weeks ending with the one holding `lastDay`, zeros included. */
export function weekSeries(stats: SessionStats, lastDay: string, count: number): WeekTotal[] {
  const end = dayOf(lastDay);
  if (end === null) return [];
  const known = new Map(stats.byWeek.map((w) => [w.start, w]));
  const last = mondayOf(end);
  return Array.from({ length: count }, (_, i) => {
    const monday = last - (count - 1 - i) * 7;
    return known.get(dayText(monday)) ?? weekTotal(monday);
  });
}

/** Whether a session started on a local day within [since, until] (either may be absent). */
export function inRange(
  session: InsightSession,
  offsetAt: OffsetAt,
  since?: string | null,
  until?: string | null,
): boolean {
  if (!since && !until) return true;
  const day = sessionDay(session, offsetAt);
  const from = since ? dayOf(since) : null;
  const to = until ? dayOf(until) : null;
  return (from === null || day >= from) && (to === null || day <= to);
}
