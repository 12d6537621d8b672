/**
 * The confirmed sessions as goals see them (contract §4c "Days"): minutes and sessions per local day up to the
 * as-of day, the day of the first session, and each topic's tally in the as-of week. A session belongs to the
 * day it started (sessionDay) and counts for the minutes stats counts it for (countedMinutes), so goals and
 * stats never disagree on a day. Sessions that start after the as-of day are left out.
 */
import type { InsightSession, StatsMemo } from "../insight/stats";
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
}

const empty = (): Tally => ({ minutes: 0, sessions: 0, counted: 0 });

function addTo(tally: Tally, minutes: number, counted: boolean): void {
  tally.minutes += minutes;
  tally.sessions += 1;
  if (counted) tally.counted += 1;
}

export function studyLog(sessions: readonly InsightSession[], options: StudyLogOptions): StudyLog {
  const memo = options.memo?.offsetAt === options.offsetAt ? options.memo : undefined;
  const offsetAt = memo ? options.offsetAt : dailyOffsets(options.offsetAt);
  const { asOf, minMinutes } = options;
  const monday = mondayOf(asOf);
  const days = new Map<number, Tally>();
  const topicsThisWeek = new Map<string, Tally>();
  let firstDay: number | null = null;
  for (const session of sessions) {
    const { day, counted: result } = countedWith(session, options.now, offsetAt, memo);
    if (!(day <= asOf)) continue; // after as-of, or no day at all (NaN)
    if (!result.counted) continue;
    const counted = result.minutes >= minMinutes;
    let tally = days.get(day);
    if (!tally) days.set(day, (tally = empty()));
    addTo(tally, result.minutes, counted);
    if (firstDay === null || day < firstDay) firstDay = day;
    if (day >= monday) {
      let topic = topicsThisWeek.get(session.topicId);
      if (!topic) topicsThisWeek.set(session.topicId, (topic = empty()));
      addTo(topic, result.minutes, counted);
    }
  }
  return { asOf, days, firstDay, topicsThisWeek, minMinutes };
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
