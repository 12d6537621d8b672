import fc from "fast-check";
import { levelOf, weekStreak, weeksToAsOf, yearJson, yearView } from "../../../src/core/goals";
import { dayOf, dayText } from "../../../src/core/time";
import type { OffsetAt } from "../../../src/core/time";
import { logOf, on, plan, session } from "./builders";

describe("levels against the daily target (example 13)", () => {
  it("gives 43 min a day for 300 a week: 20 → 1, 30 → 2, 43 → 3, 86 → 4, 0 → 0", () => {
    const p = plan({ goals: [{ from: "2026-07-06", minutes_per_week: 300 }] });
    const sessions = [on("2026-07-06", 20), on("2026-07-07", 30), on("2026-07-08", 43), on("2026-07-09", 86)];
    const doc = yearJson(yearView(p, logOf(sessions, "2026-07-10", p)));
    expect(doc.daily_target).toBe(43);
    const days = doc.days.filter((d) => d.date >= "2026-07-06" && d.date <= "2026-07-12");
    expect(days.map((d) => [d.date, d.minutes, d.level, d.state])).toEqual([
      ["2026-07-06", 20, 1, "studied"],
      ["2026-07-07", 30, 2, "studied"],
      ["2026-07-08", 43, 3, "studied"],
      ["2026-07-09", 86, 4, "studied"],
      ["2026-07-10", 0, 0, "pending"],
      ["2026-07-11", 0, 0, "future"],
      ["2026-07-12", 0, 0, "future"],
    ]);
    expect([levelOf(21, 43), levelOf(42, 43), levelOf(85, 43)]).toEqual([1, 2, 3]);
  });

  it("uses 30 min a day in weeks whose goal has no minutes", () => {
    const p = plan({ goals: [{ from: "2026-07-06", sessions_per_week: 3 }] });
    const doc = yearJson(yearView(p, logOf([on("2026-07-06", 15)], "2026-07-06", p)));
    expect(doc.daily_target).toBe(30);
    expect(doc.days.find((d) => d.date === "2026-07-06")?.level).toBe(2);
  });
});

describe("the year view's shape", () => {
  it("covers the 53 weeks ending with as-of's week, Monday to Sunday", () => {
    const p = plan({});
    const doc = yearJson(yearView(p, logOf([on("2026-01-05", 30), on("2026-08-12", 30)], "2026-08-12", p)));
    expect([doc.as_of, doc.from, doc.to]).toEqual(["2026-08-12", "2025-08-11", "2026-08-16"]);
    expect(doc.days).toHaveLength(371);
    expect(doc.weeks).toHaveLength(53);
    expect(doc.days[0]).toEqual({ date: "2025-08-11", minutes: 0, sessions: 0, level: 0, state: "before_start" });
    expect(doc.weeks[0].status).toBe("before_start");
    expect(doc.study_days).toEqual({ last_30: 1, last_365: 2 });
    expect(doc.weeks_judged).toBe(doc.weeks.filter((w) => w.status === "met" || w.status === "missed").length);
    expect([doc.weeks_met, doc.weeks_judged]).toEqual([2, 32]);
  });

  it("has a week for every Monday and a day for every date (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), (offset) => {
        const asOf = dayText((dayOf("2024-01-01") as number) + offset);
        const p = plan({});
        const view = yearView(p, logOf([on("2024-01-01", 30)], asOf, p));
        expect(view.days.map((d) => d.day)).toEqual(Array.from({ length: 371 }, (_, i) => view.from + i));
        expect(new Date(`${dayText(view.from)}T00:00:00Z`).getUTCDay()).toBe(1);
        expect(view.days.filter((d) => d.state === "future").length).toBe(view.to - view.asOf);
      }),
      { numRuns: 50 },
    );
  });
});

/** Offsets of a real zone from the tz database (Intl); Jest workers run with TZ=UTC. */
function zoneOffset(timeZone: string): OffsetAt {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
  return (instant) => {
    const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((x) => [x.type, x.value]));
    const wall = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
    return Math.round((wall - Math.floor(instant / 1000) * 1000) / 60_000);
  };
}

describe("weeks in New York, across the end of daylight saving (Sunday 2026-11-01)", () => {
  const newYork = zoneOffset("America/New_York");

  it("puts sessions at 23:30 local on their own day and keeps the week 7 days long", () => {
    // The original tool's UTC times: the local day comes from the zone, before and after the change.
    const sessions = [
      session("2026-10-27T03:30:00Z", 100), // 23:30 EDT, Mon 26 Oct
      session("2026-11-02T04:30:00Z", 100), // 23:30 EST, Sun 1 Nov
      session("2026-11-02T05:30:00Z", 100), // 00:30 EST, Mon 2 Nov
    ];
    const p = plan({ goals: [{ from: "2026-10-26", minutes_per_week: 200 }], freezes_per_month: 0 });
    const log = logOf(sessions, "2026-11-03", p, newYork);
    expect([...log.days.keys()].sort().map(dayText)).toEqual(["2026-10-26", "2026-11-01", "2026-11-02"]);
    const weeks = weeksToAsOf(p, log);
    expect(weeks.map((w) => [dayText(w.monday), w.minutes, w.targetMinutes, w.status])).toEqual([
      ["2026-10-26", 200, 200, "met"],
      ["2026-11-02", 100, 200, "in_progress"],
    ]);
    expect(weekStreak(weeks)).toEqual({ current: 1, longest: 1 });
    const doc = yearJson(yearView(p, log));
    expect(doc.days.filter((d) => d.date >= "2026-10-31" && d.date <= "2026-11-03").map((d) => d.state)).toEqual([
      "missed",
      "studied",
      "studied",
      "pending",
    ]);
  });

  it("keeps a session recorded with its own offset (+05:30) on the day it names", () => {
    const p = plan({});
    const log = logOf([session("2026-11-01T23:30:00+05:30", 40)], "2026-11-01", p, newYork);
    expect([...log.days.keys()].map(dayText)).toEqual(["2026-11-01"]);
  });
});
