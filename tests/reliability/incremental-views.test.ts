/**
 * Property test (issue 13): the views an operation updates incrementally (end inserts its line into index.md;
 * list answers from it) are exactly what a full rebuild writes, after random sequences of sessions, notes
 * arriving by sync (some in the same second, some under a name that does not match their start), notes
 * deleted, renamed or damaged by hand, and index.md deleted, damaged or edited by hand. As `palee` runs it: with
 * the device memory (issue 22), loaded before and saved after each call, deleted, corrupted, left
 * stale or dated in the future at random steps, and notes synced with their old file times. After every step `next`
 * (from the older notes' review fold, issue 37, when it stands for them) equals the full computation.
 *
 *   INCREMENTAL_RUNS (default 200)
 */
import fc from "fast-check";
import { layoutFor } from "../../src/core/records/layout";
import { BOUNDED_VIEWS } from "../../src/core/operations/bounded-views";
import { PaleeSessions } from "../../src/core/sessions";
import { computeStats, statsMemo } from "../../src/core/insight/stats";
import { statsWithOlder } from "../../src/core/insight/with-older";
import { formatTimestamp, formatUtcCompact } from "../../src/core/time";
import { confirmedText } from "../support/builders";
import { FakeClock, SeededRandom, harness } from "../support/fakes";
import type { Harness } from "../support/fakes";
import { HOT, INDEX, S } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";
import type { CacheTrouble } from "../support/device-memory";
import { CACHE_TROUBLES, DeviceMemoryModel } from "../support/device-memory";
import { KEPT_SPAN_MS } from "../../src/core/device-memory/kept-fields";

const RUNS = Number(process.env.INCREMENTAL_RUNS ?? 200);
const SESSIONS = "palee/sessions/";

type Action =
  | { op: "session"; topic: string; minutes: number; summary: boolean }
  | { op: "sync"; daysBack: number; seconds: number; offset: number; hex: number; lie: number; keepsTime?: boolean }
  | { op: "cache"; trouble: CacheTrouble; pick: number }
  | { op: "delete" | "rename-away" | "rename-lying" | "annotate"; pick: number }
  | { op: "index"; edit: "delete" | "garbage" | "drop line" | "swap lines" | "total" | "stale line" | "retitle" }
  | { op: "clock"; minutes: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant("session" as const),
      topic: fc.constantFrom("T-a", "T-b"),
      minutes: fc.integer({ min: 0, max: 90 }),
      summary: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("sync" as const),
      daysBack: fc.integer({ min: -1, max: 400 }),
      seconds: fc.integer({ min: 0, max: 86_399 }),
      offset: fc.constantFrom(0, 60, -300, 330, 780, -600),
      hex: fc.integer({ min: 0, max: 0xffff }),
      lie: fc.constantFrom(0, 0, 0, -3600, 86_400, 1),
      // Issue 22: a sync tool that keeps the other device's file time (when the note was written there).
      keepsTime: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("cache" as const),
      trouble: fc.constantFrom(...CACHE_TROUBLES),
      pick: fc.nat(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constantFrom("delete" as const, "rename-away" as const, "rename-lying" as const, "annotate" as const),
      pick: fc.nat(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("index" as const),
      edit: fc.constantFrom(
        "delete" as const,
        "garbage" as const,
        "drop line" as const,
        "swap lines" as const,
        "total" as const,
        "stale line" as const,
        "retitle" as const,
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant("clock" as const), minutes: fc.integer({ min: -120, max: 3000 }) }),
  },
);

function confirmedNames(store: MemoryStore): string[] {
  return [...store.files.keys()].filter((p) => p.startsWith(`${SESSIONS}S-`)).sort();
}

