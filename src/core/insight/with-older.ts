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
import { withFacts } from "../device-memory/older-totals";
import { dailyOffsets, dayOf, mondayOf } from "../time";
import type { Counted, InsightSession, SessionStats, StatsOptions } from "./stats";
import { countedWith, statsMemo, statsOfTally } from "./stats";
import type { Bucket, Tally, TopicBucket } from "./stats-tally";
import { addTopic, tallyAll } from "./stats-tally";

function addTo(map: Map<number, Bucket>, key: number, minutes: number, sessions: number): void {
  const bucket = map.get(key);
  if (bucket) {
    bucket.minutes += minutes;
    bucket.sessions += sessions;
  } else map.set(key, { key, minutes, sessions });
}

const sum = (minutes: readonly number[]): number => minutes.reduce((a, b) => a + b, 0);

/**
 * Adds the totals' rows in range to `tally`; the topics whose topic note the facts decide, or null when a
 * topic's folded days are partly in range.
 */
function addRows(tally: Tally, totals: OlderTotals, inRange: (day: number) => boolean): Set<string> | null {
  const inside = new Set<string>();
  const outside = new Set<string>();
  for (const row of totals.rows) {
    if (!inRange(row.day)) {
      outside.add(row.topicId);
      continue;
    }
    inside.add(row.topicId);
    const minutes = sum(row.minutes);
    const sessions = row.minutes.length;
    tally.total.minutes += minutes;
    tally.total.sessions += sessions;
    addTo(tally.days, row.day, minutes, sessions);
    addTo(tally.weeks, mondayOf(row.day), minutes, sessions);
    const topic = tally.topics.get(row.topicId);
    if (topic) {
      topic.minutes += minutes;
      topic.sessions += sessions;
      topic.firstDay = Math.min(topic.firstDay, row.day);
      topic.lastDay = Math.max(topic.lastDay, row.day);
    } else {
      tally.topics.set(row.topicId, {
        ...{ topicId: row.topicId, minutes, sessions, firstDay: row.day, lastDay: row.day },
        ...{ lastMs: Number.NEGATIVE_INFINITY, topicNote: null, topTied: false },
      });
    }
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
  const decided = addRows(tally, totals, inRange);
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
  const log = studyLog(sessions, { ...options, keep: undefined });
  const monday = mondayOf(log.asOf);
  for (const row of totals.rows) {
    if (!(row.day <= log.asOf)) continue;
    const minutes = sum(row.minutes);
    const counted = row.minutes.filter((m) => m >= log.minMinutes).length;
    addDay(log.days, row.day, minutes, row.minutes.length, counted);
    if (log.firstDay === null || row.day < log.firstDay) log.firstDay = row.day;
    if (row.day >= monday) addDay(log.topicsThisWeek, row.topicId, minutes, row.minutes.length, counted);
  }
  return log;
}
