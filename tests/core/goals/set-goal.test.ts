/** The goal write (contract §5 `goal` with a setting option, §6 invariant 18) over the in-memory store. */
import { ConflictError } from "../../../src/core/errors";
import type { PaleeError } from "../../../src/core/errors";
import { goalChangeOf, updatePlanText } from "../../../src/core/goals";
import type { GoalOptionsText } from "../../../src/core/goals";
import { ForwardingStore } from "../../support/forwarding-store";
import { MemoryStore } from "../../support/memory-store";
import { confirmedText } from "../../support/builders";
import { harness } from "../../support/fakes";

const PLAN = "palee/plan.md";
/** Wednesday 22 July 2026. */
const AT = "2026-07-22T12:00:00Z";

async function refusal(run: () => Promise<unknown>): Promise<PaleeError> {
  try {
    await run();
  } catch (error) {
    return error as PaleeError;
  }
  throw new Error("expected a refusal");
}

const change = (options: GoalOptionsText, topic: string | null = null) => goalChangeOf(options, topic);

describe("goal refusals (example 8)", () => {
  it.each([
    [{ minutesPerWeek: "-5" }, "invalid_goal", "--minutes-per-week must be a whole number from 1 to 10080"],
    [{ minutesPerWeek: "2.5" }, "invalid_goal", '(got "2.5")'],
    [{ minutesPerWeek: "20000" }, "invalid_goal", '(got "20000")'],
    [{ sessionsPerWeek: "0" }, "invalid_goal", "--sessions-per-week must be a whole number from 1 to 100"],
    [{ restDays: "mon,funday" }, "invalid_goal", '(got "funday")'],
    [{ freezesPerMonth: "11" }, "invalid_goal", "from 0 to 10"],
    [{ minMinutes: "0" }, "invalid_goal", "from 1 to 240"],
    [{ clear: true, minutesPerWeek: "300" }, "invalid_goal", "--clear removes the goal's targets"],
    [{ pause: "2026-09-10/2026-09-01" }, "invalid_date", "ends before it starts"],
    [{ pause: "2026-01-01/2027-02-04" }, "invalid_date", "lasts 400 days (at most 366)"],
    [{ pause: "soon" }, "invalid_date", "YYYY-MM-DD/YYYY-MM-DD"],
    [{ unpause: "2026-13-01" }, "invalid_date", "--unpause must be the first day of a pause"],
    [{ review: "off" }, "topic_required", "--review needs --topic"],
  ])("refuses %j with %s, and writes no plan.md", async (options, kind, text) => {
    const h = harness({ at: AT });
    const error = await refusal(async () => h.core.setGoal(change(options)));
    expect([error.kind, error.exitCode]).toEqual([kind, 2]);
    expect(error.message).toContain(text);
    expect(h.store.files.has(PLAN)).toBe(false);
  });

  it("refuses --unpause of a pause plan.md does not hold, leaving plan.md as it was", async () => {
    const h = harness({ at: AT });
    await h.core.setGoal(change({ pause: "2026-09-01/2026-09-10" }));
    const before = h.store.files.get(PLAN);
    const error = await refusal(() => h.core.setGoal(change({ unpause: "2026-09-02" })));
    expect([error.kind, error.message]).toEqual([
      "invalid_date",
      "--unpause 2026-09-02: no pause in plan.md starts on that day",
    ]);
    expect(h.store.files.get(PLAN)).toBe(before);
    await h.core.setGoal(change({ unpause: "2026-09-01" }));
    expect(h.store.files.get(PLAN)).toContain("pauses: []");
  });
});

