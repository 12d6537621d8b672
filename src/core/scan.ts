import { errorMessage } from "./errors";
import { SUPPORTED_SCHEMA, classifyRecord } from "./frontmatter";
import { CONFIRMED_FILE_PATTERN, DRAFT_FILE_PATTERN } from "./ids";
import type { Layout } from "./layout";
import { sessionPath } from "./layout";
import type { SessionStore } from "./ports";
import type { ConfirmedSession, Draft, Interpreted, Skipped } from "./records";
import { compareDraftsOldestFirst, compareNewestFirst, interpretConfirmed, interpretDraft } from "./records";

/** What the sessions folder holds. Every file that could not be used is in `skipped`, by name. */
export interface Scan {
  /** Newest first. */
  confirmed: ConfirmedSession[];
  /** Oldest first. */
  drafts: Draft[];
  /** IDs (file names without .md) of every draft file present, readable or not. */
  draftFiles: Set<string>;
  skipped: Skipped[];
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
  const fields = store.cachedFields?.(path);
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
export async function withBody(store: SessionStore, session: ConfirmedSession, offsetAt: (at: number) => number): Promise<ConfirmedSession> {
  if (!session.bodyPending) return session;
  const result = interpretConfirmed(session.path, classifyRecord(await store.read(session.path)), offsetAt);
  return "record" in result ? result.record : { ...session, bodyPending: false };
}

/**
 * Reads the sessions folder once. Never writes. A file that is not ok (zero bytes, corrupt, foreign schema,
 * bad fields, a duplicate ID) is skipped with a reason naming it; it never aborts the scan.
 */
export async function scanSessions(
  store: SessionStore,
  layout: Layout,
  offsetAt: (at: number) => number,
  memo?: ScanMemo,
): Promise<Scan> {
  const names = (await store.list(layout.sessions)).slice().sort();
  const skipped: Skipped[] = [];
  const draftNames: string[] = [];
  const confirmedNames: string[] = [];
  for (const name of names) {
    if (name.startsWith(".") || !name.toLowerCase().endsWith(".md")) continue; // not a note (e.g. a temp file)
    if (DRAFT_FILE_PATTERN.test(name)) draftNames.push(name);
    else if (CONFIRMED_FILE_PATTERN.test(name)) confirmedNames.push(name);
    else {
      skipped.push({ path: sessionPath(layout, name), reason: "not a session file name (expected S-….md or DRAFT-S-….md)" });
    }
  }

  // An unreadable file (permissions, a folder where a note should be) is skipped like a damaged one.
  const readOrReason = async (path: string): Promise<{ text: string | null } | { reason: string }> => {
    try {
      return { text: await store.read(path) };
    } catch (error) {
      return { reason: `cannot be read (${errorMessage(error)})` };
    }
  };
  const interpret = async <T>(name: string, as: (path: string, read: ReturnType<typeof classifyRecord>) => Interpreted<T>) => {
    const path = sessionPath(layout, name);
    const read = await readOrReason(path);
    return { path, result: "reason" in read ? read : as(path, classifyRecord(read.text)) };
  };

  const drafts: Draft[] = [];
  const draftResults = await mapLimit(draftNames, READ_CONCURRENCY, (name) =>
    interpret(name, (path, read) => interpretDraft(path, read, offsetAt)),
  );
  for (const { path, result } of draftResults) {
    if ("record" in result) drafts.push(result.record);
    else skipped.push({ path, reason: result.reason });
  }

  const byId = new Map<string, ConfirmedSession>();
  // The metadata cache first (no reads, no promises); only what it cannot vouch for is read.
  const sessions: ConfirmedSession[] = [];
  const toRead: string[] = [];
  const prefix = `${layout.sessions}/`;
  for (const name of confirmedNames) {
    const cached = confirmedFromCache(store, prefix + name, offsetAt, memo);
    if (cached) sessions.push(cached);
    else toRead.push(name);
  }
  const readResults = await mapLimit(toRead, READ_CONCURRENCY, (name) => interpret(name, (p, read) => interpretConfirmed(p, read, offsetAt)));
  for (const { path, result } of readResults) {
    if ("record" in result) sessions.push(result.record);
    else skipped.push({ path, reason: result.reason });
  }
  for (const session of sessions) {
    const path = session.path;
    const other = byId.get(session.sessionId);
    if (!other) {
      byId.set(session.sessionId, session);
      continue;
    }
    // Two files claim one session (e.g. a sync-conflict copy): keep the one named after the ID (else the
    // first by path, so the choice never depends on the order the files were read in).
    const ownName = `/${session.sessionId}.md`;
    const newNamed = path.endsWith(ownName);
    const otherNamed = other.path.endsWith(ownName);
    const keepNew = newNamed !== otherNamed ? newNamed : path < other.path;
    const [kept, dropped] = keepNew ? [session, other] : [other, session];
    byId.set(session.sessionId, kept);
    skipped.push({ path: dropped.path, reason: `duplicate session_id ${session.sessionId} (also in ${kept.path})` });
  }

  return {
    confirmed: [...byId.values()].sort(compareNewestFirst),
    drafts: drafts.sort(compareDraftsOldestFirst),
    draftFiles: new Set(draftNames.map((n) => n.slice(0, -3))),
    skipped: skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
  };
}
