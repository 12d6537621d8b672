import { formatDuration } from "../../core/time";
import type { Values } from "../options";
import type { Outcome } from "../output";
import type { Command, CommandContext } from "./command";
import { topicOption } from "../topic";
import { requireOwnSession } from "../agent-guard";

async function runContinue(ctx: CommandContext, values: Values): Promise<Outcome> {
  await requireOwnSession(ctx, values.agent);
  const r = await ctx.core.continueSession({ topic: await topicOption(ctx, values.topic, "acts on the open session") });
  if (ctx.out.json) ctx.out.doc({ status: "continued", draft_id: r.draftId, break_minutes: r.breakMinutes });
  ctx.out.text(`Continued the session (${r.draftId}); breaks so far: ${formatDuration(r.breakMinutes)}, not counted.`);
  return 0;
}

/** `continue` is a keyword: the constant is named for what it does. */
export const continueCommand: Command = {
  name: "continue",
  summary: "Goes on with a paused session; the pause is recorded as a break.",
  options: {
    topic: "the session's topic (refused if the open session is on another)",
    agent: "act only on a session this agent opened; any other is left alone (not_this_agent)",
  },
  example: "palee session continue",
  run: runContinue,
};
