import { goalsReport, proRated, weekJson, weekStreak, weeksToAsOf } from "../../../src/core/goals";
import { dayOf } from "../../../src/core/time";
import { logOf, on, plan } from "./builders";

const GOAL_300 = { goals: [{ from: "2026-07-06", minutes_per_week: 300 }] };

/** Contract §4c acceptance example 10: 290 min, then 320, then 100 so far. */
const example10 = () => [
  on("2026-07-06", 145),
  on("2026-07-08", 145),
  on("2026-07-13", 160),
  on("2026-07-17", 160),
  on("2026-07-20", 60),
  on("2026-07-22", 40),
];

describe("weeks against a weekly goal (example 10)", () => {
  it("judges 290 of 300 missed, 320 met and the current week in progress", () => {
    const p = plan(GOAL_300);
    const weeks = weeksToAsOf(p, logOf(example10(), "2026-07-22", p)).map(weekJson);
    expect(weeks).toEqual([
      {
        from: "2026-07-06",
        to: "2026-07-12",
        minutes: 290,
        sessions: 2,
        target_minutes: 300,
        target_sessions: null,
        status: "missed",
      },
      {
        from: "2026-07-13",
        to: "2026-07-19",
        minutes: 320,
        sessions: 2,
        target_minutes: 300,
        target_sessions: null,
        status: "met",
      },
      {
        from: "2026-07-20",
        to: "2026-07-26",
        minutes: 100,
        sessions: 2,
        target_minutes: 300,
        target_sessions: null,
        status: "in_progress",
      },
    ]);
    expect(goalsReport(p, logOf(example10(), "2026-07-22", p)).weekStreak).toEqual({ current: 1, longest: 1 });
  });

  it("pro-rates the target of a week shortened by a pause: ceil(300 × 4 / 7) = 172", () => {
    const p = plan({ ...GOAL_300, pauses: ["2026-07-13/2026-07-15"] });
    const weeks = weeksToAsOf(p, logOf(example10(), "2026-07-22", p));
    expect(weeks[1]).toMatchObject({ targetMinutes: 172, status: "met" });
    expect(weeks[0].targetMinutes).toBe(300);
    expect(proRated(300, 4)).toBe(172);
  });

  it("pro-rates the first week from the first session's day", () => {
    const p = plan(GOAL_300);
    const weeks = weeksToAsOf(p, logOf([on("2026-07-09", 200)], "2026-07-10", p));
    expect(weeks.map(weekJson)).toEqual([
      {
        from: "2026-07-06",
        to: "2026-07-12",
        minutes: 200,
        sessions: 1,
        target_minutes: 172,
        target_sessions: null,
        status: "met",
      },
    ]);
  });

  it("passes over a paused week: it neither counts nor breaks the streak", () => {
    const p = plan({ ...GOAL_300, pauses: ["2026-07-13/2026-07-19"] });
    const sessions = [on("2026-07-06", 300), on("2026-07-20", 300), on("2026-07-27", 10)];
    const weeks = weeksToAsOf(p, logOf(sessions, "2026-07-28", p));
    expect(weeks.map((w) => w.status)).toEqual(["met", "paused", "met", "in_progress"]);
    expect(weekStreak(weeks)).toEqual({ current: 2, longest: 2 });
  });

  it("counts only sessions of at least min_minutes toward a sessions target", () => {
    const p = plan({ goals: [{ from: "2026-07-06", sessions_per_week: 2 }], min_minutes: 10 });
    const sessions = [on("2026-07-06", 9), on("2026-07-07", 9), on("2026-07-08", 10)];
    const [week] = weeksToAsOf(p, logOf(sessions, "2026-07-12", p));
    expect(weekJson(week)).toMatchObject({ minutes: 28, sessions: 1, target_sessions: 2, status: "in_progress" });
  });

  it("calls a week with a study day met when no goal is in effect", () => {
    const p = plan({ min_minutes: 5 });
    const sessions = [on("2026-07-06", 5), on("2026-07-14", 4)];
    const weeks = weeksToAsOf(p, logOf(sessions, "2026-07-27", p));
    expect(weeks.map((w) => w.status)).toEqual(["met", "missed", "missed", "in_progress"]);
  });

  it("starts a new goal in progress on a vault with no session, never before_start", () => {
    const p = plan(GOAL_300);
    const report = goalsReport(p, logOf([], "2026-07-22", p));
    expect(weekJson(report.week)).toEqual({
      from: "2026-07-20",
      to: "2026-07-26",
      minutes: 0,
      sessions: 0,
      target_minutes: 300,
      target_sessions: null,
      status: "in_progress",
    });
    expect(report.weekStreak).toEqual({ current: 0, longest: 0 });
  });
});

describe("a raised goal (example 11)", () => {
  const sessions = [
    ...example10(),
    on("2026-07-23", 250),
    on("2026-07-27", 100),
    on("2026-08-03", 310),
    on("2026-08-10", 120),
  ];

  it("leaves every earlier week and the longest streak as they were", () => {
    const before = plan(GOAL_300);
    const after = plan({ goals: [...GOAL_300.goals, { from: "2026-08-10", minutes_per_week: 600 }] });
    const was = goalsReport(before, logOf(sessions, "2026-08-12", before));
    const now = goalsReport(after, logOf(sessions, "2026-08-12", after));
    const earlier = (p: typeof before) => weeksToAsOf(p, logOf(sessions, "2026-08-12", p)).slice(0, -1);
    expect(earlier(after)).toEqual(earlier(before));
    expect(earlier(after).map((w) => w.status)).toEqual(["missed", "met", "met", "missed", "met"]);
    expect(now.weekStreak.longest).toBe(was.weekStreak.longest);
    expect(now.weekStreak).toEqual({ current: 1, longest: 2 });
    expect(weekJson(now.week)).toMatchObject({ minutes: 120, target_minutes: 600, status: "in_progress" });
    expect(weekJson(was.week)).toMatchObject({ minutes: 120, target_minutes: 300, status: "in_progress" });
  });

  it("judges a week by the newest entry whose from is on or before its Monday", () => {
    const p = plan({ goals: [{ from: "2026-08-10", minutes_per_week: 600 }, GOAL_300.goals[0]] });
    expect(p.goals.map((g) => g.from)).toEqual(["2026-07-06", "2026-08-10"]);
    const weeks = weeksToAsOf(p, logOf(sessions, "2026-08-12", p));
    expect(weeks.map((w) => w.targetMinutes)).toEqual([300, 300, 300, 300, 300, 600]);
    expect(dayOf("2026-08-10")).toBe(weeks[5].monday);
  });
});
