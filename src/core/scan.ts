import { errorMessage } from "./errors";
import { SUPPORTED_SCHEMA, classifyRecord } from "./frontmatter";
import { CONFIRMED_FILE_PATTERN, DRAFT_FILE_PATTERN } from "./ids";
import type { Layout } from "./layout";
import { sessionPath } from "./layout";
import type { SessionStore } from "./ports";
import type { ConfirmedSession, Draft, Interpreted, Skipped } from "./records";
import { compareDraftsOldestFirst, compareNewestFirst, interpretConfirmed, interpretDraft } from "./records";
import { CLOCK_BEHIND_MS } from "./recovery/absorbed";
import { formatUtcCompact } from "./time";

/** What the sessions folder holds. Every file that could not be used is in `skipped`, by name. */
export interface Scan {
  /** Newest first. */
  confirmed: ConfirmedSession[];
  /** Oldest first. */
  drafts: Draft[];
  /** IDs (file names without .md) of every draft file present, readable or not. */
  draftFiles: Set<string>;
  skipped: Skipped[];
  /** Damaged optional fields of usable records (paused_at, break_minutes): read as absent, reported here. */
  warnings: string[];
  /**
   * Set when `confirmed` holds only the notes that may have absorbed a draft (scanRecentSessions): the file
   * names of every confirmed note in the folder, which the views are then checked against.
   */
  partial?: { names: string[] };
}

const READ_CONCURRENCY = 64;

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * A confirmed session from the store's metadata cache, without reading the file (SessionStore.cachedFields);
 * null when the cache does not know it or it does not read as a valid confirmed session (then the file is
 * read in full, so a damaged note is always judged on its real text).
 */
function confirmedFromCache(
  store: SessionStore,
  path: string,
  offsetAt: (at: number) => number,
  memo?: ScanMemo,
): ConfirmedSession | null {
  const fields = store.cachedFields(path);
  if (fields === undefined || fields === null || typeof fields !== "object" || Array.isArray(fields)) return null;
  const known = memo?.get(fields);
  if (known && known.path === path) return known;
  if (fields.palee_schema !== SUPPORTED_SCHEMA) return null;
  const result = interpretConfirmed(path, { state: "ok", fields, body: "" }, offsetAt);
  if (!("record" in result)) return null;
  const record = { ...result.record, bodyPending: true };
  memo?.set(fields, record);
  return record;
}

/**
 * Confirmed sessions already interpreted, keyed by the metadata cache's frontmatter object: the cache hands
 * out the same object until it parses the file again, so a hit means the same content. Owned by one
 * PaleeSessions (no module-level state).
 */
export type ScanMemo = WeakMap<object, ConfirmedSession>;

/** One confirmed session note, from the metadata cache when the store has one, else from its text. */
export async function readConfirmed(
  store: SessionStore,
  path: string,
  offsetAt: (at: number) => number,
): Promise<Interpreted<ConfirmedSession>> {
  const cached = confirmedFromCache(store, path, offsetAt);
  return cached ? { record: cached } : interpretConfirmed(path, classifyRecord(await store.read(path)), offsetAt);
}

/**
 * The session with its body: a record from the metadata cache is read in full (only the newest session's
 * body is ever needed, for hot.md). A file that no longer reads as the cache said keeps an empty body.
 */
export async function withBody(
  store: SessionStore,
  session: ConfirmedSession,
  offsetAt: (at: number) => number,
): Promise<ConfirmedSession> {
  if (!session.bodyPending) return session;
  const result = interpretConfirmed(session.path, classifyRecord(await store.read(session.path)), offsetAt);
  return "record" in result ? result.record : { ...session, bodyPending: false };
}

/**
 * What one scan learned, kept by its owner (one PaleeSessions; no module-level state) so the next scan only
 * looks again at the files the store reports as changed (SessionStore.changesSince). Without that report
 * every scan reads the whole folder.
 */
export class ScanCache {
  /** The store's change token as of the last scan (null: nothing known yet). */
  token: number | null = null;
  readonly draftNames = new Set<string>();
  /** Names that are not session files (reported as skipped). */
  readonly otherNames = new Set<string>();
  /** Each confirmed note's outcome at the last scan, by file name. */
  readonly confirmed = new Map<string, ConfirmedSession | Skipped>();
  /** Interpreted sessions by the metadata cache's frontmatter object (same object: same content). */
  readonly memo: ScanMemo = new WeakMap();
  /** The confirmed list and its duplicate-ID skips as of the last scan; null when it must be rebuilt. */
  assembled: { confirmed: ConfirmedSession[]; skipped: Skipped[]; warnings: string[] } | null = null;

  clear(): void {
    this.draftNames.clear();
    this.otherNames.clear();
    this.confirmed.clear();
    this.assembled = null;
  }
}

const NOT_A_SESSION = "not a session file name (expected S-….md or DRAFT-S-….md)";

export type NameKind = "draft" | "confirmed" | "other" | "ignored";

