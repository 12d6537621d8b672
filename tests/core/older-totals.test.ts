/**
 * The older notes' totals (core/device-memory/older-totals.ts, core/insight/with-older.ts, issues 37/38 "Speed"):
 * stats, goal and year from the totals plus the other notes are exactly what the full fold of every note gives,
 * every field (totals, days, weeks, topics and their topic notes, flagged sessions, streaks, week statuses, the
 * day chain, the year's levels), over random histories: plain notes, notes flagged, in the future, before 2000,
 * dated in UTC (their day is the viewer's), named apart from their IDs, with field warnings, ties at one start,
 * topic notes named or not; some older notes not kept (read by each call); any split, "now", range, as-of day,
 * min_minutes and zone; and totals taken forward to a later split as a call does. The file form reads back as
 * written and trusts nothing damaged or out of its day.
 */
import fc from "fast-check";
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type { OlderTotals } from "../../src/core/device-memory/older-totals";
import { coveredBy, extendOlder, foldOlder } from "../../src/core/device-memory/older-totals";
import { namesDigest } from "../../src/core/device-memory/names-digest";
import { dayChain, goalsReport, readPlan, studyLog, yearView } from "../../src/core/goals";
import { computeStats } from "../../src/core/insight/stats";
import { statsWithOlder, studyLogWithOlder } from "../../src/core/insight/with-older";
import type { ConfirmedSession } from "../../src/core/records/records";
import { compareNewestFirst } from "../../src/core/records/records";
import type { OffsetAt } from "../../src/core/time";
import { dayText, formatTimestamp, formatUtcCompact, localDay } from "../../src/core/time";
import type { MemoryOwner } from "../../src/cli/device-memory/envelope";
import { parseOlderTotals, renderOlderTotals } from "../../src/cli/device-memory/older-totals-file";

const FOLDER = "palee/sessions";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BASE = Date.UTC(2026, 5, 1, 6);
const FOLD_NOW = BASE + 60 * DAY;
const digest = (text: string): string => createHash("sha256").update(text).digest("hex");
const OWNER: MemoryOwner = { tool: "test", vault: "/vault", folder: FOLDER };
const ZONES: Record<string, OffsetAt> = { utc: () => 0, kolkata: () => 330, la: () => -420 };

const noteArb = fc.record({
  /** Hours from BASE (collide often: ties at one start, several a day). */
  hour: fc.integer({ min: 0, max: 58 * 24 }).map((h) => h - (h % 3)),
  // Often exactly a min_minutes below, a session that counts or not by one minute.
  minutes: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.constantFrom(4, 5, 44, 45, 239, 240)),
  topic: fc.constantFrom("T-a", "T-b", "T-c", "git_rebase"),
  note: fc.constantFrom(null, null, "[[A]]", "[[B]]"),
  offset: fc.constantFrom(0, 120, -300, 330),
  odd: fc.constantFrom(
    ...["plain", "plain", "plain", "plain", "plain", "plain", "plain", "plain"],
    ...["utc", "ended before", "too long", "future", "before 2000", "named apart", "warned"],
  ),
  kept: fc.constantFrom(true, true, true, true, false),
});
type Spec = typeof noteArb extends fc.Arbitrary<infer T> ? T : never;

function noteOf(spec: Spec, i: number): { name: string; session: ConfirmedSession; kept: boolean } {
  let startedMs = BASE + spec.hour * HOUR;
  if (spec.odd === "future") startedMs = FOLD_NOW + spec.hour * 60_000;
  if (spec.odd === "before 2000") startedMs = Date.UTC(1999, 0, 1) + spec.hour * HOUR;
  const endedMs = spec.odd === "ended before" ? startedMs - HOUR : startedMs + spec.minutes * 60_000;
  const stem = `S-${formatUtcCompact(startedMs)}-${String(i).padStart(4, "0")}`;
  const id = spec.odd === "named apart" ? `S-x-${i}` : stem;
  const startedAt = spec.odd === "utc" ? new Date(startedMs).toISOString() : formatTimestamp(startedMs, spec.offset);
  const session: ConfirmedSession = {
    sessionId: id,
    path: `${FOLDER}/${stem}.md`,
    topicId: spec.topic,
    startedAt,
    startedMs,
    endedAt: formatTimestamp(endedMs, spec.offset),
    durationMinutes: spec.odd === "too long" ? spec.minutes + 2000 : spec.minutes,
    breakMinutes: 0,
    outcome: "completed",
    absorbedDrafts: [],
    topicNote: spec.note,
    agent: null,
    recallRating: null,
    nextDone: false,
    body: "",
    bodyPending: true,
  };
  if (spec.odd === "warned") session.fieldWarnings = [`${FOLDER}/${stem}.md: recall_rating banana read as unrated`];
  return { name: `${stem}.md`, session, kept: spec.kept };
}

