import { formatUtcCompact } from "../time";
import type { Digest, NamesDigest } from "./names-digest";
import { digestInOrder, namesDigest, sameDigest } from "./names-digest";
import { knownToBeginWith } from "../scan/joined";

/**
 * The folder summary a device remembers (issue 22; docs/performance.md "The folder summary"), so
 * that a bounded scan's question "which of these notes were written since the bound?" costs the recent notes, not
 * the history: the confirmed notes named before a split (the older notes) are remembered only as the digest of
 * their set, with the few of them written late (since a time); the notes named after it with their times. A call
 * whose older names give the same digest knows that no older note came or went, so their times are the ones
 * remembered, and only a late one can have been written since the bound. The full times (remembering-store.ts)
 * are needed only when the older notes changed. Pure.
 */
export interface FolderSummary {
  /** The older notes are the confirmed names before this one (in code unit order, as `<` compares). */
  readonly split: string;
  /** The digest of the older notes' set. */
  readonly old: NamesDigest;
  /** Every older note whose time is at or after this (epoch ms) is in `late`. */
  readonly since: number;
  /** Those older notes, with their times. */
  readonly late: ReadonlyMap<string, number>;
  /** The notes at or after the split whose times were known, with them. */
  readonly recent: ReadonlyMap<string, number>;
}

/**
 * How far back from when a summary is made its split and `since` are put: further back than any bounded scan of
 * start looks (a week, SAVED_WITHIN_MS, and a day for a clock behind), and than most drafts stay pending.
 */
export const SUMMARY_SPAN_MS = 14 * 24 * 3_600_000;
/** A summary's split moves once it is this much older than SUMMARY_SPAN_MS (so it is not rewritten every second). */
export const SUMMARY_MOVE_MS = 24 * 3_600_000;

/** The split for a summary made at `now`: a confirmed note's name of the moment SUMMARY_SPAN_MS before. */
const splitAt = (at: number): string => `S-${formatUtcCompact(at)}`;

/**
 * Which of `names` were written since `since`, as far as the summary tells: the late older notes written since,
 * and `rest`, the names the caller looks up one by one. Null when the summary cannot tell: the bound is before its
 * `since`, or the older names among `names` are not exactly its older notes (a note came, went or was renamed, or
 * `names` does not hold them all).
 *
 * `names` in ascending order (a listing's, as the file system gives it, sorted by name on the usual ones) has
 * the older names first: they are found by a binary search, not a walk of the history. In another order the
 * names taken as older are not exactly the older notes, so the digests differ (nothing is told), or they are
 * the older notes after all and every other name is in `rest`: either way nothing is told wrong. `verified`: names
 * this call already found to be exactly the older notes (olderRange's), so that they are not digested again.
 */
export function summaryChanged(
  summary: FolderSummary,
  names: readonly string[],
  since: number,
  digest: Digest,
  verified: readonly string[] | null = null,
): { changed: string[]; rest: string[] } | null {
  if (since < summary.since) return null;
  const older = firstAtOrAfter(names, summary.split);
  const vouched = verified !== null && older === verified.length && beginsWith(names, verified);
  if (!vouched && !sameDigest(namesDigest(names.slice(0, older), digest), summary.old)) return null;
  const changed: string[] = [];
  for (const [name, at] of summary.late) if (at >= since) changed.push(name);
  return { changed, rest: names.slice(older) };
}

/** The first index of `names` (ascending) whose name is not before `key`: a binary search. */
export function firstAtOrAfter<T extends string | number>(names: readonly T[], key: T): number {
  let at = 0;
  for (let end = names.length; at < end;) {
    const mid = (at + end) >>> 1;
    if (names[mid] < key) at = mid + 1;
    else end = mid;
  }
  return at;
}

/** Whether `names` begins with exactly `head` (compared in place: no copy of 30 000 names). */
function beginsWith(names: readonly string[], head: readonly string[]): boolean {
  if (names.length < head.length) return false;
  if (knownToBeginWith(names, head)) return true;
  for (let i = 0; i < head.length; i++) if (names[i] !== head[i]) return false;
  return true;
}

/** Every confirmed note's name begins so (ids.ts CONFIRMED_FILE_PATTERN), and so does every split. */
const CONFIRMED_PREFIX = "S-";

