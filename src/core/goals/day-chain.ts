/**
 * The forgiving daily count (contract §4c "Day chain"); version 2's `streak` is another thing and unchanged.
 * Each day from the first session's to as-of gets the first state that applies: studied, paused, rest,
 * pending (as-of itself, not yet studied), frozen (the first `freezes_per_month` would-be misses of each
 * calendar month, oldest first), missed. Pure; calendar days only.
 */
import { DAY_MS } from "../time";
import type { Plan } from "./plan";
import { isPausedDay } from "./plan";
import { weekdayOf } from "./plan-values";
import type { StudyLog } from "./study-log";
import { isStudyDay } from "./study-log";

export type DayState = "studied" | "paused" | "rest" | "pending" | "frozen" | "missed" | "before_start" | "future";

export interface DayChain {
  /** The state of each day from `from` to as-of, oldest first. */
  from: number;
  states: DayState[];
  current: number;
  longest: number;
  /** Freezes not yet used in as-of's month. */
  freezesLeft: number;
}

/** The calendar month of a day number, as one comparable number (year × 12 + month). */
function monthOf(day: number): number {
  const date = new Date(day * DAY_MS);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

function stateBeforeFreezes(plan: Plan, log: StudyLog, day: number): DayState {
  if (isStudyDay(log, day)) return "studied";
  if (isPausedDay(plan, day)) return "paused";
  if (plan.restDays.includes(weekdayOf(day))) return "rest";
  if (day === log.asOf) return "pending";
  return "missed";
}

/** The chain from the first session's day to as-of; with no session, an empty chain starting at as-of. */
export function dayChain(plan: Plan, log: StudyLog): DayChain {
  const from = log.firstDay ?? log.asOf + 1;
  const states: DayState[] = [];
  let month = Number.NaN;
  let frozen = 0;
  for (let day = from; day <= log.asOf; day++) {
    const m = monthOf(day);
    if (m !== month) [month, frozen] = [m, 0];
    let state = stateBeforeFreezes(plan, log, day);
    if (state === "missed" && frozen < plan.freezesPerMonth) [state, frozen] = ["frozen", frozen + 1];
    states.push(state);
  }
  const usedThisMonth = monthOf(log.asOf) === month ? frozen : 0;
  return { from, states, ...chainLengths(states), freezesLeft: plan.freezesPerMonth - usedThisMonth };
}

/** Studied days in a row, passing over rest, paused, frozen and pending days; a missed day breaks it. */
function chainLengths(states: readonly DayState[]): { current: number; longest: number } {
  let longest = 0;
  let run = 0;
  for (const state of states) {
    if (state === "studied") longest = Math.max(longest, ++run);
    else if (state === "missed") run = 0;
  }
  let current = 0;
  for (let i = states.length - 1; i >= 0 && states[i] !== "missed"; i--) if (states[i] === "studied") current++;
  return { current, longest };
}

/** A day's state in the year view: before_start and future outside the chain. */
export function stateOn(chain: DayChain, day: number): DayState {
  if (day < chain.from) return "before_start";
  const state = chain.states[day - chain.from];
  return state ?? "future";
}
