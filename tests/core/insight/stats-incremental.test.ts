/**
 * The history view counts stats again after every end with a memo (stats-tally.ts): the last totals taken
 * forward by the notes inserted since. The oracle is computeStats without a memo, over the same list: through
 * random runs of ends (notes inserted), deleted and edited notes, the clock moving on or stepping back, and a
 * new offset, every answer with the memo must equal the one without it, and the shortcut must be taken.
 */
import fc from "fast-check";
import type { InsightSession, StatsMemo } from "../../../src/core/insight/stats";
import { computeStats, statsMemo } from "../../../src/core/insight/stats";
import * as tallies from "../../../src/core/insight/stats-tally";
import { tallyAfter, tallyAll } from "../../../src/core/insight/stats-tally";
import type { ConfirmedSession } from "../../../src/core/records/records";
import { compareNewestFirst } from "../../../src/core/records/records";
import { countedMinutes } from "../../../src/core/insight/stats";
import { insertedInto } from "../../../src/core/scan/sorted";
import { sessionDay } from "../../../src/core/time";
import type { OffsetAt } from "../../../src/core/time";
import type { ListStep } from "../../support/list-steps";
import { afterListStep, isListStep, listStepArbitraries } from "../../support/list-steps";

const BASE = Date.UTC(2026, 7, 1, 6);
const HOUR = 3_600_000;
const NOW = BASE + 40 * 24 * HOUR;
const utc: OffsetAt = () => 0;
const kolkata: OffsetAt = () => 330;

interface Spec {
  hour: number;
  minutes: number;
  topic: number;
  /** 0: no topic note; else one of two names (sessions of a topic may name different notes). */
  note: number;
  /** 0: as written; 1: ended before it started; 2: starts after NOW (not counted yet). */
  odd: number;
}

let serial = 0;
function session(spec: Spec): InsightSession {
  const startedMs = spec.odd === 2 ? NOW + spec.hour * HOUR : BASE + spec.hour * HOUR;
  const endedMs = spec.odd === 1 ? startedMs - HOUR : startedMs + spec.minutes * 60_000;
  const id = `S-${String(++serial).padStart(6, "0")}`;
  return {
    sessionId: id,
    path: `palee/sessions/${id}.md`,
    topicId: `T-${spec.topic}`,
    startedAt: new Date(startedMs).toISOString().replace(".000Z", "+00:00"),
    startedMs,
    endedAt: new Date(endedMs).toISOString().replace(".000Z", "+00:00"),
    durationMinutes: spec.minutes,
    outcome: "completed",
    topicNote: spec.note ? `[[Note ${spec.topic}.${spec.note}]]` : null,
  };
}

// Hours collide often (same start, same topic) and a few notes are odd, so the memo's refusals are exercised.
const spec = fc.record({
  hour: fc.tuple(fc.integer({ min: 0, max: 40 }), fc.constantFrom(0, 6, 20)).map(([d, h]) => d * 24 + h),
  minutes: fc.integer({ min: 0, max: 200 }),
  topic: fc.integer({ min: 0, max: 3 }),
  note: fc.integer({ min: 0, max: 2 }),
  odd: fc.constantFrom(0, 0, 0, 0, 0, 0, 0, 1, 2),
});

/** A list step's edit sets duration_minutes. */
type Step = ListStep<Spec, number> | { kind: "clock"; hours: number } | { kind: "offset" };

const step: fc.Arbitrary<Step> = fc.oneof(
  ...listStepArbitraries(spec, fc.integer({ min: 0, max: 90 }), 3),
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("clock" as const), hours: fc.integer({ min: -30, max: 24 * 70 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("offset" as const) }) },
);

const sorted = (list: InsightSession[]): InsightSession[] =>
  list.sort((a, b) => compareNewestFirst(a as ConfirmedSession, b as ConfirmedSession));
