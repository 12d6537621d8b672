/**
 * Instants and their units. An instant is epoch milliseconds; an offset is minutes east of UTC. Timestamps
 * are written as ISO 8601 with seconds and the local offset (2026-08-14T12:00:00+05:30) and stay strings in
 * every record.
 */

/** The local UTC offset, in minutes east of UTC, in force at an instant. */
export type OffsetAt = (instant: number) => number;

/**
 * `offsetAt` (none: 0) that notes whether anything asked it: a reading that never asked gives the same answer in
 * every time zone (what the device memory may keep: scan/read.ts, device-memory/older-fields.ts, older-totals.ts).
 */
export function notingOffset(offsetAt: OffsetAt = () => 0): { offsetAt: OffsetAt; asked: () => boolean } {
  let asked = false;
  return {
    offsetAt: (instant) => {
      asked = true;
      return offsetAt(instant);
    },
    asked: () => asked,
  };
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
/** A checkpoint inherits hot.md's start only if it is at most this old (docs/architecture.md, checkpoint). */
export const INHERIT_MAX_AGE_MS = DAY_MS;
/**
 * Starts before this are taken for a broken clock or a typo (1970 is epoch zero), not study: stats does not
 * count them and log refuses them (docs/decisions.md, "very old dates").
 */
export const EARLIEST_PLAUSIBLE_MS = Date.UTC(2000, 0, 1);
/** end clamps a hot.md start up to this far in the future to now; further ahead it is ignored. */
export const FUTURE_SKEW_MS = 60_000;

/** Whole minutes between two instants, rounded, never negative. */
export function durationMinutes(startedAt: number, endedAt: number): number {
  return Math.max(0, Math.round((endedAt - startedAt) / MINUTE_MS));
}
