import { formatDuration } from "../../core/time";
import { sessionJson } from "../../core/formats/json";
import type { Values } from "../options";
import type { CliIo, Outcome } from "../output";
import { readStdinText } from "../stdin-text";
import type { Command, CommandContext, Prepared } from "./command";
import { topicNoteLink, topicOption } from "../topic";
import { validateAgentId } from "../../core/records/ids";

/** `--recall -` is read before the vault is locked (main.ts), then the log runs under it. */
async function prepareLog(values: Values, io: CliIo): Promise<Prepared> {
  const recall = values.recall === "-" ? await readStdinText(io.stdin, "recall") : (values.recall ?? null);
  return { run: (ctx) => runLog(ctx, values, recall) };
}

async function runLog(ctx: CommandContext, values: Values, recall: string | null): Promise<Outcome> {
  if (values.agent !== undefined) validateAgentId(values.agent);
  const topic = await topicOption(ctx, values.topic, "begins");
  const r = await ctx.core.log({
    topic,
    topicNote: await topicNoteLink(ctx, topic),
    from: values.from,
    to: values.to,
    minutes: values.minutes,
    summary: values.summary ?? null,
    nextAction: values.next ?? null,
    recall,
    rating: values.rating ?? null,
    agent: values.agent ?? null,
  });
  for (const w of r.warnings) ctx.out.warn(w);
  if (ctx.out.json) ctx.out.doc({ status: "logged", when: r.when, session: sessionJson(r.session) });
  const s = r.session;
  // The day is named ("yesterday 11:00–13:00"): an HH:MM that was not today must be seen to be so (contract §4 log).
  ctx.out.text(`Logged ${s.sessionId}: ${s.topicId}, ${formatDuration(s.durationMinutes)}, ${r.when}.`);
  return 0;
}

export const log: Command = {
  name: "log",
  summary: "Records a past session that was not timed (studied away from the vault).",
  options: {
    topic: "the topic (default: the one of the last session)",
    from: "when it began (HH:MM, the latest before --to; or ISO 8601)",
    to: "when it ended (HH:MM or ISO 8601; default: now)",
    minutes: "how long it lasted (1 to 1440), instead of --from",
    summary: "the summary",
    next: "the next action",
    recall: 'what you remember, without looking ("-": read it from standard input)',
    rating: "how well you recalled it: 1-4 or again, hard, good, easy",
    agent: "who logs it when it is not the learner by hand (recorded as the session's agent)",
  },
  example: 'palee session log --topic T-rust --from 14:00 --to 15:10 --summary "read chapter 4"',
  prepare: prepareLog,
  run: async (ctx, values) => (await prepareLog(values, ctx.io)).run(ctx),
};
