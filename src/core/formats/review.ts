/**
 * The learning loop's JSON (contract §5, version 4): a queue entry Q and the `next` document, keys in the
 * contract's order, so the CLI and the MCP server print the same bytes (invariant 15).
 */
import type { NextResult } from "../operations/next";
import type { QueueEntry } from "../review/queue";
import type { TopicGoal } from "../review/goal-progress";
import { goalBehind } from "../review/goal-progress";
import { dayText, mondayOf } from "../time/local-days";
import { weekDoc } from "../goals/weeks";
import type { TopicNote } from "../topics/note";
import { openJson } from "./json";

const day = (d: number | null): string | null => (d === null ? null : dayText(d));

/** W of a topic goal for the week of `asOf`: met, paused or in_progress (the current week is never missed). */
export function topicWeekJson(goal: TopicGoal, asOf: number) {
  const status = goal.paused ? "paused" : goalBehind(goal) ? "in_progress" : "met";
  const targets = { targetMinutes: goal.minutesTarget, targetSessions: goal.sessionsTarget };
  return weekDoc(mondayOf(asOf), { minutes: goal.minutes, sessions: goal.sessions, ...targets }, status);
}

/** Q: one entry of the queue (with `history` for next --topic). */
export function queueEntryJson(e: QueueEntry, note: TopicNote | null, asOf: number, history = false) {
  const s = e.schedule;
  return {
    topic_id: e.topicId,
    topic_note: note === null ? null : { name: note.name, path: note.path },
    group: e.group,
    last_reviewed: day(s.lastReviewed),
    step: s.step,
    gap_days: s.gapDays,
    due: day(s.due),
    overdue_days: e.overdueDays,
    next_action: e.nextAction,
    last_rating: s.lastRating,
    week: e.goal === null ? null : topicWeekJson(e.goal, asOf),
    reasons: e.reasons.map((r) => ({ code: r.code, text: r.text })),
    ...(history
      ? {
          history: s.history.map((h) => ({
            date: dayText(h.day),
            rating: h.rating,
            step: h.step,
            gap_days: h.gapDays,
            due: dayText(h.due),
          })),
        }
      : {}),
  };
}

/** The `next` document; `limit` cuts the queue (null: every entry), `total` counts it before the cut. */
export function nextJson(r: NextResult, limit: number | null) {
  const note = (topicId: string) => r.notes.get(topicId) ?? null;
  const shown = limit === null ? r.queue : r.queue.slice(0, limit);
  return {
    as_of: dayText(r.asOf),
    open: r.open ? openJson(r.open) : null,
    queue: shown.map((e) => queueEntryJson(e, note(e.topicId), r.asOf)),
    excluded: r.excluded,
    total: r.queue.length,
    warnings: r.warnings,
  };
}
