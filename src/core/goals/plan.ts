/**
 * Reading plan.md (contract §2 plan.md, version 4): the learner's weekly goals and rest rules. The record
 * bounds and the five read states are every record's (frontmatter.ts, yaml-bounds.ts); a value out of range,
 * or a `topics` key that is not a topic, is left out and named in `warnings`; an unreadable plan reads as
 * the empty plan with a warning naming the file. Pure: the caller reads the file.
 */
import type { Fields, ReadResult } from "../records/frontmatter";
import { classifyRecord, describeReadProblem } from "../records/frontmatter";
import { TOPIC_ID_PATTERN } from "../topics/ids";
import { dayOf, dayText, mondayOf } from "../time";
import type { DaySpan } from "./plan-values";
import {
  FREEZES_PER_MONTH,
  MINUTES_PER_WEEK,
  MIN_MINUTES,
  SESSIONS_PER_WEEK,
  WEEKDAYS,
  boundedInteger,
  parsePause,
  pauseText,
  weekdayIndex,
} from "./plan-values";

/** Weekly targets; null means no target. */
export interface Targets {
  minutesPerWeek: number | null;
  sessionsPerWeek: number | null;
}

/** The overall goal in effect from the week of `from` (a Monday) on. */
export interface GoalEntry extends Targets {
  from: string;
  fromDay: number;
}

/** A topic's weekly goal now, and whether it is in the review queue (`review: false` keeps it out). */
export interface TopicPlan extends Targets {
  topicId: string;
  review: boolean;
}

export interface Plan {
  /** Oldest first, one per `from`. */
  goals: GoalEntry[];
  /** In the order plan.md lists them. */
  topics: TopicPlan[];
  minMinutes: number;
  /** Weekday indexes, 0 = Monday, ascending. */
  restDays: number[];
  freezesPerMonth: number;
  /** Oldest first. */
  pauses: DaySpan[];
  updatedAt: string | null;
}

export const EMPTY_PLAN: Plan = Object.freeze({
  goals: [],
  topics: [],
  minMinutes: MIN_MINUTES.default,
  restDays: [],
  freezesPerMonth: FREEZES_PER_MONTH.default,
  pauses: [],
  updatedAt: null,
});

export interface PlanRead {
  plan: Plan;
  /** One line each, naming the file. */
  warnings: string[];
  state: ReadResult["state"];
  /** Whether `goal` may write it: missing (created) or ok. Anything else is refused `plan_unreadable`. */
  writable: boolean;
  /** The frontmatter as parsed when ok (the writers change only the keys asked for, from these). */
  fields: Fields | null;
  /** Why an unreadable plan.md cannot be read; null when it can (or is missing). */
  problem: string | null;
}

export const hasTargets = (t: Targets): boolean => t.minutesPerWeek !== null || t.sessionsPerWeek !== null;

/**
 * Reads plan.md's text (null: no such file). `knownTopics`: topic IDs read from session notes, so a
 * `topics` key naming an original tool's topic (`git_rebase`) is that topic.
 */
export function readPlan(text: string | null, path: string, knownTopics: ReadonlySet<string> = new Set()): PlanRead {
  const read = classifyRecord(text);
  if (read.state === "missing")
    return { plan: EMPTY_PLAN, warnings: [], state: "missing", writable: true, fields: null, problem: null };
  if (read.state !== "ok") {
    const problem = describeReadProblem(read);
    const warning = `${path}: ${problem}; read as a plan with no goals (it is never rewritten)`;
    return { plan: EMPTY_PLAN, warnings: [warning], state: read.state, writable: false, fields: null, problem };
  }
  const warnings: string[] = [];
  const warn: Warn = (key, value, why, outcome = "ignored") => {
    warnings.push(`${path}: ${key} ${shown(value)} ${why}; ${outcome}`);
  };
  const plan = planOf(read.fields, knownTopics, warn);
  return { plan, warnings, state: "ok", writable: true, fields: read.fields, problem: null };
}

/** The plan an ok plan.md's frontmatter reads as (the plugin's dialog, inside processFrontMatter). */
export function planFromFields(fields: Fields, knownTopics: ReadonlySet<string> = new Set()): Plan {
  return planOf(fields, knownTopics, () => undefined);
}

type Warn = (key: string, value: unknown, why: string, outcome?: string) => void;

function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function planOf(fields: Fields, knownTopics: ReadonlySet<string>, warn: Warn): Plan {
  const integer = (key: string, bounds: { min: number; max: number; default: number }): number => {
    const value = fields[key];
    if (value === undefined || value === null) return bounds.default;
    const n = boundedInteger(value, bounds);
    if (n === null) warn(key, value, `is not a whole number from ${bounds.min} to ${bounds.max}`);
    return n ?? bounds.default;
  };
  return {
    goals: goalsOf(fields.goals, warn),
    topics: topicsOf(fields.topics, knownTopics, warn),
    minMinutes: integer("min_minutes", MIN_MINUTES),
    restDays: restDaysOf(fields.rest_days, warn),
    freezesPerMonth: integer("freezes_per_month", FREEZES_PER_MONTH),
    pauses: pausesOf(fields.pauses, warn),
    updatedAt: typeof fields.updated_at === "string" && dayOf(fields.updated_at) !== null ? fields.updated_at : null,
  };
}

