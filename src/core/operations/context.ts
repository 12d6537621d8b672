import type { Layout } from "../records/layout";
import type { CorePorts } from "../ports";
import type { ConfirmedSession } from "../records/records";
import { DEFAULT_GRACE_MS, absorbedAfter, absorbedBy } from "../recovery";
import type { Scan } from "../scan";
import type { Covered, OlderTotals } from "../device-memory/older-totals";
import type { StudyLog, StudyLogOptions } from "../goals/study-log";
import { ScanCache, scanSessions } from "../scan";
import { insertedInto } from "../scan/sorted";
import type { HotState } from "../records/hot-memory";
import { renderIndexLine } from "../records/index-line";
import { joinedAfter } from "../records/session-index";
import type { OffsetAt } from "../time";
import type { BriefTotals } from "../records/brief";
import type { QueueEntry, QueueTopic } from "../review/queue";
import type { BriefSession } from "../records/brief";
import type { BriefRecall } from "../review/brief-lines";
import type { PlanView } from "../review/goal-progress";
import type { OlderReviews } from "../device-memory/older-reviews";

export interface SessionsOptions {
  /** How long a silent session still counts as running on its device; default 15 minutes. */
  graceMs?: number;
  /**
   * What rebuild (and the façade's start and end) does about temp files left by killed writes:
   * `trashStaleTempFiles` (temp-files.ts) where the store writes them (the CLI); the plugin's vault writes none.
   */
  tempFiles?: (ports: CorePorts, layout: Layout) => Promise<string[]>;
  /**
   * How the views take one new session without reading every note: `insertIntoViews` (incremental-index.ts),
   * for the CLI, which has no metadata cache. Without it the views are derived from a full scan, which the
   * plugin's scan cache keeps at the cost of what changed (main.js does not carry it).
   */
  viewsAfter?: ViewsAfter;
  /**
   * How the brief and latest read one topic's sessions without reading every note: `indexedHistory`
   * (topic-history.ts), from a trusted index.md, for the CLI. Without it they read a full scan.
   */
  topicHistory?: TopicHistorySource;
  /**
   * How next and the brief take the older notes from the device memory's fold of them, reading only the recent
   * notes: `OLDER_REVIEWS` (recent-reviews.ts), for the CLI. Without it they read every note's record.
   */
  olderReviews?: OlderReviewsSource;
  /**
   * stats, goal and year without a record per older note (issues 37/38): the older notes' totals the device
   * memory keeps (`OLDER_TOTALS`, insight/with-older.ts), for the CLI. Without it they fold every note.
   */
  olderTotals?: OlderTotalsSource;
}

/** Each topic as the queue sees it, whether a topic has any session, and the scan's warnings (next.ts). */
export interface ReviewTopics {
  topics: QueueTopic[];
  known: (topicId: string) => boolean;
  warnings: string[];
}

/** What next asks of each topic: its next action only when it counts (a review day, a goal, asked for). */
export interface ReviewAsk {
  asOf: number;
  counts: (topicId: string, reviewed: boolean) => boolean;
  probe: ((session: ConfirmedSession) => boolean | undefined) | undefined;
}

/** What the brief asks of its topic's review (brief-review.ts): its history unfiltered, as of today. */
export interface BriefAsk {
  topicId: string;
  asOf: number;
  plan: PlanView;
  nextAction: string | null;
  read: readonly BriefSession[];
  history: TopicHistory;
  hasHeading?: (session: ConfirmedSession, heading: string) => boolean | undefined;
}

/** The brief's review entry, its warnings and the newest recall (brief-review.ts BriefLearning's). */
export interface BriefReview {
  entry: QueueEntry | null;
  warnings: string[];
  recall: BriefRecall | null;
}

/**
 * next's topics and the brief's review from the older notes' fold and the recent notes (null: the fold cannot
 * tell), and the fold kept after a full scan.
 */
export interface OlderReviewsSource {
  topics: (ctx: SessionContext, ask: ReviewAsk) => Promise<ReviewTopics | null>;
  brief: (ctx: SessionContext, ask: BriefAsk) => Promise<BriefReview | null>;
  /** The brief's topic history from the recent notes and the fold (null: the fold cannot tell). */
  history: (ctx: SessionContext, topicId: string) => Promise<TopicHistory | null>;
  keep: (ctx: SessionContext, scan: Scan) => Promise<void>;
}

/** The scan beside the older notes' totals, and the study log from both (insight/with-older.ts). */
export interface OlderTotalsSource {
  /** The scan without the notes the totals fold, and the totals; null when the memory has none that hold. */
  scan(ctx: SessionContext): Promise<{ scan: Scan; covered: Covered } | null>;
  /** studyLog over that scan and the totals; null when they cannot answer (then every note is folded). */
  studyLog(sessions: readonly ConfirmedSession[], totals: OlderTotals, options: StudyLogOptions): StudyLog | null;
}

