import { formatDuration } from "../../core/time";
import type { Values } from "../options";
import type { Outcome } from "../output";
import type { Command, CommandContext } from "./command";
import { topicOption } from "../topic";

async function runContinue(ctx: CommandContext, values: Values): Promise<Outcome> {
  const r = await ctx.core.continueSession({ topic: await topicOption(ctx, values.topic, "acts on the open session") });
  if (ctx.out.json) ctx.out.doc({ status: "continued", draft_id: r.draftId, break_minutes: r.breakMinutes });
  ctx.out.text(`Continued the session (${r.draftId}); breaks so far: ${formatDuration(r.breakMinutes)}, not counted.`);
  return 0;
}

/** `continue` is a keyword: the constant is named for what it does. */
export const continueCommand: Command = {
  name: "continue",
  summary: "Goes on with a paused session; the pause is recorded as a break.",
  options: { topic: "the session's topic (refused if the open session is on another)" },
  example: "palee session continue",
  run: runContinue,
};
