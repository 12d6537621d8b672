/**
 * Each topic's sessions up to the as-of day and its schedule (contract §4c "Days", "Schedule"), with an optional
 * memo kept by its caller between calls (the plugin, which asks after every end; no module state). The memo
 * keeps each session's day by record and the schedules of the last call: when the new list is the last one with
 * notes inserted (a scan after an end), only the topics of the inserted notes are scheduled again. Anything else
 * (a note removed or edited, another as-of day, another offsetAt) schedules every topic afresh.
 */
import type { ConfirmedSession } from "../records/records";
import { insertedInto } from "../scan/sorted";
import type { OffsetAt } from "../time";
import { sessionDay } from "../time/local-days";
import type { Schedule } from "./schedule";
import { reviewDaysOf, scheduleOf } from "./schedule";

export interface TopicSchedule {
  /** The topic's sessions up to as-of, newest first as the list gives them. */
  sessions: ConfirmedSession[];
  schedule: Schedule;
}

export interface ScheduleMemo {
  offsetAt: OffsetAt | null;
  days: WeakMap<ConfirmedSession, number>;
  last: { list: readonly ConfirmedSession[]; asOf: number; topics: Map<string, TopicSchedule> } | null;
}

export const scheduleMemo = (): ScheduleMemo => ({ offsetAt: null, days: new WeakMap(), last: null });

/** Each listed topic's sessions up to `asOf`, newest first as the list gives them (all topics when `only` is null). */
function sessionsByTopic(
  newestFirst: readonly ConfirmedSession[],
  asOf: number,
  dayOf: (s: ConfirmedSession) => number,
  only: ReadonlySet<string> | null,
): Map<string, ConfirmedSession[]> {
  const sessions = new Map<string, ConfirmedSession[]>();
  for (const s of newestFirst) {
    if ((only && !only.has(s.topicId)) || !(dayOf(s) <= asOf)) continue;
    const list = sessions.get(s.topicId);
    if (list) list.push(s);
    else sessions.set(s.topicId, [s]);
  }
  return sessions;
}

/**
 * Each topic's sessions up to `asOf` and its schedule, by topic ID (the map's order is not significant). With a
 * memo, after notes were inserted only their topics are gathered and scheduled again.
 */
export function topicSchedules(
  newestFirst: readonly ConfirmedSession[],
  offsetAt: OffsetAt,
  asOf: number,
  memo?: ScheduleMemo,
): Map<string, TopicSchedule> {
  if (memo && memo.offsetAt !== offsetAt) Object.assign(memo, scheduleMemo(), { offsetAt });
  const dayOf = (s: ConfirmedSession): number => {
    let day = memo?.days.get(s);
    if (day === undefined) {
      day = sessionDay(s, offsetAt);
      memo?.days.set(s, day);
    }
    return day;
  };
  const last = memo?.last && memo.last.asOf === asOf ? memo.last : null;
  const added = last && insertedInto(last.list, newestFirst);
  const changed = added ? new Set(added.map((s) => s.topicId)) : null;
  const result = new Map<string, TopicSchedule>();
  if (last && changed) for (const [topicId, kept] of last.topics) if (!changed.has(topicId)) result.set(topicId, kept);
  for (const [topicId, list] of sessionsByTopic(newestFirst, asOf, dayOf, changed)) {
    result.set(topicId, { sessions: list, schedule: scheduleOf(reviewDaysOf(list, offsetAt, asOf)) });
  }
  if (memo) memo.last = { list: newestFirst, asOf, topics: result };
  return result;
}
