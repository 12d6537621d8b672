/**
 * Breaks: the time inside a session that is not study (pauses and time away). Today a draft records them as
 * one sum, break_minutes; every rule that adds to it, takes from it or subtracts it lives here, so that
 * recording breaks as intervals changes this file and its callers, not the rules around it.
 */
import { durationMinutes } from "../time";

/** duration_minutes (contract §2): whole wall-clock minutes minus the breaks, never negative. */
export function studiedMinutes(startedMs: number, endedMs: number, breakMinutes: number): number {
  return Math.max(0, durationMinutes(startedMs, endedMs) - breakMinutes);
}

/** The whole minutes of a pause that ends at `endMs` (continue adds them to break_minutes). */
export function pauseMinutes(pausedMs: number, endMs: number): number {
  return durationMinutes(pausedMs, endMs);
}

/** A recorded value as it reads in a warning. */
export function shown(value: unknown): string {
  return JSON.stringify(value) ?? typeof value;
}

/**
 * Reads a value of break_minutes (draft or confirmed note): absent or null is 0; anything but a whole
 * number ≥ 0 (a negative, a fraction, text, even "15" in quotes) is reported and read as 0.
 */
export function readBreakMinutes(value: unknown, path: string): { breakMinutes: number; warning: string | null } {
  if (value === undefined || value === null) return { breakMinutes: 0, warning: null };
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return { breakMinutes: value, warning: null };
  return {
    breakMinutes: 0,
    warning: `${path}: break_minutes ${shown(value)} is not a whole number of minutes ≥ 0; read as 0`,
  };
}

/** break_minutes after recording a time away of `minutes`. */
export function recordAway(breakMinutes: number, away: { minutes: number }): number {
  return breakMinutes + away.minutes;
}

/** break_minutes after the learner chose to count the time away after all (the inverse of recordAway). */
export function countAwayBack(breakMinutes: number, away: { minutes: number }): number {
  return Math.max(0, breakMinutes - away.minutes);
}
