/**
 * The older notes' review fold (core/device-memory/older-reviews.ts, operations/recent-reviews.ts): `next` and
 * `context` as `palee` runs them (the device memory loaded before and saved after each call, the fold taken when
 * it stands for the older notes) give exactly what the full computation over every note gives, after random
 * histories (ratings, next actions, next_done, recalls, damaged ratings, zone-dependent starts, notes whose name
 * lies about their start, duplicate IDs), notes added, synced late under old names and deleted, days passing, and
 * the memory deleted, corrupted, left stale or dated ahead at random steps.
 *
 *   OLDER_REVIEWS_RUNS (default 100)
 */
import fc from "fast-check";
import { createHash } from "node:crypto";
import { continuedDays } from "../../src/core/device-memory/older-reviews";
import type { OlderReviews } from "../../src/core/device-memory/older-reviews";
import type { MemoryOwner } from "../../src/cli/device-memory/envelope";
import { parseOlderReviews, renderOlderReviews } from "../../src/cli/device-memory/older-reviews-file";
import { PaleeError } from "../../src/core/errors";
import { BOUNDED_VIEWS } from "../../src/core/operations/bounded-views";
import { layoutFor } from "../../src/core/records/layout";
import type { Rating } from "../../src/core/review/rating";
import { reviewDaysOf } from "../../src/core/review/schedule";
import type { ReviewSession } from "../../src/core/review/schedule";
import { PaleeSessions } from "../../src/core/sessions";
import { formatTimestamp, formatUtcCompact } from "../../src/core/time";
import { confirmedText } from "../support/builders";
import { planText } from "./goals/builders";
import type { CacheTrouble } from "../support/device-memory";
import { CACHE_TROUBLES, DeviceMemoryModel } from "../support/device-memory";
import { FakeClock, SeededRandom } from "../support/fakes";
import { MemoryStore } from "../support/memory-store";

const RUNS = Number(process.env.OLDER_REVIEWS_RUNS ?? 100);
const SESSIONS = "palee/sessions/";
const DAY = 86_400_000;
const TOPICS = ["T-a", "T-b", "T-c"] as const;
const PLAN = "palee/plan.md";

interface NoteSpec {
  topic: (typeof TOPICS)[number];
  /** Days and minutes before now that it started. */
  daysBack: number;
  minute: number;
  minutes: number;
  rating: Rating | "banana" | null;
  /** The offset its times are written in; null: UTC written as "Z" (its day is the device's). */
  offset: number | null;
  next: boolean;
  done: boolean;
  recall: boolean;
  /** Seconds between its name and its recorded start (a note whose name lies). */
  lie: number;
  hex: number;
  /** Claims the session_id of the note before it. */
  duplicate: boolean;
  /** The topic note it records, if any. */
  topicNote: string | null;
}

