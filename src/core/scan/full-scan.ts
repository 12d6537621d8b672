import type { Layout } from "../records/layout";
import type { DeviceMemory, SessionStore } from "../ports";
import type { ConfirmedSession, Skipped } from "../records/records";
import { compareNewestFirst } from "../records/records";
import { partitionPoint } from "./sorted";
import { assemble, scanOf } from "./assemble";
import { kindOf } from "./names";
import { readDrafts, readNotes } from "./read";
import type { Assembled, Scan } from "./scan";
import { ScanCache } from "./scan-cache";
import { placeholdersSkipped, subfolderNotes } from "./strays";

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
  /** The device's memory of the older notes (the CLI's), asked before a note is read. */
  memory?: Pick<DeviceMemory, "cachedSession" | "sessionRead">,
): Promise<Scan> {
  const changedConfirmed = await takeChanges(store, layout, cache);
  const read = await readNotes(store, layout, offsetAt, changedConfirmed, cache.memo, memory);
  for (const [name, outcome] of read) cache.confirmed.set(name, outcome);
  // Only new notes (takeChanges dropped the list for a changed or removed one): inserted where they sort.
  if (read.length > 0 && cache.assembled) cache.assembled = withNewNotes(cache.assembled, cache.ids, read);
  if (!cache.assembled) {
    cache.assembled = assemble(cache.confirmed.values());
    cache.ids = new Set(cache.assembled.confirmed.map((s) => s.sessionId));
  }
  const assembled = cache.assembled;
  const drafts = await readDrafts(store, layout, offsetAt, [...cache.draftNames], now);
  const strays = [...placeholdersSkipped(layout, cache.placeholderNames), ...(await subfolderNotes(store, layout))];
  return scanOf(layout, assembled, drafts, cache.otherNames, strays);
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
      else if (kind === "placeholder") cache.placeholderNames.add(name);
    }
    return names.filter((name) => kindOf(name) === "confirmed");
  }
  const changedConfirmed: string[] = [];
  for (const { name, exists } of changes) {
    cache.draftNames.delete(name);
    cache.otherNames.delete(name);
    cache.placeholderNames.delete(name);
    if (cache.confirmed.delete(name)) cache.assembled = null;
    if (!exists) continue;
    const kind = kindOf(name);
    if (kind === "draft") cache.draftNames.add(name);
    else if (kind === "other") cache.otherNames.add(name);
    else if (kind === "placeholder") cache.placeholderNames.add(name);
    else if (kind === "confirmed") changedConfirmed.push(name);
  }
  return changedConfirmed;
}

/**
 * `assembled` with new notes inserted in their places (newest first): what assemble would give for the lot,
 * at the cost of a copy instead of a sort. Null (assemble everything) when a note is unusable or shares a
 * session_id with another, whose winner assemble decides. `ids` (every ID in `assembled`) gains the new ones.
 */
function withNewNotes(
  assembled: Assembled,
  ids: Set<string>,
  read: ReadonlyArray<readonly [string, ConfirmedSession | Skipped]>,
): Assembled | null {
  const added: ConfirmedSession[] = [];
  for (const [, outcome] of read) {
    if ("reason" in outcome || ids.has(outcome.sessionId) || added.some((s) => s.sessionId === outcome.sessionId)) {
      return null;
    }
    added.push(outcome);
  }
  const confirmed = assembled.confirmed.slice();
  for (const session of added) {
    const lo = partitionPoint(confirmed.length, (i) => compareNewestFirst(confirmed[i], session) <= 0);
    confirmed.splice(lo, 0, session);
    ids.add(session.sessionId);
  }
  const warned = added.some((s) => (s.fieldWarnings ?? []).length > 0);
  return {
    confirmed,
    skipped: assembled.skipped,
    warnings: warned ? confirmed.flatMap((s) => s.fieldWarnings ?? []) : assembled.warnings,
  };
}
