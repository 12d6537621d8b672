/**
 * next and context over the recent notes and the device memory's fold of the older ones (issue 37;
 * core/device-memory/older-reviews.ts, docs/performance.md "Older review days"): the session folder is listed,
 * the notes named after the fold's split are read, and the older notes are not made into records at all. When the
 * fold cannot stand for the older notes (none kept, another set of names, a recent note not after them), the
 * caller takes the full scan, which folds afresh for the next call (`keepFold`).
 */
import { plainSection } from "../records/brief";
import { classifyRecord } from "../records/frontmatter";
import { sessionPath } from "../records/layout";
import type { ConfirmedSession } from "../records/records";
import { interpretConfirmed } from "../records/records";
import type { Scan } from "../scan";
import { assemble } from "../scan/assemble";
import { kindOf } from "../scan/names";
import { readDrafts, readNotes } from "../scan/read";
import type { Mark, OlderReviews, OlderTopic } from "../device-memory/older-reviews";
import {
  MARK_DONE,
  MARK_NEXT,
  continuedSchedule,
  continuesAfter,
  foldOlderReviews,
} from "../device-memory/older-reviews";
import { olderSplitAt } from "../device-memory/older-reviews";
import { sectionsOf } from "../device-memory/older-fields";
import { withBody } from "../scan";
import { readConfirmed } from "../scan/cached";
import { recordedDate } from "../time/parse-iso";
import { IndexDisagrees } from "./topic-history";
import type { TopicHistory } from "./topic-history";
import type { BriefAsk, BriefReview, OlderReviewsSource, ReviewAsk, ReviewTopics, SessionContext } from "./context";
import { buildQueue, topicEntry } from "../review/queue";
import type { QueueTopic } from "../review/queue";
import { sessionDay } from "../time/local-days";
import { nextActionIn } from "./next";
import { RECALL_LOOKBACK, newestRecall } from "./brief-review";

/** What next and context take instead of a full scan. */
export interface RecentReviews {
  reviews: OlderReviews;
  /** The listing the fold stands for. */
  names: readonly string[];
  /** The confirmed sessions named from the split on, newest first, as a scan assembles them. */
  recent: ConfirmedSession[];
  /** The scan's warnings in its order: the recent notes', the older ones', the drafts'. */
  warnings: string[];
}

/** The recent notes and the fold kept for the older ones, or null when the fold cannot stand for them. */
export async function recentReviews(ctx: SessionContext): Promise<RecentReviews | null> {
  const memory = ctx.ports.memory;
  if (!memory) return null;
  const { store } = ctx.ports;
  const folder = ctx.layout.sessions;
  const names = await store.list(folder);
  const reviews = memory.olderReviewsFor(names);
  if (reviews === null) return null;
  // The older notes the listing vouched for, all confirmed and named before the split, need not be looked at.
  const known = memory.olderNotesIn(folder, names);
  const rest = known !== null && known.before <= reviews.split ? known.others : names;
  const recentNames = rest.filter((n) => n >= reviews.split && kindOf(n) === "confirmed");
  const assembled = assemble((await readNotes(store, ctx.layout, ctx.offsetAt, recentNames)).map(([, o]) => o));
  // A recent note's ID before the split may be an older note's name: a duplicate, which the full scan decides.
  const olderName = (name: string): boolean => name < reviews.split && names.includes(name);
  if (!continuesAfter(reviews, assembled.confirmed, olderName)) return null;
  const draftNames = rest.filter((n) => n.startsWith("DRAFT-") && kindOf(n) === "draft");
  const drafts = await readDrafts(store, ctx.layout, ctx.offsetAt, draftNames, ctx.ports.clock.now());
  const warnings = [...assembled.warnings, ...reviews.warnings, ...drafts.drafts.flatMap((d) => d.fieldWarnings ?? [])];
  return { reviews, names, recent: assembled.confirmed, warnings };
}

/** The body of the note at `path` as reading it gives (withBody's), "" when it no longer reads as a session. */
async function bodyAt(ctx: SessionContext, path: string): Promise<string> {
  const read = interpretConfirmed(path, classifyRecord(await ctx.ports.store.read(path)), ctx.offsetAt);
  return "record" in read ? read.record.body : "";
}

/**
 * The next action the older notes carry as of `asOf` (next.ts nextActionOf, continued past the recent notes): the
 * newest mark by then decides. Undefined when the marks kept end before one does, and more were left out.
 */