const noteSpec: fc.Arbitrary<NoteSpec> = fc.record({
  topic: fc.constantFrom(...TOPICS),
  // Often on the days around the older notes' split (nine days back), so that a day falls across it.
  daysBack: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constantFrom(8, 9)),
  minute: fc.integer({ min: 0, max: 1439 }),
  minutes: fc.constantFrom(0, 0, 5, 30, 90),
  rating: fc.constantFrom<Rating | "banana" | null>(null, null, 1, 2, 3, 4, "banana"),
  // Rarely what keeps the fold from standing for the older notes (a zone-dependent day, a lying name, a duplicate).
  offset: fc.oneof(
    { weight: 30, arbitrary: fc.constantFrom(0, 330, -300, 780) },
    { weight: 1, arbitrary: fc.constant(null) },
  ),
  next: fc.boolean(),
  done: fc.boolean(),
  recall: fc.constantFrom(false, false, false, true),
  lie: fc.oneof(
    { weight: 30, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.constantFrom(86_400 * 12, -86_400 * 12, 1) },
  ),
  hex: fc.integer({ min: 0, max: 0xffff }),
  topicNote: fc.constantFrom(null, null, null, "[[Topic notes]]", "[[Other notes]]"),
  duplicate: fc.oneof({ weight: 30, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
});

type Step =
  | { op: "next"; asOfBack: number | null; topic: (typeof TOPICS)[number] | null }
  | { op: "context"; topic: (typeof TOPICS)[number] | null }
  | { op: "add"; note: NoteSpec }
  | { op: "delete"; pick: number }
  | { op: "clock"; hours: number }
  | { op: "rebuild" }
  | { op: "plan"; variant: 0 | 1 | 2 }
  | { op: "cache"; trouble: CacheTrouble; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant("next" as const),
      asOfBack: fc.constantFrom(null, null, null, 0, 3, 12, 30),
      topic: fc.constantFrom(null, null, ...TOPICS),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant("context" as const), topic: fc.constantFrom(null, ...TOPICS) }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("add" as const), note: noteSpec }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("delete" as const), pick: fc.nat() }) },
  // index.md written from every note: context then reads its topic by the index's lines (topic-history.ts).
  { weight: 1, arbitrary: fc.record({ op: fc.constant("rebuild" as const) }) },
  // Goals (a goal-only topic among them) and a topic whose review is off (plan.md, contract §4c).
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("plan" as const), variant: fc.constantFrom<0 | 1 | 2>(0, 1, 2) }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("clock" as const), hours: fc.constantFrom(1, 6, 25, 240) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("cache" as const),
      trouble: fc.constantFrom(...CACHE_TROUBLES),
      pick: fc.nat(),
    }),
  },
);

const RATING_TEXT = (r: NoteSpec["rating"]): string | number | null => r;

class Vault {
  readonly store = new MemoryStore();
  readonly clock = FakeClock.at("2026-12-02T04:00:00Z", 120);
  readonly cache: DeviceMemoryModel;
  /** As `palee` runs: bounded views, the older notes' fold, and the device memory. */
  readonly cli: PaleeSessions;
  /** The full computation: no memory, no bounded sources. */
  readonly full: PaleeSessions;
  private lastId: string | null = null;

  constructor() {
    this.store.now = () => this.clock.now();
    this.cache = new DeviceMemoryModel(this.store, this.store);
    const ports = { clock: this.clock, random: new SeededRandom(7), device: "laptop" };
    const layout = layoutFor("palee");
    this.cli = new PaleeSessions(
      { ...ports, store: this.cache.store, memory: this.cache.store },
      layout,
      BOUNDED_VIEWS,
    );
    this.full = new PaleeSessions({ ...ports, store: this.store }, layout);
  }

  add(n: NoteSpec): void {
    const start = Math.floor(this.clock.now() / 60_000) * 60_000 - n.daysBack * DAY - n.minute * 60_000;
    const id = `S-${formatUtcCompact(start + n.lie * 1000)}-${n.hex.toString(16).padStart(4, "0")}`;
    const path = `${SESSIONS}${id}.md`;
    if (this.store.files.has(path)) return;
    const at = (ms: number): string =>
      n.offset === null ? new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z") : formatTimestamp(ms, n.offset);
    let text = confirmedText(
      {
        session_id: n.duplicate && this.lastId !== null ? this.lastId : id,
        topic_id: n.topic,
        started_at: at(start),
        ended_at: at(start + n.minutes * 60_000),
        duration_minutes: n.minutes,
        ...(n.rating === null ? {} : { recall_rating: RATING_TEXT(n.rating) }),
        ...(n.done ? { next_done: true } : {}),
        ...(n.topicNote === null ? {} : { topic_note: n.topicNote }),
      },
      { summary: `studied ${n.hex}`, ...(n.next ? { next: `do ${n.hex}` } : {}) },
    );
    if (n.recall) text += `\n## Recall\n\nremembered ${n.hex}\n`;
    this.store.files.set(path, text);
    this.store.mtimes.set(path, this.clock.now());
    this.lastId = id;
  }

