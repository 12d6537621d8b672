/**
 * Properties of the schedule and the queue (contract §4c, §6 invariants 15, 19, 20) over generated histories:
 * every topic with a review day or a goal is listed exactly once; the order is total (it does not depend on the
 * order topics come in); a rating changes only the schedule, never a time, a total or the streak.
 */
import fc from "fast-check";
import { computeStats } from "../../../src/core/insight/stats";
import type { PlanView, TopicGoal } from "../../../src/core/review/goal-progress";
import { buildQueue } from "../../../src/core/review/queue";
import type { QueueTopic } from "../../../src/core/review/queue";
import { reviewDaysOf, scheduleOf } from "../../../src/core/review/schedule";
import { DAY, START, ratedSessionFields, startedMsOf } from "./arbitraries";

const utc = () => 0;

const sessionArb = fc.record({
  ...ratedSessionFields(["T-a", "T-b", "T-c", "T-d", "T-e"], 200),
  next: fc.boolean(),
});
type Gen = typeof sessionArb extends fc.Arbitrary<infer T> ? T : never;

function sessionsOf(gen: readonly Gen[]) {
  return gen.map((g, i) => {
    const startedMs = startedMsOf(g);
    const startedAt = new Date(startedMs).toISOString().replace(".000Z", "+00:00");
    const endedAt = new Date(startedMs + g.minutes * 60_000).toISOString().replace(".000Z", "+00:00");
    const id = `S-${String(i).padStart(6, "0")}`;
    return { ...g, sessionId: id, startedAt, startedMs, endedAt, durationMinutes: g.minutes, recallRating: g.rating };
  });
}

function topicsOf(sessions: ReturnType<typeof sessionsOf>, asOf: number): QueueTopic[] {
  const ids = [...new Set(sessions.map((s) => s.topic))];
  return ids.map((topicId) => {
    const mine = sessions.filter((s) => s.topic === topicId);
    const schedule = scheduleOf(reviewDaysOf(mine, utc, asOf));
    return { topicId, schedule, nextAction: mine.some((s) => s.next) ? "next" : null };
  });
}

const goalArb: fc.Arbitrary<TopicGoal> = fc.record({
  minutes: fc.integer({ min: 0, max: 300 }),
  sessions: fc.integer({ min: 0, max: 6 }),
  minutesTarget: fc.option(fc.integer({ min: 1, max: 300 }), { nil: null }),
  sessionsTarget: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
  paused: fc.boolean(),
});
const planArb: fc.Arbitrary<PlanView> = fc
  .record({
    off: fc.subarray(["T-a", "T-c", "T-x"]),
    goals: fc.dictionary(fc.constantFrom("T-b", "T-d", "T-g", "T-h"), goalArb),
  })
  .map(({ off, goals }) => ({ reviewOff: new Set(off), goals: new Map(Object.entries(goals)) }));

describe("queue properties", () => {
  it("lists every topic with a review day or a goal exactly once (queue or excluded)", () => {
    fc.assert(
      fc.property(
        fc.array(sessionArb, { maxLength: 40 }),
        planArb,
        fc.integer({ min: 0, max: 220 }),
        (gen, plan, d) => {
          const asOf = START + d;
          const topics = topicsOf(sessionsOf(gen), asOf);
          const { queue, excluded } = buildQueue(topics, plan, asOf);
          const listed = [...queue.map((e) => e.topicId), ...excluded];
          const expected = new Set([
            ...topics.filter((t) => t.schedule.history.length > 0).map((t) => t.topicId),
            ...plan.goals.keys(),
            ...plan.reviewOff,
          ]);
          expect(listed.length).toBe(new Set(listed).size);
          expect(new Set(listed)).toEqual(expected);
          for (const topicId of plan.reviewOff) expect(queue.some((e) => e.topicId === topicId)).toBe(false);
        },
      ),
    );
  });

  it("gives one order whatever order the topics come in (a total order)", () => {
    fc.assert(
      fc.property(
        fc.array(sessionArb, { maxLength: 40 }),
        planArb,
        fc.integer({ min: 0, max: 220 }),
        fc.integer(),
        (gen, plan, d, seed) => {
          const asOf = START + d;
          const topics = topicsOf(sessionsOf(gen), asOf);
          const shuffled = [...topics].sort((a, b) => hash(a.topicId, seed) - hash(b.topicId, seed));
          const order = (ts: QueueTopic[]) => buildQueue(ts, plan, asOf).queue.map((e) => `${e.group}:${e.topicId}`);
          expect(order(shuffled)).toEqual(order(topics));
          expect(order([...topics].reverse())).toEqual(order(topics));
        },
      ),
    );
  });

  it("keeps due topics most late first (elapsed / gap never rises down the group)", () => {
    fc.assert(
      fc.property(fc.array(sessionArb, { maxLength: 40 }), fc.integer({ min: 0, max: 220 }), (gen, d) => {
        const asOf = START + d;
        const due = buildQueue(
          topicsOf(sessionsOf(gen), asOf),
          { reviewOff: new Set(), goals: new Map() },
          asOf,
        ).queue.filter((e) => e.group === "due");
        const late = due.map((e) => (asOf - (e.schedule.lastReviewed as number)) / (e.schedule.gapDays as number));
        for (let i = 1; i < late.length; i++) expect(late[i]).toBeLessThanOrEqual(late[i - 1]);
      }),
    );
  });

  it("a rating never changes a time, a total or the streak (only the schedule)", () => {
    fc.assert(
      fc.property(fc.array(sessionArb, { minLength: 1, maxLength: 30 }), (gen) => {
        const rated = sessionsOf(gen);
        const unrated = rated.map((s) => ({ ...s, recallRating: null }));
        const insight = (list: typeof rated) =>
          list.map((s) => ({
            ...s,
            topicId: s.topic,
            path: `${s.sessionId}.md`,
            outcome: "completed",
            topicNote: null,
          }));
        const options = { now: (START + 230) * DAY, offsetAt: utc };
        expect(computeStats(insight(rated), options)).toEqual(computeStats(insight(unrated), options));
      }),
    );
  });
});

function hash(text: string, seed: number): number {
  let h = seed | 0;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 2654435761);
  return h;
}
