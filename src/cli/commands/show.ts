import { UsageError } from "../../core/errors";
import { detailedSessionJson, draftJson } from "../../core/formats/json";
import type { ShowResult } from "../../core/sessions";
import { formatDuration } from "../../core/time";
import type { Values } from "../options";
import type { Outcome, Output } from "../output";
import type { Command, CommandContext } from "./command";

/** The JSON document of show and latest (contract §5 version 3). */
export function recordJson(r: ShowResult) {
  if (r.kind === "draft") return { draft: { ...draftJson(r.draft), notes: r.notes } };
  return { session: { ...detailedSessionJson(r.session), notes: r.notes } };
}

function section(heading: string, text: string | null): string[] {
  return text === null ? [] : ["", `## ${heading}`, "", text];
}

/** The record as text: its fields, one a line, then Summary, Next action and Notes. */
export function printRecord(out: Output, r: ShowResult): void {
  if (r.kind === "draft") {
    const d = r.draft;
    out.text(`Draft ${d.draftId} (not yet saved)`);
    out.text(`Topic: ${d.topicId}`);
    out.text(`Started: ${d.startedAt ?? "(unknown)"}`);
    out.text(`Last checkpoint: ${d.lastCheckpointAt ?? "(none)"}`);
    out.text(`Device: ${d.device ?? "(unknown)"}`);
    if (d.pausedAt !== null) out.text(`Paused since: ${d.pausedAt}`);
    if (d.breakMinutes > 0) out.text(`Breaks: ${formatDuration(d.breakMinutes)}`);
    out.text(`Path: ${d.path}`);
    for (const line of section("Notes", r.notes)) out.text(line);
    return;
  }
  const s = r.session.session;
  const breaks = s.breakMinutes > 0 ? ` (+${formatDuration(s.breakMinutes)} break)` : "";
  out.text(`Session ${s.sessionId}`);
  out.text(`Topic: ${s.topicId}`);
  out.text(`Started: ${s.startedAt}`);
  out.text(`Ended: ${s.endedAt}`);
  out.text(`Studied: ${formatDuration(s.durationMinutes)}${breaks}, ${s.outcome}`);
  out.text(`Path: ${s.path}`);
  const lines = [
    ...section("Summary", r.session.summary),
    ...section("Next action", r.session.nextAction),
    ...section("Notes", r.notes),
  ];
  for (const line of lines) out.text(line);
}

async function runShow(ctx: CommandContext, values: Values): Promise<Outcome> {
  const id = values.id;
  if (id === undefined || id.trim() === "") throw new UsageError("show needs --id <S-…|DRAFT-S-…>");
  const r = await ctx.core.show(id);
  if (ctx.out.json) ctx.out.doc(recordJson(r));
  printRecord(ctx.out, r);
  return 0;
}

export const show: Command = {
  name: "show",
  summary: "Prints one confirmed session or draft, whole: its fields, Summary, Next action and Notes.",
  options: { id: "the session (S-…) or draft (DRAFT-S-…) to print" },
  example: "palee session show --id S-20260814T120000-abcd",
  run: runShow,
};
