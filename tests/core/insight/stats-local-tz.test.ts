// A real time zone's offsets from the tz database (Intl), not hand-written ones. (Jest workers keep TZ=UTC;
// the CLI suite runs the built CLI under TZ=America/New_York for the system clock.)
import { computeStats } from "../../../src/core/insight/stats";
import type { InsightSession } from "../../../src/core/insight/stats";
import { parseTimestamp } from "../../../src/core/time";

function session(id: string, startedAt: string, minutes: number): InsightSession {
  const startedMs = parseTimestamp(startedAt) as number;
  return {
    sessionId: id,
    path: `palee/sessions/${id}.md`,
    topicId: "T-x",
    startedAt,
    startedMs,
    endedAt: new Date(startedMs + minutes * 60_000).toISOString(),
    durationMinutes: minutes,
    outcome: "completed",
    topicNote: null,
  };
}

describe("stats in New York, across the end of daylight saving (2026-11-01)", () => {
  it("puts late-evening sessions on the local day, before and after the change", () => {
    const offsetAt = zoneOffset("America/New_York");
    expect(offsetAt(Date.parse("2026-10-31T12:00:00Z"))).toBe(-240);
    expect(offsetAt(Date.parse("2026-11-02T12:00:00Z"))).toBe(-300);
    const stats = computeStats(
      [
        session("S-a", "2026-11-01T03:30:00Z", 30), // 23:30 EDT on 31 Oct
        session("S-b", "2026-11-02T04:30:00Z", 30), // 23:30 EST on 1 Nov
        session("S-c", "2026-11-02T05:30:00Z", 30), // 00:30 EST on 2 Nov
      ],
      { now: Date.parse("2026-11-02T15:00:00Z"), offsetAt },
    );
    expect(stats.byDay.map((d) => d.date)).toEqual(["2026-10-31", "2026-11-01", "2026-11-02"]);
    expect(stats.streak).toEqual({ current: 3, longest: 3 });
    expect(stats.thisWeek.start).toBe("2026-11-02");
    expect(stats.lastWeek.minutes).toBe(60);
  });
});

function zoneOffset(timeZone: string): (at: number) => number {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
  });
  return (at) => {
    const p = Object.fromEntries(format.formatToParts(new Date(at)).map((x) => [x.type, Number(x.value)]));
    const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
    return Math.round((wall - Math.floor(at / 60_000) * 60_000) / 60_000);
  };
}