describe("writing plan.md", () => {
  it("creates it with its keys and one body line, the goal from this week's Monday", async () => {
    const h = harness({ at: AT });
    const r = await h.core.setGoal(change({ minutesPerWeek: "300" }));
    expect(h.store.files.get(PLAN)).toBe(
      [
        "---",
        "palee_schema: 1",
        "type: study_plan",
        "goals:",
        "  - from: 2026-07-20",
        "    minutes_per_week: 300",
        "updated_at: 2026-07-22",
        "---",
        "Your PALEE study plan: weekly goals and rest rules, in the properties above " +
          "(edit them here, with the Set goals command, or with `palee session goal`).",
        "",
      ].join("\n"),
    );
    expect(r.report.week).toMatchObject({ targetMinutes: 300, status: "in_progress" });
  });

  it("changes only the keys asked for: other keys keep their bytes, the body is untouched", async () => {
    const h = harness({ at: AT });
    const text = [
      "---",
      "palee_schema: 1",
      "type: study_plan",
      "# my comment",
      "goals:",
      "- {from: 2026-07-06, minutes_per_week: 200, sessions_per_week: 4, mood: calm}",
      "rest_days: [sun]   # Sundays off",
      "topics:",
      "  T-a: {minutes_per_week: 60, note: mine}",
      "my_key: 'kept as typed'",
      "---",
      "My own notes about the plan.",
      "",
    ].join("\n");
    h.store.files.set(PLAN, text);
    await h.core.setGoal(change({ minutesPerWeek: "300" }));
    const after = h.store.files.get(PLAN) as string;
    expect(after).toContain("rest_days: [sun]   # Sundays off\ntopics:\n  T-a: {minutes_per_week: 60, note: mine}\n");
    expect(after).toContain("my_key: 'kept as typed'\n");
    expect(after).toContain("# my comment\n");
    expect(after.endsWith("---\nMy own notes about the plan.\n")).toBe(true);
    const r = await h.core.goals();
    expect(r.report.plan.goals.map((g) => [g.from, g.minutesPerWeek, g.sessionsPerWeek])).toEqual([
      ["2026-07-06", 200, 4],
      ["2026-07-20", 300, 4],
    ]);
    expect(after).toContain("mood: calm"); // the older entry is kept whole
  });

  it("sets a topic's goal changing only the target named, review kept; --clear keeps review", async () => {
    const h = harness({ at: AT });
    await h.core.setGoal(change({ review: "off" }, "T-a"));
    await h.core.setGoal(change({ sessionsPerWeek: "3" }, "T-a"));
    await h.core.setGoal(change({ minutesPerWeek: "120" }, "T-a"));
    let plan = (await h.core.goals()).report.plan;
    expect(plan.topics).toEqual([{ topicId: "T-a", minutesPerWeek: 120, sessionsPerWeek: 3, review: false }]);
    await h.core.setGoal(change({ clear: true }, "T-a"));
    plan = (await h.core.goals()).report.plan;
    expect(plan.topics).toEqual([{ topicId: "T-a", minutesPerWeek: null, sessionsPerWeek: null, review: false }]);
    await h.core.setGoal(change({ review: "on" }, "T-a"));
    expect((await h.core.goals()).report.plan.topics).toEqual([]);
  });

  it("clears the overall goal from this week on, keeping earlier weeks' goal", async () => {
    const h = harness({ at: AT });
    h.store.files.set(PLAN, "---\npalee_schema: 1\ngoals:\n  - from: 2026-07-06\n    minutes_per_week: 300\n---\n");
    await h.core.setGoal(change({ clear: true }));
    const plan = (await h.core.goals()).report.plan;
    expect(plan.goals.map((g) => [g.from, g.minutesPerWeek])).toEqual([
      ["2026-07-06", 300],
      ["2026-07-20", null],
    ]);
  });

  it("writes rest days, freezes, min minutes and pauses", async () => {
    const h = harness({ at: AT });
    await h.core.setGoal(
      change({ restDays: "Sat,sun", freezesPerMonth: "0", minMinutes: "10", pause: "2026-09-01/2026-09-10" }),
    );
    const r = await h.core.goals({ asOf: "2026-07-21" });
    expect(r.report.plan).toMatchObject({ restDays: [5, 6], freezesPerMonth: 0, minMinutes: 10 });
    expect(r.report.plan.pauses.map((p) => p.from)).toEqual(["2026-09-01"]);
    expect(r.warnings).toEqual([]);
    await h.core.setGoal(change({ restDays: "none" }));
    expect((await h.core.goals()).report.plan.restDays).toEqual([]);
  });

  it.each([
    ["corrupt", "---\ngoals: [\n---\nbody\n"],
    ["schema-invalid", "---\npalee_schema: 2\n---\nbody\n"],
    ["no-frontmatter", ""],
  ])("never overwrites a %s plan.md: plan_unreadable (example 9), reads go on with a warning", async (_, text) => {
    const h = harness({ at: AT });
    h.store.files.set(PLAN, text);
    const error = await refusal(() => h.core.setGoal(change({ minutesPerWeek: "300" })));
    expect([error.kind, error.exitCode]).toEqual(["plan_unreadable", 2]);
    expect(error.message).toMatch(
      /^palee\/plan\.md cannot be read \(.+\); fix or remove it first: it was not changed$/,
    );
    expect(h.store.files.get(PLAN)).toBe(text);
    const r = await h.core.goals();
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/^palee\/plan\.md: /);
  });

  it("creates no file when reading a vault without plan.md (example 9)", async () => {
    const h = harness({ at: AT });
    h.store.files.set(
      "palee/sessions/S-1.md",
      confirmedText({
        session_id: "S-1",
        started_at: "2026-07-21T10:00:00+00:00",
        ended_at: "2026-07-21T10:45:00+00:00",
      }),
    );
    const before = [...h.store.files.keys()].sort();
    await h.core.goals();
    await h.core.year({ asOf: "2026-07-21" });
    expect([...h.store.files.keys()].sort()).toEqual(before);
  });

  it("names a sync conflict copy of plan.md and reads only plan.md", async () => {
    const h = harness({ at: AT });
    await h.core.setGoal(change({ minutesPerWeek: "300" }));
    h.store.files.set("palee/plan 2.md", "---\npalee_schema: 1\ngoals: []\n---\n");
    h.store.files.set("palee/plan (conflict 2026-07-22).md", "---\npalee_schema: 1\n---\n");
    h.store.files.set("palee/planning.md", "not a copy");
    const r = await h.core.goals();
    expect(r.warnings).toEqual([
      "palee/plan (conflict 2026-07-22).md: a copy of plan.md left by a sync conflict; only plan.md is read",
      "palee/plan 2.md: a copy of plan.md left by a sync conflict; only plan.md is read",
    ]);
    expect(r.report.week.targetMinutes).toBe(300);
  });

  it("refuses an as-of after today, and a malformed one, with invalid_date", async () => {
    const h = harness({ at: AT });
    expect((await refusal(() => h.core.goals({ asOf: "2026-07-23" }))).message).toBe(
      "--as-of 2026-07-23 is after today (2026-07-22)",
    );
    expect((await refusal(() => h.core.year({ asOf: "22/07/2026" }))).kind).toBe("invalid_date");
  });
});