const sessions = {
  make: session,
  sort: sorted, // the same records, new ones in
  edit: (x: InsightSession, minutes: number) => ({ ...x, durationMinutes: minutes }),
};

describe("stats with the memo after ends, deletions and edits", () => {
  it("equals stats counted from scratch at every step", () => {
    let incremental = 0;
    const forward = jest.spyOn(tallies, "tallyAfter");
    fc.assert(
      fc.property(
        fc.array(spec, { maxLength: 30 }),
        fc.array(step, { minLength: 1, maxLength: 12 }),
        (first, steps) => {
          let list = sorted(first.map(session));
          let now = NOW;
          let offsetAt = utc;
          const memo: StatsMemo = statsMemo();
          for (const s of [{ kind: "clock", hours: 0 } as Step, ...steps]) {
            if (isListStep<Spec, number>(s)) list = afterListStep(list, s, sessions);
            else if (s.kind === "clock") now += s.hours * HOUR;
            else if (s.kind === "offset") offsetAt = offsetAt === utc ? kolkata : utc;
            forward.mockClear();
            const withMemo = computeStats(list, { now, offsetAt, memo });
            if (forward.mock.results.some((r) => r.value !== null)) incremental++;
            expect(withMemo).toEqual(computeStats(list, { now, offsetAt }));
          }
        },
      ),
      { numRuns: 400 },
    );
    forward.mockRestore();
    expect(incremental).toBeGreaterThan(300);
  });

  it("takes the totals forward only when they are the fold's own, and says so otherwise", () => {
    let forward = 0;
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 25 }), fc.array(fc.boolean(), { maxLength: 25 }), (specs, isNew) => {
        const list = sorted(specs.map(session));
        const before = list.filter((_, i) => !isNew[i]);
        const count = (s: InsightSession) => ({ day: sessionDay(s, utc), counted: countedMinutes(s, NOW, utc) });
        const kept = tallyAll(before, NOW, count);
        const after = tallyAfter(kept, list, NOW, count, insertedInto(before, list));
        if (after === null) return;
        expect(after.tally).toEqual(tallyAll(list, NOW, count).tally);
        forward++;
      }),
      { numRuns: 1500 },
    );
    expect(forward).toBeGreaterThan(300);
  });

  it("never takes forward a list that is not the last one with notes inserted", () => {
    const a = session({ hour: 3, minutes: 30, topic: 1, note: 0, odd: 0 });
    const b = session({ hour: 6, minutes: 30, topic: 1, note: 0, odd: 0 });
    const count = (s: InsightSession) => ({ day: sessionDay(s, utc), counted: countedMinutes(s, NOW, utc) });
    const kept = tallyAll([b, a], NOW, count);
    expect(insertedInto(kept.list, [b])).toBeNull(); // a deleted
    expect(insertedInto(kept.list, [{ ...b }, a])).toBeNull(); // b edited (a new record)
    expect(tallyAfter(kept, [b, a], NOW, count, insertedInto(kept.list, [b, a]))?.tally).toEqual(kept.tally);
  });

  it("keeps the topic note the list order picks when two sessions tie at the top (then folds again)", () => {
    const count = (s: InsightSession) => ({ day: sessionDay(s, utc), counted: countedMinutes(s, NOW, utc) });
    const first = session({ hour: 30, minutes: 20, topic: 2, note: 1, odd: 0 });
    const tied = session({ hour: 30, minutes: 20, topic: 2, note: 2, odd: 0 });
    const newer = session({ hour: 54, minutes: 20, topic: 2, note: 0, odd: 0 });
    const before = sorted([first, tied]);
    const list = sorted([...before, newer]);
    const kept = tallyAll(before, NOW, count);
    const after = tallyAfter(kept, list, NOW, count, insertedInto(before, list));
    const fold = tallyAll(list, NOW, count).tally;
    expect(after === null ? fold : after.tally).toEqual(fold);
    expect(fold.topics.get("T-2")?.topicNote).toBe(before[0].topicNote);
  });
});
