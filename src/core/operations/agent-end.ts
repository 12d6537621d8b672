/**
 * end --agent (contract §4b): an agent ends only a session it opened (PaleeSessions.end with `agent`).
 */
import { UsageError } from "../errors";
import type { HotState } from "../records/hot-memory";
import { isOpen } from "../records/hot-memory";
import { validateAgentId } from "../records/ids";
import type { SessionContext } from "./context";
import type { AgentEndOptions, EndAnswer } from "./end";
import { end, endOrDiscard, nothingOpen } from "./end";
import { readDraft, readHot } from "./reading";

/** The end `agent` asks for; refused (nothing written) unless the open session is one this agent opened. */
export async function endAsAgent(
  ctx: SessionContext,
  options: AgentEndOptions,
  agent: string,
  discard = false,
): Promise<EndAnswer> {
  validateAgentId(agent);
  await requireAgentsSession(ctx, (await readHot(ctx)).state, agent);
  return discard ? endOrDiscard(ctx, { ...options, agent }) : end(ctx, { ...options, agent });
}

/**
 * end --agent (contract §4b): the open session must be one this agent opened. Nothing open: nothing_open; a
 * session the learner or another agent opened: not_this_agent. Either way nothing is written.
 */
async function requireAgentsSession(ctx: SessionContext, hot: HotState, agent: string): Promise<void> {
  if (!isOpen(hot)) throw nothingOpen(null);
  const draft = await readDraft(ctx, hot.openDraft);
  if ((draft?.agent ?? null) === agent) return;
  // Its draft is gone: an end of this agent's that was cut short after saving it. The end goes on and reports
  // the saved session (never saves it twice); any other missing draft proves no one's session.
  const saved = draft === null ? ctx.absorbedIn((await ctx.scan()).confirmed).get(hot.openDraft) : undefined;
  if (saved !== undefined && saved.agent === agent) return;
  const by =
    draft === null
      ? "by someone else (its draft is missing or unreadable)"
      : draft.agent
        ? `by ${draft.agent}`
        : "by the learner";
  throw new UsageError(
    `the open session (${hot.openDraft} on ${hot.activeTopic ?? "?"}) was opened ${by}, not ${agent}: ` +
      "it was left alone and nothing was written",
    "not_this_agent",
  );
}
