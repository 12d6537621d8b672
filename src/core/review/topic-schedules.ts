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
  last: { list: readonly ConfirmedSession[]; asOf: number; schedules: Map<string, Schedule> } | null;
}

export const scheduleMemo = (): ScheduleMemo => ({ offsetAt: null, days: new WeakMap(), last: null });

/** Each topic's sessions up to `asOf` and its schedule, by topic ID in the order topics first appear. */
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
  const sessions = new Map<string, ConfirmedSession[]>();
  for (const s of newestFirst) {
    if (!(dayOf(s) <= asOf)) continue;
    const list = sessions.get(s.topicId);
    if (list) list.push(s);
    else sessions.set(s.topicId, [s]);
  }
  const last = memo?.last && memo.last.asOf === asOf ? memo.last : null;
  const added = last && insertedInto(last.list, newestFirst);
  const changed = added && new Set(added.map((s) => s.topicId));
  const schedules = new Map<string, Schedule>();
  const result = new Map<string, TopicSchedule>();
  for (const [topicId, list] of sessions) {
    const kept = changed && !changed.has(topicId) ? last?.schedules.get(topicId) : undefined;
    const schedule = kept ?? scheduleOf(reviewDaysOf(list, offsetAt, asOf));
    schedules.set(topicId, schedule);
    result.set(topicId, { sessions: list, schedule });
  }
  if (memo) memo.last = { list: newestFirst, asOf, schedules };
  return result;
}
