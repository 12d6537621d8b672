/** Why a topic stands where it does in the queue (contract §4c): stable codes, each with a line of text. */
import { dayText } from "../time/local-days";
import type { TopicGoal } from "./goal-progress";
import { leastMet } from "./goal-progress";
import type { Schedule } from "./schedule";

export type ReasonCode = "overdue" | "due_today" | "goal_behind" | "next_action" | "last_again";

export interface Reason {
  code: ReasonCode;
  text: string;
}

/** What the reasons are drawn from: a queue entry's state. */
export interface ReasonInput {
  schedule: Schedule;
  overdueDays: number | null;
  goal: TopicGoal | null;
  nextAction: string | null;
}

const days = (n: number): string => `${n} day${n === 1 ? "" : "s"}`;

function goalText(entry: ReasonInput): string {
  const g = entry.goal;
  if (g === null) return "weekly goal not met yet";
  const parts = [
    ...(g.minutesTarget !== null ? [`${g.minutes} of ${g.minutesTarget} min`] : []),
    ...(g.sessionsTarget !== null ? [`${g.sessions} of ${g.sessionsTarget} sessions`] : []),
  ];
  return leastMet(g) === null ? "weekly goal not met yet" : `weekly goal: ${parts.join(", ")} this week`;
}

/** The reasons of one entry, in a fixed order: due state, goal, next action, last rating. */
export function reasonsOf(entry: ReasonInput, behind: boolean): Reason[] {
  const reasons: Reason[] = [];
  const s = entry.schedule;
  if (entry.overdueDays !== null && s.due !== null) {
    const gap = `${s.gapDays}-day gap`;
    reasons.push(
      entry.overdueDays === 0
        ? { code: "due_today", text: `due today (${gap})` }
        : { code: "overdue", text: `due since ${dayText(s.due)}, ${days(entry.overdueDays)} past a ${gap}` },
    );
  }
  if (behind) reasons.push({ code: "goal_behind", text: goalText(entry) });
  if (entry.nextAction !== null) {
    // "": a view that knows a next action is there without reading its note.
    const text = entry.nextAction === "" ? "has a next action" : `next action: ${entry.nextAction}`;
    reasons.push({ code: "next_action", text });
  }
  if (s.lastRating === 1 && s.lastReviewed !== null) {
    reasons.push({ code: "last_again", text: `last recall rated again (${dayText(s.lastReviewed)})` });
  }
  return reasons;
}
