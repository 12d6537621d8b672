/**
 * The review schedule and the queue (contract §4c), pinned by the version-4 acceptance examples 1–6 as literal
 * values, over sessions built as notes, once at UTC and once at +05:30 (a session's day is its local day).
 */
import { dayText } from "../../../src/core/time";
import type { PlanView } from "../../../src/core/review/goal-progress";
import type { NextResult } from "../../../src/core/operations/next";
import { harness } from "../../support/fakes";
import type { Harness } from "../../support/fakes";
import { goodDays, study } from "../../support/review-vault";
import type { StudyOn } from "../../support/review-vault";

function entryOf(r: NextResult, topicId: string) {
  const e = r.queue.find((q) => q.topicId === topicId);
  if (!e) throw new Error(`${topicId} is not queued`);
  return {
    group: e.group,
    step: e.schedule.step,
    gap: e.schedule.gapDays,
    due: e.schedule.due === null ? null : dayText(e.schedule.due),
    overdue: e.overdueDays,
    lastRating: e.schedule.lastRating,
  };
}

describe.each([
  ["UTC", 0, "+00:00"],
  ["India (+05:30)", 330, "+05:30"],
])("acceptance examples of the schedule, at %s", (_zone, offsetMinutes, offset) => {
  let h: Harness;
  const at = (plus: StudyOn[]) => {
    h = harness({ at: "2026-08-20T12:00:00Z", offset: offsetMinutes });
    study(h, ...goodDays("T-a", ["2026-08-03", "2026-08-04", "2026-08-07"], offset), ...plus);
    return h;
  };
  const next = (asOf: string) => h.core.next({ asOf });

  it("1: good days on 3, 4 and 7 Aug give step 2, due 14 Aug; due from then on", async () => {
    at([]);
    expect(entryOf(await next("2026-08-13"), "T-a")).toEqual({
      group: "upcoming",
      step: 2,
      gap: 7,
      due: "2026-08-14",
      overdue: null,
      lastRating: null,
    });
    expect(entryOf(await next("2026-08-14"), "T-a")).toMatchObject({ group: "due", overdue: 0 });
    expect(entryOf(await next("2026-08-17"), "T-a")).toMatchObject({ group: "due", overdue: 3 });
    expect((await next("2026-08-14")).queue[0].reasons.map((r) => r.code)).toEqual(["due_today"]);
    expect((await next("2026-08-17")).queue[0].reasons[0]).toEqual({
      code: "overdue",
      text: "due since 2026-08-14, 3 days past a 7-day gap",
    });
  });

  it("2: again on the due day brings it back tomorrow", async () => {
    at([{ topic: "T-a", at: "2026-08-14T10:00", offset, rating: 1 }]);
    expect(entryOf(await next("2026-08-14"), "T-a")).toMatchObject({ step: 0, due: "2026-08-15", lastRating: 1 });
    expect((await next("2026-08-14")).queue[0].reasons.map((r) => r.code)).toEqual(["last_again"]);
  });

  it.each([
    ["good", 3],
    ["easy", 4],
    ["hard", 2],
  ])("2: studying early (10 Aug) rated %s keeps step 2 and moves the due day to 17 Aug", async (_w, rating) => {
    at([{ topic: "T-a", at: "2026-08-10T10:00", offset, rating }]);
    expect(entryOf(await next("2026-08-10"), "T-a")).toMatchObject({ step: 2, due: "2026-08-17" });
  });

  it("2: studying early rated again: due 11 Aug", async () => {
    at([{ topic: "T-a", at: "2026-08-10T10:00", offset, rating: "again" }]);
    expect(entryOf(await next("2026-08-10"), "T-a")).toMatchObject({ step: 0, due: "2026-08-11" });
  });

  it("3: three sessions on 14 Aug (easy, hard, unrated) make one review day rated hard, due 21 Aug", async () => {
    at([
      { topic: "T-a", at: "2026-08-14T10:00", offset, rating: 4 },
      { topic: "T-a", at: "2026-08-14T14:00", offset, rating: "Hard" },
      { topic: "T-a", at: "2026-08-14T18:00", offset },
    ]);
    const r = await h.core.next({ asOf: "2026-08-14", topic: "T-a" });
    expect(entryOf(r, "T-a")).toMatchObject({ step: 2, due: "2026-08-21", lastRating: 2 });
    expect(r.entry?.schedule.history.map((d) => [dayText(d.day), d.rating, d.step, d.due])).toEqual([
      ["2026-08-03", null, 0, Math.floor(Date.UTC(2026, 7, 4) / 86_400_000)],
      ["2026-08-04", null, 1, Math.floor(Date.UTC(2026, 7, 7) / 86_400_000)],
      ["2026-08-07", null, 2, Math.floor(Date.UTC(2026, 7, 14) / 86_400_000)],
      ["2026-08-14", 2, 2, Math.floor(Date.UTC(2026, 7, 21) / 86_400_000)],
    ]);
  });
});