/** A note written on another device, arriving by sync; `lie` seconds between its name and its recorded start. */
function sync(h: Harness, a: Extract<Action, { op: "sync" }>): void {
  const start = Math.floor(h.clock.now() / 1000) * 1000 - a.daysBack * 86_400_000 - a.seconds * 1000;
  const id = `S-${formatUtcCompact(start + a.lie * 1000)}-${a.hex.toString(16).padStart(4, "0")}`;
  if (h.store.files.has(S(id))) return;
  const text = confirmedText(
    {
      session_id: id,
      topic_id: "T-synced",
      started_at: formatTimestamp(start, a.offset),
      ended_at: formatTimestamp(start + 1_800_000, a.offset),
      duration_minutes: 30,
    },
    { summary: `from the phone ${a.hex}` },
  );
  h.store.files.set(S(id), text);
  // Arrives now, whatever it records; or with the time it was written on the phone, when the session ended.
  h.store.mtimes.set(S(id), a.keepsTime === true ? Math.min(h.clock.now(), start + 1_800_000) : h.clock.now());
}

function handEdit(
  h: Harness & { cache?: DeviceMemoryModel; gone?: Set<string> },
  a: Extract<Action, { op: "delete" | "rename-away" | "rename-lying" | "annotate" }>,
): void {
  const names = confirmedNames(h.store);
  if (names.length === 0) return;
  // The newest notes most often: the ones the device keeps by identity (core/device-memory/kept-fields.ts).
  const path = names[names.length - 1 - (a.pick % Math.min(names.length, a.op === "annotate" ? 3 : names.length))];
  const text = h.store.files.get(path) ?? "";
  if (a.op === "annotate") {
    // A property added in place, as a learner does in the app: no view shows it, so the views stay as they were;
    // the notes kept must not answer what the note said before (DeviceMemoryModel checks every answer).
    h.store.files.set(path, text.replace("palee_schema: 1\n", `palee_schema: 1\nmood: good ${a.pick}\n`));
    h.store.mtimes.set(path, h.clock.now());
    h.cache?.rewritten.add(path.slice(SESSIONS.length)); // the times' blind spot (docs/performance.md)
    return;
  }
  h.store.files.delete(path);
  h.gone?.add(path);
  const renamed =
    a.op === "rename-away"
      ? `${SESSIONS}My renamed session ${a.pick}.md`
      : a.op === "rename-lying"
        ? `${SESSIONS}S-20200101T000000-${(a.pick % 0xffff).toString(16)}.md`
        : null;
  if (renamed === null) return;
  // Over a note, or under a name a note had: the blind spot of the names remembered (docs/performance.md).
  if (h.store.files.has(renamed) || h.gone?.has(renamed)) h.cache?.replaced(renamed.slice(SESSIONS.length));
  h.store.files.set(renamed, text);
  h.store.mtimes.set(renamed, h.clock.now()); // a rename changes the file's status time
}

function editIndex(h: Harness, edit: Extract<Action, { op: "index" }>["edit"]): void {
  const text = h.store.files.get(INDEX);
  if (edit === "delete") return void h.store.files.delete(INDEX);
  if (edit === "garbage") return void h.store.files.set(INDEX, "\u0000 garbage ]]\n");
  if (text === undefined) return;
  const lines = text.split("\n");
  const items = lines.map((l, i) => (l.startsWith("- [[") ? i : -1)).filter((i) => i >= 0);
  if (edit === "drop line" && items.length > 0) lines.splice(items[0], 1);
  if (edit === "swap lines" && items.length > 1)
    [lines[items[0]], lines[items[1]]] = [lines[items[1]], lines[items[0]]];
  if (edit === "total")
    return void h.store.files.set(
      INDEX,
      text.replace(/Total sessions: (\d+)/, (_, n) => `Total sessions: ${Number(n) + 1}`),
    );
  if (edit === "stale line")
    lines.splice(lines.length - 1, 0, "- [[S-20200101T000000-dead]] - Topic: T-gone (2020-01-01, 5 min)");
  if (edit === "retitle") return void h.store.files.set(INDEX, text.replace("# PALEE session index", "# My sessions"));
  h.store.files.set(INDEX, lines.join("\n"));
}

