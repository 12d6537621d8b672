/**
 * `--count-away` on draft and end (contract §5 version 4): the time away recorded in the open session's draft
 * counted as study after all, the CLI's form of the plugin's "Count it". It says which ("Counted 14:00–17:30 as
 * study time"), or that none was recorded; the line goes to stderr (news, not data), as "Away …" does.
 */
import { describeSpan, formatDuration } from "../core/time";
import type { CommandContext } from "./commands/command";
import type { Values } from "./options";

export async function countAwayIfAsked(ctx: CommandContext, values: Values): Promise<void> {
  if (values["count-away"] !== true) return;
  const r = await ctx.core.countAllAway();
  if (r.counted.length === 0) {
    ctx.io.stderr(`No time away is recorded in ${r.draftId}: nothing to count, nothing was changed.\n`);
    return;
  }
  const spans = r.counted.map((b) => describeSpan(b.fromMs, b.toMs, ctx.offsetAt)).join(", ");
  ctx.io.stderr(`Counted ${spans} as study time (${formatDuration(r.countedMinutes)} more studied).\n`);
}