const PLAN = readPlan(
  [
    "---",
    "palee_schema: 1",
    "type: study_plan",
    "weekly_goals:",
    "  - from: 2026-06-01",
    "    minutes_per_week: 300",
    "    sessions_per_week: 3",
    "topics:",
    "  T-a:",
    "    weekly_goals:",
    "      - from: 2026-06-01",
    "        minutes_per_week: 60",
    "rest_days: [sun]",
    "---",
    "",
  ].join("\n"),
  "palee/plan.md",
).plan;

const splitAt = (ms: number): string => `S-${formatUtcCompact(ms)}`;

/** The totals of `notes`' names before `split`, as a call folds them from the records older-fields keeps. */
function totalsOf(notes: ReturnType<typeof noteOf>[], split: string, names: string[]): OlderTotals {
  const kept = new Map(notes.filter((n) => n.kept).map((n) => [n.name, n.session]));
  return foldOlder({ folder: FOLDER, split, now: FOLD_NOW, readAt: FOLD_NOW }, names, (n) => kept.get(n), digest);
}

/** The list a call scans beside the totals: the names it reads and the notes kept whole. */
function besideList(notes: ReturnType<typeof noteOf>[], totals: OlderTotals, names: string[]): ConfirmedSession[] {
  const covered = coveredBy(totals, names, digest);
  expect(covered).not.toBeNull();
  const rest = new Set(covered!.rest);
  const list = notes.filter((n) => rest.has(n.name)).map((n) => n.session);
  for (const [name, record] of totals.irregular) {
    list.push({ ...record, path: `${FOLDER}/${name}`, body: "", bodyPending: true });
  }
  return list.sort(compareNewestFirst);
}

const caseArb = fc.record({
  specs: fc.array(noteArb, { maxLength: 60 }),
  /** The split, in days from BASE; and a later one the totals are taken to. */
  splitDay: fc.integer({ min: 0, max: 60 }),
  moreDays: fc.integer({ min: 0, max: 10 }),
  /** "now", in hours from FOLD_NOW (before: some folded notes are in its future). */
  nowHours: fc.integer({ min: -40 * 24, max: 30 * 24 }),
  since: fc.option(fc.integer({ min: -5, max: 70 }), { nil: null }),
  until: fc.option(fc.integer({ min: -5, max: 70 }), { nil: null }),
  asOfBack: fc.integer({ min: 0, max: 50 }),
  minMinutes: fc.constantFrom(1, 5, 45, 240),
  zone: fc.constantFrom("utc", "kolkata", "la"),
});

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

/** Every answer of stats, goal and year from `list` + `totals`, or null where the totals decline. */
function answers(c: Case, list: ConfirmedSession[], totals: OlderTotals | null) {
  const now = FOLD_NOW + c.nowHours * HOUR;
  const offsetAt = ZONES[c.zone];
  const day = (d: number | null): string | null => (d === null ? null : dayText(localDay(BASE, () => 0) + d));
  const statsOptions = { now, offsetAt, since: day(c.since), until: day(c.until) };
  const stats = totals ? statsWithOlder(list, totals, statsOptions) : computeStats(list, statsOptions);
  const asOf = localDay(now, offsetAt) - c.asOfBack;
  const logOptions = { asOf, now, offsetAt, minMinutes: c.minMinutes };
  const log = totals ? studyLogWithOlder(list, totals, logOptions) : studyLog(list, logOptions);
  const plan = { ...PLAN, minMinutes: c.minMinutes };
  const goals = log && { report: goalsReport(plan, log), chain: dayChain(plan, log), year: yearView(plan, log) };
  return { stats, goals };
}

