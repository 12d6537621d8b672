import fc from "fast-check";
import { LongSilenceError, OverlapError, PaleeError } from "../../src/core/errors";
import {
  LONG_SILENCE_MS,
  awayNotice,
  awayUpdate,
  countBackUpdate,
  continueUpdate,
  lastSignOfLife,
  nothingOpenError,
  pauseUpdate,
  preselectedEnd,
  readBreakMinutes,
  readHonestFields,
  toSecond,
  totalBreakMinutes,
  endTimeOf,
  resolveEndAt,
  savedEnd,
  silenceOf,
  studiedMinutes,
  studiedMs,
  timeAway,
  type EndAtSession,
  type HonestFields,
} from "../../src/core/honest-time";
import { resolveLogInterval } from "../../src/core/honest-time";
import { formatDurationMs, mostRecentWallClock, parseGivenTime } from "../../src/core/time";

const MIN = 60_000;
const HOUR = 60 * MIN;
const GRACE = 15 * MIN;
const utc = (): number => 0;
const at = (iso: string): number => Date.parse(iso);
const PATH = "palee/sessions/DRAFT-S-0000abcd.md";

/** Europe/Berlin's rules: CET (+60), CEST (+120) from the last Sunday of March to that of October, 01:00 UTC. */
function berlin(instant: number): number {
  const year = new Date(instant).getUTCFullYear();
  const lastSunday = (month: number): number => {
    const last = new Date(Date.UTC(year, month + 1, 0));
    return Date.UTC(year, month, last.getUTCDate() - last.getUTCDay(), 1);
  };
  return instant >= lastSunday(2) && instant < lastSunday(9) ? 120 : 60;
}

/** Runs `fn` and returns what it threw, failing the test when it did not throw. */
function thrown(fn: () => unknown): PaleeError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(PaleeError);
    return error as PaleeError;
  }
  throw new Error("expected a refusal");
}

function expectRefusal(fn: () => unknown, kind: string): PaleeError {
  const error = thrown(fn);
  expect(error.kind).toBe(kind);
  expect(error.exitCode).toBe(2);
  expect(error.message).not.toMatch(/\n/);
  return error;
}

describe("signs of life and studied time", () => {
  it("takes the later of the start and the last checkpoint as the last sign of life", () => {
    expect(lastSignOfLife({ startedMs: 100, lastCheckpointMs: 500 })).toBe(500);
    expect(lastSignOfLife({ startedMs: 500, lastCheckpointMs: 100 })).toBe(500);
    expect(lastSignOfLife({ startedMs: 100, lastCheckpointMs: null })).toBe(100);
    expect(lastSignOfLife({ startedMs: null, lastCheckpointMs: 300 })).toBe(300);
    expect(lastSignOfLife({ startedMs: null, lastCheckpointMs: null })).toBeNull();
  });

  it("subtracts breaks from the rounded wall-clock minutes, never below zero", () => {
    const start = at("2026-08-14T20:00:00Z");
    expect(studiedMinutes(start, start + 90 * MIN + 29_000, 20)).toBe(70);
    expect(studiedMinutes(start, start + 10 * MIN, 25)).toBe(0);
    expect(studiedMinutes(start, start - 10 * MIN, 0)).toBe(0);
  });

  it("counts the whole minutes of each break, summed", () => {
    const pause = { fromMs: at("2026-08-14T20:00:00Z"), toMs: at("2026-08-14T20:12:40Z") };
    expect(totalBreakMinutes([pause])).toBe(13);
    expect(totalBreakMinutes([pause, { fromMs: at("2026-08-14T21:00:00Z"), toMs: at("2026-08-14T21:05:00Z") }])).toBe(
      18,
    );
    expect(totalBreakMinutes([{ fromMs: pause.fromMs, toMs: pause.fromMs - HOUR }])).toBe(0);
  });

  it("freezes the timer at paused_at and leaves out breaks", () => {
    const startedMs = at("2026-08-14T20:00:00Z");
    const now = at("2026-08-14T21:00:00Z");
    expect(studiedMs({ startedMs, breakMinutes: 10, pausedMs: null }, now)).toBe(50 * MIN);
    expect(studiedMs({ startedMs, breakMinutes: 10, pausedMs: at("2026-08-14T20:30:00Z") }, now)).toBe(20 * MIN);
    expect(studiedMs({ startedMs, breakMinutes: 90, pausedMs: null }, now)).toBe(0);
  });
});

