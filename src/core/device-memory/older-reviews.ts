import type { ConfirmedSession } from "../records/records";
import type { ReviewDay, ReviewSession, Schedule, ScheduleStep } from "../review/schedule";
import type { OffsetAt } from "../time";
import { reviewDaysOf, scheduleOf } from "../review/schedule";
import { formatUtcCompact } from "../time";
import { recordedDate } from "../time/parse-iso";
import { recordsOwnDay, sessionDay } from "../time/local-days";
import { kindOf } from "../scan/names";
import { joined } from "../scan/joined";
import { KEPT_SPAN_MS } from "./kept-fields";
import type { OlderNotes } from "../ports";
import type { KnownOlder } from "./checked-indexes";
import { namesKey } from "./checked-indexes";
import type { Digest, NamesDigest } from "./names-digest";

/*
 * What the queue and the brief need of the session folder's older notes, folded per topic (issue 37;
 * docs/performance.md "Older review days"), so that next and context read the recent notes and this, not a record
 * per older note. Pure: the face keeps it between its processes (the CLI: cli/device-memory/older-reviews-file.ts).
 *
 * A topic's review days are a fold in session order (schedule.ts reviewDaysOf), and every recent note comes after
 * every older one (checked on each use against `last`), so the older notes' review days continued with the recent
 * notes are the review days of the whole list, a day across the split included. Sound as the older notes kept by
 * name are (create-only notes): it is used only while the folder's older confirmed names are exactly the set it
 * folded (`names`), every folded day is the day its note records (never the device's zone), and it is a day old at
 * most (the blind spot of a note rewritten in place, as for older-fields.ts).
 */

/** How many of a topic's newest older notes with a Next action or next_done are kept (next --as-of walks them). */
export const MARKS_KEPT = 8;
/** How many of a topic's newest older notes are named (the brief reads its topic's newest until its words are full). */
export const HISTORY_KEPT = 64;
/** Bits of a mark: the note has a Next action (older-fields.ts SECTIONS bit 0), or carries next_done. */
export const MARK_NEXT = 1;
export const MARK_DONE = 2;

/** One older note that can end the search for a topic's next action (next.ts nextActionOf). */
export interface Mark {
  name: string;
  day: number;
  bits: number;
}

/** One topic's part of the fold. */
export interface OlderTopic {
  /** The day of the topic's oldest older note (a topic is listed as of a day only with a session by then). */
  first: number;
  /** Its review days, oldest first (reviewDaysOf of its older notes, every day). */
  days: ReviewDay[];
  /** The last of them, or null: where the recent days continue (a file's `days` are made only when asked). */
  last: ReviewDay | null;
  /** The ladder's state after every one of them but the last (scheduleOf's), where the recent days continue. */
  before: { step: number; due: number | null };
  /** Its newest older notes with a Next action or next_done, newest first; `complete`: every one of them. */
  marks: Mark[];
  complete: boolean;
  /** Its older notes with a Recall among its newest `lookback`, by rank (0: its newest older note). */
  recalls: Array<{ rank: number; name: string }>;
  /** How many older notes it has, their minutes, and the first and last dates their starts record. */
  count: number;
  minutes: number;
  firstDate: string;
  lastDate: string;
  /** The names of its newest older notes, newest first (HISTORY_KEPT of them: the brief reads a few). */
  newest: string[];
  /** The topic note its newest older note that records one records, or null. */
  topicNote: string | null;
  /** Its older notes' field warnings, newest first. */
  warnings: string[];
}

export interface OlderReviews {
  /** The older notes are the confirmed names before this one. */
  readonly split: string;
  /**
   * The set of older confirmed names folded (the skipped and duplicate ones included: they stay so), as a digest
   * cut at `keySplit` (checked-indexes.ts namesKey: the folder summary's split, whose older part a call already
   * knows, so that only the names after it are digested).
   */
  readonly names: NamesDigest;
  readonly keySplit: string;
  /** The last older session in session order (started_at, then ID); null: none. */
  readonly last: { ms: number; id: string } | null;
  /** The older sessions' IDs that are not their note's name (a recent note claiming one is a duplicate). */
  readonly ids: readonly string[];
  /** The older sessions' field warnings, newest first (the scan's order). */
  readonly warnings: readonly string[];
  readonly topics: ReadonlyMap<string, OlderTopic>;
}