/** The core as `palee` runs it: bounded views, and the memory of this device between calls (issue 22). */
interface Cached extends Harness {
  cache: DeviceMemoryModel;
  /** Every note's path deleted or renamed away by hand so far. */
  gone: Set<string>;
}

function cachedHarness(): Cached {
  const h = harness({ bounded: true });
  const cache = new DeviceMemoryModel(h.store, h.store);
  const ports = { ...h.ports, store: cache.store, memory: cache.store };
  const core = new PaleeSessions(ports, layoutFor("palee"), BOUNDED_VIEWS);
  return { ...h, ports, cache, gone: new Set(), core };
}

/** One `palee` call: the cache read when it begins, saved when it ends (`writes`: it holds the lock). */
async function call<T>(h: Cached, writes: boolean, run: () => Promise<T>): Promise<T> {
  h.cache.begin(h.clock.now());
  const result = await run();
  h.cache.end(h.clock.now(), writes);
  return result;
}

/** What a full rebuild writes, on a copy of the vault at the same instant. */
async function rebuilt(h: Harness): Promise<{ index: string | undefined; hot: string | undefined }> {
  const copy = new MemoryStore(Object.fromEntries(h.store.files));
  const core = new PaleeSessions(
    { ...h.ports, store: copy, clock: new FakeClock(h.clock.now(), h.clock.offset), random: new SeededRandom(9) },
    layoutFor("palee"),
  );
  await core.rebuild();
  return { index: copy.files.get(INDEX), hot: copy.files.get(HOT) };
}

async function session(h: Cached, a: Extract<Action, { op: "session" }>, step: string): Promise<void> {
  const started = await call(h, true, () => h.core.start({ topic: a.topic, ignorePending: true }));
  if (started.status !== "started") throw new Error(`${step}: start ${started.status}`);
  h.clock.advance(a.minutes);
  await call(h, true, () => h.core.end({ summary: a.summary ? `summary ${step}` : null }));
  const expected = await rebuilt(h);
  expect([step, h.store.files.get(INDEX)]).toEqual([step, expected.index]);
  // active_topic is state, not derived: end makes the ended topic active, a rebuild the newest session's.
  const derived = (text: string | undefined): string | undefined => text?.replace(/^active_topic: .*$/m, "");
  expect([step, derived(h.store.files.get(HOT))]).toEqual([step, derived(expected.hot)]);
}

/** list (newest ten, from the index when it can be trusted) agrees with the full list. */
async function listAgrees(h: Cached, step: string): Promise<void> {
  const fast = await call(h, false, () => h.core.list());
  const full = await call(h, false, () => h.core.list({ all: true }));
  const ids = (r: typeof fast): string[] => r.confirmed.map((s) => s.path);
  expect([step, ids(fast), fast.totalConfirmed, fast.drafts.length]).toEqual([
    step,
    ids(full).slice(0, 10),
    full.totalConfirmed,
    full.drafts.length,
  ]);
  expect([step, fast.skipped]).toEqual([step, full.skipped]);
}

/**
 * next (from the older notes' review fold when it stands for them, issue 37) agrees with the full computation: the
 * same core without a device memory or bounded sources, on the same vault.
 */
/**
 * Whether a note named before the recent span (now less KEPT_SPAN_MS, the split of every fold made so far) was
 * rewritten in place: the older notes' folds keep what it said before until they are a day old or a rebuild (the
 * blind spot, docs/performance.md), so an answer from them need not be the full computation's.
 */
function olderRewritten(h: Cached): boolean {
  const split = `S-${formatUtcCompact(h.clock.now() - KEPT_SPAN_MS)}`;
  return [...h.cache.rewritten].some((name) => name < split);
}

async function nextAgrees(h: Cached, step: string): Promise<void> {
  if (olderRewritten(h)) return;
  const fast = await call(h, false, () => h.core.next());
  const full = await new PaleeSessions({ ...h.ports, store: h.store, memory: undefined }, layoutFor("palee")).next();
  expect([step, fast]).toEqual([step, full]);
}

