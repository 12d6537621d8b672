import { errorMessage } from "../errors";
import { classifyRecord } from "../records/frontmatter";
import type { Layout } from "../records/layout";
import { sessionPath } from "../records/layout";
import type { DeviceMemory, SessionStore } from "../ports";
import type { ConfirmedSession, Draft, Interpreted, Skipped } from "../records/records";
import { compareDraftsOldestFirst, interpretConfirmed, interpretDraft } from "../records/records";
import type { ScanMemo } from "./cached";
import { confirmedFromCache } from "./cached";
import { notingOffset } from "../time";

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

/** What readDrafts found: the draft file names (sorted), the usable drafts (oldest first), the skipped ones. */
export interface DraftsRead {
  names: string[];
  drafts: Draft[];
  skipped: Skipped[];
}

/**
 * Confirmed notes by name: from the metadata cache first (no reads, no promises; `memo` keeps what it
 * interpreted), and only what it cannot vouch for is read.
 */
export async function readNotes(
  store: SessionStore,
  layout: Layout,
  offsetAt: (at: number) => number,
  names: readonly string[],
  memo?: ScanMemo,
  memory?: Pick<DeviceMemory, "cachedSession" | "sessionRead">,
): Promise<Array<[string, ConfirmedSession | Skipped]>> {
  const outcomes: Array<[string, ConfirmedSession | Skipped]> = [];
  const toRead = names.filter((name) => {
    const cached = confirmedFromCache(store, sessionPath(layout, name), offsetAt, memo, memory);
    if (cached) outcomes.push([name, cached]);
    return !cached;
  });
  const interpret = interpreter(store, layout);
  // Each record is made what the scan keeps as soon as it is read, so its note's text dies young; the device
  // memory first learns it whole (DeviceMemory.sessionRead), with whether its reading asked for the local offset.
  const read = await mapLimit(toRead, READ_CONCURRENCY, (name) =>
    interpret(name, (p, text) => {
      const zone = notingOffset(offsetAt);
      const result = interpretConfirmed(p, text, memory ? zone.offsetAt : offsetAt);
      memory?.sessionRead(p, "record" in result && !zone.asked() ? result.record : null);
      return "record" in result ? { record: kept(result.record) } : result;
    }),
  );
  for (const { name, path, result } of read) {
    outcomes.push([name, "record" in result ? result.record : { path, reason: result.reason }]);
  }
  return outcomes;
}

/**
 * `text` as a string of its own. V8 keeps a slice of a long string as a view into the whole: every field parsed
 * from a note would keep the whole note alive, body included. Slicing a concatenation makes a new flat string.
 */
const own = (text: string): string => ` ${text}`.slice(1);

/**
 * A note's record as a scan keeps it (issue 36, bounded memory): without its body, which is read again where it
 * is needed (withBody), exactly as for a record from the metadata cache, and with its texts copied out of the
 * note's text, so that holding every record of a long history does not hold every note. Only memory, never an
 * answer, depends on the copies. Changed in place (the record is this read's own): a copy made by spreading
 * would give every record a hidden class of its own in V8, several hundred bytes each.
 */
function kept(record: ConfirmedSession): ConfirmedSession {
  record.sessionId = own(record.sessionId);
  record.topicId = own(record.topicId);
  record.startedAt = own(record.startedAt);
  record.endedAt = own(record.endedAt);
  record.outcome = own(record.outcome);
  record.absorbedDrafts = record.absorbedDrafts.map(own);
  if (record.topicNote !== null) record.topicNote = own(record.topicNote);
  if (typeof record.agent === "string") record.agent = own(record.agent);
  if (record.breaks) record.breaks = record.breaks.map(own);
  if (record.fieldWarnings) record.fieldWarnings = record.fieldWarnings.map(own);
  record.body = "";
  record.bodyPending = true;
  return record;
}

/** Drafts: few, and their bodies are the learner's current notes: always read. */
export async function readDrafts(
  store: SessionStore,
  layout: Layout,
  offsetAt: (at: number) => number,
  names: readonly string[],
  now: number,
): Promise<DraftsRead> {
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
