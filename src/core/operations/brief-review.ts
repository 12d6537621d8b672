/**
 * The learning loop's part of the tutor brief (contract §4c "Brief"): the topic's review entry (its schedule
 * from the ratings in its notes' frontmatter), its goal this week, and its newest recall.
 */
import type { BriefSession } from "../records/brief";
import { plainSection } from "../records/brief";
import type { ConfirmedSession } from "../records/records";
import type { BriefRecall } from "../review/brief-lines";
import type { PlanView, TopicGoal } from "../review/goal-progress";
import type { QueueEntry } from "../review/queue";
import { buildQueue, topicEntry } from "../review/queue";
import { reviewDaysOf, scheduleOf } from "../review/schedule";
import { withBody } from "../scan";
import { sessionDay } from "../time/local-days";
import type { BriefAsk, SessionContext } from "./context";
import type { TopicHistory } from "./topic-history";

/**
 * How many of the topic's newest sessions are looked through for a recall: a recall older than that says
 * little about the topic now, and the bound keeps a brief's reads from growing with a long history.
 */
export const RECALL_LOOKBACK = 30;

/** Whether a note not read yet has a `## <heading>` (ContextOptions.hasHeading). */
type HasHeading = (session: ConfirmedSession, heading: string) => boolean | undefined;

export interface BriefLearning {
  /** null when the topic has no review day and no goal. */
  review: QueueEntry | null;
  week: TopicGoal | null;
  recall: BriefRecall | null;
  warnings: string[];
}

/**
 * The topic's schedule as of `asOf` (the history holds no later session): every session of the topic is looked
 * at for its rating, which is frontmatter (a metadata cache's record serves); no other topic's note is read.
 */
async function reviewEntry(
  ctx: SessionContext,
  at: { topicId: string; asOf: number; plan: PlanView; nextAction: string | null; read: readonly BriefSession[] },
  history: TopicHistory,
): Promise<{ entry: QueueEntry | null; warnings: string[]; mine: ConfirmedSession[] }> {
  const mine: ConfirmedSession[] = [];
  for (let i = 0; ; i++) {
    const session = at.read[i]?.session ?? (await history.at(i));
    if (session === null) break;
    mine.push(session);
  }
  const schedule = scheduleOf(reviewDaysOf(mine, ctx.offsetAt, at.asOf));
  const topics = [{ topicId: at.topicId, schedule, nextAction: at.nextAction }];
  const { queue } = buildQueue(topics, at.plan, at.asOf);
  const entry = topicEntry(at.topicId, topics, queue, at.plan, at.asOf);
  const warnings = mine.flatMap((s) => s.fieldWarnings ?? []);
  return { entry: entry.group === "none" ? null : entry, warnings, mine };
}

/** The newest Recall among the topic's newest RECALL_LOOKBACK sessions (newest first, as the schedule read them). */
export async function newestRecall(
  ctx: SessionContext,
  newestFirst: readonly ConfirmedSession[],
  hasHeading: HasHeading | undefined,
): Promise<BriefRecall | null> {
  // A note whose cached headings show no Recall is passed over unread.
  for (const known of newestFirst.slice(0, RECALL_LOOKBACK)) {
    if (known.bodyPending && hasHeading?.(known, "Recall") === false) continue;
    const session = await withBody(ctx.ports.store, known, ctx.offsetAt);
    const text = plainSection(session.body, "Recall");
    if (text !== null) return { day: sessionDay(session, ctx.offsetAt), text, rating: session.recallRating ?? null };
  }
  return null;
}

export async function briefLearning(
  ctx: SessionContext,
  at: BriefAsk & {
    /** The history holds only the sessions up to an as-of day given (the older notes' fold then stands aside). */
    dated?: boolean;
  },
): Promise<BriefLearning> {
  const week = at.plan.goals.get(at.topicId) ?? null;
  const folded = at.dated ? null : await ctx.olderReviews?.brief(ctx, at);
  if (folded) return { review: folded.entry, week, recall: folded.recall, warnings: folded.warnings };
  const review = await reviewEntry(ctx, at, at.history);
  const recall = await newestRecall(ctx, review.mine, at.hasHeading);
  return { review: review.entry, week, recall, warnings: review.warnings };
}