describe("a draft's honest-time fields", () => {
  const now = at("2026-08-14T21:00:00Z");
  const base = { started_at: "2026-08-14T20:00:00+00:00" };

  it("reads absent fields as not paused and no breaks, without warnings", () => {
    expect(readHonestFields(base, PATH, now, utc)).toEqual({
      pausedAt: null,
      pausedMs: null,
      breaks: [],
      breakMinutes: 0,
      warnings: [],
    });
    expect(readHonestFields({ ...base, paused_at: null, break_minutes: null }, PATH, now, utc).warnings).toEqual([]);
    expect(readHonestFields({ ...base, paused_at: "  " }, PATH, now, utc).pausedMs).toBeNull();
  });

  it("reads a valid pause and break", () => {
    const fields = {
      ...base,
      last_checkpoint_at: "2026-08-14T20:35:00+00:00",
      paused_at: "2026-08-14T20:40:00+00:00",
      breaks: ["2026-08-14T20:10:00+00:00/2026-08-14T20:15:00+00:00"],
      break_minutes: 5,
    };
    expect(readHonestFields(fields, PATH, now, utc)).toEqual({
      pausedAt: "2026-08-14T20:40:00+00:00",
      pausedMs: at("2026-08-14T20:40:00Z"),
      breaks: [{ fromMs: at("2026-08-14T20:10:00Z"), toMs: at("2026-08-14T20:15:00Z") }],
      breakMinutes: 5,
      warnings: [],
    });
  });

  it.each([
    ["garbage", "yesterday evening", /is not a valid ISO 8601 timestamp/],
    ["a number", 42, /is not a valid ISO 8601 timestamp/],
    ["in the future", "2026-08-14T23:00:00+00:00", /is in the future/],
    ["before the start", "2026-08-14T19:00:00+00:00", /is before the session's start/],
  ])("reports a paused_at that is %s, naming the file, and reads it as not paused", (_what, value, why) => {
    const result = readHonestFields({ ...base, paused_at: value }, PATH, now, utc);
    expect(result.pausedMs).toBeNull();
    expect(result.pausedAt).toBeNull();
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain(PATH);
    expect(result.warnings[0]).toMatch(why);
  });

  it("reads a paused_at less than a minute ahead (another device's clock) as now", () => {
    const result = readHonestFields({ ...base, paused_at: "2026-08-14T21:00:30+00:00" }, PATH, now, utc);
    expect(result.pausedMs).toBe(now);
    expect(result.warnings).toEqual([]);
  });

  it.each([[-5], [2.5], ["abc"], ["15"], [true], [["5"]]])("reports break_minutes %p and reads it as 0", (value) => {
    const result = readHonestFields({ ...base, break_minutes: value }, PATH, now, utc);
    expect(result.breakMinutes).toBe(0);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(new RegExp(`^${PATH}: break_minutes .* read as 0$`));
  });

  it("reads break_minutes of a confirmed note with the same rule", () => {
    expect(readBreakMinutes(12, "S.md")).toEqual({ breakMinutes: 12, warning: null });
    expect(readBreakMinutes(-1, "S.md").breakMinutes).toBe(0);
  });
});

describe("pause and continue", () => {
  const earlier = { fromMs: at("2026-08-14T20:10:00Z"), toMs: at("2026-08-14T20:14:00Z") };
  const running: HonestFields = { pausedAt: null, pausedMs: null, breaks: [earlier], breakMinutes: 4, warnings: [] };
  const pausedMs = at("2026-08-14T20:30:00Z");
  const paused: HonestFields = { ...running, pausedAt: "2026-08-14T20:30:00+00:00", pausedMs };

  it("records paused_at now, in the local offset", () => {
    expect(pauseUpdate(running, at("2026-08-14T20:30:00Z"), () => 120)).toEqual({
      paused_at: "2026-08-14T22:30:00+02:00",
    });
  });

  it("refuses to pause a paused session", () => {
    expect(expectRefusal(() => pauseUpdate(paused, pausedMs + MIN, utc), "already_paused").message).toContain("20:30");
  });

  it("adds the pause to the breaks, clears paused_at and checkpoints on continue", () => {
    const result = continueUpdate(paused, at("2026-08-14T20:47:00Z"), utc);
    expect(result.breakMinutes).toBe(21);
    expect(result.updates).toEqual({
      paused_at: null,
      breaks: [
        "2026-08-14T20:10:00+00:00/2026-08-14T20:14:00+00:00",
        "2026-08-14T20:30:00+00:00/2026-08-14T20:47:00+00:00",
      ],
      break_minutes: 21,
      last_checkpoint_at: "2026-08-14T20:47:00+00:00",
    });
  });

  it("refuses to continue a session that is not paused", () => {
    expectRefusal(() => continueUpdate(running, pausedMs, utc), "not_paused");
  });

  it("has a refusal for pausing or continuing with nothing open", () => {
    expect(nothingOpenError("pause").kind).toBe("nothing_open");
    expect(nothingOpenError("continue").exitCode).toBe(2);
  });
});

describe("times given as HH:MM", () => {
  const now = at("2026-08-14T09:00:00Z");

  it("is the most recent past moment with that wall-clock time", () => {
    expect(parseGivenTime("08:30", now, utc)).toBe(at("2026-08-14T08:30:00Z"));
    expect(parseGivenTime("09:00", now, utc)).toBe(now);
    expect(parseGivenTime("20:30", now, utc)).toBe(at("2026-08-13T20:30:00Z"));
    expect(parseGivenTime("7:05", now, utc)).toBe(at("2026-08-14T07:05:00Z"));
  });

  it("uses the local offset", () => {
    // 09:00Z is 14:30 at +05:30.
    expect(parseGivenTime("14:00", now, () => 330)).toBe(at("2026-08-14T08:30:00Z"));
    expect(parseGivenTime("15:00", now, () => 330)).toBe(at("2026-08-13T09:30:00Z"));
  });

  it.each(["25:99", "24:00", "12:60", "1230", "12:3", "noon", ""])("refuses %j", (text) => {
    expect(parseGivenTime(text, now, utc)).toBeNull();
  });

  it("accepts ISO 8601, local when it has no offset", () => {
    expect(parseGivenTime("2026-08-13T22:00:00Z", now, utc)).toBe(at("2026-08-13T22:00:00Z"));
    expect(parseGivenTime("2026-08-13T22:00", now, () => 120)).toBe(at("2026-08-13T20:00:00Z"));
  });

  describe("across a daylight-saving change (Europe/Berlin rules)", () => {
    it("takes yesterday's evening in yesterday's offset the morning after clocks go forward", () => {
      // 2026-03-29 08:00 CEST; yesterday 23:00 was CET (+01:00).
      expect(parseGivenTime("23:00", at("2026-03-29T06:00:00Z"), berlin)).toBe(at("2026-03-28T22:00:00Z"));
      expect(parseGivenTime("01:30", at("2026-03-29T06:00:00Z"), berlin)).toBe(at("2026-03-29T00:30:00Z"));
      expect(parseGivenTime("07:00", at("2026-03-29T06:00:00Z"), berlin)).toBe(at("2026-03-29T05:00:00Z"));
    });

    it("refuses a skipped wall time (02:30 on the day clocks go forward): the day before is a day off", () => {
      expect(thrown(() => mostRecentWallClock(2, 30, at("2026-03-29T10:00:00Z"), berlin)).kind).toBe("invalid_time");
    });

    it("takes the later past one of a wall time that happened twice (clocks go back)", () => {
      // 02:30 on 2026-10-25 is 00:30Z (CEST) and 01:30Z (CET).
      expect(mostRecentWallClock(2, 30, at("2026-10-25T10:00:00Z"), berlin)).toBe(at("2026-10-25T01:30:00Z"));
      expect(mostRecentWallClock(2, 30, at("2026-10-25T01:10:00Z"), berlin)).toBe(at("2026-10-25T00:30:00Z"));
    });

    it("takes yesterday's evening in yesterday's offset the morning after clocks go back", () => {
      expect(parseGivenTime("23:00", at("2026-10-25T07:00:00Z"), berlin)).toBe(at("2026-10-24T21:00:00Z"));
    });
  });
});

describe("when an ended session ended", () => {
  const startedMs = at("2026-08-13T20:00:00Z");
  const lastCheckpointMs = at("2026-08-13T20:30:00Z");
  const session: EndAtSession = { startedMs, lastCheckpointMs, pausedMs: null, breaks: [] };
  const fiveMinutes = [{ fromMs: at("2026-08-13T20:10:00Z"), toMs: at("2026-08-13T20:15:00Z") }];
  const morning = at("2026-08-14T09:00:00Z");
  const soon = at("2026-08-13T21:00:00Z");

  it("ends now by default when the session is alive", () => {
    expect(resolveEndAt(undefined, session, soon, GRACE, utc)).toEqual({
      endedMs: soon,
      breaks: [],
      breakMinutes: 0,
      durationMinutes: 60,
      source: "now",
      warnings: [],
    });
  });

  it("refuses with long_silence, naming both durations and the three answers, after a night of silence", () => {
    const error = expectRefusal(() => resolveEndAt(undefined, session, morning, GRACE, utc), "long_silence");
    expect(error).toBeInstanceOf(LongSilenceError);
    const silent = error as LongSilenceError;
    expect(silent.silenceMs).toBe(12.5 * HOUR);
    expect(silent.sessionMs).toBe(13 * HOUR);
    expect(silent.lastSignAt).toBe("2026-08-13T20:30:00+00:00");
    expect(silent.details).toEqual({
      silence_seconds: 45_000,
      session_seconds: 46_800,
      last_activity_at: "2026-08-13T20:30:00+00:00",
    });
    expect(silent.message).toContain("12 h 30 min");
    expect(silent.message).toContain("13 h");
    for (const answer of ["--at now", "--at last", "--at HH:MM"]) expect(silent.message).toContain(answer);
  });

  it("needs silence beyond both the grace period and 2 hours", () => {
    const justOver = lastCheckpointMs + LONG_SILENCE_MS + 1000;
    expectRefusal(() => resolveEndAt(undefined, session, justOver, GRACE, utc), "long_silence");
    expect(resolveEndAt(undefined, session, lastCheckpointMs + LONG_SILENCE_MS, GRACE, utc).source).toBe("now");
    expect(resolveEndAt(undefined, session, justOver, 3 * HOUR, utc).source).toBe("now");
  });

  it("answers the silence with now, last or a time", () => {
    expect(resolveEndAt(endTimeOf("now"), session, morning, GRACE, utc).durationMinutes).toBe(780);
    expect(resolveEndAt(endTimeOf("last"), session, morning, GRACE, utc)).toMatchObject({
      endedMs: lastCheckpointMs,
      durationMinutes: 30,
    });
    expect(resolveEndAt(endTimeOf("20:45"), session, morning, GRACE, utc)).toMatchObject({
      endedMs: at("2026-08-13T20:45:00Z"),
      durationMinutes: 45,
    });
    expect(resolveEndAt(endTimeOf("2026-08-13T21:10:00+00:00"), session, morning, GRACE, utc).durationMinutes).toBe(70);
    expect(resolveEndAt(endTimeOf(" LAST "), session, morning, GRACE, utc).source).toBe("last");
  });

  it("takes the start as the last sign of life when there is no checkpoint", () => {
    const unchecked = { ...session, lastCheckpointMs: null };
    expect(resolveEndAt(endTimeOf("last"), unchecked, morning, GRACE, utc)).toMatchObject({
      endedMs: startedMs,
      durationMinutes: 0,
    });
  });

  it("ends a paused session at paused_at, without the long-silence refusal", () => {
    const paused = { ...session, pausedMs: at("2026-08-13T20:40:00Z"), breaks: fiveMinutes };
    expect(resolveEndAt(undefined, paused, morning, GRACE, utc)).toEqual({
      endedMs: at("2026-08-13T20:40:00Z"),
      breaks: fiveMinutes,
      breakMinutes: 5,
      durationMinutes: 35,
      source: "paused",
      warnings: [],
    });
  });

  it("counts the pause as a break when a paused session is ended later on purpose", () => {
    const paused = { ...session, pausedMs: at("2026-08-13T20:40:00Z"), breaks: fiveMinutes };
    expect(resolveEndAt(endTimeOf("now"), paused, soon, GRACE, utc)).toMatchObject({
      breakMinutes: 25,
      durationMinutes: 35,
    });
    expect(resolveEndAt(endTimeOf("20:35"), paused, soon, GRACE, utc)).toMatchObject({
      breakMinutes: 5,
      durationMinutes: 30,
    });
  });

  it.each([
    ["25:99", /"25:99" is not a time/],
    ["soon", /"soon" is not a time/],
    ["2026-08-13T19:00:00Z", /is before the session started/],
    ["19:59", /is before the session started/],
    ["2026-08-14T09:05:00Z", /is in the future/],
  ])("refuses --at %s with invalid_time", (given, why) => {
    expect(
      expectRefusal(() => resolveEndAt(endTimeOf(given), session, morning, GRACE, utc), "invalid_time").message,
    ).toMatch(why);
  });

  it("clamps a time less than a minute ahead to now", () => {
    expect(resolveEndAt(endTimeOf("2026-08-14T09:00:40Z"), session, morning, GRACE, utc).endedMs).toBe(morning);
  });

  it("saves an interrupted draft at its last checkpoint, or at paused_at when paused", () => {
    expect(savedEnd(session, morning)).toMatchObject({ endedMs: lastCheckpointMs, durationMinutes: 30 });
    expect(savedEnd({ ...session, lastCheckpointMs: null }, morning)).toMatchObject({ endedMs: morning });
    const paused = { ...session, pausedMs: at("2026-08-13T20:10:00Z"), lastCheckpointMs: at("2026-08-13T20:50:00Z") };
    expect(savedEnd(paused, morning)).toMatchObject({
      endedMs: at("2026-08-13T20:10:00Z"),
      durationMinutes: 10,
      source: "paused",
    });
  });

  it("describes the silence for the end dialog and preselects the last activity after the grace period", () => {
    expect(silenceOf(session, morning, utc)).toEqual({
      lastSignMs: lastCheckpointMs,
      silenceMs: 12.5 * HOUR,
      text: "No activity since 2026-08-13 20:30, 12 h 30 min ago",
    });
    expect(silenceOf(session, lastCheckpointMs + 5 * MIN, utc).text).toBe("No activity since 20:30, 5 min ago");
    expect(preselectedEnd(session, morning, GRACE)).toBe("last");
    expect(preselectedEnd(session, lastCheckpointMs + GRACE, GRACE)).toBe("now");
    expect(preselectedEnd({ ...session, pausedMs: lastCheckpointMs }, morning, GRACE)).toBe("paused");
  });

  it("never yields a negative duration, whatever it is given", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 * 24 * 60 }),
        fc.option(fc.integer({ min: -600, max: 10 * 24 * 60 })),
        fc.option(fc.integer({ min: -600, max: 10 * 24 * 60 })),
        fc.tuple(fc.integer({ min: -600, max: 10 * 24 * 60 }), fc.integer({ min: 0, max: 100_000 })),
        fc.oneof(
          fc.constant(undefined),
          fc.constantFrom("now", "last", "25:99"),
          fc
            .integer({ min: 0, max: 23 * 60 + 59 })
            .map((m) => `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}`),
        ),
        (ageMinutes, checkpointAfter, pausedAfter, [breakAfter, breakLength], given) => {
          const now = at("2026-08-14T09:00:00Z");
          const start = now - ageMinutes * MIN;
          const s: EndAtSession = {
            startedMs: start,
            lastCheckpointMs: checkpointAfter === null ? null : start + checkpointAfter * MIN,
            pausedMs:
              pausedAfter === null || start + pausedAfter * MIN > now
                ? null
                : Math.max(start, start + pausedAfter * MIN),
            breaks: [{ fromMs: start + breakAfter * MIN, toMs: start + (breakAfter + breakLength) * MIN }],
          };
          try {
            const end = resolveEndAt(given === undefined ? undefined : endTimeOf(given), s, now, GRACE, berlin);
            const span = Math.round((end.endedMs - start) / MIN);
            expect(end.durationMinutes).toBeGreaterThanOrEqual(0);
            expect(end.endedMs).toBeGreaterThanOrEqual(start);
            expect(end.endedMs).toBeLessThanOrEqual(now);
            // Only breaks inside the span count, never more than the span (contract §2, version 3).
            expect(end.breakMinutes).toBeLessThanOrEqual(span);
            expect(end.durationMinutes + end.breakMinutes).toBe(span);
            for (const b of end.breaks) {
              expect(b.fromMs).toBeGreaterThanOrEqual(start);
              expect(b.toMs).toBeLessThanOrEqual(end.endedMs);
            }
          } catch (error) {
            expect(["invalid_time", "long_silence"]).toContain((error as PaleeError).kind);
          }
        },
      ),
    );
  });
});

