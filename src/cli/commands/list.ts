import { formatDuration } from "../../core/time";
import { detailedSessionJson, draftJson, skippedJson } from "../../core/formats/json";
import { skippedWarning } from "../../core/records/records";
import { describeDraft } from "../describe";
import type { Values } from "../options";
import type { Outcome } from "../output";
import type { Command, CommandContext } from "./command";
import type { ListResult } from "../../core/sessions";
import { topicOption } from "../topic";

/**
 * `list --topic` (contract §5): only that topic's sessions and drafts, the newest ten of them (or all), with
 * totals of that topic. It reads every note: the topic's newest may be anywhere in the history.
 */
async function listed(ctx: CommandContext, values: Values): Promise<ListResult> {
  const topic = await topicOption(ctx, values.topic, "reads");
  if (topic === null) return ctx.core.list({ all: values.all ?? false });
  const every = await ctx.core.list({ all: true });
  const confirmed = every.confirmed.filter((s) => s.topicId === topic);
  const drafts = every.drafts.filter((d) => d.topicId === topic);
  return {
    ...every,
    confirmed: values.all ? confirmed : confirmed.slice(0, 10),
    drafts,
    totalConfirmed: confirmed.length,
    totalDrafts: drafts.length,
  };
}

async function runList(ctx: CommandContext, values: Values): Promise<Outcome> {
  const { out } = ctx;
  const r = await listed(ctx, values);
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
  // Columns aligned (issue 35 §4): each padded to the widest of its column.
  const rows = r.confirmed.map((s) => {
    const breaks = s.breakMinutes > 0 ? ` (+${formatDuration(s.breakMinutes)} break)` : "";
    return [s.sessionId, s.topicId, s.startedAt, `${formatDuration(s.durationMinutes)}${breaks}`, s.outcome];
  });
  const widths = rows.reduce((w, row) => row.map((cell, i) => Math.max(w[i] ?? 0, cell.length)), [] as number[]);
  for (const row of rows) out.text(`  ${row.map((cell, i) => cell.padEnd(widths[i])).join("  ")}`.trimEnd());
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
  options: {
    all: "every confirmed session, not only the newest",
    topic: "only this topic's sessions and drafts (an ID or a topic note's name)",
  },
  example: "palee session list --all",
  run: runList,
};
