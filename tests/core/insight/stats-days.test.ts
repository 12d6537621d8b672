/**
 * contract §4a "the day it started": stats, streaks, the chart's series and --since/--until use the day
 * recorded in a session's own offset (sessionDay), not the viewer's zone; and over a range, only the periods
 * inside it are answers (periodsInRange).
 */
import type { InsightSession } from "../../../src/core/insight/stats";
import { computeStats, daySeries, inRange, periodsInRange } from "../../../src/core/insight/stats";
import type { OffsetAt } from "../../../src/core/time";
import { parseTimestamp } from "../../../src/core/time";

let n = 0;
function session(startedAt: string, minutes: number): InsightSession {
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
  };
}

const newYork: OffsetAt = () => -300;
const tokyo: OffsetAt = () => 540;
const utc: OffsetAt = () => 0;

describe("the day of a session is the one recorded in its own offset", () => {
  // 23:30 in India on 1 Dec is 13:00 in New York and 03:00 on 2 Dec in Tokyo; 00:30 on 3 Dec in India is
  // 19:00 UTC on the 2nd.
  const sessions = [session("2026-12-01T23:30:00+05:30", 60), session("2026-12-03T00:30:00+05:30", 30)];
  const now = Date.parse("2026-12-03T12:00:00Z");

  it.each([
    ["New York", newYork],
    ["Tokyo", tokyo],
    ["UTC", utc],
  ])("in %s: by day, by topic, weeks and the series", (_zone, offsetAt) => {
    const stats = computeStats(sessions, { now, offsetAt });
    expect(stats.byDay).toEqual([
      { date: "2026-12-01", minutes: 60, sessions: 1 },
      { date: "2026-12-03", minutes: 30, sessions: 1 },
    ]);
    expect(stats.byTopic[0]).toMatchObject({ first: "2026-12-01", last: "2026-12-03" });
    expect(daySeries(stats, "2026-12-03", 3).map((d) => d.minutes)).toEqual([60, 0, 30]);
    expect(stats.streak.longest).toBe(1);
  });

  it("in --since/--until, for stats and for export's filter alike", () => {
    for (const offsetAt of [newYork, tokyo, utc]) {
      expect(computeStats(sessions, { now, offsetAt, since: "2026-12-02", until: "2026-12-02" }).total.sessions).toBe(
        0,
      );
      expect(computeStats(sessions, { now, offsetAt, until: "2026-12-01" }).total.minutes).toBe(60);
      expect(sessions.map((s) => inRange(s, offsetAt, "2026-12-02", null))).toEqual([false, true]);
    }
  });

  it("streaks count consecutive recorded days", () => {
    const streak = [session("2026-12-01T23:30:00+05:30", 10), session("2026-12-02T23:40:00+05:30", 10)];
    // Recorded on the 1st and the 2nd; by Tokyo's clock they would be the 2nd and the 3rd (03:00 and 03:10),
    // which would keep the streak alive on the 4th.
    expect(computeStats(streak, { now, offsetAt: tokyo }).streak).toEqual({ current: 2, longest: 2 });
    expect(computeStats(streak, { now: Date.parse("2026-12-04T12:00:00Z"), offsetAt: tokyo }).streak.current).toBe(0);
  });
});

describe("periods over a --since/--until range", () => {
  const now = Date.parse("2026-12-02T18:00:00Z"); // Wednesday of 2026-W49 (Monday 2026-11-30)
  const sessions = [
    session("2026-11-24T08:00:00+00:00", 10),
    session("2026-12-01T08:00:00+00:00", 20),
    session("2026-12-02T08:00:00+00:00", 30),
  ];
  const shows = (since: string | null, until: string | null) =>
    periodsInRange(computeStats(sessions, { now, offsetAt: utc, since, until }), { since, until }, 14);

  it("shows everything without a range, the chart ending today", () => {
    expect(shows(null, null)).toEqual({
      today: true,
      thisWeek: true,
      lastWeek: true,
      currentStreak: true,
      days: { last: "2026-12-02", count: 14 },
    });
  });

  it("leaves out every period of a range in the past, and charts the range's own days", () => {
    expect(shows("2026-11-01", "2026-11-25")).toEqual({
      today: false,
      thisWeek: false,
      lastWeek: false,
      currentStreak: false,
      days: { last: "2026-11-25", count: 14 },
    });
    expect(shows("2026-11-20", "2026-11-25").days).toEqual({ last: "2026-11-25", count: 6 });
  });

  it("shows a period that lies inside the range up to today", () => {
    expect(shows("2026-11-30", null)).toMatchObject({ today: true, thisWeek: true, lastWeek: false });
    expect(shows("2026-11-23", "2026-12-02")).toMatchObject({ today: true, thisWeek: true, lastWeek: true });
    expect(shows("2026-12-01", null)).toMatchObject({ today: true, thisWeek: false, days: { count: 2 } });
    expect(shows("2026-11-23", "2026-11-29")).toMatchObject({ today: false, thisWeek: false, lastWeek: true });
  });

  it("shows the current streak only when the range holds every day it looked at", () => {
    // The streak (1 and 2 December) looked back to 30 November, the first day without a session.
    expect(shows("2026-11-30", null).currentStreak).toBe(true);
    expect(shows("2026-12-01", null).currentStreak).toBe(false);
    expect(shows(null, "2026-12-01").currentStreak).toBe(false);
  });

  it("has no chart days for a range that has not begun", () => {
    expect(shows("2026-12-10", null).days.count).toBe(0);
  });
});
