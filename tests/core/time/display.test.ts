import {
  describeInstant,
  describeRecorded,
  describeSpan,
  formatDuration,
  formatDurationMs,
  localClock,
} from "../../../src/core/time";

const MIN = 60_000;
const utc = (): number => 0;

describe("formatDuration: one rendering of durations for both faces", () => {
  it.each([
    [0, "0 min"],
    [59, "59 min"],
    [60, "1 h"],
    [65, "1 h 5 min"],
    [1235, "20 h 35 min"],
  ])("%i minutes read as %s", (minutes, text) => {
    expect(formatDuration(minutes)).toBe(text);
  });

  it("rounds seconds below a minute down, and never shows a negative duration", () => {
    expect(formatDurationMs(59_999)).toBe("0 min");
    expect(formatDurationMs(30_000)).toBe("0 min");
    expect(formatDurationMs(65 * MIN + 59_000)).toBe("1 h 5 min");
    expect(formatDuration(-3)).toBe("0 min");
    expect(formatDuration(Number.NaN)).toBe("0 min");
  });
});

describe("times of day for people", () => {
  const now = Date.parse("2026-08-14T12:00:00Z");

  it("shows the local clock, with the date only when it is not the day of now", () => {
    expect(localClock(Date.parse("2026-08-14T09:05:30Z"), () => 330)).toBe("14:35");
    expect(describeInstant(Date.parse("2026-08-14T09:05:00Z"), now, utc)).toBe("09:05");
    expect(describeInstant(Date.parse("2026-08-13T20:30:00Z"), now, utc)).toBe("2026-08-13 20:30");
  });

  it("shows a recorded timestamp in its own offset, as it was written", () => {
    expect(describeRecorded("2026-08-14T14:05:00+05:30", "2026-08-14")).toBe("14:05");
    expect(describeRecorded("2026-08-13T14:05:00+05:30", "2026-08-14")).toBe("2026-08-13 14:05");
    expect(describeRecorded(null, "2026-08-14")).toBe("unknown");
    expect(describeRecorded("yesterday", "2026-08-14")).toBe("yesterday");
  });

  it("shows a span with dates on both ends once it lasts a day", () => {
    const from = Date.parse("2026-08-13T23:10:00Z");
    expect(describeSpan(from, Date.parse("2026-08-14T07:05:00Z"), utc)).toBe("23:10–07:05");
    expect(describeSpan(from, from + 24 * 60 * MIN, utc)).toBe("2026-08-13 23:10–2026-08-14 23:10");
  });
});
