/**
 * stats and the study log (goal, year) over a scan without the older notes the device's totals fold
 * (device-memory/older-totals.ts), plus those totals: exactly what computeStats and studyLog give over every note
 * (tests/core/older-totals.test.ts is the oracle). The notes folded are plain: counted with no problem, on a day
 * of their own, named after their IDs, so each adds its minutes to its day, week and topic whatever the call.
 * Null when an answer could differ: "now" before a folded note's start (it would be in the future), or a range
 * that holds part of a topic's folded days (its topic note then depends on which); the caller folds every note.
 */
import type { StudyLog, StudyLogOptions, Tally as DayTally } from "../goals/study-log";
import { studyLog } from "../goals/study-log";
import type { NoteFact, OlderTotals } from "../device-memory/older-totals";
import { atLeast, withFacts } from "../device-memory/older-totals";
import { dailyOffsets, dayOf, mondayOf } from "../time";
import type { Counted, InsightSession, SessionStats, StatsOptions } from "./stats";
import { countedWith, statsMemo, statsOfTally } from "./stats";
import type { Bucket, Tally, TopicBucket } from "./stats-tally";
import { addTopic, tallyAll } from "./stats-tally";
import type { OlderTotalsSource } from "../operations/context";
import { scanBesideTotals } from "../scan/beside-totals";

function addTo(map: Map<number, Bucket>, key: number, minutes: number, sessions: number): void {
  const bucket = map.get(key);
  if (bucket) {
    bucket.minutes += minutes;
    bucket.sessions += sessions;
  } else map.set(key, { key, minutes, sessions });
}

const sum = (minutes: readonly number[]): number => minutes.reduce((a, b) => a + b, 0);

/** Adds a topic's sessions to the tally's topic (made when missing; its topic note decided later). */
function addToTopic(
  tally: Tally,
  topicId: string,
  sum: Omit<TopicBucket, "topicId" | "lastMs" | "topicNote" | "topTied">,
) {
  const topic = tally.topics.get(topicId);
  if (topic) {
    topic.minutes += sum.minutes;
    topic.sessions += sum.sessions;
    topic.firstDay = Math.min(topic.firstDay, sum.firstDay);
    topic.lastDay = Math.max(topic.lastDay, sum.lastDay);
  } else
    tally.topics.set(topicId, { topicId, ...sum, lastMs: Number.NEGATIVE_INFINITY, topicNote: null, topTied: false });
}

/** Adds one day's (or one topic's day's) sessions to the tally's total, day and week. */
function addToDay(tally: Tally, day: number, minutes: number, sessions: number): void {
  tally.total.minutes += minutes;
  tally.total.sessions += sessions;
  addTo(tally.days, day, minutes, sessions);
  addTo(tally.weeks, mondayOf(day), minutes, sessions);
}

/**
 * Adds the totals to `tally`, within the range when there is one; the topics whose topic note the facts decide,
 * or null when a topic's folded days are partly in range (or the rows asked for cannot be read).
 */
function addTotals(tally: Tally, totals: OlderTotals, inRange: ((day: number) => boolean) | null): Set<string> | null {
  if (inRange === null) {
    for (const { day, total, minutes } of totals.days) addToDay(tally, day, total, minutes.length);
    for (const [topicId, topic] of totals.topics) addToTopic(tally, topicId, topic);
    return new Set(totals.topics.keys());
  }
  const rows = totals.rows();
  if (rows === null) return null;
  const inside = new Set<string>();
  const outside = new Set<string>();
  for (const { topicId, day, minutes } of rows) {
    if (!inRange(day)) {
      outside.add(topicId);
      continue;
    }
    inside.add(topicId);
    const total = sum(minutes);
    addToDay(tally, day, total, minutes.length);
    addToTopic(tally, topicId, { minutes: total, sessions: minutes.length, firstDay: day, lastDay: day });
  }
  for (const topic of inside) if (outside.has(topic)) return null;
  return inside;
}

