/**
 * What the queue needs of plan.md (contract §4c "Queue", group `goal`): the topics whose review is off, and
 * each topic goal's progress this week. The plan's reader builds it; the queue only compares.
 */

/** A topic's weekly goal this week, as the plan and the week's sessions give it. */
export interface TopicGoal {
  minutes: number;
  sessions: number;
  minutesTarget: number | null;
  sessionsTarget: number | null;
  /** A paused week (every day of it inside a pause) is never behind. */
  paused: boolean;
}

export interface PlanView {
  reviewOff: ReadonlySet<string>;
  goals: ReadonlyMap<string, TopicGoal>;
}

/** A fraction num/den with den > 0, compared exactly (no floating point). */
export interface Fraction {
  num: number;
  den: number;
}

export const compareFractions = (a: Fraction, b: Fraction): number => a.num * b.den - b.num * a.den;

/** The least met of a goal's targets (minutes/target, sessions/target), or null when it has no target. */
export function leastMet(goal: TopicGoal): Fraction | null {
  const parts: Fraction[] = [];
  if (goal.minutesTarget !== null && goal.minutesTarget > 0) parts.push({ num: goal.minutes, den: goal.minutesTarget });
  if (goal.sessionsTarget !== null && goal.sessionsTarget > 0) {
    parts.push({ num: goal.sessions, den: goal.sessionsTarget });
  }
  return parts.reduce<Fraction | null>((low, f) => (low === null || compareFractions(f, low) < 0 ? f : low), null);
}

/** Behind: a goal with a target not reached this week, and the week not paused. */
export function goalBehind(goal: TopicGoal | null): boolean {
  if (goal === null || goal.paused) return false;
  const least = leastMet(goal);
  return least !== null && least.num < least.den;
}