export async function olderNextAction(
  ctx: SessionContext,
  marks: readonly Mark[],
  complete: boolean,
  asOf: number,
): Promise<string | null | undefined> {
  for (const mark of marks) {
    if (mark.day > asOf) continue;
    if (mark.bits & MARK_NEXT) {
      const text = plainSection(await bodyAt(ctx, sessionPath(ctx.layout, mark.name)), "Next action");
      if (text !== null) return text;
    }
    if (mark.bits & MARK_DONE) return null;
  }
  return complete ? null : undefined;
}

/** At most this many older notes' bodies are read for their sections when folding (those of the last day or so). */
const UNKNOWN_READ_MAX = 2000;

/**
 * After a full scan, the fold of its older notes for the device memory to keep, when every one can be folded
 * (older-reviews.ts foldOlderReviews): their sections as this call loaded or read them, the few others read now.
 */
const nameOf = (path: string): string => path.slice(path.lastIndexOf("/") + 1);

export async function keepFold(ctx: SessionContext, scan: Scan, lookback: number): Promise<void> {
  const memory = ctx.ports.memory;
  if (!memory) return;
  const split = olderSplitAt(ctx.ports.clock.now());
  const folder = ctx.layout.sessions;
  const inFolder = (path: string): string | null => {
    const name = path.slice(folder.length + 1);
    return path.startsWith(`${folder}/`) && !name.includes("/") && name < split ? name : null;
  };
  const olderNames: string[] = [];
  for (const { path } of [...scan.confirmed, ...scan.skipped]) {
    const name = inFolder(path);
    if (name !== null && kindOf(name) === "confirmed") olderNames.push(name);
  }
  const bits = new Map<string, number>();
  const unknown = scan.confirmed.filter((s) => {
    const name = inFolder(s.path);
    const known = name === null ? undefined : memory.olderSections(s.path);
    if (name !== null && known !== undefined) bits.set(name, known);
    return name !== null && known === undefined;
  });
  if (unknown.length > UNKNOWN_READ_MAX) return;
  for (const s of unknown) {
    const full = await withBody(ctx.ports.store, s, ctx.offsetAt);
    bits.set(s.path.slice(folder.length + 1), sectionsOf(full.body));
  }
  const fold = foldOlderReviews(scan.confirmed, { split, olderNames, sections: (n) => bits.get(n), lookback });
  if (fold !== null) memory.keepOlderReviews(fold);
}

/** Each topic's recent sessions up to `asOf`, newest first (topic-schedules.ts sessionsByTopic's, of the recent). */
function recentByTopic(ctx: SessionContext, recent: readonly ConfirmedSession[], asOf: number) {
  const byTopic = new Map<string, ConfirmedSession[]>();
  for (const s of recent) {
    if (!(sessionDay(s, ctx.offsetAt) <= asOf)) continue;
    const list = byTopic.get(s.topicId);
    if (list) list.push(s);
    else byTopic.set(s.topicId, [s]);
  }
  return byTopic;
}

/**
 * next's topics from the fold and the recent notes: each topic's older review days continued with its recent
 * sessions (reviewDaysOf's `before`), its next action from its recent notes, then its older marks. Null when the
 * fold cannot stand for the older notes, or its marks end before the next action is settled.
 */
async function foldedTopics(ctx: SessionContext, ask: ReviewAsk): Promise<ReviewTopics | null> {
  const read = await recentReviews(ctx);
  if (read === null) return null;
  const { reviews, recent } = read;
  const mine = recentByTopic(ctx, recent, ask.asOf);
  const ids = new Set([...mine.keys(), ...reviews.topics.keys()]);
  const topics: QueueTopic[] = [];
  for (const topicId of ids) {
    const sessions = mine.get(topicId) ?? [];
    const older = reviews.topics.get(topicId);
    if (sessions.length === 0 && !(older && older.first <= ask.asOf)) continue;
    const schedule = continuedSchedule(older, sessions, ctx.offsetAt, ask.asOf);
    let nextAction: string | null | undefined = null;
    if (ask.counts(topicId, schedule.lastReviewed !== null)) {
      nextAction = await nextActionIn(ctx, sessions, ask.probe);
      if (nextAction === undefined && older) {
        nextAction = await olderNextAction(ctx, older.marks, older.complete, ask.asOf);
      } else if (nextAction === undefined) nextAction = null;
      if (nextAction === undefined) return null;
    }
    topics.push({ topicId, schedule, nextAction });
  }
  const known = (topicId: string): boolean => reviews.topics.has(topicId) || recent.some((s) => s.topicId === topicId);
  return { topics, known, warnings: read.warnings };
}

