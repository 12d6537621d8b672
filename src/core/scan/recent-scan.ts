import type { Layout } from "../records/layout";
import type { DeviceMemory, SessionStore } from "../ports";
import { CLOCK_BEHIND_MS } from "../recovery/absorbed";
import { formatUtcCompact } from "../time";
import { assemble, scanOf } from "./assemble";
import type { NameKind } from "./names";
import { kindOf } from "./names";
import { joined } from "./joined";
import { readDrafts, readNotes } from "./read";
import { placeholdersSkipped, subfolderNotes } from "./strays";
import type { Scan } from "./scan";

/**
 * Reads the drafts and only the confirmed notes that may have absorbed one of them (or the open session that
 * started at `starts`): a note absorbing a draft was written after the draft began, so its file was written
 * since shortly before the draft's start (SessionStore.changedAmong), and a note of a later start is named
 * after it. "Shortly" is CLOCK_BEHIND_MS, for a device whose clock was behind. Every other note is older than
 * every draft: it cannot have absorbed one. Null when that cannot be bounded (a start is unknown, or one of
 * `required` is not among the usable drafts): the caller then scans everything. With `memory`, the older notes it
 * knows in the listing are taken as such (DeviceMemory.olderNotesIn). Never writes.
 */
export async function scanRecentSessions(
  store: SessionStore,
  layout: Layout,
  offsetAt: (at: number) => number,
  at: { now: number; starts: ReadonlyArray<number | null>; required: readonly string[] },
  memory?: Pick<DeviceMemory, "olderNotesIn">,
): Promise<Scan | null> {
  const listed = await store.list(layout.sessions);
  // The names the store knows to be older confirmed notes (30 000 of them, at 30 000 sessions) are taken as they
  // are; the other names are told apart one by one.
  const known = memory ? memory.olderNotesIn(layout.sessions, listed) : null;
  const names: Record<NameKind, string[]> = { draft: [], confirmed: [], other: [], placeholder: [], ignored: [] };
  for (const name of known ? known.others : listed) names[kindOf(name)].push(name);
  const read = await readDrafts(store, layout, offsetAt, names.draft, at.now);
  const ids = read.drafts.map((d) => d.draftId);
  const starts = [...at.starts, ...read.drafts.map((d) => d.startedMs)];
  // An unreadable draft is never trashed or offered (only named): it needs no note found.
  if (starts.includes(null) || at.required.some((id) => !ids.includes(id))) return null;
  // The known older notes first, as listed. Joined by concat: a spread of a long history steps through each name
  // in the interpreter of a fresh process; concat copies them natively.
  const confirmed = known ? joined(known.older, names.confirmed) : names.confirmed;
  const bound = Math.min(...(starts as number[])) - CLOCK_BEHIND_MS;
  const from = starts.length === 0 ? "T" : `S-${formatUtcCompact(bound)}`; // "T" sorts after every S-… name
  // One pass over the names not known older (all 30 000 without a known run); the order they are read in does not
  // matter (assemble).
  const allOlder = known !== null && known.before <= from;
  const before: string[] = [];
  const recent: string[] = [];
  for (const n of allOlder ? names.confirmed : confirmed) (n < from ? before : recent).push(n);
  const older = allOlder ? joined(known.older, before) : before;
  const changed = starts.length === 0 ? [] : await store.changedAmong(layout.sessions, older, bound);
  const notes = await readNotes(store, layout, offsetAt, [...new Set([...recent, ...changed])]);
  const strays = [...placeholdersSkipped(layout, names.placeholder), ...(await subfolderNotes(store, layout))];
  const scan = scanOf(layout, assemble(notes.map(([, outcome]) => outcome)), read, names.other, strays);
  return { ...scan, partial: { names: confirmed } };
}
