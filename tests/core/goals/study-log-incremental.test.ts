/**
 * "This week" and "Year" are worked out again after every end with a study-log memo (study-log.ts): the last
 * log taken forward by the notes inserted since. The oracle is studyLog without the memo over the same list:
 * through random runs of ends, deleted and edited notes, the clock moving on or back (past a session that
 * starts in the future), a new as-of day, min_minutes or offset, both must agree at every step.
 */
import fc from "fast-check";
import type { StudyLogMemo } from "../../../src/core/goals";
import { studyLog, studyLogMemo } from "../../../src/core/goals";
import type { InsightSession, StatsMemo } from "../../../src/core/insight/stats";
import { computeStats, statsMemo } from "../../../src/core/insight/stats";
import type { ConfirmedSession } from "../../../src/core/records/records";
import { compareNewestFirst } from "../../../src/core/records/records";
import * as sorted from "../../../src/core/scan/sorted";
import type { OffsetAt } from "../../../src/core/time";
import { localDay } from "../../../src/core/time";
import type { ListStep } from "../../support/list-steps";
import { afterListStep, isListStep, listStepArbitraries } from "../../support/list-steps";

const HOUR = 3_600_000;
const BASE = Date.UTC(2026, 7, 1, 6);
const NOW = BASE + 30 * 24 * HOUR;
const utc: OffsetAt = () => 0;
const tokyo: OffsetAt = () => 540;

const specArb = fc.record({
  hour: fc.integer({ min: 0, max: 40 * 24 }),
  minutes: fc.integer({ min: 0, max: 120 }),
  topic: fc.constantFrom("T-a", "T-b", "T-c"),
  future: fc.constantFrom(false, false, false, false, true),
});
type Spec = typeof specArb extends fc.Arbitrary<infer T> ? T : never;

let serial = 0;
function session(g: Spec): InsightSession {
  const startedMs = g.future ? NOW + g.hour * 60_000 : BASE + g.hour * HOUR - 10 * 24 * HOUR;
  const id = `S-${String(++serial).padStart(6, "0")}`;
  return {
    sessionId: id,
    path: `palee/sessions/${id}.md`,
    topicId: g.topic,
    startedAt: new Date(startedMs).toISOString(),
    startedMs,
    endedAt: new Date(startedMs + g.minutes * 60_000).toISOString(),
    durationMinutes: g.minutes,
    outcome: "completed",
    topicNote: null,
  };
}

/** A list step's edit sets duration_minutes. */
type Step =
  | ListStep<Spec, number>
  | { kind: "clock"; minutes: number }
  | { kind: "min"; minMinutes: number }
  | { kind: "offset" };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  ...listStepArbitraries(specArb, fc.integer({ min: 0, max: 90 }), 2),
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("clock" as const), minutes: fc.integer({ min: -90, max: 3 * 24 * 60 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("min" as const), minMinutes: fc.constantFrom(1, 5, 30) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("offset" as const) }) },
);

const newestFirst = (list: InsightSession[]): InsightSession[] =>
  list.sort((a, b) => compareNewestFirst(a as ConfirmedSession, b as ConfirmedSession));
const sessions = {
  make: session,
  sort: newestFirst,
  edit: (s: InsightSession, minutes: number) => ({ ...s, durationMinutes: minutes }),
};

describe("studyLog with the memo", () => {
  it("equals the log made from scratch after ends, deletions, edits, a moving clock and new settings", () => {
    const inserted = jest.spyOn(sorted, "insertedInto");
    let forward = 0;
    fc.assert(
      fc.property(
        fc.array(specArb, { maxLength: 30 }),
        fc.array(stepArb, { minLength: 1, maxLength: 12 }),
        (first, steps) => {
          let list = newestFirst(first.map(session));
          let now = NOW;
          let offsetAt = utc;
          let minMinutes = 5;
          const keep: StudyLogMemo = studyLogMemo();
          const memo: StatsMemo = statsMemo();
          for (const step of [{ kind: "clock", minutes: 0 } as Step, ...steps]) {
            if (isListStep<Spec, number>(step)) list = afterListStep(list, step, sessions);
            else if (step.kind === "clock") now += step.minutes * 60_000;
            else if (step.kind === "min") minMinutes = step.minMinutes;
            else if (step.kind === "offset") offsetAt = offsetAt === utc ? tokyo : utc;
            const asOf = localDay(now, offsetAt);
            computeStats(list, { now, offsetAt, memo }); // as the view does first: the per-session memo is filled
            inserted.mockClear();
            const withMemo = studyLog(list, { asOf, now, offsetAt, minMinutes, memo, keep });
            if (inserted.mock.results.some((r) => r.value !== null)) forward++;
            expect(withMemo).toEqual(studyLog(list, { asOf, now, offsetAt, minMinutes }));
          }
        },
      ),
      { numRuns: 400 },
    );
    inserted.mockRestore();
    expect(forward).toBeGreaterThan(300);
  });
});
