import { computeStats, countedMinutes, daySeries, statsMemo, weekSeries } from "../../../src/core/insight/stats";
import type { InsightSession } from "../../../src/core/insight/stats";
import type { OffsetAt } from "../../../src/core/time";
import { dayOf, isoWeekLabel, mondayOf, parseTimestamp } from "../../../src/core/time";

/** Central European time: +60, +120 from 2026-03-29 01:00 UTC to 2026-10-25 01:00 UTC. */
const berlin: OffsetAt = (at) =>
  at >= Date.parse("2026-03-29T01:00:00Z") && at < Date.parse("2026-10-25T01:00:00Z") ? 120 : 60;
const utc: OffsetAt = () => 0;

let n = 0;
function session(startedAt: string, minutes: number, extra: Partial<InsightSession> = {}): InsightSession {
  const startedMs = parseTimestamp(startedAt) as number;
  const id = `S-${String(++n).padStart(4, "0")}`;
  return {
    sessionId: id,
    path: `palee/sessions/${id}.md`,
    topicId: "T-rust",
    startedAt,
    startedMs,
    endedAt: new Date(startedMs + minutes * 60_000).toISOString(),
    durationMinutes: minutes,
    outcome: "completed",
    topicNote: null,
    ...extra,
  };
}

describe("stats", () => {
  const now = Date.parse("2026-12-02T18:00:00Z"); // a Wednesday

  it("totals today, this ISO week (Monday first) and the week before", () => {
    const stats = computeStats(
      [
        session("2026-12-02T09:00:00Z", 30), // today
        session("2026-11-30T09:00:00Z", 20), // Monday: this week
        session("2026-11-29T09:00:00Z", 15), // Sunday: last week
        session("2026-11-23T09:00:00Z", 10), // Monday of last week
        session("2026-11-22T09:00:00Z", 5), // the week before
      ],
      { now, offsetAt: utc },
    );
    expect(stats.today).toEqual({ date: "2026-12-02", minutes: 30, sessions: 1 });
    expect(stats.thisWeek).toEqual({ week: "2026-W49", start: "2026-11-30", minutes: 50, sessions: 2 });
    expect(stats.lastWeek).toEqual({ week: "2026-W48", start: "2026-11-23", minutes: 25, sessions: 2 });
    expect(stats.total).toEqual({ minutes: 80, sessions: 5 });
    expect(stats.byWeek.map((w) => w.week)).toEqual(["2026-W47", "2026-W48", "2026-W49"]);
  });

  it("counts a session that crosses midnight on the day it started", () => {
    const stats = computeStats([session("2026-12-01T23:30:00Z", 90)], { now, offsetAt: utc });
    expect(stats.byDay).toEqual([{ date: "2026-12-01", minutes: 90, sessions: 1 }]);
    expect(stats.today.minutes).toBe(0);
  });

  it("uses the local day, across a daylight-saving change", () => {
    // 23:30 UTC on 28 March is 00:30 on the 29th in Berlin (+60); 22:30 UTC on the 29th is 00:30 on the 30th (+120).
    const at = Date.parse("2026-04-01T12:00:00Z"); // a whole day (31 March) without study since
    const stats = computeStats([session("2026-03-28T23:30:00Z", 30), session("2026-03-29T22:30:00Z", 40)], {
      now: at,
      offsetAt: berlin,
    });
    expect(stats.byDay.map((d) => d.date)).toEqual(["2026-03-29", "2026-03-30"]);
    expect(stats.streak).toEqual({ current: 0, longest: 2 });
    const later = computeStats([session("2026-03-28T23:30:00Z", 30), session("2026-03-29T22:30:00Z", 40)], {
      now: Date.parse("2026-03-30T20:00:00Z"),
      offsetAt: berlin,
    });
    expect(later.today).toEqual({ date: "2026-03-30", minutes: 40, sessions: 1 });
    expect(later.streak.current).toBe(2);
  });

  it("keeps a current streak alive through today until a whole day passes without study", () => {
    const days = ["2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01"].map((d) => session(`${d}T08:00:00Z`, 10));
    expect(computeStats(days, { now, offsetAt: utc }).streak).toEqual({ current: 4, longest: 4 });
    const gap = computeStats(days, { now: Date.parse("2026-12-03T08:00:00Z"), offsetAt: utc });
    expect(gap.streak).toEqual({ current: 0, longest: 4 });
    const withOld = computeStats([...days, session("2026-10-01T08:00:00Z", 5)], { now, offsetAt: utc });
    expect(withOld.streak.longest).toBe(4);
  });

  it("totals each topic with its first and last day and the newest topic note", () => {
    const stats = computeStats(
      [
        session("2026-11-01T08:00:00Z", 10, { topicId: "T-go", topicNote: "[[Go]]" }),
        session("2026-11-20T08:00:00Z", 30, { topicId: "T-rust" }),
        session("2026-11-25T08:00:00Z", 30, { topicId: "T-go", topicNote: "[[Go lang]]" }),
      ],
      { now, offsetAt: utc },
    );
    expect(stats.byTopic).toEqual([
      { topicId: "T-go", minutes: 40, sessions: 2, first: "2026-11-01", last: "2026-11-25", topicNote: "[[Go lang]]" },
      { topicId: "T-rust", minutes: 30, sessions: 1, first: "2026-11-20", last: "2026-11-20", topicNote: null },
    ]);
  });

  it("counts only the sessions of the --since/--until days", () => {
    const all = [
      session("2026-11-01T08:00:00Z", 10),
      session("2026-11-15T08:00:00Z", 20),
      session("2026-11-30T08:00:00Z", 30),
    ];
    const stats = computeStats(all, { now, offsetAt: utc, since: "2026-11-15", until: "2026-11-30" });
    expect(stats.total).toEqual({ minutes: 50, sessions: 2 });
  });

  it("gives dense day and week series for a chart, zeros included", () => {
    const stats = computeStats([session("2026-12-01T08:00:00Z", 25)], { now, offsetAt: utc });
    const days = daySeries(stats, "2026-12-02", 14);
    expect(days).toHaveLength(14);
    expect(days[0].date).toBe("2026-11-19");
    expect(days[12]).toEqual({ date: "2026-12-01", minutes: 25, sessions: 1 });
    const weeks = weekSeries(stats, "2026-12-02", 12);
    expect(weeks).toHaveLength(12);
    expect(weeks[11]).toMatchObject({ week: "2026-W49", minutes: 25 });
    expect(weeks[0].start).toBe("2026-09-14");
  });

  it("names ISO weeks at year boundaries", () => {
    expect(isoWeekLabel(mondayOf(dayOf("2027-01-01") as number))).toBe("2026-W53");
    expect(isoWeekLabel(mondayOf(dayOf("2025-12-29") as number))).toBe("2026-W01");
    expect(dayOf("2026-02-30")).toBeNull();
  });
});