describe("older notes' totals", () => {
  it("give exactly the full fold's stats, goals and year, or decline only where they must", () => {
    let answered = 0;
    let declined = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const notes = c.specs.map(noteOf);
        const names = notes.map((n) => n.name).sort();
        const full = notes.map((n) => n.session).sort(compareNewestFirst);
        const truth = answers(c, full, null);
        const split = splitAt(BASE + c.splitDay * DAY);
        const later = splitAt(BASE + (c.splitDay + c.moreDays) * DAY);
        const totals = totalsOf(notes, split, names);
        // Taken forward as a call does: the notes past the split read as they are (kept or not).
        const read = new Map(notes.map((n) => [n.name, n.kept ? n.session : null]));
        const moved = extendOlder(
          totals,
          { folder: FOLDER, split: later, now: FOLD_NOW },
          names,
          (n) => read.get(n),
          digest,
        );
        // As a call has them: from their file (the rows per topic and day read only when asked).
        const fromFile = (t: OlderTotals) => parseOlderTotals(renderOlderTotals(OWNER, t, FOLD_NOW), OWNER, FOLD_NOW)!;
        for (const t of moved ? [totals, fromFile(moved)] : [fromFile(totals)]) {
          const got = answers(c, besideList(notes, t, names), t);
          const now = FOLD_NOW + c.nowHours * HOUR;
          // Declined only when "now" is before a folded note's start or a range cuts a topic's folded days.
          if (got.goals === null) expect(now < t.newest).toBe(true);
          else expect(got.goals).toEqual(truth.goals);
          if (got.stats === null) {
            expect(now < t.newest || c.since !== null || c.until !== null).toBe(true);
            declined += 1;
          } else {
            expect(got.stats).toEqual(truth.stats);
            answered += 1;
          }
        }
      }),
      { numRuns: 300 },
    );
    expect(answered).toBeGreaterThan(200);
    expect(declined).toBeGreaterThan(0);
  });

  it("taken forward equal the totals folded afresh at the later split", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const notes = c.specs.map(noteOf);
        const names = notes.map((n) => n.name).sort();
        const split = splitAt(BASE + c.splitDay * DAY);
        const later = splitAt(BASE + (c.splitDay + c.moreDays) * DAY);
        const read = new Map(notes.map((n) => [n.name, n.kept ? n.session : null]));
        const moved = extendOlder(
          totalsOf(notes, split, names),
          { folder: FOLDER, split: later, now: FOLD_NOW },
          names,
          (n) => read.get(n),
          digest,
        );
        if (moved === null) return;
        const afresh = totalsOf(notes, later, names);
        const rows = (t: OlderTotals) =>
          (t.rows() ?? []).flatMap((r) => r.minutes.map((m) => `${r.topicId} ${r.day} ${m}`)).sort();
        expect(rows(moved)).toEqual(rows(afresh));
        expect([moved.names, moved.passed, moved.newest, new Map(moved.facts)]).toEqual([
          afresh.names,
          afresh.passed,
          afresh.newest,
          new Map(afresh.facts),
        ]);
        expect(new Map(moved.irregular)).toEqual(new Map(afresh.irregular));
      }),
      { numRuns: 200 },
    );
  });

  it("are taken forward past a name that is no note's, never past a note the call did not read", () => {
    const spec = { minutes: 30, topic: "T-a", note: null, offset: 0, odd: "plain", kept: true } as const;
    const notes = [0, 1, 2, 3].map((i) => noteOf({ ...spec, hour: i * 30 }, i));
    const odd = `S-${formatUtcCompact(BASE + 3 * DAY)}-not a note.MD`;
    const names = [...notes.map((n) => n.name), odd].sort();
    const totals = totalsOf(notes, splitAt(BASE + DAY), names);
    const at = { folder: FOLDER, split: splitAt(BASE + 5 * DAY), now: FOLD_NOW };
    const read = new Map(notes.map((n) => [n.name, n.session]));
    const moved = extendOlder(totals, at, names, (n) => read.get(n), digest);
    expect(moved?.passed).toEqual([odd]);
    expect(coveredBy(moved!, names, digest)?.rest).toEqual([odd]);
    read.delete(notes[3].name);
    expect(extendOlder(totals, at, names, (n) => read.get(n), digest)).toBeNull();
  });

  it("hold for a listing only while its names before the split are exactly those folded", () => {
    const notes = [0, 1, 2, 3].map((i) =>
      noteOf({ hour: i * 30, minutes: 30, topic: "T-a", note: null, offset: 0, odd: "plain", kept: true }, i),
    );
    const names = notes.map((n) => n.name).sort();
    const totals = totalsOf(notes, splitAt(BASE + 5 * DAY), names);
    expect(coveredBy(totals, [...names, "DRAFT-S-1.md", "index.md"], digest)?.rest).toEqual([
      "DRAFT-S-1.md",
      "index.md",
    ]);
    // Unsorted, as some file systems list: the same answer.
    expect(coveredBy(totals, [...names].reverse(), digest)?.rest).toEqual([]);
    expect(coveredBy(totals, names.slice(1), digest)).toBeNull(); // a note deleted
    expect(coveredBy(totals, [...names, "S-20260601T000000-late.md"], digest)).toBeNull(); // a late sync, an old name
    expect(coveredBy(totals, [...names.slice(1), "S-20260601T000000-late.md"], digest)).toBeNull(); // one for another
  });

  it("hold by the folder summary's key alone while it vouches for the same split", () => {
    const spec = { minutes: 30, topic: "T-a", note: null, offset: 0, odd: "plain", kept: true } as const;
    const notes = [0, 1, 2, 3, 4, 5].map((i) => noteOf({ ...spec, hour: i * 30 }, i));
    const names = notes.map((n) => n.name).sort();
    const summarySplit = splitAt(BASE + 2 * DAY); // older notes: the first two
    const older = names.filter((n) => n < summarySplit);
    const known = { split: summarySplit, old: namesDigest(older, digest), older };
    const listing = ["DRAFT-S-1.md", ...names, "index.md"];
    const others = listing.filter((n) => !older.includes(n));
    const kept = new Map(notes.map((n) => [n.name, n.session]));
    const at = { folder: FOLDER, split: splitAt(BASE + 5 * DAY), now: FOLD_NOW, readAt: FOLD_NOW };
    const totals = foldOlder(at, listing, (n) => kept.get(n), digest, known);
    expect(totals.keyed?.split).toBe(summarySplit);
    const plain = coveredBy(totals, listing, digest);
    const keyed = coveredBy(totals, listing, digest, { known, others });
    expect(keyed?.rest.sort()).toEqual(plain?.rest.sort());
    expect(names.filter((n) => n < at.split).every((n) => keyed!.folded(n))).toBe(true);
    // A late note after the summary's split but before the totals': the key no longer holds.
    const late = `S-${formatUtcCompact(BASE + 3 * DAY + 1000)}-late.md`;
    const withLate = [...listing, late].sort();
    expect(coveredBy(totals, withLate, digest, { known, others: [...others, late].sort() })).toBeNull();
    // Another summary split (it moved): the full digest decides.
    const moved = { ...known, split: splitAt(BASE + 2 * DAY + 1000) };
    expect(coveredBy(totals, listing, digest, { known: moved, others })?.rest.sort()).toEqual(plain?.rest.sort());
  });

  it("read back from their file as written, and trust nothing damaged, forged or out of its day", () => {
    fc.assert(
      fc.property(fc.array(noteArb, { maxLength: 30 }), (specs) => {
        const notes = specs.map(noteOf);
        const names = notes.map((n) => n.name).sort();
        const totals = totalsOf(notes, splitAt(BASE + 70 * DAY), names);
        const text = renderOlderTotals(OWNER, totals, FOLD_NOW + HOUR);
        const back = parseOlderTotals(text, OWNER, FOLD_NOW + 2 * HOUR);
        expect(back).not.toBeNull();
        const plain = (t: OlderTotals) => ({
          ...t,
          rows: t.rows(),
          facts: new Map(t.facts),
          topics: new Map(t.topics),
          irregular: new Map(t.irregular),
        });
        expect(plain(back!)).toEqual(plain(totals));
      }),
      { numRuns: 100 },
    );
    const notes = [
      noteOf({ hour: 3, minutes: 30, topic: "T-a", note: "[[A]]", offset: 0, odd: "plain", kept: true }, 1),
    ];
    const totals = totalsOf(notes, splitAt(BASE + 70 * DAY), [notes[0].name]);
    const text = renderOlderTotals(OWNER, totals, FOLD_NOW);
    expect(parseOlderTotals(text, OWNER, FOLD_NOW + 25 * HOUR)).toBeNull(); // its notes read over a day ago
    expect(parseOlderTotals(text, OWNER, FOLD_NOW - 1)).toBeNull(); // dated ahead
    expect(parseOlderTotals(text.replace("[[A]]", "[[Z]]"), OWNER, FOLD_NOW)).toBeNull(); // its checksum
    expect(parseOlderTotals(text, { ...OWNER, tool: "other" }, FOLD_NOW)).toBeNull();
    // Forged with a good checksum: minutes that no note counts, in a day's sums or in a row (read when asked).
    const forge = (from: RegExp, to: string): string => {
      const body = text.slice(text.indexOf("\n", text.indexOf("\n") + 1) + 1).replace(from, to);
      const header = JSON.parse(text.split("\n")[1]) as Record<string, unknown>;
      const forged = `${text.split("\n")[0]}\n${JSON.stringify({ ...header, sha256: digest(body) })}\n${body}`;
      expect(forged).not.toEqual(text);
      return forged;
    };
    expect(parseOlderTotals(forge(/"minutes":"30"/, '"minutes":"-3"'), OWNER, FOLD_NOW)).toBeNull();
    expect(parseOlderTotals(forge(/"minutes":"30"/, '"minutes":"1441"'), OWNER, FOLD_NOW)).toBeNull();
    expect(parseOlderTotals(forge(/"totals":\[30\]/, '"totals":[-30]'), OWNER, FOLD_NOW)).toBeNull();
    const rowForged = parseOlderTotals(forge(/\[\[(\d+),1,30\]\]/, "[[$1,1,-3]]"), OWNER, FOLD_NOW);
    expect(rowForged).not.toBeNull();
    expect(rowForged!.rows()).toBeNull();
    expect(isDeepStrictEqual(parseOlderTotals(text, OWNER, FOLD_NOW)?.rows(), totals.rows())).toBe(true);
  });
});
