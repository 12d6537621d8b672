import type { Values } from "../options";
import type { Outcome } from "../output";
import type { Command, CommandContext } from "./command";
import { topicOption } from "../topic";
import { requireOwnSession } from "../agent-guard";

async function runPause(ctx: CommandContext, values: Values): Promise<Outcome> {
  await requireOwnSession(ctx, values.agent);
  const r = await ctx.core.pause({ topic: await topicOption(ctx, values.topic, "acts on the open session") });
  if (ctx.out.json) ctx.out.doc({ status: "paused", draft_id: r.draftId, paused_at: r.pausedAt });
  ctx.out.text(`Paused the session (${r.draftId}) at ${r.pausedAt}; "palee session continue" goes on.`);
  return 0;
}

export const pause: Command = {
  name: "pause",
  summary: "Pauses the open session: the time until continue is a break, not counted.",
  options: {
    topic: "the session's topic (refused if the open session is on another)",
    agent: "act only on a session this agent opened; any other is left alone (not_this_agent)",
  },
  example: "palee session pause",
  run: runPause,
};
