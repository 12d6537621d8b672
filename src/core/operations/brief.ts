/**
 * The read-only operations of contract §4b: context (the tutor brief), show (one record, whole) and latest, and
 * the Summary / Next action of listed sessions. They take no lock and write nothing. Note bodies are read only
 * for the sessions needed: the brief reads its topic's sessions newest first until its words are full and the
 * next action is known (a record from the metadata cache is read then; the CLI's scan already holds bodies).
 */
import type { BriefNextAction, BriefSession, BriefTotals } from "../records/brief";
import { NO_TOPIC_BRIEF, briefTotals, carriedNextAction, plainSection, renderBrief } from "../records/brief";
import { UsageError } from "../errors";
import { countWords, isOpen, truncateWords } from "../records/hot-memory";
import { DRAFT_ID_PATTERN } from "../records/ids";
import { normalizeTopic, validateNewTopicId } from "../topics/ids";
import { sessionPath } from "../records/layout";
import { classifyRecord } from "../records/frontmatter";
import type { ConfirmedSession, Draft } from "../records/records";
import type { OpenSession } from "./open-session";
import { interpretConfirmed, interpretDraft } from "../records/records";
import { withBody } from "../scan";
import { extractSection } from "../records/session-note";
import type { SessionContext } from "./context";
import type { HotState } from "../records/hot-memory";
import { asOfDay } from "../time";
import type { BriefRecall } from "../review/brief-lines";
import { recallBlock, reviewLine, weekLine } from "../review/brief-lines";
import type { PlanView, TopicGoal } from "../review/goal-progress";
import type { QueueEntry } from "../review/queue";
import { sessionDay } from "../time/local-days";
import { briefLearning } from "./brief-review";
import { openSessionOf } from "./open-session";
import type { TopicHistory } from "./topic-history";
import { IndexDisagrees, historyOf } from "./topic-history";
import { readDraft, readHot } from "./reading";
import { planViewOf } from "./goals";
import { sectionProbe } from "./next";

/** A confirmed session ID as the tool writes it (contract §2); the original PALEE's have the same shape. */
export const SESSION_ID_PATTERN = /^S-\d{8}T\d{6}-[0-9a-f]{4}$/;

export interface ContextOptions {
  /** A topic ID (validated as new input); absent: the active topic, else the newest session's. */
  topic?: string | null;
  words?: number;
  /** YYYY-MM-DD (contract §4c): sessions after it are ignored; absent: today. */
  asOf?: string | null;
  /** The plan's part the review and week lines need; absent: read from plan.md (operations/goals.ts). */
  plan?: PlanView;
  /** Whether a note not read yet has a `## <heading>`, from a cache of its headings (undefined: read it). */
  hasHeading?: (session: ConfirmedSession, heading: string) => boolean | undefined;
}

export interface ContextResult {
  /** null: no topic at all (no active topic, no session). */
  topicId: string | null;
  topicNote: string | null;
  totals: BriefTotals;
  open: OpenSession | null;
  nextAction: BriefNextAction | null;
  /** The sessions the text shows, newest first. */
  sessions: BriefSession[];
  text: string;
  /** Version 4 (contract §4c Brief): the day judged, the topic's review entry, goal and newest recall. */
  asOf: number;
  review: QueueEntry | null;
  week: TopicGoal | null;
  recall: BriefRecall | null;
  warnings: string[];
}

/** A session with its Summary and Next action read from its body. */
async function detailed(ctx: SessionContext, session: ConfirmedSession): Promise<BriefSession> {
  const full = await withBody(ctx.ports.store, session, ctx.offsetAt);
  return {
    session: full,
    summary: plainSection(full.body, "Summary"),
    nextAction: plainSection(full.body, "Next action"),
  };
}

/** The Summary and Next action of each session (list --json), in the order given. */
export async function sessionDetails(ctx: SessionContext, sessions: readonly ConfirmedSession[]) {
  const out: BriefSession[] = [];
  for (const s of sessions) out.push(await detailed(ctx, s));
  return out;
}

/**
 * The topic's history from the face's bounded source when it can tell, else from a full scan; as of a day
 * (`asOf` not null), from a full scan without the sessions after it.
 */
