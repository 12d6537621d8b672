import type { Layout } from "../records/layout";
import type { SessionStore } from "../ports";
import type { ConfirmedSession, Skipped } from "../records/records";
import { oneFilePerId, scanOf } from "./assemble";
import type { NameKind } from "./names";
import { kindOf } from "./names";
import { readDrafts, readNotes } from "./read";
import { placeholdersSkipped, subfolderNotes } from "./strays";

/** What a key scan keeps of a confirmed note: enough to order it, pick one file per ID, and find it again. */
export interface NoteKey {
  sessionId: string;
  path: string;
  startedMs: number;
  /** What `choose` said of the note's record when it was read. */
  chosen: boolean;
}

/** How many notes are read (and let go) at a time: their records die young, whatever the history's length. */
const NOTES_AT_A_TIME = 8;

/**
 * A full scan that keeps a key per confirmed note instead of its record (issue 36: an export in memory that does
 * not grow with the history): each note is read and interpreted as scanSessions reads it, `choose` is asked of
 * its record, and only its key is kept. The keys are the files scanSessions keeps (one per session_id, by the
 * same rule, oneFilePerId), in no set order; `skipped` is the scan's own, in the same order. Never writes.
 */
export async function scanKeys(
  store: SessionStore,
  layout: Layout,
  offsetAt: (at: number) => number,
  now: number,
  choose: (session: ConfirmedSession) => boolean,
): Promise<{ keys: NoteKey[]; skipped: Skipped[] }> {
  const names: Record<NameKind, string[]> = { draft: [], confirmed: [], other: [], placeholder: [], ignored: [] };
  for (const name of await store.list(layout.sessions)) names[kindOf(name)].push(name);
  const outcomes: Array<NoteKey | Skipped> = [];
  for (let at = 0; at < names.confirmed.length; at += NOTES_AT_A_TIME) {
    const read = await readNotes(store, layout, offsetAt, names.confirmed.slice(at, at + NOTES_AT_A_TIME));
    for (const [, outcome] of read) outcomes.push("reason" in outcome ? outcome : keyOf(outcome, choose(outcome)));
  }
  const { kept, skipped } = oneFilePerId(outcomes);
  const drafts = await readDrafts(store, layout, offsetAt, names.draft, now);
  const strays = [...placeholdersSkipped(layout, names.placeholder), ...(await subfolderNotes(store, layout))];
  const assembled = { confirmed: [], skipped, warnings: [] };
  return { keys: kept, skipped: scanOf(layout, assembled, drafts, names.other, strays).skipped };
}

function keyOf(session: ConfirmedSession, chosen: boolean): NoteKey {
  return { sessionId: session.sessionId, path: session.path, startedMs: session.startedMs, chosen };
}
