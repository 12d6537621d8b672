import type { ConfirmedSession } from "../records/records";
import { compareNewestFirst } from "../records/records";
import { countedWith } from "../insight/stats";
import { formatUtcCompact, notingOffset } from "../time";
import { firstAtOrAfter } from "./folder-summary";
import type { Digest, NamesDigest } from "./names-digest";
import { digestInOrder, namesDigest, sameDigest } from "./names-digest";
import type { KnownOlder } from "./checked-indexes";
import { namesKey, splitKey } from "./checked-indexes";
import type { KeptRecord } from "./older-fields";
import { KEPT_SPAN_MS } from "./kept-fields";
import { kindOf } from "../scan/names";

/*
 * The older notes' totals (issues 37/38 "Speed"; docs/performance.md "Older totals"): what stats, goal and year
 * need of the notes older-fields.ts keeps, folded, so that a call neither makes a record per older note nor loads
 * their records. Pure: the face keeps them between its processes (the CLI: cli/device-memory/older-totals-file.ts).
 *
 * Keyed by exactly which names they fold: every name of the listing in ["S-", split), as a names digest. Each of
 * those names is folded (a plain note: its topic, day and minutes in a row), kept whole (an irregular one, folded
 * by each call as a session), or passed (not kept by older-fields: read by each call, as without the totals). A
 * plain note is one whose answer does not depend on anything a call brings: named after its session_id (so no
 * other note can win its ID unseen), no field warning, counted with no problem, and its day and minutes worked out
 * without the local offset. So the totals plus the other notes give exactly the full fold (with-older.ts).
 */

/** Every confirmed note's name begins so (records/ids.ts), and so does every split. */
const CONFIRMED_PREFIX = "S-";

/** One topic's plain notes of one local day: each one's counted minutes. */
export interface TotalsRow {
  readonly topicId: string;
  readonly day: number;
  readonly minutes: readonly number[];
}

/**
 * A plain note that may decide its topic's topic note (stats-tally.ts addTopic): those that started at its newest
 * start, and the first after them (newest first) that names one. Enough for any union with other notes.
 */
export interface NoteFact {
  readonly startedMs: number;
  readonly sessionId: string;
  readonly topicNote: string | null;
}

/** The plain notes of one local day, all topics: their minutes in all, and each one's, ascending. */
export interface DayRow {
  readonly day: number;
  readonly total: number;
  readonly minutes: readonly number[];
}

/** How many of a day's notes count for at least `min` minutes (a binary search: its minutes are ascending). */
export function atLeast(day: DayRow, min: number): number {
  return day.minutes.length - firstAtOrAfter(day.minutes, min);
}

/** One topic's plain notes: their minutes, how many, and their first and last days. */
export interface TopicSum {
  readonly minutes: number;
  readonly sessions: number;
  readonly firstDay: number;
  readonly lastDay: number;
}

export interface OlderTotals {
  /** The names before this one (from "S-") are the ones folded, kept or passed. */
  readonly split: string;
  /** The digest of those names (namesDigest). */
  readonly names: NamesDigest;
  /**
   * The same names' digest cut at the folder summary's split (checked-indexes.ts namesKey), when a summary
   * vouched for the listing folded: a call whose summary vouches for the same split digests only the few names
   * after it, not the history.
   */
  readonly keyed: { readonly split: string; readonly names: NamesDigest } | null;
  /** Of them, those not folded: read by each call. */
  readonly passed: readonly string[];
  /** Of them, the irregular ones: folded by each call as sessions. */
  readonly irregular: ReadonlyMap<string, KeptRecord>;
  /** Per day (all topics), oldest first: what every answer needs. */
  readonly days: readonly DayRow[];
  /** Per topic: what stats needs without a range. */
  readonly topics: ReadonlyMap<string, TopicSum>;
  /** Per topic and day: for a range or an as-of week among the folded days; null when they cannot be read. */
  rows(): readonly TotalsRow[] | null;
  /** Per topic, the plain notes that may decide its topic note (NoteFact). */
  readonly facts: ReadonlyMap<string, readonly NoteFact[]>;
  /** The newest start of a plain note (−Infinity: none): a call whose "now" is before it folds afresh. */
  readonly newest: number;
  /** When the notes folded were read (older-fields.ts: its records' day bounds the blind spot, and so this). */
  readonly readAt: number;
}

