/**
 * What to study next (contract §4c "Queue"): the read-only operation over the confirmed sessions up to the
 * as-of day. Ratings come from the frontmatter (a metadata cache's record serves); note bodies are read only
 * for each queued topic's next action, newest first until one is found or marked done.
 */
import { plainSection } from "../records/brief";
import { UsageError } from "../errors";
import { normalizeTopic, validateNewTopicId } from "../topics/ids";
import { closeTopicId } from "../topics/resolve";
import type { ConfirmedSession } from "../records/records";
import { asOfDay } from "../time";
import type { PlanView } from "../review/goal-progress";
import { planViewOf } from "./goals";
import type { QueueEntry, QueueTopic } from "../review/queue";
import { buildQueue, topicEntry } from "../review/queue";
import type { ScheduleMemo } from "../review/topic-schedules";
import type { StudyLogMemo } from "../goals";
import { topicSchedules } from "../review/topic-schedules";
import { withBody } from "../scan";
import type { TopicNote } from "../topics/note";
import type { ReviewAsk, ReviewTopics, SessionContext } from "./context";
import type { OpenSession } from "./open-session";
import { status } from "./list";

export interface NextOptions {
  /** YYYY-MM-DD; absent: today. A later day or a malformed one is refused invalid_date. */
  asOf?: string | null;
  /** The plan's part the queue needs; absent: read from plan.md (operations/goals.ts planViewOf). */
  plan?: PlanView;
  /** The vault's topic notes, to name each entry's note (the CLI reads them; none: names stay null). */
  topicNotes?: readonly TopicNote[];
  /** One topic's entry (with its history), also outside the queue (group excluded or none). */
  topic?: string | null;
  /**
   * Whether a session not yet read in full has a Next action, from what the face's cache knows of its headings
   * (undefined: it cannot tell, so the note is read). With it, a view never reads a body: a known next action's
   * text is then "" (present, unread).
   */
  hasNextAction?: (session: ConfirmedSession) => boolean | undefined;
  /** Kept by a caller that asks again after each end (the plugin): only the ended topic is scheduled again. */
  memo?: ScheduleMemo;
  /** Likewise for the week's tally behind topic goals (study-log.ts StudyLogMemo). */
  log?: StudyLogMemo;
}

export interface NextResult {
  asOf: number;
  open: OpenSession | null;
  queue: QueueEntry[];
  excluded: string[];
  /** The entry of `options.topic`, when one was asked for. */
  entry: QueueEntry | null;
  /** Each topic's note (name and path), when one exists. */
  notes: ReadonlyMap<string, TopicNote>;
  warnings: string[];
}

/**
 * The topic's next action as of its sessions (newest first): carried forward until a session marks it done
 * (contract §4c), as hot.md carries it (topic-memory.ts). "" when `probe` says one is there without its text;
 * undefined when no session settles it (older sessions may: recent-reviews.ts).
 */
export async function nextActionIn(
  ctx: SessionContext,
  sessions: readonly ConfirmedSession[],
  probe: NextOptions["hasNextAction"],
): Promise<string | null | undefined> {
  for (const session of sessions) {
    const known = session.bodyPending && probe ? probe(session) : undefined;
    if (known === true) return "";
    if (known === undefined) {
      const text = plainSection((await withBody(ctx.ports.store, session, ctx.offsetAt)).body, "Next action");
      if (text !== null) return text;
    }
    if (session.nextDone) return null;
  }
  return undefined;
}

function notesByTopic(notes: readonly TopicNote[]): Map<string, TopicNote> {
  const map = new Map<string, TopicNote>();
  for (const n of [...notes].sort((a, b) => (a.path < b.path ? -1 : +(a.path > b.path)))) {
    if (!map.has(n.topicId)) map.set(n.topicId, n);
  }
  return map;
}

