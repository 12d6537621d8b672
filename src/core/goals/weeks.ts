/**
 * Weeks against the weekly goal (contract §4c "Goals and weeks"): ISO weeks, Monday first, in local days.
 * Days inside a pause and days before the first session are unavailable; a week's target is
 * ceil(target × available days / 7); the week is judged by the goal in effect on its Monday. Pure.
 */
import { dayText, mondayOf } from "../time";
import type { Plan, Targets } from "./plan";
import { goalFor, hasTargets, isPausedDay } from "./plan";
import type { StudyLog, Tally } from "./study-log";
import { isStudyDay, tallyOf } from "./study-log";

export type WeekStatus = "met" | "missed" | "in_progress" | "paused" | "before_start";

export interface Week {
  monday: number;
  minutes: number;
  /** Counted sessions (at least min_minutes each). */
  sessions: number;
  targetMinutes: number | null;
  targetSessions: number | null;
  status: WeekStatus;
}

/**
 * The first available day: the first session's day, or, with no session at all, the as-of week's Monday (so a
 * new goal is in progress, not before its start).
 */
export function startDay(log: StudyLog): number {
  return log.firstDay ?? mondayOf(log.asOf);
}

/** Available days of the week of `monday`: from the start on, outside every pause. */
export function availableDays(plan: Plan, log: StudyLog, monday: number): number {
  let count = 0;
  for (let day = Math.max(monday, startDay(log)); day <= monday + 6; day++) if (!isPausedDay(plan, day)) count++;
  return count;
}

/** A weekly target pro-rated by the available days, rounded up; null stays null. */
export function proRated(target: number | null, available: number): number | null {
  return target === null ? null : Math.ceil((target * available) / 7);
}

/** Whether a tally reaches targets (targets already pro-rated). */
export function reaches(tally: Pick<Tally, "minutes" | "counted">, targets: Targets): boolean {
  return (
    (targets.minutesPerWeek === null || tally.minutes >= targets.minutesPerWeek) &&
    (targets.sessionsPerWeek === null || tally.counted >= targets.sessionsPerWeek)
  );
}

/**
 * One week judged against `goal` (the overall goal in effect, or a topic's goal) with `tally` its sessions.
 * Without targets, a week with a study day is met (`studied`).
 */
export function judgeWeek(
  plan: Plan,
  log: StudyLog,
  monday: number,
  goal: Targets | null,
  tally: Tally,
  studied: boolean,
): Week {
  const available = availableDays(plan, log, monday);
  const targetMinutes = proRated(goal?.minutesPerWeek ?? null, available);
  const targetSessions = proRated(goal?.sessionsPerWeek ?? null, available);
  const week = { monday, minutes: tally.minutes, sessions: tally.counted, targetMinutes, targetSessions };
  const current = monday === mondayOf(log.asOf);
  let status: WeekStatus;
  if (available === 0) status = monday + 6 < startDay(log) ? "before_start" : "paused";
  else if (goal && hasTargets(goal)) {
    const met = reaches(tally, { minutesPerWeek: targetMinutes, sessionsPerWeek: targetSessions });
    status = met ? "met" : current ? "in_progress" : "missed";
  } else status = studied ? "met" : current ? "in_progress" : "missed";
  return { ...week, status };
}

/** The overall week of `monday`: the vault's sessions against the goal in effect that week. */
export function overallWeek(plan: Plan, log: StudyLog, monday: number): Week {
  let studied = false;
  for (let day = monday; day <= Math.min(monday + 6, log.asOf) && !studied; day++) studied = isStudyDay(log, day);
  return judgeWeek(plan, log, monday, goalFor(plan, monday), tallyOf(log, monday, monday + 6), studied);
}

/** The weeks from the first session's week (or as-of's, with none) to as-of's, oldest first. */
export function weeksToAsOf(plan: Plan, log: StudyLog): Week[] {
  const weeks: Week[] = [];
  for (let monday = mondayOf(startDay(log)); monday <= log.asOf; monday += 7) {
    weeks.push(overallWeek(plan, log, monday));
  }
  return weeks;
}

export interface WeekStreak {
  current: number;
  longest: number;
}

/**
 * Consecutive met weeks (oldest first in `weeks`, the last being as-of's): paused weeks are passed over, they
 * neither count nor break. The current streak ends with the current week when it is met, else the week before.
 */
export function weekStreak(weeks: readonly Week[]): WeekStreak {
  let longest = 0;
  let run = 0;
  for (const week of weeks) {
    if (week.status === "met") longest = Math.max(longest, ++run);
    else if (week.status !== "paused" && week.status !== "in_progress") run = 0;
  }
  let current = 0;
  for (let i = weeks.length - 1; i >= 0; i--) {
    const status = weeks[i].status;
    if (status === "met") current++;
    else if (status === "paused" || (status === "in_progress" && i === weeks.length - 1)) continue;
    else break;
  }
  return { current, longest };
}

/** W of contract §5: a week's progress against its targets (also a topic goal's, formats/review.ts). */
export function weekDoc(
  monday: number,
  week: { minutes: number; sessions: number; targetMinutes: number | null; targetSessions: number | null },
  status: string,
) {
  return {
    from: dayText(monday),
    to: dayText(monday + 6),
    minutes: week.minutes,
    sessions: week.sessions,
    target_minutes: week.targetMinutes,
    target_sessions: week.targetSessions,
    status,
  };
}

/** W of contract §5. */
export function weekJson(week: Week) {
  return weekDoc(week.monday, week, week.status);
}
