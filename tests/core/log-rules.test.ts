/**
 * contract §4 log, version 3: what a logged session may be. 1 to 1 440 minutes however it is given; an HH:MM
 * start later than the end is the day before only up to 12 hours; a local time the clocks skipped is refused
 * and a repeated one is the later; nothing before 2000; and the answer names the day of the interval.
 */
import type { PaleeError } from "../../src/core/errors";
import { countedMinutes } from "../../src/core/insight/stats";
import type { LogRequest } from "../../src/core/honest-time";
import { resolveLogInterval } from "../../src/core/honest-time";
import type { OffsetAt } from "../../src/core/time";

const at = (iso: string): number => Date.parse(iso);
const utc: OffsetAt = () => 0;
const MIN = 60_000;

/** Central European time as the tz database has it for 2026: +60, +120 from 03-29 01:00Z to 10-25 01:00Z. */
const berlin = (instant: number): number =>
  instant >= at("2026-03-29T01:00:00Z") && instant < at("2026-10-25T01:00:00Z") ? 120 : 60;

function refusal(request: LogRequest, now: number, offsetAt = utc): PaleeError {
  try {
    resolveLogInterval(request, [], now, offsetAt);
  } catch (error) {
    const e = error as PaleeError;
    expect(e.exitCode).toBe(2);
    expect(e.message).not.toMatch(/\n/);
    return e;
  }
  throw new Error(`expected ${JSON.stringify(request)} to be refused`);
}

const minutesOf = (request: LogRequest, now: number, offsetAt = utc) =>
  resolveLogInterval(request, [], now, offsetAt).durationMinutes;

describe("an HH:MM start later than the end", () => {
  const now = at("2026-08-14T18:00:00Z");

  it("is the evening before when the session is then at most 12 hours", () => {
    expect(resolveLogInterval({ from: "23:30", to: "00:30" }, [], now, utc)).toMatchObject({
      startMs: at("2026-08-13T23:30:00Z"),
      endMs: at("2026-08-14T00:30:00Z"),
      durationMinutes: 60,
      when: "yesterday 23:30–today 00:30",
    });
    expect(minutesOf({ from: "20:00", to: "06:30" }, now)).toBe(630);
    expect(minutesOf({ from: "18:30", to: "06:30" }, now)).toBe(720);
  });

  it("is refused as starting after it ends when the day before would make it longer than 12 hours", () => {
    const error = refusal({ from: "07:00", to: "06:30" }, now);
    expect(error.kind).toBe("invalid_time");
    expect(error.message).toBe(
      "--from 07:00 starts after it ends (--to 06:30): a start later than the end means the day before only " +
        "when the session is then at most 12 h (this would be 23 h 30 min); give the day as ISO 8601 " +
        "(--from 2026-08-13T07:00) if that is what you mean",
    );
    expect(refusal({ from: "18:29", to: "06:30" }, now).kind).toBe("invalid_time");
  });

  it("counts against now when --to is not given", () => {
    // 17:30 to now (18:00) is half an hour; 19:00 would be the day before, 23 hours ago.
    expect(minutesOf({ from: "17:30" }, now)).toBe(30);
    expect(refusal({ from: "19:00" }, now).message).toMatch(/^--from 19:00 starts after it ends \(now, 18:00\)/);
  });

  it("is a whole day's session when the start is before the end on the same day", () => {
    expect(minutesOf({ from: "00:30", to: "17:30" }, now)).toBe(17 * 60);
  });
});

describe("1 to 1 440 minutes however it is given", () => {
  const now = at("2026-08-14T18:00:00Z");

  it("refuses --from <day> --to <5 days later>", () => {
    const error = refusal({ from: "2026-08-08T09:00:00Z", to: "2026-08-13T08:00:00Z" }, now);
    expect(error.kind).toBe("invalid_time");
    expect(error.message).toBe(
      "--from 2026-08-08 09:00 to --to 2026-08-13 08:00 lasts 119 h: a logged session lasts 1 min to 24 h " +
        "(1 to 1440 minutes); log each day on its own",
    );
  });

  it("takes exactly a day and refuses a minute more", () => {
    expect(minutesOf({ from: "2026-08-12T09:00:00Z", to: "2026-08-13T09:00:00Z" }, now)).toBe(1440);
    expect(refusal({ from: "2026-08-12T09:00:00Z", to: "2026-08-13T09:01:00Z" }, now).kind).toBe("invalid_time");
  });

  it("refuses less than a minute, and a start at the end", () => {
    expect(refusal({ from: "2026-08-14T12:00:00Z", to: "2026-08-14T12:00:20Z" }, now).message).toMatch(
      /is less than a minute: a logged session lasts 1 min to 24 h/,
    );
    expect(refusal({ from: "12:00", to: "12:00" }, now).kind).toBe("invalid_time");
    expect(minutesOf({ from: "12:00", to: "12:01" }, now)).toBe(1);
  });

  it("refuses a start after the end given as ISO", () => {
    expect(refusal({ from: "2026-08-14T14:00:00Z", to: "2026-08-14T13:00:00Z" }, now).message).toBe(
      "--from 14:00 starts after it ends (--to 13:00)",
    );
  });
});