describe("time away", () => {
  const last = at("2026-08-13T21:10:00Z");
  const now = at("2026-08-14T05:05:00Z");

  it("records a gap longer than the grace period as a break", () => {
    expect(timeAway(last, now, GRACE)).toEqual({ fromMs: last, toMs: now, minutes: 475 });
  });

  it("records nothing for a short gap, a paused session or a sign of life ahead of now", () => {
    expect(timeAway(last, last + GRACE, GRACE)).toBeNull();
    expect(timeAway(last, now, GRACE, true)).toBeNull();
    expect(timeAway(now + HOUR, now, GRACE)).toBeNull();
  });

  it("says when it was away in local time", () => {
    const away = timeAway(last, now, GRACE);
    expect(away && awayNotice(away, () => 120)).toBe("Away 23:10–07:05, not counted");
  });

  it("names the days of an absence of a day or more", () => {
    expect(awayNotice({ fromMs: last, toMs: last + 50 * HOUR, minutes: 3000 }, utc)).toBe(
      "Away 2026-08-13 21:10–2026-08-15 23:10, not counted",
    );
  });

  const pause = { fromMs: at("2026-08-13T20:00:00Z"), toMs: at("2026-08-13T20:10:00Z") };
  const current: HonestFields = { pausedAt: null, pausedMs: null, breaks: [pause], breakMinutes: 10, warnings: [] };
  const away = { fromMs: last, toMs: now, minutes: 475 };

  it("appends the break to breaks and checkpoints, in one change", () => {
    expect(awayUpdate(current, away, utc)).toEqual({
      breaks: [
        "2026-08-13T20:00:00+00:00/2026-08-13T20:10:00+00:00",
        "2026-08-13T21:10:00+00:00/2026-08-14T05:05:00+00:00",
      ],
      break_minutes: 485,
      // Version 4: time away is also listed apart from pauses, so --count-away can tell them apart.
      away: ["2026-08-13T21:10:00+00:00/2026-08-14T05:05:00+00:00"],
      last_checkpoint_at: "2026-08-14T05:05:00+00:00",
    });
  });

  it("counting it back removes that interval only", () => {
    const recorded = { ...current, breaks: [pause, away], breakMinutes: 485 };
    expect(countBackUpdate(recorded, away, utc)).toEqual({
      updates: { breaks: ["2026-08-13T20:00:00+00:00/2026-08-13T20:10:00+00:00"], break_minutes: 10 },
      breakMinutes: 10,
      countedMinutes: 475,
    });
    expect(countBackUpdate(current, away, utc)).toMatchObject({ breakMinutes: 10, countedMinutes: 0 });
    expect(countBackUpdate(recorded, pause, utc).updates).toEqual({
      breaks: ["2026-08-13T21:10:00+00:00/2026-08-14T05:05:00+00:00"],
      break_minutes: 475,
    });
  });

  it("writes its ends to the second, so the break reads back with the minutes announced", () => {
    const ticked = timeAway(last + 999, last + 20 * MIN + 30_400, GRACE);
    expect(ticked).toEqual({ fromMs: last, toMs: last + 20 * MIN + 30_000, minutes: 21 });
  });
});