/** The older notes' split of a call at `now`: as the older notes kept by name (older-fields.ts). */
export const olderSplitAt = (now: number): string => `S-${formatUtcCompact(now - KEPT_SPAN_MS)}`;

const nameOf = (path: string): string => path.slice(path.lastIndexOf("/") + 1);

/** What a fold needs besides the sessions. */
export interface FoldInput {
  split: string;
  /** The folder's confirmed names before the split (whatever the scan made of them). */
  olderNames: readonly string[];
  /** The SECTIONS bits of an older note (older-fields.ts), or undefined when not known. */
  sections: (name: string) => number | undefined;
  lookback: number;
}

/** A fold as a call makes it: its older names given, for the memory to digest (RememberingStore.keepOlderReviews). */
export type OlderFold = Omit<OlderReviews, "names" | "keySplit"> & { readonly olderNames: readonly string[] };

/**
 * The confirmed names before `split` of a listing (`names`), and the digest they are kept by: cut at `keySplit`,
 * from the older notes the call already knows when they are before it (`known`, the folder summary's).
 */
export function olderKey(
  names: readonly string[],
  split: string,
  keySplit: string,
  digest: Digest,
  known: { older: OlderNotes; known: KnownOlder } | null,
): NamesDigest {
  const usable = known !== null && known.known.split === keySplit && keySplit <= split;
  // joined: namesKey then knows the set begins with the summary's older names, without walking 30 000 of them.
  const set = usable
    ? joined(
        known.known.older,
        known.older.others.filter((n) => n < split && kindOf(n) === "confirmed"),
      )
    : names.filter((n) => n < split && kindOf(n) === "confirmed");
  return namesKey(set, keySplit, digest, usable ? known.known : null);
}

/** The fold with its set of names digested (cut at `keySplit`, see OlderReviews). */
export function withDigest(fold: OlderFold, names: NamesDigest, keySplit: string): OlderReviews {
  const { olderNames: _names, ...rest } = fold;
  return { ...rest, names, keySplit };
}

/**
 * The fold of `newestFirst`'s (a full scan's confirmed sessions) older notes, or null when one of them cannot be
 * folded: its day depends on the device's zone, or its sections are not known.
 */
export function foldOlderReviews(newestFirst: readonly ConfirmedSession[], input: FoldInput): OlderFold | null {
  const older = newestFirst.filter((s) => nameOf(s.path) < input.split);
  const byTopic = new Map<string, ConfirmedSession[]>();
  const ids: string[] = [];
  for (const s of older) {
    if (!recordsOwnDay(s.startedAt) || input.sections(nameOf(s.path)) === undefined) return null;
    if (`${s.sessionId}.md` !== nameOf(s.path)) ids.push(s.sessionId);
    const list = byTopic.get(s.topicId);
    if (list) list.push(s);
    else byTopic.set(s.topicId, [s]);
  }
  const topics = new Map<string, OlderTopic>();
  for (const [topicId, list] of byTopic) topics.set(topicId, topicFold(list, input));
  const newest = older[0];
  return {
    split: input.split,
    olderNames: input.olderNames,
    last: newest ? { ms: newest.startedMs, id: newest.sessionId } : null,
    ids,
    warnings: older.flatMap((s) => s.fieldWarnings ?? []),
    topics,
  };
}

/**
 * The review days of the older notes (`before`, oldest first) and then `sessions`, all of which come after them in
 * session order, up to `asOf`: exactly reviewDaysOf of all of them, since a day's rating is its last rated
 * session's, so a day of both keeps the older rating only when no later session of that day is rated.
 */
export function continuedDays(
  before: readonly ReviewDay[],
  sessions: readonly ReviewSession[],
  offsetAt: OffsetAt,
  asOf: number,
): ReviewDay[] {
  return mergedDays(before, reviewDaysOf(sessions, offsetAt, asOf), asOf);
}

