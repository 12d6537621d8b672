import { classifyRecord } from "../records/frontmatter";
import type { ReadResult } from "../records/frontmatter";
import type { ConfirmedSession } from "../records/records";
import { interpretConfirmed } from "../records/records";
import { CLOCK_BEHIND_MS, SAVED_WITHIN_MS } from "../recovery/absorbed";
import { formatUtcCompact, notingOffset } from "../time";
import { kindOf } from "../scan/names";

/*
 * The frontmatter of the session folder's recent confirmed notes as a device last read them, each beside the
 * identity its file had just before (issue 22, docs/performance.md "Recent notes kept by identity"), so that a
 * later call answers SessionStore.cachedFields for a note whose file still has that identity, without reading
 * it: what Obsidian's metadata cache is for the plugin. The face tells a file's identity (the CLI: device,
 * inode, size, modification and status-change times, NodeStore.fileKey) and keeps the notes between its
 * processes (src/cli/device-memory/memory-files.ts). Pure: no file system here.
 *
 * Sound because the identity is taken before the read: what is kept is the file as it was then or later, and
 * a write since changes the identity (a file too fresh to tell has none: FileKeyOf). A note answered so is
 * used as the app's cache is (scan/cached.ts): only as a valid confirmed session, its body read when needed. A
 * note whose reading never asked for the local offset is kept as its session instead (as older-fields.ts keeps
 * one), so that a call does not interpret its frontmatter again: what reading it gives in every time zone.
 */

/** A file's identity now, or null when it cannot be told, is no plain file, or was written too lately to tell. */
export type FileKeyOf = (path: string) => string | null;

/** A confirmed session as kept: the record without its path and body (the name gives the one, the file the other). */
export type KeptRecord = Omit<ConfirmedSession, "path" | "body" | "bodyPending">;

/** One note as kept: its file's identity when read, and then its session (`record`) or else its frontmatter. */
export type KeptNote =
  | { readonly key: string; readonly fields: Readonly<Record<string, unknown>>; readonly record?: undefined }
  | { readonly key: string; readonly record: Readonly<KeptRecord>; readonly fields?: undefined };

/**
 * How far back the notes kept are named: as far as start reads (a week for a draft ID saved, SAVED_WITHIN_MS,
 * and a day for a clock behind), and a day more so that a note is not read again the day it ages out.
 */
export const KEPT_SPAN_MS = SAVED_WITHIN_MS + 2 * CLOCK_BEHIND_MS;

/**
 * How far back the notes a call on the open session (draft, end) reads are named, as a rule: a scan reads those
 * named since a day before the session began (recent-scan.ts, CLOCK_BEHIND_MS), for a session begun within a day.
 * What `prepare` is given for such a call; a note named earlier is asked when it is used.
 */
export const OPEN_SESSION_SPAN_MS = 2 * CLOCK_BEHIND_MS;

/** How long the identities `prepare` told stand for the files' (ms): as long as an early listing does. */
export const PREPARED_MS = 250;

/** The kept notes of one call: what it was given, what it learned, what it forgot by writing. */
export class KeptFields {
  private notes = new Map<string, KeptNote>();
  private changed = false;
  /** Notes named before this are neither kept nor learned. */
  private from = "";

  /** The kept notes whose identities `prepare` found unchanged, and when (`now`'s clock). */
  private told: { at: number; same: Set<string> } | null = null;

  constructor(
    /** The session folder (Layout.sessions), vault-relative. */
    readonly folder: string,
    /** How the face tells a file's identity (the CLI: NodeStore.fileKey). */
    readonly keyOf: FileKeyOf,
    /** A clock for `prepare` (ms; the CLI: performance.now; by default one that stands still, for tests). */
    private readonly now: () => number = () => 0,
  ) {}

  /**
   * Asks every kept note's identity now (the CLI: while the listing of the folder is under way, when it has
   * nothing else to do), so that the answers of the next PREPARED_MS ask nothing more: as sound as asking
   * then, as a listing of that age is (src/node/folder-reading.ts EARLY_NAMES_MAX_MS). With `since` (epoch
   * ms), only the notes named since then: a call that reads only those as a rule; any other is asked when used.
   */
  prepare(since: number | null = null): void {
    const at = this.now(); // the first identity's time: the answers stand as long from it
    const later = since === null ? "" : `S-${formatUtcCompact(since)}`;
    const from = later > this.from ? later : this.from;
    const same = new Set<string>();
    for (const [name, note] of this.notes) {
      if (name >= from && this.keyOf(`${this.folder}/${name}`) === note.key) same.add(name);
    }
    this.told = { at, same };
  }

