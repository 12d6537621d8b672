import type { OlderNotes } from "../ports";
import type { KnownOlder } from "./checked-indexes";
import type { FolderSummary } from "./folder-summary";
import { olderRange } from "./folder-summary";
import type { FolderReading } from "./folder-reading";
import type { Digest } from "./names-digest";

/**
 * The latest listing's older notes, when the summary vouched for them (olderRange: exactly those names, in its
 * order): `older` and the other files, so that neither changedAmong nor the index checks digest them again, and
 * `files`, the very array `list` returned (what olderNotesIn answers for).
 */
export interface Vouched {
  readonly files: readonly string[];
  readonly older: OlderNotes;
  readonly known: KnownOlder;
}

/**
 * The folder's files and subfolders from its names: the older notes the summary vouches for (olderRange: their set
 * is exactly the summary's) and its recent notes are files, as a name once a note's file stays a file (create-only);
 * every other name is asked, and the times told along are returned. When the summary cannot vouch, one typed listing
 * instead (`vouched` null). Pure: the reading is the face's.
 */
export async function readByNames(
  reading: FolderReading,
  folder: string,
  summary: FolderSummary,
  digest: Digest,
): Promise<{ files: string[]; folders: string[]; times: ReadonlyMap<string, number>; vouched: Vouched | null }> {
  const names = await reading.names(folder);
  const range = olderRange(summary, names, digest);
  if (range === null) return { ...(await reading.listing(folder)), times: new Map(), vouched: null };
  const before = names.slice(0, range.from);
  const later = names.slice(range.to);
  const { recent } = summary;
  const asked = await reading.kinds(folder, [...before, ...later.filter((name) => !recent.has(name))]);
  const told = new Set(asked.files);
  const isFile = (name: string): boolean => recent.has(name) || told.has(name);
  const head = before.filter(isFile);
  const tail = later.filter(isFile);
  const known = { split: summary.split, old: summary.old, older: range.older };
  // concat, not a spread: see recent-scan.ts
  const files = head.concat(range.older, tail);
  const older = { older: range.older, others: head.concat(tail), before: known.split };
  return { files, folders: asked.folders, times: asked.times ?? new Map(), vouched: { files, older, known } };
}
