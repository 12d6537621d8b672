/**
 * The older notes' file (core/device-memory/older-fields.ts) in the envelope of envelope.ts: the largest part of
 * the device memory (a record of every older note), so written by columns, one JSON array per record field,
 * which JSON.parse reads at 30 000 notes in a few tens of milliseconds, and answered from the columns: a session
 * is made only when the scan asks for it. Read only when a call first asks about an older note (next, context,
 * goal, year, stats, list --all, export), never by start, draft or end.
 */
import type { ConfirmedSession } from "../../core/records/records";
import type { KeptRecord, OlderKept, OlderNote } from "../../core/device-memory/older-fields";
import type { MemoryOwner } from "./envelope";
import { jsonOrNull, seal, unseal } from "./envelope";

/** The records are at most a day old (when they were read): a note rewritten in place is read again within it. */
export const OLDER_MAX_AGE_MS = 24 * 3600 * 1000;

/** The record's fields, one column each, in this order. */
const COLUMNS = [
  "sessionId",
  "topicId",
  "startedAt",
  "startedMs",
  "endedAt",
  "durationMinutes",
  "breakMinutes",
  "breaks",
  "outcome",
  "absorbedDrafts",
  "topicNote",
  "agent",
  "recallRating",
  "nextDone",
  "fieldWarnings",
] as const;

const isText = (v: unknown): boolean => typeof v === "string";
const isTexts = (v: unknown): boolean => Array.isArray(v) && v.every(isText);
const orNull =
  (is: (v: unknown) => boolean) =>
  (v: unknown): boolean =>
    v === null || is(v);
const isCount = (v: unknown): boolean => typeof v === "number" && Number.isInteger(v) && v >= 0;

/**
 * Columns of few distinct texts (topics, outcomes, topic notes, agents) hold each text's place in the body's
 * `words`, so that 30 000 notes name a topic with a number and share one string for it once read.
 */
const WORD_COLUMNS: ReadonlySet<number> = new Set([1, 8, 10, 11]);

/** What each column may hold (a word column: once read), checked when the file is read: nothing forged is used. */
const VALID: ReadonlyArray<(v: unknown) => boolean> = [
  (v) => v === 0 || isText(v),
  isText,
  isText,
  (v) => typeof v === "number" && Number.isFinite(v),
  isText,
  isCount,
  isCount,
  orNull(isTexts),
  isText,
  isTexts,
  orNull(isText),
  orNull(isText),
  orNull((v) => v === 1 || v === 2 || v === 3 || v === 4),
  (v) => typeof v === "boolean",
  orNull(isTexts),
];

/** A session_id equal to the note's name (without ".md"), as the tool writes it, is kept as 0. */
const SAME_ID = 0;

interface Body {
  split: string;
  columns: string[];
  names: string[];
  sections: number[];
  words: string[];
  values: unknown[][];
}

const stemOf = (name: string): string => (name.endsWith(".md") ? name.slice(0, -3) : name);

/** The older notes' text for `kept`, dated `at` (when they were read). */
export function renderOlderFields(owner: MemoryOwner, kept: OlderKept, at: number): string {
  return seal("older", owner, `${JSON.stringify(olderBody(kept))}\n`, at);
}

/** The body of the older notes' file for `kept`: also how other parts keep a few records (older-totals-file.ts). */
export function olderBody(kept: OlderKept): unknown {
  const all = kept.notes();
  const names = [...all.keys()];
  const notes = [...all.values()];
  const words = new Map<string, number>();
  const word = (text: string): number => words.get(text) ?? (words.set(text, words.size), words.size - 1);
  const values = COLUMNS.map((column, k) =>
    notes.map((note, i) => {
      const record = note.record as unknown as Record<string, unknown>;
      const value = record[column] ?? null;
      if (column === "sessionId" && value === stemOf(names[i])) return SAME_ID;
      return WORD_COLUMNS.has(k) && typeof value === "string" ? word(value) : value;
    }),
  );
  const sections = notes.map((n) => n.sections);
  const body: Body = { split: kept.split, columns: [...COLUMNS], names, sections, words: [...words.keys()], values };
  return body;
}

/** The notes an olderBody holds (parsed, its own: its word columns are read in place), or null when forged. */
export function keptOfBody(body: unknown): OlderKept | null {
  return isBody(body as Partial<Body> | null) ? new ColumnsKept(body as Body) : null;
}

/**
 * The records an olderBody holds (parsed, its own), each made when asked by its place among `names`, or null when
 * forged: how the recent notes' file reads its sessions (memory-files.ts) without a map or a note object each.
 */
export function recordsOfBody(body: unknown): { names: readonly string[]; record: (i: number) => KeptRecord } | null {
  if (!isBody(body as Partial<Body> | null)) return null;
  const { names, values } = body as Body;
  return { names, record: (i) => recordAt(values, names[i], i) };
}