/**
 * Where a listing of the whole folder (`names`: every entry's name, in ascending order) holds the summary's older
 * notes: the names from the first confirmed one's place up to the split, when their set is exactly the older
 * notes (so every one of them is a confirmed note's name, and was a note's file when the summary was made). Null
 * otherwise: in another order, or with a name among them that is not an older note, the digests differ.
 */
export function olderRange(
  summary: FolderSummary,
  names: readonly string[],
  digest: Digest,
): { from: number; to: number; older: string[] } | null {
  const from = firstAtOrAfter(names, CONFIRMED_PREFIX);
  const to = firstAtOrAfter(names, summary.split);
  if (to < from) return null;
  const older = names.slice(from, to);
  // In the listing's order first: it is ascending on the usual file systems, and then needs no sort.
  const same =
    sameDigest(digestInOrder(older, digest), summary.old) || sameDigest(namesDigest(older, digest), summary.old);
  return same ? { from, to, older } : null;
}

/**
 * The summary of a folder whose confirmed notes are `confirmed` (a listing: no name twice), made at `now` from what
 * is known of their times (`timeOf`: undefined when not known). Null when an older note's time is not known: the
 * summary could not vouch for it.
 *
 * With `prior` (a summary whose notes' times `timeOf` answers from), its split and `since` are kept until it is
 * SUMMARY_MOVE_MS late, and `since` only ever moves forward; `timeOf` may answer a note before `prior.split` that
 * is not late by any time before `prior.since` (-Infinity). That holds only if `prior` describes these older
 * notes, which is checked here: null when it does not.
 */
export function summaryOf(
  confirmed: readonly string[],
  timeOf: (name: string) => number | undefined,
  now: number,
  prior: FolderSummary | null,
  digest: Digest,
): FolderSummary | null {
  // Kept also when it is in the future (a clock set back): `since` never moves back from a prior's.
  const keep = prior !== null && prior.since >= now - SUMMARY_SPAN_MS - SUMMARY_MOVE_MS;
  const since = keep ? prior.since : now - SUMMARY_SPAN_MS;
  const split = keep ? prior.split : splitAt(since);
  const old: string[] = [];
  const priorOld: string[] = [];
  const late = new Map<string, number>();
  const recent = new Map<string, number>();
  for (const name of confirmed) {
    if (prior !== null && name < prior.split) priorOld.push(name);
    const at = timeOf(name);
    if (name >= split) {
      if (at !== undefined) recent.set(name, at);
      continue;
    }
    if (at === undefined) return null;
    old.push(name);
    if (at >= since) late.set(name, at);
  }
  if (prior !== null && !sameDigest(namesDigest(priorOld, digest), prior.old)) return null;
  return { split, old: namesDigest(old, digest), since, late, recent };
}

/**
 * What summaryOf makes from `prior` while its split is kept (not yet SUMMARY_MOVE_MS late), when the folder's older
 * notes are known to be exactly prior's (olderRange vouched for them, and none was written since): the same
 * split, `since`, digest and late notes, and `others`' times (the other confirmed notes, none before the
 * split) as `timeOf` knows them; no walk or digest of the history. Null when the split is due to move, or a name
 * of `others` is before it: then summaryOf.
 */
export function summaryKept(
  prior: FolderSummary,
  others: readonly string[],
  timeOf: (name: string) => number | undefined,
  now: number,
): FolderSummary | null {
  if (prior.since < now - SUMMARY_SPAN_MS - SUMMARY_MOVE_MS) return null;
  const recent = new Map<string, number>();
  for (const name of others) {
    if (name < prior.split) return null;
    const at = timeOf(name);
    if (at !== undefined) recent.set(name, at);
  }
  return { split: prior.split, old: prior.old, since: prior.since, late: prior.late, recent };
}

/** Whether two summaries say the same (then an unchanged one need not be saved again). */
export function sameSummary(x: FolderSummary, y: FolderSummary): boolean {
  return (
    x.split === y.split &&
    x.since === y.since &&
    sameDigest(x.old, y.old) &&
    sameTimes(x.late, y.late) &&
    sameTimes(x.recent, y.recent)
  );
}

function sameTimes(x: ReadonlyMap<string, number>, y: ReadonlyMap<string, number>): boolean {
  if (x.size !== y.size) return false;
  for (const [name, at] of x) if (y.get(name) !== at) return false;
  return true;
}
