/**
 * The older notes' totals (core/device-memory/older-totals.ts) in the envelope of envelope.ts: a few hundred
 * kilobytes at 30 000 notes (a row per topic and day, each note's minutes), read by stats, goal and year instead
 * of the older notes' records (older-file.ts). Topics and topic notes are words, named by their place; the
 * irregular notes are kept whole in older-file.ts's columns. Trusted only within OLDER_MAX_AGE_MS of when the
 * notes folded were read, as those records are: the same blind spot, never a longer one.
 */
import type { KeptRecord } from "../../core/device-memory/older-fields";
import { keptOf } from "../../core/device-memory/older-fields";
import type { NoteFact, OlderTotals, TotalsRow } from "../../core/device-memory/older-totals";
import { MAX_COUNTED_MINUTES } from "../../core/insight/stats";
import type { MemoryOwner } from "./envelope";
import { jsonOrNull, seal, unseal } from "./envelope";
import { OLDER_MAX_AGE_MS, keptOfBody, olderBody } from "./older-file";

interface Body {
  split: string;
  names: { digest: string; count: number };
  read_at: number;
  /** null: −Infinity (no note folded). */
  newest: number | null;
  passed: string[];
  words: string[];
  /** [topic word, day, [minutes of each note]] */
  rows: Array<[number, number, number[]]>;
  /** [topic word, started ms, session_id, topic note word or null] */
  facts: Array<[number, number, string, number | null]>;
  irregular: unknown;
}

/** The totals' text, saved at `now`. */
export function renderOlderTotals(owner: MemoryOwner, totals: OlderTotals, now: number): string {
  const words = new Map<string, number>();
  const word = (text: string): number => words.get(text) ?? (words.set(text, words.size), words.size - 1);
  const rows = totals.rows.map((r): [number, number, number[]] => [word(r.topicId), r.day, [...r.minutes]]);
  const facts: Body["facts"] = [];
  for (const [topicId, list] of totals.facts) {
    for (const f of list)
      facts.push([word(topicId), f.startedMs, f.sessionId, f.topicNote === null ? null : word(f.topicNote)]);
  }
  const irregular = new Map([...totals.irregular].map(([name, record]) => [name, { record, sections: 0 }]));
  const body: Body = {
    split: totals.split,
    names: { digest: totals.names.digest, count: totals.names.count },
    read_at: totals.readAt,
    newest: Number.isFinite(totals.newest) ? totals.newest : null,
    passed: [...totals.passed],
    words: [...words.keys()],
    rows,
    facts,
    irregular: olderBody(keptOf(totals.split, irregular)),
  };
  return seal("totals", owner, `${JSON.stringify(body)}\n`, now);
}

const isInt = (v: unknown, min = Number.MIN_SAFE_INTEGER): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= min;
const isText = (v: unknown): v is string => typeof v === "string";

/** The totals a text holds, or null when it is not to be trusted at `now` (envelope, shape, age). */
export function parseOlderTotals(text: string, owner: MemoryOwner, now: number): OlderTotals | null {
  const read = unseal(text, "totals", owner, now);
  const body = read === null ? null : (jsonOrNull(read.body) as Partial<Body> | null);
  if (body === null || typeof body !== "object") return null;
  const { split, names, read_at: readAt, newest, passed, words, rows, facts } = body;
  if (!isText(split) || typeof names !== "object" || names === null) return null;
  if (!isText(names.digest) || !isInt(names.count, 0) || typeof readAt !== "number") return null;
  // Its notes' own day, as older-fields.txt's: the blind spot of a rewrite in place is bounded by it.
  if (!(readAt <= now && now - readAt <= OLDER_MAX_AGE_MS)) return null;
  if (!(newest === null || (typeof newest === "number" && Number.isFinite(newest)))) return null;
  if (!Array.isArray(passed) || !passed.every(isText) || !Array.isArray(words) || !words.every(isText)) return null;
  const wordAt = (v: unknown): string | undefined => (isInt(v, 0) ? words[v] : undefined);
  const parsedRows = Array.isArray(rows) ? rowsOf(rows, wordAt) : null;
  const parsedFacts = Array.isArray(facts) ? factsOf(facts, wordAt) : null;
  const irregular = keptOfBody(body.irregular);
  if (parsedRows === null || parsedFacts === null || irregular === null || irregular.split !== split) return null;
  const records = new Map<string, KeptRecord>([...irregular.notes()].map(([name, note]) => [name, note.record]));
  return {
    split,
    names: { digest: names.digest, count: names.count },
    passed,
    irregular: records,
    rows: parsedRows,
    facts: parsedFacts,
    newest: newest ?? Number.NEGATIVE_INFINITY,
    readAt,
  };
}

function rowsOf(rows: unknown[], wordAt: (v: unknown) => string | undefined): TotalsRow[] | null {
  const out: TotalsRow[] = [];
  for (const row of rows) {
    if (!Array.isArray(row) || row.length !== 3) return null;
    const [t, day, minutes] = row as unknown[];
    const topicId = wordAt(t);
    if (topicId === undefined || !isInt(day) || !Array.isArray(minutes) || minutes.length === 0) return null;
    if (!minutes.every((m) => isInt(m, 0) && m <= MAX_COUNTED_MINUTES)) return null;
    out.push({ topicId, day, minutes: minutes as number[] });
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
