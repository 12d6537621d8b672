/**
 * Times typed by the learner (contract §4 log, "Refusals"): HH:MM and local ISO 8601 across daylight-saving
 * changes, with real offsets from the tz database (Intl). A wall time the clocks skipped is refused naming the
 * ISO forms to use; one that happened twice is the later; and the day a session started is its own.
 */
import type { PaleeError } from "../../../src/core/errors";
import {
  describeDaySpan,
  instantsShowing,
  mostRecentWallClock,
  parseGivenTime,
  sessionDay,
  dayText,
} from "../../../src/core/time";

const at = (iso: string): number => Date.parse(iso);
const utc = (): number => 0;

function zoneOffset(timeZone: string): (instant: number) => number {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
  });
  return (instant) => {
    const p = Object.fromEntries(format.formatToParts(new Date(instant)).map((x) => [x.type, Number(x.value)]));
    const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
    return Math.round((wall - Math.floor(instant / 60_000) * 60_000) / 60_000);
  };
}

const berlin = zoneOffset("Europe/Berlin");
const newYork = zoneOffset("America/New_York");

function refusal(fn: () => unknown): PaleeError {
  try {
    fn();
  } catch (error) {
    return error as PaleeError;
  }
  throw new Error("expected a refusal");
}

describe("a wall time the clocks skipped (Berlin, 2026-03-29, 02:00 → 03:00)", () => {
  const later = at("2026-03-29T10:00:00Z"); // 12:00 CEST that day

  it("has no instant showing it", () => {
    expect(instantsShowing(Date.UTC(2026, 2, 29, 2, 30), berlin)).toEqual([]);
    expect(instantsShowing(Date.UTC(2026, 2, 29, 3, 30), berlin)).toEqual([at("2026-03-29T01:30:00Z")]);
  });

  it("is refused as HH:MM, invalid_time, naming the day, the jump and the ISO forms to use", () => {
    const error = refusal(() => parseGivenTime("02:30", later, berlin));
    expect(error.kind).toBe("invalid_time");
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(
      '"02:30" does not exist on 2026-03-29 here: the clocks went from 02:00 to 03:00. Give the time with its ' +
        "offset, e.g. 2026-03-29T01:30:00+01:00 or 2026-03-29T03:30:00+02:00",
    );
    // Both forms it names are accepted as they are.
    expect(parseGivenTime("2026-03-29T03:30:00+02:00", later, berlin)).toBe(at("2026-03-29T01:30:00Z"));
  });

  it("is refused as a local ISO time too", () => {
    const error = refusal(() => parseGivenTime("2026-03-29T02:30", later, berlin));
    expect(error.kind).toBe("invalid_time");
    expect(error.message).toMatch(/^"2026-03-29T02:30" does not exist on 2026-03-29 here/);
  });

  it("is the day before while that day's jump is still to come", () => {
    // 01:45 CET on the 29th: the most recent 02:30 was yesterday's, which existed.
    expect(mostRecentWallClock(2, 30, at("2026-03-29T00:45:00Z"), berlin)).toBe(at("2026-03-28T01:30:00Z"));
  });

  it("leaves the times around the jump alone", () => {
    expect(parseGivenTime("01:59", later, berlin)).toBe(at("2026-03-29T00:59:00Z"));
    expect(parseGivenTime("03:00", later, berlin)).toBe(at("2026-03-29T01:00:00Z"));
    expect(parseGivenTime("23:00", later, berlin)).toBe(at("2026-03-28T22:00:00Z"));
  });
});

describe("a wall time that happened twice is the later", () => {
  it("as HH:MM once both have passed (Berlin, 2026-10-25 02:30)", () => {
    expect(parseGivenTime("02:30", at("2026-10-25T10:00:00Z"), berlin)).toBe(at("2026-10-25T01:30:00Z"));
    // Between the two, only the first has happened.
    expect(parseGivenTime("02:30", at("2026-10-25T01:10:00Z"), berlin)).toBe(at("2026-10-25T00:30:00Z"));
  });

  it("as a local ISO time, in Berlin and in New York (where the plain reading gives the earlier)", () => {
    expect(parseGivenTime("2026-10-25T02:30", at("2026-12-01T00:00:00Z"), berlin)).toBe(at("2026-10-25T01:30:00Z"));
    // 01:30 on 2026-11-01 in New York is 05:30Z (EDT) and 06:30Z (EST).
    expect(parseGivenTime("2026-11-01T01:30", at("2026-12-01T00:00:00Z"), newYork)).toBe(at("2026-11-01T06:30:00Z"));
    expect(parseGivenTime("2026-11-01T01:30:20", at("2026-12-01T00:00:00Z"), newYork)).toBe(at("2026-11-01T06:30:20Z"));
  });
});

describe("the day a session started", () => {
  const session = (startedAt: string) => ({ startedAt, startedMs: Date.parse(startedAt) });

  it("is the date written in its own offset, whatever the viewer's zone", () => {
    // 23:30 in India is 18:00 UTC and 03:00 the next morning in Tokyo: still the 1st.
    const late = session("2026-12-01T23:30:00+05:30");
    expect(dayText(sessionDay(late, utc))).toBe("2026-12-01");
    expect(dayText(sessionDay(late, () => 540))).toBe("2026-12-01");
    expect(dayText(sessionDay(late, () => -600))).toBe("2026-12-01");
    expect(dayText(sessionDay(session("2026-12-01T23:30:00+00:00"), () => 540))).toBe("2026-12-01");
  });

  it("is the viewer's local day for a UTC (…Z) or offset-less time, which says nothing of the learner's day", () => {
    expect(dayText(sessionDay(session("2026-12-01T23:30:00.000Z"), () => 540))).toBe("2026-12-02");
    expect(dayText(sessionDay(session("2026-12-01T23:30:00.000Z"), utc))).toBe("2026-12-01");
    const local = { startedAt: "2026-12-01T23:30", startedMs: at("2026-12-01T14:30:00Z") }; // read at +09:00
    expect(dayText(sessionDay(local, () => 540))).toBe("2026-12-01");
  });
});

describe("a span with its day named", () => {
  const now = at("2026-12-02T10:00:00Z");

  it.each([
    ["2026-12-02T08:00:00Z", "2026-12-02T09:00:00Z", "today 08:00–09:00"],
    ["2026-12-01T11:00:00Z", "2026-12-01T13:00:00Z", "yesterday 11:00–13:00"],
    ["2026-12-01T23:30:00Z", "2026-12-02T00:30:00Z", "yesterday 23:30–today 00:30"],
    ["2026-11-28T11:00:00Z", "2026-11-28T13:00:00Z", "2026-11-28 11:00–13:00"],
  ])("%s to %s reads %j", (from, to, text) => {
    expect(describeDaySpan(at(from), at(to), now, utc)).toBe(text);
  });
});