/** The topic's newest start and topic note as the fold over every note gives them (stats-tally.ts addTopic). */
function decideNote(bucket: TopicBucket, counted: readonly InsightSession[], facts: readonly NoteFact[]): void {
  const scratch = new Map<string, TopicBucket>();
  const topicId = bucket.topicId;
  for (const s of withFacts(counted, facts)) {
    addTopic(
      scratch,
      { path: "", topicId, sessionId: s.sessionId, startedMs: s.startedMs, topicNote: s.topicNote },
      0,
      0,
    );
  }
  const decided = scratch.get(topicId) as TopicBucket;
  bucket.lastMs = decided.lastMs;
  bucket.topicNote = decided.topicNote;
  bucket.topTied = decided.topTied;
}

/** computeStats over `sessions` (a scan without the folded notes) and the totals; null: fold every note. */
export function statsWithOlder(
  sessions: readonly InsightSession[],
  totals: OlderTotals,
  options: StatsOptions,
): SessionStats | null {
  const { now, memo } = options;
  if (now < totals.newest) return null;
  const offsetAt = dailyOffsets(options.offsetAt);
  const since = options.since ? dayOf(options.since) : null;
  const until = options.until ? dayOf(options.until) : null;
  if (memo && memo.offsetAt !== options.offsetAt) Object.assign(memo, statsMemo(), { offsetAt: options.offsetAt });
  const count = (session: InsightSession): Counted => countedWith(session, now, offsetAt, memo);
  const inRange = (day: number): boolean =>
    !((since !== null && !(day >= since)) || (until !== null && !(day <= until)));
  const { tally } = tallyAll(sessions, now, count, inRange);
  const decided = addTotals(tally, totals, since === null && until === null ? null : inRange);
  if (decided === null) return null;
  const counted = new Map<string, InsightSession[]>();
  for (const s of sessions) {
    const c = count(s);
    if (!decided.has(s.topicId) || !c.counted.counted || !inRange(c.day)) continue;
    const list = counted.get(s.topicId);
    if (list) list.push(s);
    else counted.set(s.topicId, [s]);
  }
  for (const topicId of decided) {
    decideNote(tally.topics.get(topicId) as TopicBucket, counted.get(topicId) ?? [], totals.facts.get(topicId) ?? []);
  }
  return statsOfTally(tally, now, offsetAt);
}

/** Adds a row's sessions to the tally of `key` in `map` (made when missing). */
function addDay<K>(map: Map<K, DayTally>, key: K, minutes: number, sessions: number, counted: number): void {
  const tally = map.get(key);
  if (tally) {
    tally.minutes += minutes;
    tally.sessions += sessions;
    tally.counted += counted;
  } else map.set(key, { minutes, sessions, counted });
}

/** studyLog over `sessions` (a scan without the folded notes) and the totals; null: fold every note. */
export function studyLogWithOlder(
  sessions: readonly InsightSession[],
  totals: OlderTotals,
  options: StudyLogOptions,
): StudyLog | null {
  if (options.now < totals.newest) return null;
  const monday = mondayOf(options.asOf);
  // The topics' as-of week among the folded days (an --as-of in the past): per topic and day.
  const rows = totals.days.some((d) => d.day >= monday && d.day <= options.asOf) ? totals.rows() : [];
  if (rows === null) return null;
  const log = studyLog(sessions, { ...options, keep: undefined });
  for (const row of totals.days) {
    if (!(row.day <= log.asOf)) break; // oldest first
    addDay(log.days, row.day, row.total, row.minutes.length, atLeast(row, log.minMinutes));
    if (log.firstDay === null || row.day < log.firstDay) log.firstDay = row.day;
  }
  for (const { topicId, day, minutes } of rows) {
    if (day >= monday && day <= log.asOf) {
      const counted = minutes.filter((m) => m >= log.minMinutes).length;
      addDay(log.topicsThisWeek, topicId, sum(minutes), minutes.length, counted);
    }
  }
  return log;
}

/** What the CLI passes to PaleeSessions (SessionsOptions.olderTotals); main.js does not carry it. */
export const OLDER_TOTALS: OlderTotalsSource = {
  scan: (ctx) => scanBesideTotals(ctx.ports.store, ctx.layout, ctx.offsetAt, ctx.ports.clock.now(), ctx.ports.memory),
  studyLog: studyLogWithOlder,
};
