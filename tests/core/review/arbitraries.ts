/** Generated rated sessions for the review property tests: a topic, a day and minute, a length and a rating. */
import fc from "fast-check";
import type { Rating } from "../../../src/core/review/rating";

export const DAY = 86_400_000;
/** The day number of 2026-01-01, day 0 of the generated sessions. */
export const START = Math.floor(Date.UTC(2026, 0, 1) / DAY);

/** A recall rating, or none. */
export const ratingArb: fc.Arbitrary<Rating | null> = fc.option(fc.constantFrom<Rating>(1, 2, 3, 4), { nil: null });

/** fc.record's fields of a session on one of `topics`, on day START + 0 to `maxDay`, 0 to 90 minutes long. */
export function ratedSessionFields<T extends string>(
  topics: readonly T[],
  maxDay: number,
): {
  topic: fc.Arbitrary<T>;
  day: fc.Arbitrary<number>;
  minute: fc.Arbitrary<number>;
  minutes: fc.Arbitrary<number>;
  rating: fc.Arbitrary<Rating | null>;
} {
  return {
    topic: fc.constantFrom(...topics),
    day: fc.integer({ min: 0, max: maxDay }),
    minute: fc.integer({ min: 0, max: 1439 }),
    minutes: fc.integer({ min: 0, max: 90 }),
    rating: ratingArb,
  };
}

/** When a generated session started, in UTC milliseconds. */
export const startedMsOf = (g: { day: number; minute: number }): number => (START + g.day) * DAY + g.minute * 60_000;