export function kindOf(name: string): NameKind {
  if (name.startsWith(".") || !name.toLowerCase().endsWith(".md")) return "ignored"; // not a note (e.g. a temp file)
  if (DRAFT_FILE_PATTERN.test(name)) return "draft";
  if (CONFIRMED_FILE_PATTERN.test(name)) return "confirmed";
  return "other";
}

/** Files of one folder that changed since the last scan (exists: still there), or null: look at everything. */
type Changes = ReadonlyArray<{ name: string; exists: boolean }> | null;

/**
 * Reads the sessions folder. Never writes. A file that is not ok (zero bytes, corrupt, foreign schema,
 * bad fields, a duplicate ID) is skipped with a reason naming it; it never aborts the scan. With a cache,
 * confirmed notes that did not change since the last scan are not looked at again; drafts are always read.
 */
export async function scanSessions(
  store: SessionStore,
  layout: Layout,
  offsetAt: (at: number) => number,
  cache: ScanCache = new ScanCache(),
  /** Judges a paused_at in the future (records.ts interpretDraft). */
  now = Number.POSITIVE_INFINITY,
): Promise<Scan> {
  const changedConfirmed = await takeChanges(store, layout, cache);
  for (const [name, outcome] of await readNotes(store, layout, offsetAt, changedConfirmed, cache.memo)) {
    cache.confirmed.set(name, outcome);
  }
  if (changedConfirmed.length > 0) cache.assembled = null;
  const assembled = cache.assembled ?? (cache.assembled = assemble(cache.confirmed.values()));
  const drafts = await readDrafts(store, layout, offsetAt, [...cache.draftNames], now);
  return scanOf(layout, assembled, drafts, cache.otherNames);
}

/**
 * Confirmed notes by name: from the metadata cache first (no reads, no promises; `memo` keeps what it
 * interpreted), and only what it cannot vouch for is read.
 */
async function readNotes(
  store: SessionStore,
  layout: Layout,
  offsetAt: (at: number) => number,
  names: readonly string[],
  memo?: ScanMemo,
): Promise<Array<[string, ConfirmedSession | Skipped]>> {
  const outcomes: Array<[string, ConfirmedSession | Skipped]> = [];
  const toRead = names.filter((name) => {
    const cached = confirmedFromCache(store, sessionPath(layout, name), offsetAt, memo);
    if (cached) outcomes.push([name, cached]);
    return !cached;
  });
  const interpret = interpreter(store, layout);
  const read = await mapLimit(toRead, READ_CONCURRENCY, (name) =>
    interpret(name, (p, text) => interpretConfirmed(p, text, offsetAt)),
  );
  for (const { name, path, result } of read) {
    outcomes.push([name, "record" in result ? result.record : { path, reason: result.reason }]);
  }
  return outcomes;
}

/** Drafts: few, and their bodies are the learner's current notes: always read. */
async function readDrafts(
  store: SessionStore,
  layout: Layout,
  offsetAt: (at: number) => number,
  names: readonly string[],
  now: number,
): Promise<{ names: string[]; drafts: Draft[]; skipped: Skipped[] }> {
  const interpret = interpreter(store, layout);
  const sorted = [...names].sort();
  const results = await mapLimit(sorted, READ_CONCURRENCY, (name) =>
    interpret(name, (path, read) => interpretDraft(path, read, offsetAt, now)),
  );
  const drafts: Draft[] = [];
  const skipped: Skipped[] = [];
  for (const { path, result } of results) {
    if ("record" in result) drafts.push(result.record);
    else skipped.push({ path, reason: result.reason });
  }
  return { names: sorted, drafts: drafts.sort(compareDraftsOldestFirst), skipped };
}

/** The scan from the confirmed notes' outcomes, the drafts read, and the names that are not session files. */
function scanOf(
  layout: Layout,
  assembled: { confirmed: ConfirmedSession[]; skipped: Skipped[]; warnings: string[] },
  read: { names: string[]; drafts: Draft[]; skipped: Skipped[] },
  otherNames: Iterable<string>,
): Scan {
  const skipped = [...assembled.skipped, ...read.skipped];
  for (const name of otherNames) skipped.push({ path: sessionPath(layout, name), reason: NOT_A_SESSION });
  return {
    confirmed: assembled.confirmed,
    drafts: read.drafts,
    draftFiles: new Set(read.names.map((n) => n.slice(0, -3))),
    skipped: skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    warnings: [...assembled.warnings, ...read.drafts.flatMap((d) => d.fieldWarnings ?? [])],
  };
}

/** Brings the cache's file names up to date; returns the confirmed notes to look at (again). */
async function takeChanges(store: SessionStore, layout: Layout, cache: ScanCache): Promise<string[]> {
  // The token is taken before anything is read: a change made during this scan shows in the next one.
  const report = store.changesSince(layout.sessions, cache.token);
  const changes: Changes = report.kind === "changed" && cache.token !== null ? report.changed : null;
  cache.token = report.kind === "unfollowed" ? null : report.token;

  if (changes === null) {
    cache.clear();
    const names = await store.list(layout.sessions);
    for (const name of names) {
      const kind = kindOf(name);
      if (kind === "draft") cache.draftNames.add(name);
      else if (kind === "other") cache.otherNames.add(name);
    }
    return names.filter((name) => kindOf(name) === "confirmed");
  }
  const changedConfirmed: string[] = [];
  for (const { name, exists } of changes) {
    cache.draftNames.delete(name);
    cache.otherNames.delete(name);
    if (cache.confirmed.delete(name)) cache.assembled = null;
    if (!exists) continue;
    const kind = kindOf(name);
    if (kind === "draft") cache.draftNames.add(name);
    else if (kind === "other") cache.otherNames.add(name);
    else if (kind === "confirmed") changedConfirmed.push(name);
  }
  return changedConfirmed;
}