/** One topic's confirmed sessions, newest first, as the brief and latest read them (topic-history.ts). */
export interface TopicHistory {
  totals: BriefTotals;
  /** The topic's i-th newest session; null past the last. */
  at: (i: number) => Promise<ConfirmedSession | null>;
  /** The topic note a note of the topic records, among those read (the full scan: among all). */
  topicNote: () => string | null;
  /** The file name of the topic's i-th newest session, without reading it; null past the last. */
  nameAt?: (i: number) => string | null;
  /** How many sessions the topic has. */
  count?: number;
  /** The older notes' fold this history was made with, and the listing it stands for (recent-reviews.ts). */
  fold?: { reviews: OlderReviews; names: readonly string[] };
}

/** A topic's history (every confirmed session when `topicId` is null), or null when this source cannot tell. */
export type TopicHistorySource = (ctx: SessionContext, topicId: string | null) => Promise<TopicHistory | null>;

/** The views after one session was written, or null when they must be derived from every note. */
export type ViewsAfter = (
  ctx: SessionContext,
  added: ConfirmedSession | null,
  pointer: (current: HotState, newest: ConfirmedSession | null) => HotState,
  scan: Scan,
) => Promise<string[] | null>;

/**
 * What every operation works over: the ports, where the files are, the grace period, and the scans of one
 * PaleeSessions (their cache and memos make a repeated scan cheap). The shared write helpers take it too.
 */
export interface SessionContext {
  readonly ports: CorePorts;
  readonly layout: Layout;
  readonly graceMs: number;
  /** Rebuild's temp-file sweep (SessionsOptions.tempFiles), if this face passes one. */
  readonly tempFiles?: (ports: CorePorts, layout: Layout) => Promise<string[]>;
  /** The incremental views update (SessionsOptions.viewsAfter), if this face passes one. */
  readonly viewsAfter?: ViewsAfter;
  /** The brief's bounded read of one topic (SessionsOptions.topicHistory), if this face passes one. */
  readonly topicHistory?: TopicHistorySource;
  /** next's and the brief's older notes from the device memory's fold (SessionsOptions.olderReviews), if passed. */
  readonly olderReviews?: OlderReviewsSource;
  /** The older notes' totals (SessionsOptions.olderTotals), if this face passes them. */
  readonly olderTotals?: OlderTotalsSource;
  /** Whether a full scan costs only what changed since the last one (the store follows changes, and has). */
  readonly scanIsWarm: () => boolean;
  /** The local UTC offset at an instant, in minutes: how timestamps are read and written. */
  readonly offsetAt: OffsetAt;
  /** Scans the session folder; scans run one at a time, since they share one cache. */
  readonly scan: () => Promise<Scan>;
  /** absorbedBy, once per list of confirmed sessions (an unchanged scan hands out the same list). */
  readonly absorbedIn: (confirmed: readonly ConfirmedSession[]) => Map<string, ConfirmedSession>;
  /** index.md's line for a session, once per record (the scan memo hands out the same records). */
  readonly indexLine: (session: ConfirmedSession) => string;
  /** index.md's lines of a list, joined: spliced into the last text when the list is the last one plus notes. */
  readonly indexLines: (newestFirst: readonly ConfirmedSession[]) => string;
}

export function createSessionContext(ports: CorePorts, layout: Layout, options: SessionsOptions = {}): SessionContext {
  const offsetAt: OffsetAt = (instant) => ports.clock.offsetMinutes(instant);
  const cache = new ScanCache();
  let scans: Promise<unknown> = Promise.resolve();
  const absorbed = new WeakMap<readonly ConfirmedSession[], Map<string, ConfirmedSession>>();
  // The last list worked out: a scan after one end hands out that list with the new note inserted.
  let last: { list: readonly ConfirmedSession[]; map: Map<string, ConfirmedSession> } | null = null;
  const lines = new WeakMap<ConfirmedSession, string>();
  const indexLine = (session: ConfirmedSession): string => {
    let line = lines.get(session);
    if (line === undefined) lines.set(session, (line = renderIndexLine(session)));
    return line;
  };
  let lastIndex: { list: readonly ConfirmedSession[]; joined: string } | null = null;
  return {
    ports,
    layout,
    graceMs: options.graceMs ?? DEFAULT_GRACE_MS,
    tempFiles: options.tempFiles,
    viewsAfter: options.viewsAfter,
    topicHistory: options.topicHistory,
    olderReviews: options.olderReviews,
    olderTotals: options.olderTotals,
    scanIsWarm: () => cache.token !== null,
    offsetAt,
    scan: () => {
      const result = scans.then(() =>
        scanSessions(ports.store, layout, offsetAt, cache, ports.clock.now(), ports.memory),
      );
      scans = result.catch(() => undefined);
      return result;
    },
    absorbedIn: (confirmed) => {
      let map = absorbed.get(confirmed);
      if (!map) {
        const added = last && insertedInto(last.list, confirmed);
        map = (last && added && absorbedAfter(last.map, added, offsetAt)) ?? absorbedBy(confirmed, offsetAt);
        absorbed.set(confirmed, map);
      }
      last = { list: confirmed, map };
      return map;
    },
    indexLine,
    indexLines: (newestFirst) => {
      const joined =
        (lastIndex && joinedAfter(lastIndex.list, lastIndex.joined, newestFirst, indexLine)) ??
        newestFirst.map(indexLine).join("\n");
      lastIndex = { list: newestFirst, joined };
      return joined;
    },
  };
}