const listOf = (value: unknown): unknown[] => (value === undefined || value === null ? [] : [value].flat());

/** A target key of a goal: absent or null is no target; anything else out of range is named and ignored. */
function targetsOf(entry: Record<string, unknown>, where: string, warn: Warn): Targets {
  const one = (key: string, bounds: { min: number; max: number }): number | null => {
    const value = entry[key];
    if (value === undefined || value === null) return null;
    const n = boundedInteger(value, bounds);
    if (n === null) warn(`${where}.${key}`, value, `is not a whole number from ${bounds.min} to ${bounds.max}`);
    return n;
  };
  return {
    minutesPerWeek: one("minutes_per_week", MINUTES_PER_WEEK),
    sessionsPerWeek: one("sessions_per_week", SESSIONS_PER_WEEK),
  };
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

function goalsOf(value: unknown, warn: Warn): GoalEntry[] {
  if (value !== undefined && value !== null && !Array.isArray(value)) {
    warn("goals", value, "is not a list");
    return [];
  }
  const byMonday = new Map<number, GoalEntry>();
  listOf(value).forEach((entry, i) => {
    const where = `goals[${i}]`;
    const day = isMapping(entry) ? (typeof entry.from === "string" ? dayOf(entry.from) : null) : null;
    if (!isMapping(entry) || day === null) {
      warn(where, entry, "is not {from: YYYY-MM-DD, minutes_per_week?, sessions_per_week?}");
      return;
    }
    // A hand-typed day inside the week is that week: the goal the learner meant, named so it can be fixed.
    const monday = mondayOf(day);
    if (monday !== day) warn(`${where}.from`, entry.from, "is not a Monday", `read as ${dayText(monday)}`);
    byMonday.set(monday, { from: dayText(monday), fromDay: monday, ...targetsOf(entry, where, warn) });
  });
  return [...byMonday.values()].sort((a, b) => a.fromDay - b.fromDay);
}

function topicsOf(value: unknown, knownTopics: ReadonlySet<string>, warn: Warn): TopicPlan[] {
  if (value === undefined || value === null) return [];
  if (!isMapping(value)) {
    warn("topics", value, "is not a mapping of topic IDs to goals");
    return [];
  }
  const topics: TopicPlan[] = [];
  for (const [topicId, entry] of Object.entries(value)) {
    if (!TOPIC_ID_PATTERN.test(topicId) && !knownTopics.has(topicId)) {
      warn("topics key", topicId, "is not a topic ID");
      continue;
    }
    if (entry !== null && !isMapping(entry)) {
      warn(`topics.${topicId}`, entry, "is not {minutes_per_week?, sessions_per_week?, review?}");
      continue;
    }
    const fields = entry ?? {};
    const review = fields.review;
    if (review !== undefined && review !== null && typeof review !== "boolean") {
      warn(`topics.${topicId}.review`, review, "is not true or false");
    }
    topics.push({ topicId, ...targetsOf(fields, `topics.${topicId}`, warn), review: review !== false });
  }
  return topics;
}

function restDaysOf(value: unknown, warn: Warn): number[] {
  const days = new Set<number>();
  for (const item of listOf(value)) {
    const index = weekdayIndex(item);
    if (index === null) warn("rest_days", item, `is not one of ${WEEKDAYS.join(", ")}`);
    else days.add(index);
  }
  return [...days].sort((a, b) => a - b);
}

function pausesOf(value: unknown, warn: Warn): DaySpan[] {
  const pauses = new Map<string, DaySpan>();
  for (const item of listOf(value)) {
    const span = parsePause(item);
    if (typeof span === "string") warn("pauses", item, span);
    else pauses.set(pauseText(span), span);
  }
  return [...pauses.values()].sort((a, b) => a.fromDay - b.fromDay || a.toDay - b.toDay);
}

/** The goal in effect in the week of `monday`: the newest entry whose `from` ≤ it, else none. */
export function goalFor(plan: Plan, monday: number): GoalEntry | null {
  let found: GoalEntry | null = null;
  for (const goal of plan.goals) if (goal.fromDay <= monday) found = goal;
  return found;
}

/** Whether a day lies inside one of the plan's pauses. */
export function isPausedDay(plan: Plan, day: number): boolean {
  return plan.pauses.some((p) => p.fromDay <= day && day <= p.toDay);
}

/** P of contract §5: plan.md's keys as read, defaults filled in, values out of range left out. */
export function planJson(plan: Plan) {
  const targets = (t: Targets) => ({ minutes_per_week: t.minutesPerWeek, sessions_per_week: t.sessionsPerWeek });
  return {
    goals: plan.goals.map((g) => ({ from: g.from, ...targets(g) })),
    topics: Object.fromEntries(plan.topics.map((t) => [t.topicId, { ...targets(t), review: t.review }])),
    min_minutes: plan.minMinutes,
    rest_days: plan.restDays.map((d) => WEEKDAYS[d]),
    freezes_per_month: plan.freezesPerMonth,
    pauses: plan.pauses.map(pauseText),
    updated_at: plan.updatedAt,
  };
}