describe("stats on absurd records", () => {
  const now = Date.parse("2026-12-02T18:00:00Z");

  it("cuts a duration longer than its start-to-end span, and lists it", () => {
    const s = session("2026-12-01T08:00:00Z", 45, { durationMinutes: 99_999_999 });
    const stats = computeStats([s], { now, offsetAt: utc });
    expect(stats.total.minutes).toBe(45);
    expect(stats.flagged).toEqual([
      expect.objectContaining({ sessionId: s.sessionId, countedMinutes: 45, counted: true }),
    ]);
    expect(stats.flagged[0].problem).toMatch(/duration_minutes 99999999 is longer/);
  });

  it("caps a session at a day when its end is before its start", () => {
    const s = session("2026-12-01T08:00:00Z", 0, { endedAt: "2026-11-30T08:00:00Z", durationMinutes: 5000 });
    const stats = computeStats([s], { now, offsetAt: utc });
    expect(stats.total.minutes).toBe(1440);
    expect(stats.flagged[0].problem).toMatch(/ended_at .* is before started_at/);
  });

  it("leaves out sessions that start in 2099 or 1970, and says so", () => {
    const stats = computeStats(
      [session("2099-01-01T08:00:00Z", 30), session("1970-01-01T00:00:00Z", 30), session("2026-12-01T08:00:00Z", 10)],
      { now, offsetAt: utc },
    );
    expect(stats.total).toEqual({ minutes: 10, sessions: 1 });
    expect(stats.flagged.map((f) => f.counted)).toEqual([false, false]);
    expect(stats.byDay.map((d) => d.date)).toEqual(["2026-12-01"]);
  });

  it("treats a negative or non-numeric duration as zero, never as NaN", () => {
    expect(countedMinutes(session("2026-12-01T08:00:00Z", 10, { durationMinutes: -50 }), now, utc).minutes).toBe(0);
    expect(countedMinutes(session("2026-12-01T08:00:00Z", 10, { durationMinutes: Number.NaN }), now, utc).minutes).toBe(
      0,
    );
  });
});

describe("stats with a memo (the history view recounting after each end)", () => {
  it("counts exactly as without one, as time passes, sessions come and the offsets change", () => {
    const memo = statsMemo();
    const sessions = [
      session("2026-12-02T09:00:00Z", 30),
      session("2026-12-02T19:00:00Z", 25), // after the first "now": not counted until later
      session("2026-11-30T23:30:00+01:00", 90_000), // longer than a day: flagged
      session("2026-07-01T22:30:00", 40), // a local time: its day depends on the offset
      session("1999-12-31T09:00:00Z", 10), // before 2000: not counted
    ];
    const nows = [Date.parse("2026-12-02T18:00:00Z"), Date.parse("2026-12-03T08:00:00Z")];
    for (const offsetAt of [utc, berlin, berlin, utc]) {
      for (const at of nows) {
        const list = at === nows[1] ? [session("2026-12-03T07:00:00Z", 15), ...sessions] : sessions;
        expect(computeStats(list, { now: at, offsetAt, memo })).toEqual(computeStats(list, { now: at, offsetAt }));
      }
    }
  });
});
