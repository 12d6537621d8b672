import type { Values } from "../options";
import { topicOption } from "../topic";
import type { Outcome } from "../output";
import type { Command, CommandContext } from "./command";
import { printRecord, recordJson } from "./show";

async function runLatest(ctx: CommandContext, values: Values): Promise<Outcome> {
  const { out } = ctx;
  const topic = await topicOption(ctx, values.topic, "reads");
  const r = await ctx.core.latest(topic);
  if (r === null) {
    if (out.json) out.doc({ session: null });
    out.text(
      values.topic ? `No confirmed session on ${topic ?? values.topic.trim()} yet.` : "No confirmed session yet.",
    );
    return 0;
  }
  if (out.json) out.doc(recordJson(r));
  printRecord(out, r);
  return 0;
}

export const latest: Command = {
  name: "latest",
  summary: "Prints the newest confirmed session (of the topic when given), whole, as show does.",
  options: { topic: "only sessions of this topic" },
  example: "palee session latest --topic T-rust-ownership --json",
  run: runLatest,
};