  remove(pick: number): void {
    const names = [...this.store.files.keys()].filter((p) => p.startsWith(`${SESSIONS}S-`)).sort();
    if (names.length === 0) return;
    this.store.files.delete(names[pick % names.length]);
  }

  /** plan.md: none, goals on T-b and on T-d (no session), or T-c's review off and a goal on T-a. */
  plan(variant: 0 | 1 | 2): void {
    const topics = [
      null,
      { "T-b": { sessions_per_week: 3 }, "T-d": { minutes_per_week: 60 } },
      { "T-c": { review: false }, "T-a": { minutes_per_week: 600 } },
    ][variant];
    if (topics === null) this.store.files.delete(PLAN);
    else this.store.files.set(PLAN, planText({ topics }));
  }

  /** One `palee` call: the memory read when it begins, what it learned saved when it ends. */
  async call<T>(run: () => Promise<T>): Promise<T> {
    this.cache.begin(this.clock.now());
    try {
      return await run();
    } finally {
      this.cache.end(this.clock.now(), false);
    }
  }
}

/** A result or the refusal's kind, so that both ways are compared. */
async function settled<T>(run: () => Promise<T>): Promise<T | { refused: string }> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof PaleeError)) throw error;
    return { refused: error.kind };
  }
}

async function nextAgrees(v: Vault, s: Extract<Step, { op: "next" }>, label: string): Promise<void> {
  const asOf =
    s.asOfBack === null ? null : new Date(v.clock.now() + 120 * 60_000 - s.asOfBack * DAY).toISOString().slice(0, 10);
  const options = { asOf, topic: s.topic };
  const fast = await v.call(() => settled(() => v.cli.next(options)));
  const full = await settled(() => v.full.next(options));
  expect([label, fast]).toEqual([label, full]);
}

async function contextAgrees(v: Vault, s: Extract<Step, { op: "context" }>, label: string): Promise<void> {
  const options = { topic: s.topic, words: 60 };
  const fast = await v.call(() => settled(() => v.cli.brief(options)));
  const full = await settled(() => v.full.brief(options));
  expect([label, fast]).toEqual([label, full]);
}

describe("the older notes' review fold", () => {
  it(`next and context equal the full computation (${RUNS} runs)`, async () => {
    const counts = { folded: 0, foldSaved: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(noteSpec, { maxLength: 40 }),
        fc.array(step, { maxLength: 14 }),
        async (notes, steps) => {
          const v = new Vault();
          for (const n of notes) v.add(n);
          await v.full.rebuild();
          const all: Step[] = [{ op: "next", asOfBack: null, topic: null }, { op: "context", topic: "T-a" }, ...steps];
          all.push({ op: "next", asOfBack: null, topic: null }, { op: "next", asOfBack: null, topic: "T-a" });
          for (const [i, s] of all.entries()) {
            const label = `step ${i}: ${JSON.stringify(s)}`;
            if (s.op === "next") await nextAgrees(v, s, label);
            else if (s.op === "context") await contextAgrees(v, s, label);
            else if (s.op === "add") {
              v.add(s.note);
              // Half of them as an end writes one (the views follow), half synced (index.md no longer lists all).
              if (s.note.hex % 2 === 0) await v.full.rebuild();
            } else if (s.op === "delete") v.remove(s.pick);
            else if (s.op === "clock") v.clock.advance(s.hours * 60);
            else if (s.op === "rebuild") await v.full.rebuild();
            else if (s.op === "plan") v.plan(s.variant);
            else v.cache.trouble(s.trouble, s.pick, v.clock.now());
          }
          counts.folded += v.cache.counts.folded;
          counts.foldSaved += v.cache.counts.foldSaved;
        },
      ),
      { numRuns: RUNS },
    );
    // The fold was made and taken in some calls: the comparison covered it, not only the full path.
    expect(counts.folded > 0 && counts.foldSaved > 0).toBe(true);
  }, 300_000);
});