const stemOf = (name: string): string => (name.endsWith(".md") ? name.slice(0, -3) : name);

/** A session as kept: without its path and body. */
function recordOf(session: ConfirmedSession): KeptRecord {
  const { path: _path, body: _body, bodyPending: _pending, ...record } = session;
  return record;
}

/** A plain note's day and counted minutes (see above), or null for any other. */
export function plainCount(
  name: string,
  session: ConfirmedSession,
  now: number,
): { day: number; minutes: number } | null {
  if (session.sessionId !== stemOf(name) || (session.fieldWarnings?.length ?? 0) > 0) return null;
  const zone = notingOffset();
  const { day, counted } = countedWith(session, now, zone.offsetAt, undefined);
  const plain = !zone.asked() && counted.counted && counted.problem === null && Number.isFinite(day);
  return plain ? { day, minutes: counted.minutes } : null;
}

/** The facts of `facts` that may decide the topic note (NoteFact). */
export function decidingFacts(facts: readonly NoteFact[]): NoteFact[] {
  const order = facts
    .slice()
    .sort((a, b) => b.startedMs - a.startedMs || (a.sessionId < b.sessionId ? 1 : a.sessionId > b.sessionId ? -1 : 0));
  if (order.length === 0) return order;
  const top = order[0].startedMs;
  const kept = order.filter((f) => f.startedMs === top);
  const named = order.find((f) => f.startedMs !== top && f.topicNote !== null);
  return named ? [...kept, named] : kept;
}

/** The per-day and per-topic sums of per-topic-and-day rows. */
export function sumsOf(rows: readonly TotalsRow[]): { days: DayRow[]; topics: Map<string, TopicSum> } {
  const days = new Map<number, number[]>();
  const topics = new Map<string, TopicSum>();
  for (const { topicId, day, minutes } of rows) {
    const list = days.get(day);
    if (list) list.push(...minutes);
    else days.set(day, [...minutes]);
    const sum = minutes.reduce((a, b) => a + b, 0);
    const t = topics.get(topicId);
    topics.set(topicId, {
      minutes: (t?.minutes ?? 0) + sum,
      sessions: (t?.sessions ?? 0) + minutes.length,
      firstDay: Math.min(t?.firstDay ?? day, day),
      lastDay: Math.max(t?.lastDay ?? day, day),
    });
  }
  const byDay = [...days]
    .sort((a, b) => a[0] - b[0])
    .map(([day, minutes]) => ({
      day,
      total: minutes.reduce((a, b) => a + b, 0),
      minutes: minutes.sort((a, b) => a - b),
    }));
  return { days: byDay, topics };
}

