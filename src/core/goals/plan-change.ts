/**
 * What a `goal` write changes in plan.md (contract §5 `goal`): the options checked (refusals invalid_goal,
 * invalid_date, topic_required, nothing written), then the new values of only the keys asked for, computed
 * from plan.md's keys as they are (unknown keys inside them kept). The faces write them: the CLI into the
 * text (plan-text.ts), the plugin through FileManager.processFrontMatter. Pure.
 */
import { UsageError } from "../errors";
import type { Fields } from "../records/frontmatter";
import { dayOf, dayText, mondayOf } from "../time";
import type { Plan } from "./plan";
import { goalFor, planFromFields } from "./plan";
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

/** A change asked for; absent fields are left as they are. */
export interface GoalChange {
  /** The topic whose goal changes; null: the overall goal. */
  topicId: string | null;
  minutesPerWeek?: number;
  sessionsPerWeek?: number;
  /** Remove every target of the goal named (review stays). */
  clear?: boolean;
  review?: boolean;
  restDays?: number[];
  freezesPerMonth?: number;
  minMinutes?: number;
  pause?: DaySpan;
  /** The first day of the pause to remove. */
  unpause?: number;
}

/** The setting options as typed (CLI) or entered (the plugin's dialog). */
export interface GoalOptionsText {
  minutesPerWeek?: string;
  sessionsPerWeek?: string;
  clear?: boolean;
  review?: string;
  restDays?: string;
  freezesPerMonth?: string;
  minMinutes?: string;
  pause?: string;
  unpause?: string;
}

const shown = (text: string): string => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);

function integerOption(flag: string, text: string, bounds: { min: number; max: number }): number {
  const n = /^\s*\d{1,9}\s*$/.test(text) ? boundedInteger(Number(text), bounds) : null;
  if (n === null) {
    throw new UsageError(
      `${flag} must be a whole number from ${bounds.min} to ${bounds.max} (got ${shown(text)})`,
      "invalid_goal",
    );
  }
  return n;
}

function restDaysOption(text: string): number[] {
  if (text.trim().toLowerCase() === "none") return [];
  const days = new Set<number>();
  for (const part of text.split(",")) {
    const index = weekdayIndex(part);
    if (index === null) {
      throw new UsageError(
        `--rest-days takes weekdays among ${WEEKDAYS.join(",")} (or none), comma-separated (got ${shown(part.trim())})`,
        "invalid_goal",
      );
    }
    days.add(index);
  }
  return [...days].sort((a, b) => a - b);
}

/** Whether any setting option is given: without one, `goal` only reads. */
export function asksForChange(options: GoalOptionsText): boolean {
  return Object.values(options).some((v) => v !== undefined && v !== false);
}