/**
 * A topic no session, note or plan names: unknown_topic (exit 2), never an empty entry; most likely a typo, so it
 * names a close ID among the topics the queue saw, the topic notes and the plan's topics ("did you mean").
 */
function refuseUnknown(
  topicId: string,
  hasSession: (topicId: string) => boolean,
  plan: PlanView,
  notes: ReadonlyMap<string, TopicNote>,
  topics: readonly QueueTopic[],
): void {
  const known = notes.has(topicId) || plan.goals.has(topicId) || plan.reviewOff.has(topicId) || hasSession(topicId);
  if (known) return;
  const ids = [...topics.map((t) => t.topicId), ...notes.keys(), ...plan.goals.keys(), ...plan.reviewOff];
  const close = closeTopicId(topicId, ids);
  const mean = close === null ? "" : `; did you mean ${close}?`;
  throw new UsageError(`unknown topic ${topicId}: no session, topic note or goal names it${mean}`, "unknown_topic");
}

/**
 * What the device memory knows of a note's section without reading it (DeviceMemory.sectionKnown): that it has
 * none (false), else undefined, so that a note with one is read for its text. Undefined without such a memory.
 */
export function sectionProbe(
  ctx: SessionContext,
): ((s: ConfirmedSession, heading: string) => false | undefined) | undefined {
  const memory = ctx.ports.memory;
  if (!memory) return undefined;
  return (s, heading) => (memory.sectionKnown(s.path, heading) === false ? false : undefined);
}

/** Each topic's schedule and next action from every note's record (a full scan); the fold kept for next time. */
async function topicsOfScan(
  ctx: SessionContext,
  ask: ReviewAsk,
  memo: ScheduleMemo | undefined,
): Promise<ReviewTopics> {
  const scan = await ctx.scan();
  const topics: QueueTopic[] = [];
  for (const [topicId, { sessions, schedule }] of topicSchedules(scan.confirmed, ctx.offsetAt, ask.asOf, memo)) {
    const counts = ask.counts(topicId, schedule.lastReviewed !== null);
    topics.push({
      topicId,
      schedule,
      nextAction: counts ? ((await nextActionIn(ctx, sessions, ask.probe)) ?? null) : null,
    });
  }
  await ctx.olderReviews?.keep(ctx, scan);
  const known = (topicId: string): boolean => scan.confirmed.some((s) => s.topicId === topicId);
  return { topics, known, warnings: scan.warnings };
}

export async function next(ctx: SessionContext, options: NextOptions = {}): Promise<NextResult> {
  const asOf = asOfDay(options.asOf, ctx.ports.clock.now(), ctx.offsetAt);
  const planned = options.plan
    ? { plan: options.plan, warnings: [] }
    : await planViewOf(ctx, { asOf: options.asOf, keep: options.log });
  const { plan } = planned;
  const asked = normalizeTopic(options.topic);
  const wanted = asked === null ? null : validateNewTopicId(asked);
  const known = sectionProbe(ctx);
  const probe = options.hasNextAction ?? (known && ((s: ConfirmedSession) => known(s, "Next action")));
  const counts = (topicId: string, reviewed: boolean): boolean =>
    reviewed || plan.goals.has(topicId) || topicId === wanted;
  const ask: ReviewAsk = { asOf, counts, probe };
  const folded = ctx.olderReviews && !options.memo ? await ctx.olderReviews.topics(ctx, ask) : null;
  const { topics, warnings, ...of } = folded ?? (await topicsOfScan(ctx, ask, options.memo));
  const { queue, excluded } = buildQueue(topics, plan, asOf);
  const notes = notesByTopic(options.topicNotes ?? []);
  if (wanted !== null) refuseUnknown(wanted, of.known, plan, notes, topics);
  const entry = wanted === null ? null : topicEntry(wanted, topics, queue, plan, asOf);
  const open = (await status(ctx)).open;
  return { asOf, open, queue, excluded, entry, notes, warnings: [...planned.warnings, ...warnings] };
}