describe("example 4: the original tool's notes", () => {
  it("schedule as good (no recall_rating, …Z times) and are never rewritten", async () => {
    const h = harness({ at: "2026-08-20T12:00:00Z" });
    const paths = study(h, ...goodDays("T-legacy", ["2026-08-03", "2026-08-04", "2026-08-07"], "Z"));
    const before = paths.map((p) => h.store.files.get(p));
    const r = await h.core.next({ asOf: "2026-08-13" });
    expect(entryOf(r, "T-legacy")).toMatchObject({ step: 2, due: "2026-08-14", lastRating: null });
    expect(paths.map((p) => h.store.files.get(p))).toEqual(before);
    expect(r.warnings).toEqual([]);
  });
});

describe("example 5: the order of due topics", () => {
  it("3 days past a 7-day gap ranks above 10 days past a 30-day gap", async () => {
    const h = harness({ at: "2026-12-01T12:00:00Z" });
    // T-b: good days 08-03, 04, 07 → due 08-14 (gap 7); as of 08-17 it is 3 days past.
    study(h, ...goodDays("T-b", ["2026-08-03", "2026-08-04", "2026-08-07"]));
    study(h, { topic: "T-z", at: "2026-06-08T10:00", rating: 4 }, ...goodDays("T-z", ["2026-06-11", "2026-06-18"]));
    study(h, ...goodDays("T-z", ["2026-07-08"]));
    // T-z: easy 06-08 → step 1 (due 06-11); good 06-11 → 2 (06-18); good 06-18 → 3 (07-02); good 07-08 → 4 (gap 30,
    // due 08-07): as of 08-17 it is 10 days past a 30-day gap.
    const r = await h.core.next({ asOf: "2026-08-17" });
    expect(r.queue.map((e) => [e.topicId, e.overdueDays, e.schedule.gapDays])).toEqual([
      ["T-b", 3, 7],
      ["T-z", 10, 30],
    ]);
  });

  it("with equal lateness: a next action first, then the older last review day, then the smaller ID", async () => {
    const h = harness({ at: "2026-12-01T12:00:00Z" });
    // Each topic: one good day (step 0, gap 1); as of 08-20 lateness is elapsed / 1.
    study(
      h,
      { topic: "T-d", at: "2026-08-18T10:00" },
      { topic: "T-c", at: "2026-08-18T10:00" },
      { topic: "T-n", at: "2026-08-18T10:00", next: "read chapter 4" },
    );
    const r = await h.core.next({ asOf: "2026-08-20" });
    expect(r.queue.map((e) => e.topicId)).toEqual(["T-n", "T-c", "T-d"]);
    const h2 = harness({ at: "2026-12-01T12:00:00Z" });
    study(h2, { topic: "T-c", at: "2026-08-15T10:00" }, ...goodDays("T-old", ["2026-08-10", "2026-08-11"]));
    // T-c: elapsed 2 of gap 1 (2); T-old: elapsed 6 of gap 3 (2): equal, and T-old's last review is older.
    expect((await h2.core.next({ asOf: "2026-08-17" })).queue.map((e) => e.topicId)).toEqual(["T-old", "T-c"]);
  });
});