describe("continuedDays", () => {
  const session = (day: number, minute: number, minutes: number, rating: Rating | null): ReviewSession => ({
    sessionId: `S-${day}-${minute}`,
    startedAt: `${new Date(day * DAY + minute * 60_000).toISOString().slice(0, 19)}+00:00`,
    startedMs: day * DAY + minute * 60_000,
    durationMinutes: minutes,
    recallRating: rating,
  });
  const sessionArb = fc
    .record({
      day: fc.integer({ min: 20_000, max: 20_030 }),
      minute: fc.integer({ min: 0, max: 1439 }),
      minutes: fc.constantFrom(0, 1, 30),
      rating: fc.constantFrom<Rating | null>(null, 1, 2, 3, 4),
    })
    .map((g) => session(g.day, g.minute, g.minutes, g.rating));
  const offsetAt = (): number => 0;

  it("the older days continued with later sessions are reviewDaysOf of them all, a day across the split too", () => {
    fc.assert(
      fc.property(
        fc.array(sessionArb, { maxLength: 30 }),
        fc.nat(),
        fc.integer({ min: 20_000, max: 20_031 }),
        (all, cut, asOf) => {
          const sorted = [...all].sort((a, b) => a.startedMs - b.startedMs || (a.sessionId < b.sessionId ? -1 : 1));
          const at = sorted.length === 0 ? 0 : cut % (sorted.length + 1);
          const before = reviewDaysOf(sorted.slice(0, at), offsetAt, Number.POSITIVE_INFINITY);
          expect(continuedDays(before, sorted.slice(at), offsetAt, asOf)).toEqual(reviewDaysOf(sorted, offsetAt, asOf));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a later unrated session keeps the day's older rating; a later rated one replaces it", () => {
    const older = [session(20_010, 60, 30, 4)];
    const before = reviewDaysOf(older, offsetAt, Number.POSITIVE_INFINITY);
    expect(continuedDays(before, [session(20_010, 600, 30, null)], offsetAt, 20_020)).toEqual([
      { day: 20_010, rating: 4 },
    ]);
    expect(continuedDays(before, [session(20_010, 600, 0, 1)], offsetAt, 20_020)).toEqual([{ day: 20_010, rating: 1 }]);
  });
});

describe("the fold's file (cli/device-memory/older-reviews-file.ts)", () => {
  const OWNER: MemoryOwner = { tool: "test", vault: "/vault", folder: "palee/sessions" };
  const AT = Date.parse("2026-12-02T04:00:00Z");
  const fold: OlderReviews = {
    split: "S-20261123T040000",
    keySplit: "S-20261118T040000",
    names: { digest: "ab".repeat(32), count: 3 },
    last: { ms: AT - 10 * DAY, id: "S-20261122T040000-00aa" },
    ids: ["S-elsewhere"],
    warnings: ['palee/sessions/S-20261101T040000-0001.md: recall_rating "banana" is not 1-4'],
    topics: new Map([
      [
        "T-a",
        {
          first: 20_393,
          days: [
            { day: 20_393, rating: null },
            { day: 20_395, rating: 4 },
          ],
          last: { day: 20_395, rating: 4 },
          before: { step: 0, due: 20_394 },
          marks: [{ name: "S-20261122T040000-00aa.md", day: 20_414, bits: 3 }],
          complete: true,
          recalls: [{ rank: 0, name: "S-20261122T040000-00aa.md" }],
          count: 3,
          minutes: 95,
          firstDate: "2025-11-01",
          lastDate: "2026-11-22",
          newest: ["S-20261122T040000-00aa.md", "S-20261101T040000-0001.md"],
          topicNote: "[[Topic notes]]",
          warnings: [],
        },
      ],
      [
        "T-brief",
        {
          first: 20_400,
          days: [], // its notes under a minute, unrated: no review day
          last: null,
          before: { step: -1, due: null },
          marks: [],
          complete: true,
          recalls: [],
          count: 1,
          minutes: 0,
          firstDate: "2025-11-08",
          lastDate: "2025-11-08",
          newest: ["S-20251108T040000-0002.md"],
          topicNote: null,
          warnings: [],
        },
      ],
    ]),
  };

  it("reads back what it wrote, and trusts nothing damaged, foreign, a day old or dated ahead", () => {
    const text = renderOlderReviews(OWNER, fold, AT);
    expect(parseOlderReviews(text, OWNER, AT + 60_000)).toEqual(fold);
    expect(parseOlderReviews(text.replace('"T-a"', '"T-b"'), OWNER, AT)).toBeNull(); // its checksum
    expect(parseOlderReviews(text, { ...OWNER, vault: "/other" }, AT)).toBeNull();
    expect(parseOlderReviews(text, OWNER, AT + DAY + 1)).toBeNull();
    expect(parseOlderReviews(text, OWNER, AT - 1)).toBeNull();
    expect(parseOlderReviews(text.replace('"part":"reviews"', '"part":"older"'), OWNER, AT)).toBeNull();
  });

  it("uses no value of another shape, even under a good checksum", () => {
    const forge = (edit: (body: Record<string, unknown>) => void): string => {
      const text = renderOlderReviews(OWNER, fold, AT);
      const lines = text.split("\n");
      const body = JSON.parse(lines[2]) as Record<string, unknown>;
      edit(body);
      const forged = `${JSON.stringify(body)}\n`;
      const header = JSON.parse(lines[1]) as Record<string, unknown>;
      header.sha256 = createHash("sha256").update(forged).digest("hex");
      return `${lines[0]}\n${JSON.stringify(header)}\n${forged}`;
    };
    expect(
      parseOlderReviews(
        forge(() => undefined),
        OWNER,
        AT,
      ),
    ).toEqual(fold); // the forging itself is sound
    const topic = (b: Record<string, unknown>): Record<string, unknown> =>
      (b.topics as Array<[string, Record<string, unknown>]>)[0][1];
    const later = parseOlderReviews(
      forge((b) => (topic(b).days = "20393:0,20396:4")),
      OWNER,
      AT,
    );
    expect(later?.topics.get("T-a")?.days).toEqual([
      { day: 20_393, rating: null },
      { day: 20_396, rating: 4 },
    ]);
    expect(later?.topics.get("T-a")?.last).toEqual({ day: 20_396, rating: 4 });
    const edits: Array<(b: Record<string, unknown>) => void> = [
      (b) => (topic(b).days = "20393:0,20395:7"),
      (b) => (topic(b).days = "20393:0,20395"),
      (b) => (topic(b).days = "20393:0,020395:4"),
      (b) => (topic(b).days = "20393:0,20395.5:4"),
      (b) => (topic(b).days = "20393:0,,20395:4"),
      (b) => (topic(b).days = "20393:0,20395:4,"),
      (b) => (topic(b).days = "20393:0:4"),
      (b) => (topic(b).days = [20_393, 20_395]),
      (b) => (topic(b).recalls = [["0", "S-x.md"]]),
      (b) => (topic(b).dates = ["2025-11-01"]),
      (b) => (topic(b).warnings = [3]),
      (b) => (topic(b).minutes = 1.5),
      (b) => (topic(b).marks = [["S-x.md", "day", 1]]),
      (b) => (topic(b).newest = [1]),
      (b) => (topic(b).topicNote = 5),
      (b) => (topic(b).count = -1),
      (b) => (topic(b).before = [7, null]),
      (b) => (b.last = ["soon", "S-x"]),
      (b) => (b.ids = "S-x"),
      (b) => delete b.keySplit,
    ];
    for (const edit of edits) expect(parseOlderReviews(forge(edit), OWNER, AT)).toBeNull();
  });
});