describe("very old dates", () => {
  const now = at("2026-08-14T18:00:00Z");

  it("refuses a session in 1999, however short, given by --from/--to or by --minutes", () => {
    const error = refusal({ from: "1999-05-01T10:00:00Z", to: "1999-05-01T11:00:00Z" }, now);
    expect(error.kind).toBe("invalid_time");
    expect(error.message).toBe("--from 1999-05-01 10:00 is before 2000: a logged session must start in 2000 or later");
    expect(refusal({ minutes: 30, to: "1999-12-31T23:59:00Z" }, now).kind).toBe("invalid_time");
    expect(refusal({ from: "1999-05-01T10:00:00Z" }, now).message).toMatch(/is before 2000/);
  });

  it("takes what statistics count: a session logged at the earliest allowed start is counted unflagged", () => {
    const interval = resolveLogInterval({ from: "2000-01-01T00:00:00Z", to: "2000-01-01T01:00:00Z" }, [], now, utc);
    const session = {
      sessionId: "S-1",
      path: "palee/sessions/S-1.md",
      topicId: "T-a",
      startedAt: "2000-01-01T00:00:00+00:00",
      startedMs: interval.startMs,
      endedAt: "2000-01-01T01:00:00+00:00",
      durationMinutes: interval.durationMinutes,
      outcome: "logged",
      topicNote: null,
    };
    expect(countedMinutes(session, now, utc)).toEqual({ minutes: 60, problem: null, counted: true });
  });
});

describe("clock changes (Europe/Berlin rules)", () => {
  it("refuses a start the clocks skipped (02:30 on 2026-03-29), naming the ISO forms, and writes no 24 h", () => {
    const now = at("2026-03-29T10:00:00Z");
    const error = refusal({ from: "02:30", to: "03:30" }, now, berlin);
    expect(error.kind).toBe("invalid_time");
    expect(error.message).toMatch(/^"02:30" does not exist on 2026-03-29 here: the clocks went from 02:00 to 03:00/);
    expect(error.message).toMatch(/2026-03-29T01:30:00\+01:00 or 2026-03-29T03:30:00\+02:00$/);
    expect(refusal({ from: "01:00", to: "02:15" }, now, berlin).kind).toBe("invalid_time");
    // Either side of the jump is an ordinary time: 01:30 CET to 03:30 CEST is one hour.
    expect(minutesOf({ from: "01:30", to: "03:30" }, now, berlin)).toBe(60);
  });

  it("takes the later of a time that happened twice (02:30 on 2026-10-25)", () => {
    const now = at("2026-10-25T10:00:00Z");
    expect(resolveLogInterval({ from: "02:30", to: "03:00" }, [], now, berlin)).toMatchObject({
      startMs: at("2026-10-25T01:30:00Z"),
      durationMinutes: 30,
    });
    expect(minutesOf({ from: "01:30", to: "02:30" }, now, berlin)).toBe(120);
  });
});

describe("the answer names the day", () => {
  const now = at("2026-08-14T10:00:00Z");

  it("says yesterday for an HH:MM span still to come today", () => {
    expect(resolveLogInterval({ from: "11:00", to: "13:00" }, [], now, utc)).toMatchObject({
      startMs: at("2026-08-13T11:00:00Z"),
      when: "yesterday 11:00–13:00",
    });
  });

  it("says today, or the date further back", () => {
    expect(resolveLogInterval({ minutes: 45 }, [], now, utc).when).toBe("today 09:15–10:00");
    expect(resolveLogInterval({ from: "09:00", to: "2026-08-10T10:00:00Z" }, [], now, utc)).toMatchObject({
      startMs: at("2026-08-10T09:00:00Z"),
      when: "2026-08-10 09:00–10:00",
    });
    expect(resolveLogInterval({ minutes: 60, to: "2026-08-10T10:00:00Z" }, [], now, utc).startMs).toBe(
      at("2026-08-10T10:00:00Z") - 60 * MIN,
    );
  });
});