async function historyFor(
  ctx: SessionContext,
  topicId: string | null,
  bounded: boolean,
  asOf: number | null = null,
  /** The brief's own: from the older notes' fold first (SessionsOptions.olderReviews), when the face passes it. */
  folded = false,
): Promise<TopicHistory> {
  const fold = folded && bounded && asOf === null && topicId !== null ? ctx.olderReviews : undefined;
  const fromFold = fold && topicId !== null ? await fold.history(ctx, topicId) : null;
  const quick =
    fromFold ?? (bounded && asOf === null && ctx.topicHistory ? await ctx.topicHistory(ctx, topicId) : null);
  if (quick) return quick;
  const { confirmed } = await ctx.scan();
  const inDays = asOf === null ? confirmed : confirmed.filter((s) => sessionDay(s, ctx.offsetAt) <= asOf);
  return historyOf(topicId === null ? inDays : inDays.filter((s) => s.topicId === topicId));
}

/** Runs `read` over the bounded source, and again over a full scan when a note disagrees with index.md. */
async function withHistory<T>(read: (bounded: boolean) => Promise<T>): Promise<T> {
  try {
    return await read(true);
  } catch (error) {
    if (!(error instanceof IndexDisagrees)) throw error;
    return read(false);
  }
}

/**
 * The topic's next action carried forward now (contract §4c), or null: its sessions newest first, until one
 * gives a next action or marked the carried one done. Reads as few notes as the brief does.
 */
export function carriedNextActionOf(
  ctx: SessionContext,
  topicId: string,
  /** Whether a note not read yet has a Next action, from a cache of its headings (undefined: read it). */
  probe?: (session: ConfirmedSession) => boolean | undefined,
): Promise<BriefNextAction | null> {
  return withHistory(async (bounded) => {
    const history = await historyFor(ctx, topicId, bounded);
    for (let i = 0; ; i++) {
      const session = await history.at(i);
      if (session === null) return null;
      if (session.bodyPending && probe?.(session) === false) {
        if (session.nextDone) return null;
        continue;
      }
      const one = await detailed(ctx, session);
      if (one.nextAction !== null) return carriedNextAction([one]);
      if (one.session.nextDone) return null;
    }
  });
}

/** Whether the topic has a next action carried forward now (end --done marks it done). */
export async function hasCarriedNextAction(ctx: SessionContext, topicId: string): Promise<boolean> {
  return (await carriedNextActionOf(ctx, topicId)) !== null;
}

export function context(ctx: SessionContext, options: ContextOptions = {}): Promise<ContextResult> {
  return withHistory((bounded) => contextFrom(ctx, options, bounded));
}

async function contextFrom(ctx: SessionContext, options: ContextOptions, bounded: boolean): Promise<ContextResult> {
  const words = options.words ?? 400;
  const asOf = asOfDay(options.asOf, ctx.ports.clock.now(), ctx.offsetAt);
  const dated = options.asOf === undefined || options.asOf === null ? null : asOf;
  const explicit = normalizeTopic(options.topic);
  const hot = (await readHot(ctx)).state;
  const topicId =
    explicit !== null
      ? validateNewTopicId(explicit)
      : (hot.activeTopic ?? (await (await historyFor(ctx, null, bounded, dated)).at(0))?.topicId ?? null);
  if (topicId === null) {
    const none = { topicId: null, topicNote: null, totals: briefTotals([]), open: null, nextAction: null };
    const learning = { asOf, review: null, week: null, recall: null, warnings: [] };
    return { ...none, ...learning, sessions: [], text: `${truncateWords(NO_TOPIC_BRIEF, words)}\n` };
  }
  const history = await historyFor(ctx, topicId, bounded, dated, true);
  const { open, draft } = await openOn(ctx, hot, topicId);
  const read = await readForBrief(ctx, history, words);
  const topicNote = history.topicNote() ?? (open ? draft?.topicNote : null) ?? null;
  const nextAction = carriedNextAction(read);
  const planned = options.plan
    ? { plan: options.plan, warnings: [] }
    : await planViewOf(ctx, { asOf: options.asOf, topicId });
  const { plan } = planned;
  const learned = await briefLearning(ctx, {
    hasHeading: options.hasHeading ?? sectionProbe(ctx),
    topicId,
    asOf,
    plan,
    nextAction: nextAction?.text ?? null,
    read,
    history,
    dated: dated !== null,
  });
  const learning = { ...learned, warnings: [...planned.warnings, ...learned.warnings] };
  const notes = open ? draft?.body.trim() || null : null;
  const briefOpen = open && { startedAt: open.startedAt, elapsedSeconds: open.elapsedSeconds, notes };
  const totals = history.totals;
  const brief = renderBrief({
    ...{ topicId, topicNote, totals, open: briefOpen, nextAction, sessions: read, words },
    review: reviewLine(learning.review),
    week: weekLine(learning.week),
    recall: recallBlock(learning.recall),
  });
  const sessions = read.slice(0, brief.shown);
  return { topicId, topicNote, totals, open, nextAction, sessions, text: brief.text, asOf, ...learning };
}

