/**
 * The older notes' totals (core/device-memory/older-totals.ts) in the envelope of envelope.ts: a few hundred
 * kilobytes at 30 000 notes (a row per topic and day, each note's minutes), read by stats, goal and year instead
 * of the older notes' records (older-file.ts). Topics and topic notes are words, named by their place; the
 * irregular notes are kept whole in older-file.ts's columns. Trusted only within OLDER_MAX_AGE_MS of when the
 * notes folded were read, as those records are: the same blind spot, never a longer one.
 */
import type { KeptRecord } from "../../core/device-memory/older-fields";
import { keptOf } from "../../core/device-memory/older-fields";
import type { DayRow, NoteFact, OlderTotals, TopicSum, TotalsRow } from "../../core/device-memory/older-totals";
import { MAX_COUNTED_MINUTES } from "../../core/insight/stats";
import type { MemoryOwner } from "./envelope";
import { jsonOrNull, seal, unseal } from "./envelope";
import { OLDER_MAX_AGE_MS, keptOfBody, olderBody } from "./older-file";

interface Body {
  split: string;
  names: { digest: string; count: number };
  /** The names' digest cut at the folder summary's split: [split, digest, count], or null. */
  keyed: [string, string, number] | null;
  read_at: number;
  /** null: −Infinity (no note folded). */
  newest: number | null;
  passed: string[];
  words: string[];
  /** The days, oldest first; their minutes in all; how many notes each; their minutes, day after day (ascending). */
  days: number[];
  totals: number[];
  counts: number[];
  /** Comma-separated: checked by one pattern and parsed by the engine, not number by number in script. */
  minutes: string;
  /** [topic word, minutes, sessions, first day, last day] */
  topics: Array<[number, number, number, number, number]>;
  /** [topic word, started ms, session_id, topic note word or null] */
  facts: Array<[number, number, string, number | null]>;
  /**
   * The rows per topic and day as JSON, parsed only when asked: for each of `days`, its topics one after the other
   * as topic word, how many notes, and their minutes.
   */
  rows: string;
  irregular: unknown;
}

/** The totals' text, saved at `now`. */
export function renderOlderTotals(owner: MemoryOwner, totals: OlderTotals, now: number): string {
  const words = new Map<string, number>();
  const word = (text: string): number => words.get(text) ?? (words.set(text, words.size), words.size - 1);
  const at = new Map(totals.days.map((d, i) => [d.day, i]));
  const rows: number[][] = totals.days.map(() => []);
  for (const r of totals.rows() ?? [])
    rows[at.get(r.day) as number].push(word(r.topicId), r.minutes.length, ...r.minutes);
  const topics = [...totals.topics].map(([topicId, t]): Body["topics"][number] => [
    word(topicId),
    t.minutes,
    t.sessions,
    t.firstDay,
    t.lastDay,
  ]);
  const facts: Body["facts"] = [];
  for (const [topicId, list] of totals.facts) {
    for (const f of list) {
      facts.push([word(topicId), f.startedMs, f.sessionId, f.topicNote === null ? null : word(f.topicNote)]);
    }
  }
  const irregular = new Map([...totals.irregular].map(([name, record]) => [name, { record, sections: 0 }]));
  const body: Body = {
    split: totals.split,
    names: { digest: totals.names.digest, count: totals.names.count },
    keyed: totals.keyed && [totals.keyed.split, totals.keyed.names.digest, totals.keyed.names.count],
    read_at: totals.readAt,
    newest: Number.isFinite(totals.newest) ? totals.newest : null,
    passed: [...totals.passed],
    words: [...words.keys()],
    days: totals.days.map((d) => d.day),
    totals: totals.days.map((d) => d.total),
    counts: totals.days.map((d) => d.minutes.length),
    minutes: totals.days.flatMap((d) => d.minutes).join(","),
    topics,
    facts,
    rows: JSON.stringify(rows),
    irregular: olderBody(keptOf(totals.split, irregular)),
  };
  return seal("totals", owner, `${JSON.stringify(body)}\n`, now);
}

const isInt = (v: unknown, min = Number.MIN_SAFE_INTEGER): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= min;
const isText = (v: unknown): v is string => typeof v === "string";
const isMinutes = (m: unknown): boolean => isInt(m, 0) && m <= MAX_COUNTED_MINUTES;

