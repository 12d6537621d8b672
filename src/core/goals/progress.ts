/**
 * This week's progress (contract §4c, §5 `goal`): the overall week, each topic goal's week (judged for the
 * current week only), and the week streak. Topic goals count the topic's sessions of the as-of week against
 * targets pro-rated by the same available days as the overall week.
 */
import { dayText, mondayOf } from "../time";
import type { Plan, TopicPlan } from "./plan";
import { hasTargets, planJson } from "./plan";
import type { StudyLog, Tally } from "./study-log";
import type { Week, WeekStreak } from "./weeks";
import type { TopicGoal } from "../review/goal-progress";
import { judgeWeek, overallWeek, weekJson, weekStreak, weeksToAsOf } from "./weeks";

export interface TopicWeek extends Week {
  topicId: string;
}

/**
 * A topic goal's progress this week: the review queue's TopicGoal (counted sessions, pro-rated targets, null when
 * the goal has none of that kind; paused: no available day this week, never behind), with its topic and whether
 * it is met.
 */
export interface TopicWeekProgress extends TopicGoal {
  topicId: string;
  met: boolean;
}

export interface GoalsReport {
  asOf: number;
  plan: Plan;
  week: Week;
  topics: TopicWeek[];
  weekStreak: WeekStreak;
}

const NO_TALLY: Tally = Object.freeze({ minutes: 0, sessions: 0, counted: 0 });

/** The as-of week of every topic with a target, in plan.md's order. */
export function topicWeeks(plan: Plan, log: StudyLog): TopicWeek[] {
  const monday = mondayOf(log.asOf);
  return plan.topics.filter(hasTargets).map((topic: TopicPlan) => {
    const tally = log.topicsThisWeek.get(topic.topicId) ?? NO_TALLY;
    return { ...judgeWeek(plan, log, monday, topic, tally, false), topicId: topic.topicId };
  });
}

/** Per topic with a goal: this week's minutes, sessions and pro-rated targets (for the review queue). */
export function topicWeekProgress(plan: Plan, log: StudyLog): TopicWeekProgress[] {
  return topicWeeks(plan, log).map((w) => ({
    topicId: w.topicId,
    minutes: w.minutes,
    sessions: w.sessions,
    minutesTarget: w.targetMinutes,
    sessionsTarget: w.targetSessions,
    paused: w.status === "paused",
    met: w.status === "met",
  }));
}

export function goalsReport(plan: Plan, log: StudyLog): GoalsReport {
  return {
    asOf: log.asOf,
    plan,
    week: overallWeek(plan, log, mondayOf(log.asOf)),
    topics: topicWeeks(plan, log),
    weekStreak: weekStreak(weeksToAsOf(plan, log)),
  };
}

/** The `goal` document of contract §5. */
export function goalsJson(report: GoalsReport, status: "goals" | "goal_set", warnings: readonly string[]) {
  return {
    status,
    as_of: dayText(report.asOf),
    plan: planJson(report.plan),
    week: weekJson(report.week),
    topics: report.topics.map((t) => ({ ...weekJson(t), topic_id: t.topicId })),
    week_streak: { current: report.weekStreak.current, longest: report.weekStreak.longest },
    warnings: [...warnings],
  };
}