/** The newest Recall among the topic's older notes of rank below `within`, from the fold's recall marks. */
async function olderRecall(ctx: SessionContext, older: OlderTopic | undefined, within: number) {
  for (const { rank, name } of older?.recalls ?? []) {
    if (rank >= within) break;
    const path = sessionPath(ctx.layout, name);
    const read = interpretConfirmed(path, classifyRecord(await ctx.ports.store.read(path)), ctx.offsetAt);
    const text = "record" in read ? plainSection(read.record.body, "Recall") : null;
    if ("record" in read && text !== null) {
      return { day: sessionDay(read.record, ctx.offsetAt), text, rating: read.record.recallRating ?? null };
    }
  }
  return null;
}

/**
 * The brief's review entry, warnings and newest recall from the topic's recent notes (its history's, named from
 * the split on: the index lists names newest first) and the fold: null when the history cannot name its notes,
 * or the fold does not stand for exactly the topic's older ones (brief-review.ts then reads every note).
 */
async function foldedBrief(ctx: SessionContext, at: BriefAsk): Promise<BriefReview | null> {
  const { history } = at;
  const memory = ctx.ports.memory;
  if (!memory || !history.nameAt || history.count === undefined) return null;
  const names = history.fold?.names ?? (await ctx.ports.store.list(ctx.layout.sessions));
  const reviews = history.fold?.reviews ?? memory.olderReviewsFor(names);
  if (reviews === null) return null;
  const mine: ConfirmedSession[] = [];
  for (let i = 0; (history.nameAt(i) ?? "") >= reviews.split; i++) {
    const session = at.read[i]?.session ?? (await history.at(i));
    if (session === null) return null;
    mine.push(session);
  }
  const older = reviews.topics.get(at.topicId);
  const olderName = (name: string): boolean => name < reviews.split && names.includes(name);
  if (history.count - mine.length !== (older?.count ?? 0) || !continuesAfter(reviews, mine, olderName)) return null;
  const schedule = continuedSchedule(older, mine, ctx.offsetAt, at.asOf);
  const topics = [{ topicId: at.topicId, schedule, nextAction: at.nextAction }];
  const entry = topicEntry(at.topicId, topics, buildQueue(topics, at.plan, at.asOf).queue, at.plan, at.asOf);
  const warnings = [...mine.flatMap((s) => s.fieldWarnings ?? []), ...(older?.warnings ?? [])];
  const recall =
    (await newestRecall(ctx, mine, at.hasHeading)) ??
    (mine.length < RECALL_LOOKBACK ? await olderRecall(ctx, older, RECALL_LOOKBACK - mine.length) : null);
  return { entry: entry.group === "none" ? null : entry, warnings, recall };
}

/**
 * The topic's history from the recent notes (read, as next reads them) and the fold: its totals, its sessions
 * newest first (an older one read by the name the fold keeps; past those, IndexDisagrees: the full read), and the
 * topic note its newest session records, as a full scan gives them. Null when the fold cannot stand for the older
 * notes.
 */
async function foldedHistory(ctx: SessionContext, topicId: string): Promise<TopicHistory | null> {
  const read = await recentReviews(ctx);
  if (read === null) return null;
  const { reviews, names } = read;
  const older = reviews.topics.get(topicId);
  const mine = read.recent.filter((s) => s.topicId === topicId);
  const count = mine.length + (older?.count ?? 0);
  const dates = mine.map((s) => recordedDate(s.startedAt));
  if (older) dates.push(older.firstDate, older.lastDate);
  dates.sort();
  const minutes = mine.reduce((sum, s) => sum + s.durationMinutes, older?.minutes ?? 0);
  const at = async (i: number): Promise<ConfirmedSession | null> => {
    if (i < mine.length) return mine[i];
    if (!older || i >= count) return null;
    const name = older.newest[i - mine.length];
    const r =
      name === undefined ? null : await readConfirmed(ctx.ports.store, sessionPath(ctx.layout, name), ctx.offsetAt);
    if (r === null || !("record" in r) || r.record.topicId !== topicId) throw new IndexDisagrees();
    return r.record;
  };
  return {
    totals: { sessions: count, minutes, first: dates[0] ?? null, last: dates[dates.length - 1] ?? null },
    at,
    topicNote: () => mine.find((s) => s.topicNote !== null)?.topicNote ?? older?.topicNote ?? null,
    nameAt: (i) => (i < mine.length ? nameOf(mine[i].path) : (older?.newest[i - mine.length] ?? null)),
    count,
    fold: { reviews, names },
  };
}

/** What the CLI passes to PaleeSessions (SessionsOptions.olderReviews); main.js does not carry it. */
export const OLDER_REVIEWS: OlderReviewsSource = {
  topics: foldedTopics,
  brief: foldedBrief,
  history: foldedHistory,
  keep: (ctx, scan) => keepFold(ctx, scan, RECALL_LOOKBACK),
};