/** The older notes a text holds and when they were read, or null when it is not to be trusted. */
export function parseOlderFields(
  text: string,
  owner: MemoryOwner,
  now: number,
): { kept: OlderKept; savedAt: number } | null {
  const read = unseal(text, "older", owner, now);
  // Its own day, whatever the envelope's rule becomes: the blind spot of a rewrite in place is bounded by it.
  if (read === null || !(now - read.savedAt <= OLDER_MAX_AGE_MS)) return null;
  const body = jsonOrNull(read.body) as Partial<Body> | null;
  if (!isBody(body)) return null;
  return { kept: new ColumnsKept(body), savedAt: read.savedAt };
}

/** The kept notes answered from the file's columns. */
class ColumnsKept implements OlderKept {
  readonly split: string;
  private readonly at = new Map<string, number>();

  constructor(private readonly body: Body) {
    this.split = body.split;
    body.names.forEach((name, i) => this.at.set(name, i));
  }

  /** Made field by field in one shape (the scan makes thousands): what sessionOf makes of record(). */
  session(name: string, path: string): ConfirmedSession | undefined {
    const i = this.at.get(name);
    if (i === undefined) return undefined;
    const v = this.body.values;
    const id = v[0][i];
    const session: Record<string, unknown> = {
      sessionId: id === SAME_ID ? stemOf(name) : id,
      path,
      topicId: v[1][i],
      startedAt: v[2][i],
      startedMs: v[3][i],
      endedAt: v[4][i],
      durationMinutes: v[5][i],
      breakMinutes: v[6][i],
      outcome: v[8][i],
      absorbedDrafts: v[9][i],
      topicNote: v[10][i],
      agent: v[11][i],
      recallRating: v[12][i],
      nextDone: v[13][i],
      body: "",
      bodyPending: true,
    };
    if (v[7][i] !== null) session.breaks = v[7][i];
    if (v[14][i] !== null) session.fieldWarnings = v[14][i];
    return session as unknown as ConfirmedSession;
  }

  names(): Iterable<string> {
    return this.at.keys();
  }

  sections(name: string): number | undefined {
    const i = this.at.get(name);
    return i === undefined ? undefined : this.body.sections[i];
  }

  notes(): ReadonlyMap<string, OlderNote> {
    const notes = new Map<string, OlderNote>();
    for (const [name, i] of this.at) notes.set(name, { record: this.record(name, i), sections: this.body.sections[i] });
    return notes;
  }

  private record(name: string, i: number): KeptRecord {
    return recordAt(this.body.values, name, i);
  }
}

/** The record at place `i` of `values` (named `name`), made field by field in one shape, as `session` is. */
function recordAt(v: unknown[][], name: string, i: number): KeptRecord {
  const id = v[0][i];
  const record: Record<string, unknown> = {
    sessionId: id === SAME_ID ? stemOf(name) : id,
    topicId: v[1][i],
    startedAt: v[2][i],
    startedMs: v[3][i],
    endedAt: v[4][i],
    durationMinutes: v[5][i],
    breakMinutes: v[6][i],
    outcome: v[8][i],
    absorbedDrafts: v[9][i],
    topicNote: v[10][i],
    agent: v[11][i],
    recallRating: v[12][i],
    nextDone: v[13][i],
  };
  // Fields a record has only when there are any (interpretConfirmed): null in their column means absent.
  if (v[7][i] !== null) record.breaks = v[7][i];
  if (v[14][i] !== null) record.fieldWarnings = v[14][i];
  return record as unknown as KeptRecord;
}

/** Whether `body` has the shape renderOlderFields writes (the checksum vouches for its values). */
function isBody(body: Partial<Body> | null): body is Body {
  if (typeof body !== "object" || body === null || typeof body.split !== "string") return false;
  const { columns, names, sections, values } = body;
  if (!Array.isArray(columns) || columns.length !== COLUMNS.length || columns.some((c, i) => c !== COLUMNS[i])) {
    return false;
  }
  if (!Array.isArray(names) || !names.every((n) => typeof n === "string")) return false;
  if (!Array.isArray(sections) || sections.length !== names.length || !sections.every(Number.isInteger)) return false;
  const { words } = body;
  if (!Array.isArray(words) || !words.every(isText)) return false;
  if (!Array.isArray(values) || values.length !== COLUMNS.length) return false;
  if (!values.every((c) => Array.isArray(c) && c.length === names.length)) return false;
  // The word columns' places become their texts (in place: the body is this read's own), then every column is judged.
  const wordOf = (v: unknown): unknown => (v === null ? null : Number.isInteger(v) ? words[v as number] : undefined);
  for (const k of WORD_COLUMNS) values[k] = values[k].map(wordOf);
  return values.every((c, k) => c.every(VALID[k]));
}
