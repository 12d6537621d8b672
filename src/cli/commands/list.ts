import { formatDuration } from "../../core/time";
import { detailedSessionJson, draftJson, skippedJson } from "../../core/formats/json";
import { skippedWarning } from "../../core/records";
import { describeDraft } from "../describe";
import type { Values } from "../options";
import type { Outcome } from "../output";
import type { Command, CommandContext } from "./command";

async function runList(ctx: CommandContext, values: Values): Promise<Outcome> {
  const { out } = ctx;
  const r = await ctx.core.list({ all: values.all ?? false });
  for (const s of r.skipped) out.warn(skippedWarning(s));
  for (const w of r.warnings) out.warn(w);
  if (out.json) {
    out.doc({
      // S + summary and next_action (contract §5 version 3): the bodies of the listed sessions only.
      confirmed: (await ctx.core.sessionDetails(r.confirmed)).map(detailedSessionJson),
      drafts: r.drafts.map(draftJson),
      total_confirmed: r.totalConfirmed,
      total_drafts: r.totalDrafts,
      skipped: r.skipped.map(skippedJson),
      // Damaged paused_at / break_minutes of usable records (version 2); absent when there are none.
      ...(r.warnings.length > 0 ? { warnings: r.warnings } : {}),
    });
    return 0;
  }
  const newest = ` (newest ${r.confirmed.length}; --all shows every one)`;
  const shown = r.confirmed.length < r.totalConfirmed ? newest : "";
  out.text(`Confirmed sessions: ${r.totalConfirmed}${shown}`);
  for (const s of r.confirmed) {
    const breaks = s.breakMinutes > 0 ? ` (+${formatDuration(s.breakMinutes)} break)` : "";
    const duration = formatDuration(s.durationMinutes);
    out.text(`  ${s.sessionId}  ${s.topicId}  ${s.startedAt}  ${duration}${breaks}  ${s.outcome}`);
  }
  out.text(`Drafts: ${r.totalDrafts}`);
  for (const d of r.drafts) {
    const paused = d.pausedAt === null ? "" : `  paused since ${d.pausedAt}`;
    const breaks = d.breakMinutes > 0 ? `  breaks ${formatDuration(d.breakMinutes)}` : "";
    out.text(`  ${describeDraft(d)}${paused}${breaks}${d.draftId === r.openDraftId ? "  (open session)" : ""}`);
  }
  return 0;
}

export const list: Command = {
  name: "list",
  summary: "Lists the confirmed sessions (the newest, or every one) and the drafts.",
  options: { all: "every confirmed session, not only the newest" },
  example: "palee session list --all",
  run: runList,
};