/** A store whose plan.md changes underneath the first `times` writes (another device, a sync tool). */
class ChangingStore extends ForwardingStore<MemoryStore> {
  constructor(
    inner: MemoryStore,
    private times: number,
  ) {
    super(inner);
  }
  override async replace(path: string, expected: string | null, content: string): Promise<void> {
    if (path === PLAN && this.times-- > 0) {
      this.inner.files.set(PLAN, `---\npalee_schema: 1\nmin_minutes: ${10 + this.times}\n---\n`);
    }
    return super.replace(path, expected, content);
  }
}

describe("a plan.md changed between read and write", () => {
  it("is retried once from a fresh read, keeping the other device's change", async () => {
    const store = new ChangingStore(new MemoryStore(), 1);
    const h = harness({ at: AT, store });
    await h.core.setGoal(change({ freezesPerMonth: "1" }));
    expect((await h.core.goals()).report.plan).toMatchObject({ minMinutes: 10, freezesPerMonth: 1 });
  });

  it("is refused conflict (exit 4) when it changes again, with the other change kept", async () => {
    const store = new ChangingStore(new MemoryStore(), 2);
    const h = harness({ at: AT, store });
    const error = await refusal(() => h.core.setGoal(change({ freezesPerMonth: "1" })));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.exitCode).toBe(4);
    expect(store.inner.files.get(PLAN)).toBe("---\npalee_schema: 1\nmin_minutes: 10\n---\n");
  });
});

describe("updatePlanText", () => {
  it("keeps CRLF line ends and a key written as a list at the margin", () => {
    const text = "---\r\npalee_schema: 1\r\npauses:\r\n- 2026-01-01/2026-01-02\r\nmin_minutes: 7\r\n---\r\nbody\r\n";
    const after = updatePlanText(text, { pauses: ["2026-01-01/2026-01-02", "2026-02-01/2026-02-02"] });
    expect(after).toBe(
      "---\r\npalee_schema: 1\r\npauses:\r\n  - 2026-01-01/2026-01-02\r\n  - 2026-02-01/2026-02-02\r\n" +
        "min_minutes: 7\r\n---\r\nbody\r\n",
    );
  });
});