describe("a logged session's interval", () => {
  const now = at("2026-08-14T18:00:00Z");
  const confirmed = [
    { id: "S-20260814T100000-abcd", startMs: at("2026-08-14T10:00:00Z"), endMs: at("2026-08-14T11:00:00Z") },
  ];

  it("takes --from and --to", () => {
    expect(resolveLogInterval({ from: "12:00", to: "13:30" }, confirmed, now, utc)).toEqual({
      startMs: at("2026-08-14T12:00:00Z"),
      endMs: at("2026-08-14T13:30:00Z"),
      durationMinutes: 90,
      when: "today 12:00–13:30",
    });
  });

  it("takes --minutes ending at --to, or now", () => {
    expect(resolveLogInterval({ minutes: "45", to: "13:00" }, [], now, utc)).toMatchObject({
      startMs: at("2026-08-14T12:15:00Z"),
      durationMinutes: 45,
    });
    expect(resolveLogInterval({ minutes: 30 }, [], now, utc)).toMatchObject({ startMs: now - 30 * MIN, endMs: now });
  });

  it("reads an HH:MM start as the latest one before the end, so a session may cross midnight", () => {
    expect(resolveLogInterval({ from: "23:30", to: "00:30" }, [], now, utc)).toMatchObject({
      startMs: at("2026-08-13T23:30:00Z"),
      durationMinutes: 60,
    });
  });

  it.each([["-5"], ["abc"], ["1.5"], [-5]])("refuses --minutes %p", (minutes) => {
    expect(expectRefusal(() => resolveLogInterval({ minutes }, [], now, utc), "usage").message).toMatch(
      /--minutes .* is not a whole number/,
    );
  });

  it.each([["0"], ["1441"], [100000]])("refuses --minutes %p as out of range", (minutes) => {
    expect(expectRefusal(() => resolveLogInterval({ minutes }, [], now, utc), "invalid_time").message).toMatch(
      /^--minutes \d+ is out of range: a logged session lasts from 1 to 1440 minutes$/,
    );
  });

  it("refuses --from after --to", () => {
    const message = expectRefusal(
      () => resolveLogInterval({ from: "2026-08-14T14:00:00Z", to: "2026-08-14T13:00:00Z" }, [], now, utc),
      "invalid_time",
    ).message;
    expect(message).toBe("--from 14:00 starts after it ends (--to 13:00)");
  });

  it("refuses a session that ends in the future", () => {
    expectRefusal(
      () => resolveLogInterval({ from: "17:00", to: "2026-08-14T19:00:00Z" }, [], now, utc),
      "invalid_time",
    );
  });

  it("refuses an unreadable time", () => {
    expectRefusal(() => resolveLogInterval({ from: "25:99", to: "13:00" }, [], now, utc), "invalid_time");
  });

  it("refuses missing or doubled ways of saying when", () => {
    expectRefusal(() => resolveLogInterval({}, [], now, utc), "usage");
    expectRefusal(() => resolveLogInterval({ from: "12:00", minutes: "30" }, [], now, utc), "usage");
  });

  it("refuses an overlap of more than a minute with a confirmed session, naming it", () => {
    const error = expectRefusal(
      () => resolveLogInterval({ from: "10:30", to: "12:00" }, confirmed, now, utc),
      "overlap",
    );
    expect(error).toBeInstanceOf(OverlapError);
    expect((error as OverlapError).sessionId).toBe("S-20260814T100000-abcd");
    expect(error.message).toBe("10:30–12:00 overlaps S-20260814T100000-abcd (10:00–11:00) by 30 min");
  });

  it("refuses an overlap with the open session", () => {
    const open = { id: "DRAFT-S-0000abcd", startMs: at("2026-08-14T17:30:00Z"), endMs: now };
    expect((thrown(() => resolveLogInterval({ minutes: 60 }, [open], now, utc)) as OverlapError).sessionId).toBe(
      "DRAFT-S-0000abcd",
    );
  });

  it("accepts a minute of overlap with a neighbour", () => {
    expect(resolveLogInterval({ from: "10:59", to: "12:00" }, confirmed, now, utc).durationMinutes).toBe(61);
  });
});

