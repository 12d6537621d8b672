import type { Covered } from "../device-memory/older-totals";
import { sessionOf } from "../device-memory/kept-fields";
import type { Layout } from "../records/layout";
import { sessionPath } from "../records/layout";
import type { DeviceMemory, SessionStore } from "../ports";
import type { ConfirmedSession, Skipped } from "../records/records";
import { assemble, scanOf } from "./assemble";
import type { NameKind } from "./names";
import { kindOf } from "./names";
import { readDrafts, readNotes } from "./read";
import type { Scan } from "./scan";
import { placeholdersSkipped, subfolderNotes } from "./strays";

/** A scan without the older notes the device's totals fold, and those totals. */
export interface ScanBesideTotals {
  /** Every file as a full scan gives it, but the notes folded (their confirmed sessions are not in it). */
  scan: Scan;
  covered: Covered;
}

/**
 * The session folder as a full scan reads it, less the older notes folded in the device's totals (issues 37/38,
 * device-memory/older-totals.ts): one listing; the names the totals cover are neither told apart nor read, nor
 * asked of the older notes' records (which are not loaded); the irregular ones come from the totals as sessions.
 * Null when the memory has no totals that hold for the listing, or when a note read claims the session_id of a
 * note folded (the full scan would skip one of them): the caller then scans everything. Never writes.
 */
export async function scanBesideTotals(
  store: SessionStore,
  layout: Layout,
  offsetAt: (at: number) => number,
  now: number,
  memory: DeviceMemory | undefined,
): Promise<ScanBesideTotals | null> {
  if (!memory?.olderTotals) return null;
  const listed = await store.list(layout.sessions);
  const covered = memory.olderTotals(layout.sessions, listed);
  if (covered === null) return null;
  const names: Record<NameKind, string[]> = { draft: [], confirmed: [], other: [], placeholder: [], ignored: [] };
  for (const name of covered.rest) names[kindOf(name)].push(name);
  // Read as a full scan reads them, but never from the older notes' records (not loaded: that is the point).
  const reading = { cachedSession: () => undefined, sessionRead: memory.sessionRead.bind(memory) };
  const notes: Array<[string, ConfirmedSession | Skipped]> = await readNotes(
    store,
    layout,
    offsetAt,
    names.confirmed,
    undefined,
    reading,
  );
  for (const [name, record] of covered.totals.irregular)
    notes.push([name, sessionOf(sessionPath(layout, name), record)]);
  for (const [name, outcome] of notes) {
    if ("reason" in outcome || `${outcome.sessionId}.md` === name) continue;
    if (covered.folded(`${outcome.sessionId}.md`)) return null;
  }
  const drafts = await readDrafts(store, layout, offsetAt, names.draft, now);
  const strays = [...placeholdersSkipped(layout, names.placeholder), ...(await subfolderNotes(store, layout))];
  const assembled = assemble(notes.map(([, outcome]) => outcome));
  return { scan: scanOf(layout, assembled, drafts, names.other, strays), covered };
}
