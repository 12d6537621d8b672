import { UsageError } from "../errors";
import type { FieldValue } from "../records/frontmatter";
import { continueUpdate, nothingOpenError, pauseUpdate } from "../honest-time";
import { isOpen } from "../records/hot-memory";
import { normalizeTopic, validateNewTopicId } from "../topics/ids";
import type { Draft } from "../records/records";
import { isAliveElsewhere } from "../recovery";
import type { SessionContext } from "./context";
import { refuseUnusableOpenDraft } from "./guards";
import { honestOf, updateDraft } from "./draft-fields";
import { readDraft, readHot } from "./reading";

export interface PauseOptions {
  /** When given, only the open session of this topic is paused (or continued). */
  topic?: string | null;
}

export interface PauseResult {
  draftId: string;
  pausedAt: string;
}

export interface ContinueResult {
  draftId: string;
  /** break_minutes after this continue: every finished pause and time away of the session. */
  breakMinutes: number;
}

/** pause: records paused_at in the open session's draft (one write). Refused when nothing is open or paused. */
export async function pause(ctx: SessionContext, options: PauseOptions): Promise<PauseResult> {
  const draft = await openDraftFor(ctx, "pause", options.topic);
  const now = ctx.ports.clock.now();
  const written = await updateDraft(ctx, draft, (current) => pauseUpdate(honestOf(current), now, ctx.offsetAt));
  return { draftId: draft.draftId, pausedAt: written.pausedAt ?? "" };
}

/**
 * continue: appends the pause to breaks (their total to break_minutes), clears paused_at and checkpoints, in one
 * write. Like a checkpoint it moves a session whose device went silent to this device; one alive elsewhere keeps
 * its device.
 */
export async function continueSession(ctx: SessionContext, options: PauseOptions): Promise<ContinueResult> {
  const draft = await openDraftFor(ctx, "continue", options.topic);
  const now = ctx.ports.clock.now();
  const claim: Record<string, FieldValue> = isAliveElsewhere(draft, ctx.ports.device, now, ctx.graceMs)
    ? {}
    : { device: ctx.ports.device };
  let breakMinutes = 0;
  await updateDraft(ctx, draft, (current) => {
    const change = continueUpdate(honestOf(current), now, ctx.offsetAt);
    breakMinutes = change.breakMinutes;
    return { ...change.updates, ...claim };
  });
  return { draftId: draft.draftId, breakMinutes };
}

/** The open session's draft, of `topic` when one is given; refused (`nothing_open`) when there is none. */
async function openDraftFor(ctx: SessionContext, action: "pause" | "continue", topic?: string | null): Promise<Draft> {
  const hot = await readHot(ctx);
  if (!isOpen(hot.state)) throw nothingOpenError(action);
  const given = normalizeTopic(topic);
  if (given !== null && validateNewTopicId(given) !== hot.state.activeTopic) {
    throw new UsageError(
      `no session on ${given} is open (the open session is on ${hot.state.activeTopic ?? "?"}): nothing to ${action}`,
      "nothing_open",
    );
  }
  const draft = await readDraft(ctx, hot.state.openDraft);
  if (draft) return draft;
  refuseUnusableOpenDraft(ctx, hot.state, await ctx.scan());
  const missing = `the open session's draft ${hot.state.openDraft} is missing: nothing to ${action}`;
  throw new UsageError(missing, "nothing_open");
}