/** The open session when it is on `topicId`, with its draft. */
async function openOn(ctx: SessionContext, hot: HotState, topicId: string) {
  if (!isOpen(hot)) return { open: null, draft: null };
  const draft = await readDraft(ctx, hot.openDraft);
  const candidate = openSessionOf(ctx, hot, draft);
  return { open: candidate && candidate.topicId === topicId ? candidate : null, draft };
}

/** Bodies newest first, until the summaries read fill the budget and a next action is known (or done). */
async function readForBrief(ctx: SessionContext, history: TopicHistory, words: number): Promise<BriefSession[]> {
  const read: BriefSession[] = [];
  let used = 0;
  for (let i = 0; !(used > words && read.some((r) => r.nextAction !== null || r.session.nextDone)); i++) {
    const session = await history.at(i);
    if (session === null) break;
    const one = await detailed(ctx, session);
    read.push(one);
    used += countWords(one.summary ?? "") + 4;
  }
  return read;
}

export type ShowResult =
  | { kind: "session"; session: BriefSession; notes: string | null }
  | { kind: "draft"; draft: Draft; notes: string | null };

function noSuchSession(id: string, why: string): UsageError {
  const shown = JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}…` : id);
  return new UsageError(`no such session ${shown}: ${why}`, "no_such_session");
}

/**
 * One record, whole. The ID must have the shape the tool writes (S-… or DRAFT-S-…): anything else is refused
 * before it comes near a path (`../../etc/passwd` is an unknown ID, never a file name).
 */
export async function show(ctx: SessionContext, id: string): Promise<ShowResult> {
  const trimmed = id.trim();
  const isDraft = DRAFT_ID_PATTERN.test(trimmed);
  if (!isDraft && !SESSION_ID_PATTERN.test(trimmed)) {
    throw noSuchSession(trimmed, "a session ID is S-<YYYYMMDDTHHMMSS>-<4 hex> or DRAFT-S-<8 hex>");
  }
  const path = sessionPath(ctx.layout, `${trimmed}.md`);
  const text = await ctx.ports.store.read(path);
  if (text === null) throw noSuchSession(trimmed, `${path} does not exist`);
  const read = classifyRecord(text);
  if (isDraft) {
    const result = interpretDraft(path, read, ctx.offsetAt, ctx.ports.clock.now());
    if (!("record" in result)) throw noSuchSession(trimmed, `${path} cannot be read: ${result.reason}`);
    return { kind: "draft", draft: result.record, notes: result.record.body.trim() || null };
  }
  const result = interpretConfirmed(path, read, ctx.offsetAt);
  if (!("record" in result)) throw noSuchSession(trimmed, `${path} cannot be read: ${result.reason}`);
  const session = await detailed(ctx, result.record);
  return { kind: "session", session, notes: extractSection(session.session.body, "Notes") };
}

/** The newest confirmed session (of the topic when given), whole as show gives it; null when there is none. */
export function latest(ctx: SessionContext, topic?: string | null): Promise<ShowResult | null> {
  const given = normalizeTopic(topic);
  const topicId = given === null ? null : validateNewTopicId(given);
  return withHistory(async (bounded) => {
    const newest = await (await historyFor(ctx, topicId, bounded)).at(0);
    if (!newest) return null;
    const session = await detailed(ctx, newest);
    return { kind: "session", session, notes: extractSection(session.session.body, "Notes") };
  });
}
