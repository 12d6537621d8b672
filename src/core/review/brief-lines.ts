/**
 * The learning loop's lines of the tutor brief (contract §4c "Brief"): the review line, the week line and the
 * newest recall. Pure text; the brief (brief.ts) fits them into its words by priority.
 */
import { dayText } from "../time/local-days";
import type { TopicGoal } from "./goal-progress";
import type { QueueEntry } from "./queue";
import type { Rating } from "./rating";
import { ratingWord } from "./rating";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "14 Aug": a day as the brief's lines say it. */
export function shortDay(day: number): string {
  const [, month, date] = dayText(day).split("-").map(Number);
  return `${date} ${MONTHS[month - 1]}`;
}

const days = (n: number): string => `${n} day${n === 1 ? "" : "s"}`;

/** "Review: due since 14 Aug, 3 days past a 7-day gap; last rating hard, 7 Aug", or null before a review day. */
export function reviewLine(entry: QueueEntry | null): string | null {
  const s = entry?.schedule;
  if (!entry || !s || s.due === null || s.lastReviewed === null) return null;
  const gap = `${s.gapDays}-day gap`;
  const when =
    entry.overdueDays === null
      ? `next due ${shortDay(s.due)} (${gap})`
      : entry.overdueDays === 0
        ? `due today (${gap})`
        : `due since ${shortDay(s.due)}, ${days(entry.overdueDays)} past a ${gap}`;
  const last = s.lastRating === null ? "unrated" : `last rating ${ratingWord(s.lastRating)}`;
  return `Review: ${when}; ${last}, ${shortDay(s.lastReviewed)}`;
}

/** "This week: 40 of 120 min, 1 of 3 sessions", or null without a target. */
export function weekLine(goal: TopicGoal | null): string | null {
  if (goal === null) return null;
  const parts = [
    ...(goal.minutesTarget !== null ? [`${goal.minutes} of ${goal.minutesTarget} min`] : []),
    ...(goal.sessionsTarget !== null ? [`${goal.sessions} of ${goal.sessionsTarget} sessions`] : []),
  ];
  if (parts.length === 0) return null;
  return `This week: ${parts.join(", ")}${goal.paused ? " (paused)" : ""}`;
}

export interface BriefRecall {
  day: number;
  text: string;
  rating: Rating | null;
}

/** "Last recall, 7 Aug (rated hard): …". */
export function recallBlock(recall: BriefRecall | null): string | null {
  if (recall === null) return null;
  const rated = recall.rating === null ? "" : ` (rated ${ratingWord(recall.rating)})`;
  return `Last recall, ${shortDay(recall.day)}${rated}: ${recall.text}`;
}