/** The older days up to `asOf` merged with `later`, the review days of sessions that all come after them. */
function mergedDays(before: readonly ReviewDay[], later: readonly ReviewDay[], asOf: number): ReviewDay[] {
  let end = before.length;
  while (end > 0 && before[end - 1].day > asOf) end--;
  if (later.length === 0) return before.slice(0, end);
  const days: ReviewDay[] = [];
  let i = 0;
  for (const d of later) {
    while (i < end && before[i].day < d.day) days.push(before[i++]);
    const same = i < end && before[i].day === d.day ? before[i++] : null;
    days.push(same && d.rating === null ? same : d);
  }
  while (i < end) days.push(before[i++]);
  return days;
}

/**
 * The topic's schedule as of `asOf`: exactly scheduleOf(continuedDays(…)). When every later day is on or after the
 * last older one, the ladder continues from the state kept before it (`before`), and the older history is worked
 * out only when read (a getter): next reads it only for `--topic`.
 */
export function continuedSchedule(
  older: OlderTopic | undefined,
  sessions: readonly ReviewSession[],
  offsetAt: OffsetAt,
  asOf: number,
): Schedule {
  const later = reviewDaysOf(sessions, offsetAt, asOf);
  const last = older?.last;
  if (!older || !last || last.day > asOf || later.some((d) => d.day < last.day)) {
    return scheduleOf(mergedDays(older?.days ?? [], later, asOf));
  }
  const same = later.length > 0 && later[0].day === last.day ? later[0] : null;
  const merged = same !== null && same.rating !== null ? same : last;
  const tail = scheduleOf([merged, ...later.slice(same === null ? 0 : 1)], older.before);
  let history: ScheduleStep[] | null = null;
  const { history: tailHistory, ...rest } = tail;
  return Object.defineProperty(rest, "history", {
    get: () => (history ??= scheduleOf(older.days.slice(0, -1)).history.concat(tailHistory)),
    enumerable: true,
  }) as Schedule;
}

/** A recorded day never asks for the offset (recordsOwnDay), so any will do. */
const NO_ZONE = (): number => 0;

function topicFold(newestFirst: readonly ConfirmedSession[], input: FoldInput): OlderTopic {
  const marks: Mark[] = [];
  let complete = true;
  const recalls: Array<{ rank: number; name: string }> = [];
  let first = Number.POSITIVE_INFINITY;
  newestFirst.forEach((s, rank) => {
    const name = nameOf(s.path);
    const day = sessionDay(s, NO_ZONE);
    first = Math.min(first, day);
    const sections = input.sections(name) ?? 0;
    const bits = (sections & 1 ? MARK_NEXT : 0) | (s.nextDone ? MARK_DONE : 0);
    if (bits !== 0 && marks.length < MARKS_KEPT) marks.push({ name, day, bits });
    else if (bits !== 0) complete = false;
    if (rank < input.lookback && sections & 2) recalls.push({ rank, name });
  });
  const dates = newestFirst.map((s) => recordedDate(s.startedAt)).sort();
  const days = reviewDaysOf(newestFirst, NO_ZONE, Number.POSITIVE_INFINITY);
  const { step, due } = scheduleOf(days.slice(0, -1));
  return {
    first,
    days,
    last: days[days.length - 1] ?? null,
    before: { step, due },
    marks,
    complete,
    recalls,
    count: newestFirst.length,
    minutes: newestFirst.reduce((sum, s) => sum + s.durationMinutes, 0),
    firstDate: dates[0],
    lastDate: dates[dates.length - 1],
    newest: newestFirst.slice(0, HISTORY_KEPT).map((s) => nameOf(s.path)),
    topicNote: newestFirst.find((s) => s.topicNote !== null)?.topicNote ?? null,
    warnings: newestFirst.flatMap((s) => s.fieldWarnings ?? []),
  };
}

/**
 * Whether the recent sessions (`recent`, read now) come after every folded one and claim none of their IDs, so that
 * the fold continued with them is the whole list's: else the caller folds afresh.
 */
export function continuesAfter(
  reviews: OlderReviews,
  recent: readonly ConfirmedSession[],
  olderName: (name: string) => boolean,
): boolean {
  const last = reviews.last;
  const ids = new Set(reviews.ids);
  return recent.every((s) => {
    const after = last === null || s.startedMs > last.ms || (s.startedMs === last.ms && s.sessionId > last.id);
    return after && !ids.has(s.sessionId) && !olderName(`${s.sessionId}.md`);
  });
}
