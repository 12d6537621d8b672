import { SUPPORTED_SCHEMA, classifyRecord } from "../records/frontmatter";
import type { DeviceMemory, SessionStore } from "../ports";
import type { ConfirmedSession, Interpreted } from "../records/records";
import { interpretConfirmed } from "../records/records";

/**
 * A confirmed session from the store's metadata cache, without reading the file (SessionStore.cachedFields);
 * null when the cache does not know it or it does not read as a valid confirmed session (then the file is
 * read in full, so a damaged note is always judged on its real text).
 */
export function confirmedFromCache(
  store: SessionStore,
  path: string,
  offsetAt: (at: number) => number,
  memo?: ScanMemo,
  /** The device's memory of the older notes (DeviceMemory.cachedSession), asked first. */
  memory?: Pick<DeviceMemory, "cachedSession">,
): ConfirmedSession | null {
  const session = memory?.cachedSession(path);
  if (session) return session;
  const confirmed = store.cachedConfirmed?.(path);
  if (confirmed) return confirmed;
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
  memory?: Pick<DeviceMemory, "cachedSession">,
): Promise<Interpreted<ConfirmedSession>> {
  const cached = confirmedFromCache(store, path, offsetAt, undefined, memory);
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