  /** Starts afresh from `known` (null: nothing known), at `now`. Takes ownership of it. */
  begin(known: Map<string, KeptNote> | null, now: number): void {
    this.notes = known ?? new Map<string, KeptNote>();
    this.changed = false;
    this.told = null;
    this.from = `S-${formatUtcCompact(now - KEPT_SPAN_MS)}`;
  }

  /** Whether a note was learned or forgotten since `begin`. */
  learned(): boolean {
    return this.changed;
  }

  /** The notes to keep: those still named within KEPT_SPAN_MS. */
  kept(): Map<string, KeptNote> {
    return new Map([...this.notes].filter(([name]) => name >= this.from));
  }

  /** The name in the folder that `path` is, when it is a confirmed note's recent enough to keep, else null. */
  nameOf(path: string): string | null {
    const prefix = `${this.folder}/`;
    if (!path.startsWith(prefix)) return null;
    const name = path.slice(prefix.length);
    return !name.includes("/") && name >= this.from && kindOf(name) === "confirmed" ? name : null;
  }

  /** The frontmatter kept for `name` (at `path`), if its file still has the identity it had when read. */
  fieldsOf(name: string, path: string): Readonly<Record<string, unknown>> | undefined {
    return this.holding(name, path)?.fields;
  }

  /** The session kept for `name` at `path`, its body pending, if its file still has the identity it had when read. */
  sessionOf(name: string, path: string): ConfirmedSession | undefined {
    const record = this.holding(name, path)?.record;
    return record && sessionOf(path, record);
  }

  /** The note kept for `name` (at `path`), if its file still has the identity it had when read. */
  private holding(name: string, path: string): KeptNote | undefined {
    const note = this.notes.get(name);
    if (note === undefined) return undefined;
    const told = this.told;
    if (told !== null && this.now() - told.at <= PREPARED_MS && told.same.has(name)) return note;
    return this.keyOf(path) === note.key ? note : undefined;
  }

  /** `name` was read as `text`, its file's identity just before being `key`: kept when it reads as a session. */
  learn(name: string, key: string, text: string): void {
    if (this.notes.get(name)?.key === key) return;
    const read = classifyRecord(text);
    if (read.state !== "ok" || !isPlainJson(read.fields)) return this.forget(name);
    this.told?.same.delete(name);
    const record = recordOf(`${this.folder}/${name}`, read);
    this.notes.set(name, record === null ? { key, fields: read.fields } : { key, record });
    this.changed = true;
  }

  forget(name: string): void {
    this.told?.same.delete(name);
    if (this.notes.delete(name)) this.changed = true;
  }
}

/**
 * The session a kept `record` stands for at `path`, its body pending (read when needed, as from a metadata cache):
 * made field by field in one shape, as interpretConfirmed makes it (scans make many).
 */
export function sessionOf(path: string, r: Readonly<KeptRecord>): ConfirmedSession {
  const session: ConfirmedSession = {
    sessionId: r.sessionId,
    path,
    topicId: r.topicId,
    startedAt: r.startedAt,
    startedMs: r.startedMs,
    endedAt: r.endedAt,
    durationMinutes: r.durationMinutes,
    breakMinutes: r.breakMinutes,
    outcome: r.outcome,
    absorbedDrafts: r.absorbedDrafts,
    topicNote: r.topicNote,
    agent: r.agent,
    recallRating: r.recallRating,
    nextDone: r.nextDone,
    body: "",
    bodyPending: true,
  };
  if (r.breaks !== undefined) session.breaks = r.breaks;
  if (r.fieldWarnings !== undefined) session.fieldWarnings = r.fieldWarnings;
  return session;
}

/** The session a note read as `read` is in every time zone (its reading never asked for the offset), else null. */
function recordOf(path: string, read: ReadResult): KeptRecord | null {
  const zone = notingOffset();
  const result = interpretConfirmed(path, read, zone.offsetAt);
  return zone.asked() || !("record" in result) ? null : keptRecordOf(result.record);
}

/** A session as kept, without its path and body: null when it holds what JSON does not keep as it is. */
export function keptRecordOf(session: ConfirmedSession): KeptRecord | null {
  const { path: _path, body: _body, bodyPending: _pending, ...record } = session;
  return isPlainJson(record) ? record : null;
}

/**
 * Whether `value` is what JSON writes and reads back as it is (strings, finite numbers but -0, booleans, null,
 * arrays and plain objects of them): a frontmatter that is not (a YAML .inf) is read each time instead.
 */
export function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.entries(value).every(([key, v]) => key !== "__proto__" && isPlainJson(v));
}
