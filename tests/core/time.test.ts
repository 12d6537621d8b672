import fc from "fast-check";
import {
  durationMinutes,
  formatElapsed,
  formatLocalDate,
  formatTimestamp,
  formatUtcCompact,
  isCanonicalTimestamp,
  parseTimestamp,
} from "../../src/core/time";

describe("parseTimestamp", () => {
  it.each([
    ["2026-08-14T12:00:00Z", "2026-08-14T12:00:00.000Z"],
    ["2026-08-14T12:00:00+05:30", "2026-08-14T06:30:00.000Z"],
    ["2026-08-14T12:00:00-03:30", "2026-08-14T15:30:00.000Z"],
    ["2026-08-14T12:00:00+0530", "2026-08-14T06:30:00.000Z"],
    ["2026-08-14T12:00+02", "2026-08-14T10:00:00.000Z"],
    ["2026-08-14T12:00:00.123456Z", "2026-08-14T12:00:00.123Z"],
    ["2024-02-29T00:00:00Z", "2024-02-29T00:00:00.000Z"],
  ])("accepts %s", (text, iso) => {
    expect(new Date(parseTimestamp(text) ?? NaN).toISOString()).toBe(iso);
  });

  it.each([
    "tomorrow",
    "2026-08-14",
    "2026-02-30T00:00:00Z",
    "2025-02-29T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-08-14T24:00:00Z",
    "2026-08-14T12:60:00Z",
    "2026-08-14T12:00:00+25:00",
    "2026-08-14 12:00:00Z",
    "",
  ])("refuses %j", (text) => {
    expect(parseTimestamp(text)).toBeNull();
  });

  it.each([null, undefined, 42, true, new Date(0), ["2026-08-14T12:00:00Z"]])("refuses the non-string %p", (value) => {
    expect(parseTimestamp(value)).toBeNull();
  });

  it("knows each month's days as the calendar of Date does, in every year and leap year", () => {
    // The days of a month by arithmetic (no Date per timestamp): the last day is accepted, the one after refused.
    const pad = (n: number, w: number): string => String(n).padStart(w, "0");
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
        const at = (day: number): string => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T00:00:00Z`;
        expect(parseTimestamp(at(last))).toBe(Date.UTC(year, month - 1, last));
        if (last < 31) expect(parseTimestamp(at(last + 1))).toBeNull();
      }),
      {
        examples: [
          [2000, 2],
          [1900, 2],
          [2024, 2],
          [2100, 2],
          [0, 2],
          [400, 2],
          [96, 2],
        ],
      },
    );
  });

  it("reads an offset in each of its forms as the engine reads the one with a colon", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("+", "-"),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        (sign, hours, minutes) => {
          const [h, m] = [String(hours).padStart(2, "0"), String(minutes).padStart(2, "0")];
          const at = "2026-08-14T12:34:56";
          const expected = Date.parse(`${at}${sign}${h}:${m}`);
          expect([parseTimestamp(`${at}${sign}${h}:${m}`), parseTimestamp(`${at}${sign}${h}${m}`)]).toEqual([
            expected,
            expected,
          ]);
          if (minutes === 0) expect(parseTimestamp(`${at}${sign}${h}`)).toBe(expected);
        },
      ),
    );
    expect(parseTimestamp("2026-08-14T12:00:00+24:00")).toBeNull();
    expect(parseTimestamp("2026-08-14T12:00:00+05:60")).toBeNull();
  });

  it("reads a timestamp without an offset as local time", () => {
    expect(parseTimestamp("2026-08-14T12:00:00", () => 330)).toBe(Date.parse("2026-08-14T06:30:00Z"));
  });
});

describe("isCanonicalTimestamp", () => {
  it("keeps only valid timestamps with seconds and a numeric offset as written", () => {
    expect(isCanonicalTimestamp("2026-08-14T12:00:00+05:30")).toBe(true);
    expect(isCanonicalTimestamp("2026-08-14T12:00:00-03:30")).toBe(true);
    expect(isCanonicalTimestamp("2026-08-14T12:00:00Z")).toBe(false);
    expect(isCanonicalTimestamp("2026-08-14T12:00")).toBe(false);
    expect(isCanonicalTimestamp("2026-08-14T12:00:00.5+00:00")).toBe(false);
    expect(isCanonicalTimestamp("2026-02-30T12:00:00+00:00")).toBe(false);
  });
});

describe("formatting", () => {
  const at = Date.parse("2026-08-14T20:15:09.750Z");
  it.each([
    [0, "2026-08-14T20:15:09+00:00"],
    [330, "2026-08-15T01:45:09+05:30"],
    [-210, "2026-08-14T16:45:09-03:30"],
    [345, "2026-08-15T02:00:09+05:45"],
  ])("writes seconds and the offset %i", (offset, expected) => {
    expect(formatTimestamp(at, offset)).toBe(expected);
    expect(parseTimestamp(expected)).toBe(Math.floor(at / 1000) * 1000);
  });

  it("gives the local calendar day", () => {
    expect(formatLocalDate(at, 330)).toBe("2026-08-15");
    expect(formatLocalDate(at, -600)).toBe("2026-08-14");
  });

  it("names sessions by their UTC start", () => {
    expect(formatUtcCompact(at)).toBe("20260814T201509");
  });

  it("rounds durations to whole minutes and never goes negative", () => {
    const start = Date.parse("2026-08-14T12:00:00Z");
    expect(durationMinutes(start, start + 29_999)).toBe(0);
    expect(durationMinutes(start, start + 30_000)).toBe(1);
    expect(durationMinutes(start, start + 45 * 60_000)).toBe(45);
    expect(durationMinutes(start, start - 60 * 60_000)).toBe(0);
  });

  it("shows elapsed time as h:mm:ss or h:mm", () => {
    expect(formatElapsed(3_909_000)).toBe("1:05:09");
    expect(formatElapsed(3_909_000, false)).toBe("1:05");
    expect(formatElapsed(-5_000)).toBe("0:00:00");
    expect(formatElapsed(30 * 3600_000)).toBe("30:00:00");
  });
});