describe("example 6: groups", () => {
  const plan: PlanView = {
    reviewOff: new Set(["T-off"]),
    goals: new Map([
      ["T-goal", { minutes: 0, sessions: 0, minutesTarget: 120, sessionsTarget: null, paused: false }],
      ["T-met", { minutes: 130, sessions: 2, minutesTarget: 120, sessionsTarget: null, paused: false }],
      ["T-half", { minutes: 60, sessions: 1, minutesTarget: 120, sessionsTarget: 4, paused: false }],
      ["T-paused", { minutes: 0, sessions: 0, minutesTarget: 120, sessionsTarget: null, paused: true }],
    ]),
  };

  it("come in the order due → goal → continue → upcoming; review off only in excluded", async () => {
    const h = harness({ at: "2026-12-01T12:00:00Z" });
    study(
      h,
      { topic: "T-due", at: "2026-08-10T10:00" },
      { topic: "T-off", at: "2026-08-10T10:00" },
      { topic: "T-half", at: "2026-08-13T10:00" },
      { topic: "T-cont", at: "2026-08-13T10:00", next: "finish the exercises" },
      { topic: "T-up", at: "2026-08-13T10:00" },
      { topic: "T-met", at: "2026-08-13T10:00" },
    );
    const r = await h.core.next({ asOf: "2026-08-13", plan });
    expect(r.queue.map((e) => [e.topicId, e.group])).toEqual([
      ["T-due", "due"],
      ["T-half", "goal"],
      ["T-goal", "goal"],
      ["T-cont", "continue"],
      ["T-met", "upcoming"],
      ["T-up", "upcoming"],
      ["T-paused", "upcoming"],
    ]);
    expect(r.excluded).toEqual(["T-off"]);
    const goalOnly = r.queue.find((e) => e.topicId === "T-goal");
    expect(goalOnly?.schedule).toMatchObject({ step: -1, gapDays: null, due: null, lastReviewed: null });
    expect(goalOnly?.reasons).toEqual([{ code: "goal_behind", text: "weekly goal: 0 of 120 min this week" }]);
    const off = await h.core.next({ asOf: "2026-08-13", plan, topic: "T-off" });
    expect(off.entry).toMatchObject({ topicId: "T-off", group: "excluded" });
  });

  it("an empty vault gives an empty queue", async () => {
    const noPlan: PlanView = { reviewOff: new Set(), goals: new Map() };
    const r = await harness().core.next({ plan: noPlan });
    expect([r.queue, r.excluded, r.warnings]).toEqual([[], [], []]);
  });

  it("a topic whose sessions all lasted under a minute, unrated, is `none`; an unknown one is refused", async () => {
    const h = harness({ at: "2026-12-01T12:00:00Z" });
    study(h, { topic: "T-zero", at: "2026-08-10T10:00", minutes: 0 });
    const r = await h.core.next({ asOf: "2026-08-13", topic: "T-zero" });
    expect([r.queue, r.entry?.group]).toEqual([[], "none"]);
    await expect(h.core.next({ topic: "T-nowhere" })).rejects.toMatchObject({ kind: "unknown_topic" });
    await expect(h.core.next({ topic: "T-nowhere" })).rejects.not.toThrow(/did you mean/);
    // A typo of a topic with sessions: refused the same, naming it.
    study(h, { topic: "T-organic", at: "2026-08-10T11:00", minutes: 20 });
    await expect(h.core.next({ topic: "T-orgnaic" })).rejects.toMatchObject({
      kind: "unknown_topic",
      message: expect.stringContaining("did you mean T-organic?") as string,
    });
  });
});

describe("as-of and ratings read from notes", () => {
  it("refuses a malformed as-of or one after today (invalid_date)", async () => {
    const h = harness({ at: "2026-08-14T12:00:00Z" });
    await expect(h.core.next({ asOf: "2026-08-15" })).rejects.toMatchObject({ kind: "invalid_date" });
    await expect(h.core.next({ asOf: "14/08/2026" })).rejects.toMatchObject({ kind: "invalid_date" });
    await expect(h.core.next({ asOf: "2026-02-30" })).rejects.toMatchObject({ kind: "invalid_date" });
    expect((await h.core.next({ asOf: "2026-08-14" })).asOf).toBe(Math.floor(Date.UTC(2026, 7, 14) / 86_400_000));
  });

  it("ignores sessions after the as-of day", async () => {
    const h = harness({ at: "2026-12-01T12:00:00Z" });
    study(h, ...goodDays("T-a", ["2026-08-03", "2026-08-20"]));
    expect(entryOf(await h.core.next({ asOf: "2026-08-10" }), "T-a")).toMatchObject({ step: 0, due: "2026-08-04" });
  });

  it("reads banana as unrated (good), names the file in warnings and never rewrites it", async () => {
    const h = harness({ at: "2026-12-01T12:00:00Z" });
    const [path] = study(h, { topic: "T-a", at: "2026-08-03T10:00", rating: "banana" });
    const before = h.store.files.get(path);
    const r = await h.core.next({ asOf: "2026-08-03" });
    expect(entryOf(r, "T-a")).toMatchObject({ step: 0, lastRating: null });
    expect(r.warnings).toEqual([
      `${path}: recall_rating "banana" is not 1-4 or again, hard, good, easy; read as unrated`,
    ]);
    expect(h.store.files.get(path)).toBe(before);
  });

  it('reads "3", 3, "GOOD" and good alike; 0 and 5 as unrated with a warning', async () => {
    const h = harness({ at: "2026-12-01T12:00:00Z" });
    study(
      h,
      { topic: "T-s", at: "2026-08-03T10:00", rating: "3" },
      { topic: "T-n", at: "2026-08-03T10:00", rating: 1 },
      { topic: "T-w", at: "2026-08-03T10:00", rating: "EASY" },
      { topic: "T-5", at: "2026-08-03T10:00", rating: 5 },
    );
    const r = await h.core.next({ asOf: "2026-08-03" });
    const rating = (t: string) => r.queue.find((e) => e.topicId === t)?.schedule.lastRating;
    expect([rating("T-s"), rating("T-n"), rating("T-w"), rating("T-5")]).toEqual([3, 1, 4, null]);
    expect(r.warnings).toHaveLength(1);
  });

  it("a 0-minute session with a rating is a review day", async () => {
    const h = harness({ at: "2026-12-01T12:00:00Z" });
    study(h, { topic: "T-a", at: "2026-08-03T10:00", minutes: 0, rating: 2 });
    expect(entryOf(await h.core.next({ asOf: "2026-08-03" }), "T-a")).toMatchObject({ step: 0, lastRating: 2 });
  });
});