/** The totals being made: from nothing (a fold of every older note) or from earlier totals (the split moved). */
class Folding {
  readonly rows = new Map<string, { topicId: string; day: number; minutes: number[] }>();
  readonly facts = new Map<string, NoteFact[]>();
  readonly passed: string[] = [];
  readonly irregular = new Map<string, KeptRecord>();
  newest = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly folder: string,
    private readonly now: number,
    from: OlderTotals | null,
  ) {
    if (from === null) return;
    for (const row of from.rows() ?? []) {
      this.rows.set(`${row.topicId}\n${row.day}`, { ...row, minutes: [...row.minutes] });
    }
    for (const [topic, facts] of from.facts) this.facts.set(topic, [...facts]);
    this.passed.push(...from.passed);
    for (const [name, record] of from.irregular) this.irregular.set(name, record);
    this.newest = from.newest;
  }

  /** The older note `name` as kept (older-fields.ts), or undefined when it is not kept: passed. */
  add(name: string, session: ConfirmedSession | undefined): void {
    if (session === undefined) return void this.passed.push(name);
    const plain = plainCount(name, session, this.now);
    if (plain === null) return void this.irregular.set(name, recordOf(session));
    const record = session;
    const key = `${record.topicId}\n${plain.day}`;
    const row = this.rows.get(key);
    if (row) row.minutes.push(plain.minutes);
    else this.rows.set(key, { topicId: record.topicId, day: plain.day, minutes: [plain.minutes] });
    let facts = this.facts.get(record.topicId);
    if (!facts) this.facts.set(record.topicId, (facts = []));
    facts.push({ startedMs: record.startedMs, sessionId: record.sessionId, topicNote: record.topicNote });
    this.newest = Math.max(this.newest, record.startedMs);
  }

  done(split: string, names: NamesDigest, keyed: OlderTotals["keyed"], readAt: number): OlderTotals {
    const facts = new Map([...this.facts].map(([topic, all]) => [topic, decidingFacts(all)]));
    const rows = [...this.rows.values()].sort((a, b) => a.day - b.day); // as the file keeps them, day by day
    const passed = this.passed.sort();
    const { irregular, newest } = this;
    return { split, names, keyed, passed, irregular, ...sumsOf(rows), rows: () => rows, facts, newest, readAt };
  }
}

/** The names of a listing in ["S-", split), and the others, each in the listing's order. */
export function splitNames(names: readonly string[], split: string): { inside: string[]; outside: string[] } {
  const inside: string[] = [];
  const outside: string[] = [];
  for (const name of names) (name >= CONFIRMED_PREFIX && name < split ? inside : outside).push(name);
  return { inside, outside };
}

/** What one call needs of a listing the totals hold for: the names the call reads (or is told) itself. */
export interface Covered {
  readonly totals: OlderTotals;
  /** Every name of the listing but those folded or kept whole: the call's to scan. */
  readonly rest: string[];
  /** Whether `name` is one folded in a row (a note the call never sees). */
  folded(name: string): boolean;
}

/**
 * What `totals` cover of the listing `names` (a folder's every name), or null when they do not hold for it. The
 * names folded are found by a binary search, as the listing is ascending on the usual file systems (else one by
 * one); either way the names taken must digest to exactly the names folded (so every one of them is listed, and
 * by create-only unchanged), and every other name is the call's to scan.
 */
export function coveredBy(
  totals: OlderTotals,
  names: readonly string[],
  digest: Digest,
  vouched: { known: KnownOlder; others: readonly string[] } | null = null,
): Covered | null {
  const keyed = vouched && totals.keyed?.split === vouched.known.split ? byKey(totals, vouched, digest) : null;
  if (keyed) return keyed;
  const from = firstAtOrAfter(names, CONFIRMED_PREFIX);
  const to = Math.max(from, firstAtOrAfter(names, totals.split));
  let inside = names.slice(from, to);
  let rest: string[] | null = null;
  if (sameDigest(digestInOrder(inside, digest), totals.names)) rest = names.slice(0, from).concat(names.slice(to));
  else {
    // Another order (or names that changed): the names before the split found one by one, in any order.
    const apart = splitNames(names, totals.split);
    if (!sameDigest(namesDigest(apart.inside, digest), totals.names)) return null;
    [inside, rest] = [apart.inside, apart.outside];
  }
  return covering(totals, () => inside, rest);
}

/**
 * coveredBy when the folder summary vouched for the listing's older notes (`known.older`, exactly the names
 * before its split) and the totals are keyed at that split: the names folded are those and the others before the
 * totals' split, checked by digesting only the others. Null when the key differs.
 */
