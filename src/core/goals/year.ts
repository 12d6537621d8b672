/**
 * The year view (contract §4c "Year view"): the 53 weeks ending with as-of's, each day's minutes, sessions,
 * state and level against the daily target of its week. Nothing here names a day "bad": the faces draw
 * missed days like any empty day, never in a warning colour.
 */
import { dayText, mondayOf } from "../time";
import type { DayChain, DayState } from "./day-chain";
import { dayChain, stateOn } from "./day-chain";
import type { Plan } from "./plan";
import { goalFor } from "./plan";
import type { StudyLog } from "./study-log";
import { isStudyDay } from "./study-log";
import type { Week, WeekStreak } from "./weeks";
import { overallWeek, weekJson, weekStreak, weeksToAsOf } from "./weeks";

export const YEAR_WEEKS = 53;
/** The daily target when the goal in effect has no minutes: half an hour. */
export const DEFAULT_DAILY_TARGET = 30;

export interface YearDay {
  day: number;
  minutes: number;
  sessions: number;
  level: 0 | 1 | 2 | 3 | 4;
  state: DayState;
}

export interface YearWeek extends Week {
  dailyTarget: number;
}

export interface YearView {
  asOf: number;
  from: number;
  to: number;
  dailyTarget: number;
  days: YearDay[];
  weeks: YearWeek[];
  weekStreak: WeekStreak;
  chain: DayChain;
  studyDays: { last30: number; last365: number };
  weeksMet: number;
  weeksJudged: number;
}

/** ceil(minutes_per_week / 7) of the goal in effect in the week of `monday`, else 30. */
export function dailyTarget(plan: Plan, monday: number): number {
  const minutes = goalFor(plan, monday)?.minutesPerWeek ?? null;
  return minutes === null ? DEFAULT_DAILY_TARGET : Math.ceil(minutes / 7);
}

/** Level 0 at 0 minutes; 1 below half the target; 2 below it; 3 below twice it; else 4. */
export function levelOf(minutes: number, target: number): 0 | 1 | 2 | 3 | 4 {
  if (minutes <= 0) return 0;
  if (2 * minutes < target) return 1;
  if (minutes < target) return 2;
  if (minutes < 2 * target) return 3;
  return 4;
}

function studyDaysWithin(log: StudyLog, count: number): number {
  let n = 0;
  for (let day = log.asOf - count + 1; day <= log.asOf; day++) if (isStudyDay(log, day)) n++;
  return n;
}

export function yearView(plan: Plan, log: StudyLog): YearView {
  const lastMonday = mondayOf(log.asOf);
  const from = lastMonday - (YEAR_WEEKS - 1) * 7;
  const chain = dayChain(plan, log);
  const days: YearDay[] = [];
  const weeks: YearWeek[] = [];
  for (let monday = from; monday <= lastMonday; monday += 7) {
    const target = dailyTarget(plan, monday);
    weeks.push({ ...overallWeek(plan, log, monday), dailyTarget: target });
    for (let day = monday; day < monday + 7; day++) {
      const tally = day <= log.asOf ? log.days.get(day) : undefined;
      const minutes = tally?.minutes ?? 0;
      days.push({
        day,
        minutes,
        sessions: tally?.sessions ?? 0,
        level: levelOf(minutes, target),
        state: stateOn(chain, day),
      });
    }
  }
  const judged = weeks.filter((w) => w.status === "met" || w.status === "missed");
  return {
    asOf: log.asOf,
    from,
    to: lastMonday + 6,
    dailyTarget: dailyTarget(plan, lastMonday),
    days,
    weeks,
    weekStreak: weekStreak(weeksToAsOf(plan, log)),
    chain,
    studyDays: { last30: studyDaysWithin(log, 30), last365: studyDaysWithin(log, 365) },
    weeksMet: judged.filter((w) => w.status === "met").length,
    weeksJudged: judged.length,
  };
}

/** The year document of contract §5 (without `warnings`, which the operation adds). */
export function yearJson(view: YearView) {
  return {
    as_of: dayText(view.asOf),
    from: dayText(view.from),
    to: dayText(view.to),
    daily_target: view.dailyTarget,
    days: view.days.map((d) => ({
      date: dayText(d.day),
      minutes: d.minutes,
      sessions: d.sessions,
      level: d.level,
      state: d.state,
    })),
    weeks: view.weeks.map((w) => ({ ...weekJson(w), daily_target: w.dailyTarget })),
    week_streak: { current: view.weekStreak.current, longest: view.weekStreak.longest },
    day_chain: { current: view.chain.current, longest: view.chain.longest, freezes_left: view.chain.freezesLeft },
    study_days: { last_30: view.studyDays.last30, last_365: view.studyDays.last365 },
    weeks_met: view.weeksMet,
    weeks_judged: view.weeksJudged,
  };
}
