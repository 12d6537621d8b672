/**
 * The confirmed sessions as goals see them (contract §4c "Days"): minutes and sessions per local day up to the
 * as-of day, the day of the first session, and each topic's tally in the as-of week. A session belongs to the
 * day it started (sessionDay) and counts for the minutes stats counts it for (countedMinutes), so goals and
 * stats never disagree on a day. Sessions that start after the as-of day are left out.
 */
import type { Counted, InsightSession, StatsMemo } from "../insight/stats";
import { insertedInto } from "../scan/sorted";
import { countedWith } from "../insight/stats";
import type { OffsetAt } from "../time";
import { dailyOffsets, mondayOf } from "../time";

export interface Tally {
  minutes: number;
  /** Every session of the day or week. */
  sessions: number;
  /** Counted sessions: those of at least min_minutes (contract §2 plan.md). */
  counted: number;
}

export interface StudyLog {
  asOf: number;
  /** Days with at least one session, by day number. */
  days: Map<number, Tally>;
  /** The day of the first confirmed session up to as-of; null when there is none. */
  firstDay: number | null;
  /** Each topic's tally in the as-of week (its Monday to as-of). */
  topicsThisWeek: Map<string, Tally>;
  minMinutes: number;
}

export interface StudyLogOptions {
  /** The local day the answers are for (today by default, at the faces). */
  asOf: number;
  /** The instant sessions are judged against (a session starting after it is not counted, as in stats). */
  now: number;
  offsetAt: OffsetAt;
  minMinutes: number;
  /**
   * What stats already worked out per session (the plugin's history view counts stats first): used only when
   * it was made with this very `offsetAt`, so the day and minutes are the same.
   */
  memo?: StatsMemo;
  /** The last log, kept by a caller that asks after every end (the history view): see StudyLogMemo. */
  keep?: StudyLogMemo;
}

/**
 * The last log and the list it was made of, for the same as-of day, min_minutes and offsets: a list that is the
 * same with notes inserted (a scan after an end) takes the log forward by those notes alone (the log's sums do
 * not depend on the order). Valid from `now` until `countsFrom`, the start of a session left out as in the
 * future (from then on it counts). Anything else makes the log afresh.
 */
export interface StudyLogMemo {
  last: {
    list: readonly InsightSession[];
    offsetAt: OffsetAt;
    now: number;
    countsFrom: number;
    log: StudyLog;
  } | null;
}

export const studyLogMemo = (): StudyLogMemo => ({ last: null });

const empty = (): Tally => ({ minutes: 0, sessions: 0, counted: 0 });

function addTo(tally: Tally, minutes: number, counted: boolean): void {
  tally.minutes += minutes;
  tally.sessions += 1;
  if (counted) tally.counted += 1;
}

/** Adds one session to the log, when it counts (on a day up to as-of); false when it is left out as in the future. */
function addSession(log: StudyLog, session: InsightSession, counted: Counted, now: number): boolean {
  const { day, counted: result } = counted;
  if (!result.counted) return !(session.startedMs > now);
  if (!(day <= log.asOf)) return true; // after as-of, or no day at all (NaN)
  const enough = result.minutes >= log.minMinutes;
  let tally = log.days.get(day);
  if (!tally) log.days.set(day, (tally = empty()));
  addTo(tally, result.minutes, enough);
  if (log.firstDay === null || day < log.firstDay) log.firstDay = day;
  if (day >= mondayOf(log.asOf)) {
    let topic = log.topicsThisWeek.get(session.topicId);
    if (!topic) log.topicsThisWeek.set(session.topicId, (topic = empty()));
    addTo(topic, result.minutes, enough);
  }
  return true;
}

const copied = <K>(map: Map<K, Tally>): Map<K, Tally> => new Map([...map].map(([k, t]) => [k, { ...t }]));

/** The kept log taken forward by the sessions inserted since, or null when it cannot be (see StudyLogMemo). */
function logAfter(
  sessions: readonly InsightSession[],
  options: StudyLogOptions,
  count: (s: InsightSession) => Counted,
): StudyLog | null {
  const last = options.keep?.last;
  if (!last || last.offsetAt !== options.offsetAt || options.now < last.now || options.now >= last.countsFrom) {
    return null;
  }
  if (last.log.asOf !== options.asOf || last.log.minMinutes !== options.minMinutes) return null;
  const added = insertedInto(last.list, sessions);
  if (added === null) return null;
  const log = { ...last.log, days: copied(last.log.days), topicsThisWeek: copied(last.log.topicsThisWeek) };
  return added.every((s) => addSession(log, s, count(s), options.now)) ? log : null;
}

export function studyLog(sessions: readonly InsightSession[], options: StudyLogOptions): StudyLog {
  const memo = options.memo?.offsetAt === options.offsetAt ? options.memo : undefined;
  const offsetAt = memo ? options.offsetAt : dailyOffsets(options.offsetAt);
  const { asOf, minMinutes, now } = options;
  const count = (s: InsightSession): Counted => countedWith(s, now, offsetAt, memo);
  let log = logAfter(sessions, options, count);
  let countsFrom = options.keep?.last?.countsFrom ?? Number.POSITIVE_INFINITY;
  if (log === null) {
    log = { asOf, days: new Map(), firstDay: null, topicsThisWeek: new Map(), minMinutes };
    countsFrom = Number.POSITIVE_INFINITY;
    for (const session of sessions) {
      if (!addSession(log, session, count(session), now)) countsFrom = Math.min(countsFrom, session.startedMs);
    }
  }
  if (options.keep) options.keep.last = { list: sessions, offsetAt: options.offsetAt, now, countsFrom, log };
  return log;
}

/** The tally of the days from `from` to `to` (inclusive) that are not after as-of. */
export function tallyOf(log: StudyLog, from: number, to: number): Tally {
  const total = empty();
  for (let day = from; day <= Math.min(to, log.asOf); day++) {
    const tally = log.days.get(day);
    if (!tally) continue;
    total.minutes += tally.minutes;
    total.sessions += tally.sessions;
    total.counted += tally.counted;
  }
  return total;
}

/** A study day (contract §4c): at least min_minutes in total. */
export function isStudyDay(log: StudyLog, day: number): boolean {
  return (log.days.get(day)?.minutes ?? 0) >= log.minMinutes;
}
