/**
 * The queue of what to study next (contract §4c "Queue"): pure, over each topic's schedule and next action,
 * the plan's part that concerns the queue, and an as-of day. Every topic with a review day or a goal appears
 * once, in the first group that applies; topics whose review is off are listed apart. No randomness: the order
 * is total (the topic ID breaks every tie).
 */
import type { Schedule } from "./schedule";
import { dueOn } from "./schedule";
import type { Fraction, PlanView, TopicGoal } from "./goal-progress";
import { compareFractions, goalBehind, leastMet } from "./goal-progress";
import type { Reason } from "./reasons";
import { reasonsOf } from "./reasons";

export type QueueGroup = "due" | "goal" | "continue" | "upcoming";
/** Where a topic asked for by name stands when it is not queued (next --topic). */
export type EntryGroup = QueueGroup | "excluded" | "none";
const GROUPS: readonly QueueGroup[] = ["due", "goal", "continue", "upcoming"];

/** One topic as the queue sees it. */
export interface QueueTopic {
  topicId: string;
  schedule: Schedule;
  /** The topic's next action, carried forward (null: none, or done). */
  nextAction: string | null;
}

export interface QueueEntry extends QueueTopic {
  group: EntryGroup;
  overdueDays: number | null;
  goal: TopicGoal | null;
  reasons: Reason[];
}

export interface Queue {
  queue: QueueEntry[];
  /** Topics with `review: false`, by ID. */
  excluded: string[];
}

function groupOf(topic: QueueTopic, goal: TopicGoal | null, due: boolean): QueueGroup {
  if (due) return "due";
  if (goalBehind(goal)) return "goal";
  return topic.nextAction !== null ? "continue" : "upcoming";
}

const byId = (a: QueueEntry, b: QueueEntry): number => (a.topicId < b.topicId ? -1 : +(a.topicId > b.topicId));

/** Most late first: elapsed / gap, compared exactly (a.elapsed × b.gap against b.elapsed × a.gap). */
function compareDue(a: QueueEntry, b: QueueEntry, asOf: number): number {
  const late = (e: QueueEntry): Fraction => ({
    num: asOf - (e.schedule.lastReviewed ?? asOf),
    den: e.schedule.gapDays ?? 1,
  });
  const byLateness = compareFractions(late(b), late(a));
  if (byLateness !== 0) return byLateness;
  const byNext = +(b.nextAction !== null) - +(a.nextAction !== null);
  if (byNext !== 0) return byNext;
  return (a.schedule.lastReviewed ?? 0) - (b.schedule.lastReviewed ?? 0);
}

function compareGoal(a: QueueEntry, b: QueueEntry): number {
  const fa = a.goal && leastMet(a.goal);
  const fb = b.goal && leastMet(b.goal);
  return fa && fb ? compareFractions(fa, fb) : 0;
}

/** Within a group: the dated topics first (a goal-only topic has no due day), then the group's own order. */
function compareWithin(group: QueueGroup, asOf: number): (a: QueueEntry, b: QueueEntry) => number {
  return (a, b) => {
    const undated = +(a.schedule.due === null) - +(b.schedule.due === null);
    if (undated !== 0) return undated;
    let order = 0;
    if (group === "due") order = compareDue(a, b, asOf);
    else if (group === "goal") order = compareGoal(a, b);
    else order = (a.schedule.due ?? 0) - (b.schedule.due ?? 0);
    return order !== 0 ? order : byId(a, b);
  };
}

/**
 * The queue on `asOf`: `topics` holds every topic with a review day (others, e.g. topics whose sessions all
 * lasted under a minute, are ignored unless they have a goal); the plan's goal topics are added.
 */
export function buildQueue(topics: readonly QueueTopic[], plan: PlanView, asOf: number): Queue {
  const all = new Map<string, QueueTopic>();
  for (const t of topics) if (t.schedule.lastReviewed !== null) all.set(t.topicId, t);
  for (const topicId of plan.goals.keys()) {
    if (!all.has(topicId)) {
      const known = topics.find((t) => t.topicId === topicId);
      all.set(topicId, known ?? { topicId, schedule: emptySchedule(), nextAction: null });
    }
  }
  const entries: QueueEntry[] = [];
  for (const topic of all.values()) {
    if (plan.reviewOff.has(topic.topicId)) continue;
    const goal = plan.goals.get(topic.topicId) ?? null;
    const state = dueOn(topic.schedule, asOf);
    const group = groupOf(topic, goal, state.due);
    const entry: QueueEntry = { ...topic, group, overdueDays: state.overdueDays, goal, reasons: [] };
    entry.reasons = reasonsOf(entry, goalBehind(goal));
    entries.push(entry);
  }
  const queue = GROUPS.flatMap((g) => entries.filter((e) => e.group === g).sort(compareWithin(g, asOf)));
  return { queue, excluded: [...plan.reviewOff].sort((a, b) => (a < b ? -1 : +(a > b))) };
}

export function emptySchedule(): Schedule {
  return { step: -1, gapDays: null, due: null, lastReviewed: null, lastRating: null, history: [] };
}

/**
 * One topic's entry (next --topic): its place in the queue, else `excluded` (review off) or `none` (never
 * studied for a minute, no goal), computed alike so its schedule and reasons still show.
 */
export function topicEntry(
  topicId: string,
  topics: readonly QueueTopic[],
  queue: readonly QueueEntry[],
  plan: PlanView,
  asOf: number,
): QueueEntry {
  const queued = queue.find((e) => e.topicId === topicId);
  if (queued) return queued;
  const topic = topics.find((t) => t.topicId === topicId) ?? { topicId, schedule: emptySchedule(), nextAction: null };
  const goal = plan.goals.get(topicId) ?? null;
  const state = dueOn(topic.schedule, asOf);
  const group = plan.reviewOff.has(topicId) ? "excluded" : "none";
  const entry: QueueEntry = { ...topic, group, overdueDays: state.overdueDays, goal, reasons: [] };
  entry.reasons = reasonsOf(entry, goalBehind(goal));
  return entry;
}
