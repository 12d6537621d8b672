/**
 * The review schedule of one topic (contract §4c "Days", "Schedule"): pure, over its confirmed sessions and an
 * as-of day, in local calendar days (day numbers, never milliseconds), so a DST change never moves a due day.
 */
import type { OffsetAt } from "../time";
import { sessionDay } from "../time/local-days";
import type { Rating } from "./rating";

/** The gaps of the ladder, in days: step 0 is 1 day, step 6 is 120 days. */
export const GAPS: readonly number[] = [1, 3, 7, 14, 30, 60, 120];
const TOP_STEP = GAPS.length - 1;

/** What the schedule needs of a confirmed session (records.ts ConfirmedSession has all of it). */
export interface ReviewSession {
  sessionId: string;
  startedAt: string;
  startedMs: number;
  durationMinutes: number;
  recallRating?: Rating | null;
}

/** A review day of the topic and the day's rating (null: unrated, which counts as good). */
export interface ReviewDay {
  day: number;
  rating: Rating | null;
}

/** One review day as the schedule took it: the step it reached, its gap and the due day it set. */
export interface ScheduleStep extends ReviewDay {
  step: number;
  gapDays: number;
  due: number;
}

export interface Schedule {
  /** -1 before the first review day. */
  step: number;
  gapDays: number | null;
  due: number | null;
  lastReviewed: number | null;
  /** The rating of the last review day (null when unrated, or no review day yet). */
  lastRating: Rating | null;
  /** Every review day, oldest first. */
  history: ScheduleStep[];
}

const bySessionOrder = (a: ReviewSession, b: ReviewSession): number =>
  a.startedMs !== b.startedMs
    ? a.startedMs - b.startedMs
    : a.sessionId < b.sessionId
      ? -1
      : +(a.sessionId > b.sessionId);

/**
 * The topic's review days up to `asOf` (inclusive), oldest first: days with a session that lasted at least a
 * minute or carries a rating; a day's rating is that of its last rated session (by started_at, then ID).
 */
export function reviewDaysOf(sessions: readonly ReviewSession[], offsetAt: OffsetAt, asOf: number): ReviewDay[] {
  const days = new Map<number, ReviewDay>();
  for (const s of [...sessions].sort(bySessionOrder)) {
    const day = sessionDay(s, offsetAt);
    if (!Number.isFinite(day) || day > asOf) continue;
    const rating = s.recallRating ?? null;
    if (s.durationMinutes < 1 && rating === null) continue;
    const known = days.get(day);
    if (!known) days.set(day, { day, rating });
    else if (rating !== null) known.rating = rating;
  }
  return [...days.values()].sort((a, b) => a.day - b.day);
}

/** The step after a review day with rating `rating`, from `step`; `early` when it came before the due day. */
export function nextStep(step: number, rating: Rating | null, early: boolean): number {
  const held = Math.max(step, 0);
  if (rating === 1) return 0;
  if (rating === 2 || early) return held;
  return Math.min(step + (rating === 4 ? 2 : 1), TOP_STEP);
}

/**
 * The schedule after the review days (oldest first), as §4c's ladder walks them; `from`: the ladder's state after
 * earlier days (the history then holds these days only).
 */
export function scheduleOf(days: readonly ReviewDay[], from = { step: -1, due: null as number | null }): Schedule {
  let { step, due } = from;
  const history: ScheduleStep[] = [];
  for (const { day, rating } of days) {
    step = nextStep(step, rating, due !== null && day < due);
    due = day + GAPS[step];
    history.push({ day, rating, step, gapDays: GAPS[step], due });
  }
  const last = history[history.length - 1];
  return {
    step,
    gapDays: last ? last.gapDays : null,
    due,
    lastReviewed: last ? last.day : null,
    lastRating: last ? last.rating : null,
    history,
  };
}

/** Whether the topic is due on `asOf`, by how many days, and the days since its last review. */
export function dueOn(schedule: Schedule, asOf: number): { due: boolean; overdueDays: number | null; elapsed: number } {
  if (schedule.due === null || schedule.lastReviewed === null) return { due: false, overdueDays: null, elapsed: 0 };
  const due = asOf >= schedule.due;
  return { due, overdueDays: due ? asOf - schedule.due : null, elapsed: asOf - schedule.lastReviewed };
}