/** The totals a text holds, or null when it is not to be trusted at `now` (envelope, shape, age). */
export function parseOlderTotals(text: string, owner: MemoryOwner, now: number): OlderTotals | null {
  const read = unseal(text, "totals", owner, now);
  const body = read === null ? null : (jsonOrNull(read.body) as Partial<Body> | null);
  if (body === null || typeof body !== "object") return null;
  const { split, names, read_at: readAt, newest, passed, words } = body;
  if (!isText(split) || typeof names !== "object" || names === null) return null;
  if (!isText(names.digest) || !isInt(names.count, 0) || typeof readAt !== "number") return null;
  // Its notes' own day, as older-fields.txt's: the blind spot of a rewrite in place is bounded by it.
  if (!(readAt <= now && now - readAt <= OLDER_MAX_AGE_MS)) return null;
  if (!(newest === null || (typeof newest === "number" && Number.isFinite(newest)))) return null;
  if (!Array.isArray(passed) || !passed.every(isText) || !Array.isArray(words) || !words.every(isText)) return null;
  const wordAt = (v: unknown): string | undefined => (isInt(v, 0) ? words[v] : undefined);
  const days = daysOf(body);
  const topics = Array.isArray(body.topics) ? topicsOf(body.topics, wordAt) : null;
  const facts = Array.isArray(body.facts) ? factsOf(body.facts, wordAt) : null;
  const irregular = keptOfBody(body.irregular);
  if (days === null || topics === null || facts === null || !isText(body.rows)) return null;
  if (irregular === null || irregular.split !== split) return null;
  const keyed = keyedOf(body.keyed);
  if (keyed === undefined) return null;
  const rowsText = body.rows;
  let rows: TotalsRow[] | null | undefined;
  const records = new Map<string, KeptRecord>([...irregular.notes()].map(([name, note]) => [name, note.record]));
  return {
    split,
    names: { digest: names.digest, count: names.count },
    keyed,
    passed,
    irregular: records,
    days,
    topics,
    rows: () => (rows !== undefined ? rows : (rows = rowsOf(jsonOrNull(rowsText), days, wordAt))),
    facts,
    newest: newest ?? Number.NEGATIVE_INFINITY,
    readAt,
  };
}

/** A body's `keyed`, or undefined when it is not one. */
function keyedOf(keyed: unknown): OlderTotals["keyed"] | undefined {
  if (keyed === null) return null;
  if (!Array.isArray(keyed) || keyed.length !== 3) return undefined;
  const [split, digest, count] = keyed as unknown[];
  return isText(split) && isText(digest) && isInt(count, 0) ? { split, names: { digest, count } } : undefined;
}

/** Minutes as a note counts them (0 to MAX_COUNTED_MINUTES, 1 440), comma-separated. */
const MINUTES_TEXT = /^(?:(?:1[0-3]\d\d|14[0-3]\d|1440|\d{1,3}),)*(?:1[0-3]\d\d|14[0-3]\d|1440|\d{1,3})$/;

/** The days of a body: strictly ascending, each with at least one note's minutes. */
function daysOf(body: Partial<Body>): DayRow[] | null {
  const { days, totals, counts, minutes: text } = body;
  if (!Array.isArray(days) || !Array.isArray(totals) || !Array.isArray(counts) || typeof text !== "string") return null;
  if (counts.length !== days.length || totals.length !== days.length) return null;
  if (text !== "" && !MINUTES_TEXT.test(text)) return null;
  const minutes = text === "" ? [] : (JSON.parse(`[${text}]`) as number[]);
  const out: DayRow[] = [];
  let at = 0;
  for (let i = 0; i < days.length; i++) {
    const [day, total, count] = [days[i], totals[i], counts[i]];
    if (!isInt(day) || !isInt(total, 0) || !isInt(count, 1) || (i > 0 && !(day > days[i - 1]))) return null;
    if (at + count > minutes.length) return null;
    out.push({ day, total, minutes: minutes.slice(at, (at += count)) });
  }
  return at === minutes.length ? out : null;
}

function topicsOf(topics: unknown[], wordAt: (v: unknown) => string | undefined): Map<string, TopicSum> | null {
  const out = new Map<string, TopicSum>();
  for (const topic of topics) {
    if (!Array.isArray(topic) || topic.length !== 5) return null;
    const [t, minutes, sessions, firstDay, lastDay] = topic as unknown[];
    const topicId = wordAt(t);
    if (topicId === undefined || out.has(topicId) || !isInt(minutes, 0) || !isInt(sessions, 1)) return null;
    if (!isInt(firstDay) || !isInt(lastDay) || firstDay > lastDay) return null;
    out.set(topicId, { minutes, sessions, firstDay, lastDay });
  }
  return out;
}

/** The rows of a body's `rows` (parsed), one list per day of `days`, or null when they are not that. */
function rowsOf(
  rows: unknown,
  days: readonly DayRow[],
  wordAt: (v: unknown) => string | undefined,
): TotalsRow[] | null {
  if (!Array.isArray(rows) || rows.length !== days.length) return null;
  const out: TotalsRow[] = [];
  for (let i = 0; i < days.length; i++) {
    const list: unknown = rows[i];
    if (!Array.isArray(list) || list.length === 0) return null;
    const items = list as unknown[];
    for (let at = 0; at < items.length;) {
      const topicId = wordAt(items[at]);
      const count = items[at + 1];
      if (topicId === undefined || !isInt(count, 1) || at + 2 + count > items.length) return null;
      const minutes = items.slice(at + 2, (at += 2 + count));
      if (!minutes.every(isMinutes)) return null;
      out.push({ topicId, day: days[i].day, minutes: minutes as number[] });
    }
  }
  return out;
}

function factsOf(facts: unknown[], wordAt: (v: unknown) => string | undefined): Map<string, NoteFact[]> | null {
  const out = new Map<string, NoteFact[]>();
  for (const fact of facts) {
    if (!Array.isArray(fact) || fact.length !== 4) return null;
    const [t, startedMs, sessionId, note] = fact as unknown[];
    const topicId = wordAt(t);
    const topicNote = note === null ? null : wordAt(note);
    if (topicId === undefined || topicNote === undefined || typeof startedMs !== "number") return null;
    if (!Number.isFinite(startedMs) || !isText(sessionId)) return null;
    let list = out.get(topicId);
    if (!list) out.set(topicId, (list = []));
    list.push({ startedMs, sessionId, topicNote });
  }
  return out;
}