/**
 * Reads and interprets one file of the folder. An unreadable file (permissions, a folder where a note should
 * be) is skipped like a damaged one.
 */
function interpreter(store: SessionStore, layout: Layout) {
  const readOrReason = async (path: string): Promise<{ text: string | null } | { reason: string }> => {
    try {
      return { text: await store.read(path) };
    } catch (error) {
      return { reason: `cannot be read (${errorMessage(error)})` };
    }
  };
  return async <T>(name: string, as: (path: string, read: ReturnType<typeof classifyRecord>) => Interpreted<T>) => {
    const path = sessionPath(layout, name);
    const read = await readOrReason(path);
    return { name, path, result: "reason" in read ? read : as(path, classifyRecord(read.text)) };
  };
}

/**
 * The confirmed sessions, newest first, from every confirmed note's outcome: unusable notes and the losing
 * file of two that claim one session_id (e.g. a sync-conflict copy) are skipped. The result is shared by
 * later scans while nothing changes: callers never modify it.
 */
function assemble(outcomes: Iterable<ConfirmedSession | Skipped>): {
  confirmed: ConfirmedSession[];
  skipped: Skipped[];
  warnings: string[];
} {
  const byId = new Map<string, ConfirmedSession>();
  const skipped: Skipped[] = [];
  for (const outcome of outcomes) {
    if ("reason" in outcome) {
      skipped.push(outcome);
      continue;
    }
    const session = outcome;
    const other = byId.get(session.sessionId);
    if (!other) {
      byId.set(session.sessionId, session);
      continue;
    }
    // Keep the one named after the ID (else the first by path, so the choice never depends on the order
    // the files were read in).
    const ownName = `/${session.sessionId}.md`;
    const newNamed = session.path.endsWith(ownName);
    const otherNamed = other.path.endsWith(ownName);
    const keepNew = newNamed !== otherNamed ? newNamed : session.path < other.path;
    const [kept, dropped] = keepNew ? [session, other] : [other, session];
    byId.set(session.sessionId, kept);
    skipped.push({ path: dropped.path, reason: `duplicate session_id ${session.sessionId} (also in ${kept.path})` });
  }
  const confirmed = [...byId.values()].sort(compareNewestFirst);
  return { confirmed, skipped, warnings: confirmed.flatMap((s) => s.fieldWarnings ?? []) };
}

/**
 * Reads the drafts and only the confirmed notes that may have absorbed one of them (or the open session that
 * started at `starts`): a note absorbing a draft was written after the draft began, so its file was written
 * since shortly before the draft's start (SessionStore.changedAmong), and a note of a later start is named
 * after it. "Shortly" is CLOCK_BEHIND_MS, for a device whose clock was behind. Every other note is older than
 * every draft: it cannot have absorbed one. Null when that cannot be bounded (a start is unknown, or one of `required` is not among the usable drafts): the caller then scans
 * everything. Never writes.
 */
export async function scanRecentSessions(
  store: SessionStore,
  layout: Layout,
  offsetAt: (at: number) => number,
  at: { now: number; starts: ReadonlyArray<number | null>; required: readonly string[] },
): Promise<Scan | null> {
  const names: Record<NameKind, string[]> = { draft: [], confirmed: [], other: [], ignored: [] };
  for (const name of await store.list(layout.sessions)) names[kindOf(name)].push(name);
  const read = await readDrafts(store, layout, offsetAt, names.draft, at.now);
  const ids = read.drafts.map((d) => d.draftId);
  const starts = [...at.starts, ...read.drafts.map((d) => d.startedMs)];
  // An unreadable draft is never trashed or offered (only named): it needs no note found.
  if (starts.includes(null) || at.required.some((id) => !ids.includes(id))) return null;
  const confirmed = names.confirmed;
  const bound = Math.min(...(starts as number[])) - CLOCK_BEHIND_MS;
  const from = starts.length === 0 ? "T" : `S-${formatUtcCompact(bound)}`; // "T" sorts after every S-… name
  const older = confirmed.filter((n) => n < from);
  const changed = new Set(starts.length === 0 ? [] : await store.changedAmong(layout.sessions, older, bound));
  const notes = await readNotes(
    store,
    layout,
    offsetAt,
    confirmed.filter((n) => n >= from || changed.has(n)),
  );
  const scan = scanOf(layout, assemble(notes.map(([, outcome]) => outcome)), read, names.other);
  return { ...scan, partial: { names: confirmed } };
}
