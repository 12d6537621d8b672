import { EMPTY_PLAN, planJson, readPlan } from "../../../src/core/goals";
import { planText } from "./builders";

const PATH = "palee/plan.md";

describe("reading plan.md", () => {
  it("reads a missing plan.md as the empty plan, writable, with no warning", () => {
    expect(readPlan(null, PATH)).toEqual({
      plan: EMPTY_PLAN,
      warnings: [],
      state: "missing",
      writable: true,
      fields: null,
      problem: null,
    });
    expect(planJson(EMPTY_PLAN)).toEqual({
      goals: [],
      topics: {},
      min_minutes: 5,
      rest_days: [],
      freezes_per_month: 2,
      pauses: [],
      updated_at: null,
    });
  });

  it("reads every key", () => {
    const read = readPlan(
      planText({
        goals: [
          { from: "2026-08-10", minutes_per_week: 600 },
          { from: "2026-07-06", minutes_per_week: 300, sessions_per_week: 5 },
        ],
        topics: { "T-a": { minutes_per_week: 120, review: false }, "T-b": { sessions_per_week: 3 } },
        min_minutes: 10,
        rest_days: ["Sun", "sat"],
        freezes_per_month: 0,
        pauses: ["2026-09-01/2026-09-10"],
        updated_at: "2026-08-10",
        my_own_key: "kept",
      }),
      PATH,
    );
    expect(read.warnings).toEqual([]);
    expect(planJson(read.plan)).toEqual({
      goals: [
        { from: "2026-07-06", minutes_per_week: 300, sessions_per_week: 5 },
        { from: "2026-08-10", minutes_per_week: 600, sessions_per_week: null },
      ],
      topics: {
        "T-a": { minutes_per_week: 120, sessions_per_week: null, review: false },
        "T-b": { minutes_per_week: null, sessions_per_week: 3, review: true },
      },
      min_minutes: 10,
      rest_days: ["sat", "sun"],
      freezes_per_month: 0,
      pauses: ["2026-09-01/2026-09-10"],
      updated_at: "2026-08-10",
    });
  });

  it("ignores values out of range and keys that are not topics, naming each", () => {
    const read = readPlan(
      planText({
        goals: [{ from: "2026-07-06", minutes_per_week: 20000 }, { from: "not a day" }],
        topics: { "T-a": { minutes_per_week: -5 }, "not a topic": { minutes_per_week: 60 } },
        min_minutes: 2.5,
        rest_days: ["funday"],
        freezes_per_month: 11,
        pauses: ["2026-09-10/2026-09-01", "2026-01-01/2027-06-01"],
      }),
      PATH,
    );
    expect(read.warnings).toEqual([
      "palee/plan.md: goals[0].minutes_per_week 20000 is not a whole number from 1 to 10080; ignored",
      'palee/plan.md: goals[1] {"from":"not a day"} is not ' +
        "{from: YYYY-MM-DD, minutes_per_week?, sessions_per_week?}; ignored",
      "palee/plan.md: topics.T-a.minutes_per_week -5 is not a whole number from 1 to 10080; ignored",
      'palee/plan.md: topics key "not a topic" is not a topic ID; ignored',
      "palee/plan.md: min_minutes 2.5 is not a whole number from 1 to 240; ignored",
      'palee/plan.md: rest_days "funday" is not one of mon, tue, wed, thu, fri, sat, sun; ignored',
      "palee/plan.md: freezes_per_month 11 is not a whole number from 0 to 10; ignored",
      'palee/plan.md: pauses "2026-09-10/2026-09-01" ends before it starts; ignored',
      'palee/plan.md: pauses "2026-01-01/2027-06-01" lasts 517 days (at most 366); ignored',
    ]);
    expect(read.plan.minMinutes).toBe(5);
    expect(read.plan.freezesPerMonth).toBe(2);
    expect(read.plan.goals).toEqual([
      { from: "2026-07-06", fromDay: 20640, minutesPerWeek: null, sessionsPerWeek: null },
    ]);
  });

  it("takes a topics key that a session note names (an original tool's topic)", () => {
    const text = planText({ topics: { git_rebase: { minutes_per_week: 60 } } });
    expect(readPlan(text, PATH, new Set(["git_rebase"])).plan.topics.map((t) => t.topicId)).toEqual(["git_rebase"]);
    expect(readPlan(text, PATH).plan.topics).toEqual([]);
  });

  it("reads a goal dated inside a week as that week's, and says so", () => {
    const read = readPlan(planText({ goals: [{ from: "2026-07-08", minutes_per_week: 300 }] }), PATH);
    expect(read.plan.goals.map((g) => g.from)).toEqual(["2026-07-06"]);
    expect(read.warnings).toEqual(['palee/plan.md: goals[0].from "2026-07-08" is not a Monday; read as 2026-07-06']);
  });

  it.each([
    ["corrupt", "---\ngoals: [\n---\n", "frontmatter YAML does not parse"],
    ["schema-invalid", "---\npalee_schema: 2\ntype: study_plan\n---\n", "unsupported palee_schema 2"],
    ["no-frontmatter", "", "file is empty"],
    ["no-frontmatter", "My goals, written by hand.\n", "no frontmatter"],
    ["corrupt", "---\n- a list\n---\n", "frontmatter is not a mapping"],
  ])("reads a %s plan.md as the empty plan with a warning naming it, and refuses to write it", (state, text, why) => {
    const read = readPlan(text, PATH);
    expect(read.state).toBe(state);
    expect(read.plan).toBe(EMPTY_PLAN);
    expect(read.writable).toBe(false);
    expect(read.warnings).toHaveLength(1);
    expect(read.warnings[0]).toContain(`${PATH}: ${why}`);
    expect(read.warnings[0]).toContain("read as a plan with no goals");
  });

  it("reads a YAML alias bomb as corrupt, without expanding it", () => {
    const bomb = [
      "---",
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]",
      "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]",
      "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]",
      "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]",
      "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]",
      "goals: [*f,*f,*f,*f,*f,*f,*f,*f,*f]",
      "---",
      "",
    ].join("\n");
    const read = readPlan(bomb, PATH);
    expect(read.state).toBe("corrupt");
    expect(read.warnings[0]).toMatch(/^palee\/plan\.md: frontmatter expands to more than/);
  });
});
