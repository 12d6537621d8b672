/**
 * The plugin asks for the queue after every end with a schedule memo (topic-schedules.ts): only the topics of
 * the notes inserted since the last call are scheduled again. The oracle is topicSchedules without a memo over
 * the same list: through random runs of ends, deleted and edited notes (a rating changed by hand), a new as-of
 * day and a new offset, every answer with the memo must equal the one without, and schedules must be reused.
 */
import fc from "fast-check";
import type { ConfirmedSession } from "../../../src/core/records/records";
import { compareNewestFirst } from "../../../src/core/records/records";
import type { Rating } from "../../../src/core/review/rating";
import { scheduleMemo, topicSchedules } from "../../../src/core/review/topic-schedules";
import type { OffsetAt } from "../../../src/core/time";
import type { ListStep } from "../../support/list-steps";
import { afterListStep, isListStep, listStepArbitraries } from "../../support/list-steps";
import { START, ratedSessionFields, ratingArb, startedMsOf } from "./arbitraries";

const utc: OffsetAt = () => 0;
const honolulu: OffsetAt = () => -600;

const specArb = fc.record({
  ...ratedSessionFields(["T-a", "T-b", "T-c", "T-d"], 120),
  // Some notes name no offset (the original tool's "…Z"): their day is the viewer's, so the offset matters.
  zulu: fc.boolean(),
});
type Spec = typeof specArb extends fc.Arbitrary<infer T> ? T : never;

let serial = 0;
function session(g: Spec): ConfirmedSession {
  const startedMs = startedMsOf(g);
  const iso = new Date(startedMs).toISOString();
  const id = `S-${String(++serial).padStart(6, "0")}`;
  return {
    sessionId: id,
    path: `palee/sessions/${id}.md`,
    topicId: g.topic,
    startedAt: g.zulu ? iso : iso.replace(".000Z", "+00:00"),
    startedMs,
    endedAt: new Date(startedMs + g.minutes * 60_000).toISOString(),
    durationMinutes: g.minutes,
    breakMinutes: 0,
    outcome: "completed",
    absorbedDrafts: [],
    topicNote: null,
    body: "",
    recallRating: g.rating,
  };
}

/** A list step's edit is a rating changed by hand. */
type Step = ListStep<Spec, Rating | null> | { kind: "asOf"; days: number } | { kind: "offset" };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  ...listStepArbitraries(specArb, ratingArb, 2),
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("asOf" as const), days: fc.integer({ min: -40, max: 40 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("offset" as const) }) },
);

const sessions = {
  make: session,
  sort: (list: ConfirmedSession[]) => list.sort(compareNewestFirst),
  edit: (s: ConfirmedSession, rating: Rating | null) => ({ ...s, recallRating: rating }),
};

describe("topicSchedules with the memo", () => {
  it("equals the schedules worked out from scratch after ends, deletions, edits and a new day", () => {
    let reused = 0;
    fc.assert(
      fc.property(
        fc.array(specArb, { maxLength: 40 }),
        fc.array(stepArb, { minLength: 1, maxLength: 12 }),
        (first, steps) => {
          let list = first.map(session).sort(compareNewestFirst);
          let asOf = START + 100;
          let offsetAt = utc;
          const memo = scheduleMemo();
          let last = topicSchedules(list, offsetAt, asOf, memo);
          for (const step of steps) {
            if (isListStep<Spec, Rating | null>(step)) list = afterListStep(list, step, sessions);
            else if (step.kind === "asOf") asOf += step.days;
            else if (step.kind === "offset") offsetAt = offsetAt === utc ? honolulu : utc;
            const withMemo = topicSchedules(list, offsetAt, asOf, memo);
            expect(withMemo).toEqual(topicSchedules(list, offsetAt, asOf));
            for (const [topicId, t] of withMemo) if (last.get(topicId)?.schedule === t.schedule) reused++;
            last = withMemo;
          }
        },
      ),
      { numRuns: 500 },
    );
    expect(reused).toBeGreaterThan(500);
  });

  it("schedules again the topic of a new note, and only that one", () => {
    const memo = scheduleMemo();
    const a = session({ topic: "T-a", day: 3, minute: 600, minutes: 30, rating: null, zulu: false });
    const b = session({ topic: "T-b", day: 4, minute: 600, minutes: 30, rating: null, zulu: false });
    const before = topicSchedules([b, a], utc, START + 10, memo);
    const again = session({ topic: "T-a", day: 9, minute: 600, minutes: 30, rating: 1, zulu: false });
    const after = topicSchedules([again, b, a], utc, START + 10, memo);
    expect(after.get("T-b")?.schedule).toBe(before.get("T-b")?.schedule);
    expect(after.get("T-a")?.schedule).not.toBe(before.get("T-a")?.schedule);
    expect(after.get("T-a")?.schedule.due).toBe(START + 10); // "again" on day 9: due the next day
  });
});