/**
 * stats, goal and year as `palee` works them out (cli/commands/stats.ts: the scan without the notes the older
 * totals fold, plus those totals) agree with the full fold of every note on a copy without the device memory.
 */
async function totalsAgree(h: Cached, step: string): Promise<void> {
  if (olderRewritten(h)) return;
  const now = h.clock.now();
  const offsetAt = (at: number): number => h.ports.clock.offsetMinutes(at);
  const fast = await call(h, false, async () => {
    const { scan, older } = await h.core.scanWithOlder();
    const memo = statsMemo();
    const stats = older && statsWithOlder(scan.confirmed, older.totals, { now, offsetAt, memo });
    const full = stats ? scan : await h.core.scan();
    const goals = await h.core.goals({ scan: full, older: stats ? older : null, memo });
    return { stats: stats ?? computeStats(full.confirmed, { now, offsetAt }), goals, year: await h.core.year() };
  });
  const copy = new MemoryStore(Object.fromEntries(h.store.files));
  const core = new PaleeSessions({ ...h.ports, store: copy, memory: undefined }, layoutFor("palee"));
  const scan = await core.scan();
  const full = {
    stats: computeStats(scan.confirmed, { now, offsetAt }),
    goals: await core.goals(),
    year: await core.year(),
  };
  expect([step, fast]).toEqual([step, full]);
}

/**
 * Found by a random run (seed 296543336): a note named a day after its recorded start, the first two lines of
 * index.md swapped into name order; `list` showed them in the index's order, `list --all` by recorded start.
 */
const LYING_SWAPPED: Action[] = [
  { op: "sync", daysBack: -1, seconds: 0, offset: 0, hex: 0, lie: 0, keepsTime: false },
  { op: "sync", daysBack: -1, seconds: 1, offset: 0, hex: 0, lie: 86_400, keepsTime: false },
  { op: "session", topic: "T-a", minutes: 0, summary: false },
  { op: "index", edit: "swap lines" },
];

const cacheRuns: Array<DeviceMemoryModel["counts"]> = [];

describe("incremental views", () => {
  it(`end leaves index.md and hot.md exactly as a rebuild writes them (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { maxLength: 25 }), async (actions) => {
        const h = cachedHarness();
        cacheRuns.push(h.cache.counts);
        for (const [i, a] of [
          ...actions,
          { op: "session", topic: "T-a", minutes: 5, summary: true } as const,
        ].entries()) {
          const step = `step ${i}: ${JSON.stringify(a)}`;
          if (a.op === "session") await session(h, a, step);
          else if (a.op === "sync") sync(h, a);
          else if (a.op === "index") editIndex(h, a.edit);
          else if (a.op === "clock") h.clock.advance(a.minutes);
          else if (a.op === "cache") h.cache.trouble(a.trouble, a.pick, h.clock.now());
          else handEdit(h, a);
          await listAgrees(h, step);
          await nextAgrees(h, step);
          await totalsAgree(h, step);
        }
      }),
      { numRuns: RUNS, examples: [[LYING_SWAPPED]] },
    );
    // The cache was trusted in some calls, learned afresh in others, answered bounded scans, knew an index, and
    // answered some writing calls from the folder's summary alone, and some notes from the notes kept by identity.
    const total = (key: keyof DeviceMemoryModel["counts"]): number => cacheRuns.reduce((n, c) => n + c[key], 0);
    const kinds = [
      "warm",
      "cold",
      "answered",
      "indexKnown",
      "summaryOnly",
      "kept",
      "span",
      "older",
      "olderSaved",
      "folded",
      "foldSaved",
      "totals",
      "totalsSaved",
    ] as const;
    expect(Object.fromEntries(kinds.map((k) => [k, total(k) > 0]))).toEqual(
      Object.fromEntries(kinds.map((k) => [k, true])),
    );
  }, 300_000);
});