describe("words", () => {
  it("says spans in hours and minutes", () => {
    expect(formatDurationMs(45 * MIN + 59_000)).toBe("45 min");
    expect(formatDurationMs(13 * HOUR)).toBe("13 h");
    expect(formatDurationMs(12 * HOUR + 30 * MIN)).toBe("12 h 30 min");
    expect(formatDurationMs(-5)).toBe("0 min");
  });
});

describe("properties", () => {
  it("studied minutes are never negative and never more than the wall-clock minutes", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2e12 }),
        fc.integer({ min: -1e9, max: 1e10 }),
        fc.nat(100_000),
        (start, length, breaks) => {
          const minutes = studiedMinutes(start, start + length, breaks);
          expect(minutes).toBeGreaterThanOrEqual(0);
          expect(minutes).toBeLessThanOrEqual(Math.max(0, Math.round(length / MIN)));
        },
      ),
    );
  });

  it("recording time away and counting it back leaves the breaks as they were", () => {
    fc.assert(
      fc.property(
        fc.nat(100_000),
        fc.integer({ min: 0, max: 2e12 }),
        fc.integer({ min: 1, max: 1e9 }),
        (pauseMinutes, last, gap) => {
          const pause = { fromMs: toSecond(last) - (pauseMinutes + 1) * MIN, toMs: toSecond(last) - MIN };
          const current: HonestFields = {
            pausedAt: null,
            pausedMs: null,
            breaks: [pause],
            breakMinutes: pauseMinutes,
            warnings: [],
          };
          const away = timeAway(last, last + GRACE + gap, GRACE);
          expect(away).not.toBeNull();
          if (away === null) return;
          const recorded = readHonestFields({ ...awayUpdate(current, away, utc) }, PATH, Infinity, utc);
          expect(recorded.breakMinutes).toBe(pauseMinutes + away.minutes);
          const back = countBackUpdate(recorded, away, utc);
          expect(back.breakMinutes).toBe(pauseMinutes);
          expect(back.countedMinutes).toBe(away.minutes);
        },
      ),
    );
  });
});
