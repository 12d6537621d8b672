import { errorMessage } from "../errors";
import { classifyRecord } from "../frontmatter";
import type { Layout } from "../layout";
import { sessionPath } from "../layout";
import type { SessionStore } from "../ports";
import type { ConfirmedSession, Draft, Interpreted, Skipped } from "../records";
import { compareDraftsOldestFirst, interpretConfirmed, interpretDraft } from "../records";
import type { ScanMemo } from "./cached";
import { confirmedFromCache } from "./cached";

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