/** Checks the options and gives the change they ask for; throws the refusal of contract §4c. */
export function goalChangeOf(options: GoalOptionsText, topicId: string | null): GoalChange {
  const change: GoalChange = { topicId };
  const targetGiven = options.minutesPerWeek !== undefined || options.sessionsPerWeek !== undefined;
  if (options.clear && targetGiven) {
    throw new UsageError("--clear removes the goal's targets: give it without a target", "invalid_goal");
  }
  if (options.minutesPerWeek !== undefined) {
    change.minutesPerWeek = integerOption("--minutes-per-week", options.minutesPerWeek, MINUTES_PER_WEEK);
  }
  if (options.sessionsPerWeek !== undefined) {
    change.sessionsPerWeek = integerOption("--sessions-per-week", options.sessionsPerWeek, SESSIONS_PER_WEEK);
  }
  if (options.clear) change.clear = true;
  if (options.review !== undefined) {
    const review = options.review.trim().toLowerCase();
    if (review !== "on" && review !== "off") {
      throw new UsageError(`--review must be on or off (got ${shown(options.review)})`, "usage");
    }
    if (topicId === null)
      throw new UsageError("--review needs --topic: the topic to keep in or out of the queue", "topic_required");
    change.review = review === "on";
  }
  if (options.restDays !== undefined) change.restDays = restDaysOption(options.restDays);
  if (options.freezesPerMonth !== undefined) {
    change.freezesPerMonth = integerOption("--freezes-per-month", options.freezesPerMonth, FREEZES_PER_MONTH);
  }
  if (options.minMinutes !== undefined)
    change.minMinutes = integerOption("--min-minutes", options.minMinutes, MIN_MINUTES);
  if (options.pause !== undefined) {
    const span = parsePause(options.pause.trim());
    if (typeof span === "string") throw new UsageError(`--pause ${shown(options.pause)} ${span}`, "invalid_date");
    change.pause = span;
  }
  if (options.unpause !== undefined) {
    const day = dayOf(options.unpause);
    if (day === null) {
      throw new UsageError(
        `--unpause must be the first day of a pause, YYYY-MM-DD (got ${shown(options.unpause)})`,
        "invalid_date",
      );
    }
    change.unpause = day;
  }
  return change;
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

function setTargets(entry: Record<string, unknown>, change: GoalChange): void {
  if (change.clear) {
    delete entry.minutes_per_week;
    delete entry.sessions_per_week;
  }
  if (change.minutesPerWeek !== undefined) entry.minutes_per_week = change.minutesPerWeek;
  if (change.sessionsPerWeek !== undefined) entry.sessions_per_week = change.sessionsPerWeek;
}

/** The overall goal from this week's Monday: targets not named are copied from the goal in effect. */
function goalsAfter(fields: Fields, plan: Plan, change: GoalChange, monday: number): unknown[] {
  const inEffect = goalFor(plan, monday);
  const entry: Record<string, unknown> = { from: dayText(monday) };
  if (!change.clear) {
    if (inEffect?.minutesPerWeek != null) entry.minutes_per_week = inEffect.minutesPerWeek;
    if (inEffect?.sessionsPerWeek != null) entry.sessions_per_week = inEffect.sessionsPerWeek;
  }
  setTargets(entry, change);
  const sameWeek = (item: unknown): boolean => {
    const from = isMapping(item) && typeof item.from === "string" ? dayOf(item.from) : null;
    return from !== null && mondayOf(from) === monday;
  };
  const kept: unknown[] = Array.isArray(fields.goals)
    ? (fields.goals as unknown[]).filter((item) => !sameWeek(item))
    : [];
  return [...kept, entry];
}

function topicsAfter(fields: Fields, change: GoalChange, topicId: string): Record<string, unknown> {
  const topics: Record<string, unknown> = isMapping(fields.topics) ? { ...fields.topics } : {};
  const entry: Record<string, unknown> = isMapping(topics[topicId]) ? { ...(topics[topicId] as object) } : {};
  setTargets(entry, change);
  if (change.review === false) entry.review = false;
  else if (change.review === true) delete entry.review;
  if (Object.keys(entry).length === 0) delete topics[topicId];
  else topics[topicId] = entry;
  return topics;
}

function pausesAfter(fields: Fields, change: GoalChange): unknown[] {
  let pauses: unknown[] = fields.pauses === undefined || fields.pauses === null ? [] : [fields.pauses].flat();
  if (change.unpause !== undefined) {
    const day = change.unpause;
    const left = pauses.filter((item) => {
      const span = parsePause(item);
      return typeof span === "string" || span.fromDay !== day;
    });
    if (left.length === pauses.length) {
      throw new UsageError(`--unpause ${dayText(day)}: no pause in plan.md starts on that day`, "invalid_date");
    }
    pauses = left;
  }
  if (change.pause && !pauses.includes(pauseText(change.pause))) pauses = [...pauses, pauseText(change.pause)];
  return pauses;
}

/**
 * The new values of the keys `change` asks for, from plan.md's keys as read (`fields`, null for a new file)
 * and the plan they read as; `today` is the local day of the write (a write always uses today's week).
 * `updated_at` is set on every write.
 */
export function planUpdates(fields: Fields | null, plan: Plan, change: GoalChange, today: number): Fields {
  const current = fields ?? {};
  const updates: Fields = {};
  const targets = change.minutesPerWeek !== undefined || change.sessionsPerWeek !== undefined || change.clear;
  if (targets && change.topicId === null) updates.goals = goalsAfter(current, plan, change, mondayOf(today));
  if ((targets || change.review !== undefined) && change.topicId !== null) {
    updates.topics = topicsAfter(current, change, change.topicId);
  }
  if (change.restDays) updates.rest_days = change.restDays.map((d) => WEEKDAYS[d]);
  if (change.freezesPerMonth !== undefined) updates.freezes_per_month = change.freezesPerMonth;
  if (change.minMinutes !== undefined) updates.min_minutes = change.minMinutes;
  if (change.pause !== undefined || change.unpause !== undefined) updates.pauses = pausesAfter(current, change);
  updates.updated_at = dayText(today);
  return updates;
}

/**
 * Several changes one after another (the plugin's dialog: the overall goal and the active topic's), each from the
 * keys the previous one left: the new values of every key any of them changes.
 */
export function planUpdatesAll(fields: Fields | null, changes: readonly GoalChange[], today: number): Fields {
  let current: Fields = { ...(fields ?? {}) };
  const updates: Fields = {};
  for (const change of changes) {
    const step = planUpdates(current, planFromFields(current), change, today);
    Object.assign(updates, step);
    current = { ...current, ...step };
  }
  return updates;
}