function byKey(
  totals: OlderTotals,
  { known, others }: { known: KnownOlder; others: readonly string[] },
  digest: Digest,
): Covered | null {
  const apart = splitNames(others, totals.split);
  // The others before the totals' split are after the summary's (else the full digest decides): the names folded
  // are then known.older and them, keyed as namesKey keys them, without a walk of the older ones.
  if (!apart.inside.every((name) => name >= known.split)) return null;
  const count = known.older.length + apart.inside.length;
  const key = splitKey(known.split, known.old, apart.inside, count, digest);
  if (!totals.keyed || !sameDigest(key, totals.keyed.names)) return null;
  return covering(totals, () => known.older.concat(apart.inside), apart.outside);
}

/** The Covered of `totals` whose names are `inside` (made only if a name is asked about) and `outside`. */
function covering(totals: OlderTotals, inside: () => readonly string[], outside: readonly string[]): Covered {
  let set: Set<string> | null = null;
  const passed = new Set(totals.passed);
  return {
    totals,
    rest: outside.concat(totals.passed),
    folded: (name) => (set ??= new Set(inside())).has(name) && !passed.has(name) && !totals.irregular.has(name),
  };
}

/** The names folded keyed at the summary's split (OlderTotals.keyed), when one vouched; else null. */
function keyOf(
  inside: readonly string[],
  split: string,
  digest: Digest,
  known: KnownOlder | null,
): OlderTotals["keyed"] {
  return known !== null && known.split <= split
    ? { split: known.split, names: namesKey(inside, known.split, digest, known) }
    : null;
}

/** The split of a call begun at `now`: older-fields.ts's (the notes named over KEPT_SPAN_MS back). */
export const splitAt = (now: number): string => `S-${formatUtcCompact(now - KEPT_SPAN_MS)}`;

/**
 * The totals of the older notes named before `split` in `names` (a listing), from their records as kept
 * (`sessionOf`: undefined for a note not kept), read at `readAt`; `now` the call's beginning.
 */
export function foldOlder(
  at: { folder: string; split: string; now: number; readAt: number },
  names: readonly string[],
  sessionOf: (name: string) => ConfirmedSession | undefined,
  digest: Digest,
  known: KnownOlder | null = null,
): OlderTotals {
  const { inside } = splitNames(names, at.split);
  const folding = new Folding(at.folder, at.now, null);
  for (const name of inside) folding.add(name, sessionOf(name));
  return folding.done(at.split, namesDigest(inside, digest), keyOf(inside, at.split, digest, known), at.readAt);
}

/**
 * `totals` taken to the later `split`: the names of `names` in [totals.split, split), each as this call read it
 * (`crossed`: its session when older-fields would keep it, null when not; undefined when this call did not read
 * it, and then there is nothing to take forward; any other name is passed). Null when there is nothing to do.
 */
export function extendOlder(
  totals: OlderTotals,
  at: { folder: string; split: string; now: number },
  names: readonly string[],
  crossed: (name: string) => ConfirmedSession | null | undefined,
  digest: Digest,
  known: KnownOlder | null = null,
): OlderTotals | null {
  if (!(at.split > totals.split) || totals.rows() === null) return null;
  const { inside } = splitNames(names, at.split);
  const added = inside.filter((name) => name >= totals.split);
  if (added.length === 0) return null;
  const folding = new Folding(at.folder, at.now, totals);
  for (const name of added) {
    const record = crossed(name);
    // A name that is no confirmed note's is passed (the scan names it); a note this call did not read stops it.
    if (record === undefined && kindOf(name) === "confirmed") return null;
    folding.add(name, record ?? undefined);
  }
  const keyed = keyOf(inside, at.split, digest, known);
  return folding.done(at.split, namesDigest(inside, digest), keyed, totals.readAt);
}

/** The topic's facts and a list's sessions of it, newest first, as the fold meets them. */
export function withFacts<S extends { startedMs: number; sessionId: string; topicNote: string | null }>(
  sessions: readonly S[],
  facts: readonly NoteFact[],
): Array<S | NoteFact> {
  const all: Array<S | NoteFact> = [...sessions, ...facts];
  return all.sort((a, b) => compareNewestFirst(a as ConfirmedSession, b as ConfirmedSession));
}
