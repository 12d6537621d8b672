/**
 * end, with --at. Without --at after a long silence the core refuses (long_silence); on a terminal (not
 * --json) the learner is asked instead: [L]ast activity, [N]ow, or a time they type. The rules live in the
 * core (contract §4, §5 version 2); this file only translates.
 */
import { LongSilenceError, UsageError } from "../../core/errors";
import { sessionJson } from "../../core/formats/json";
import type { OffsetAt } from "../../core/time";
import { formatDuration, localClock } from "../../core/time";
import type { EndOptions, EndResult } from "../../core/sessions";
import { endTimeOf } from "../../core/sessions";
import type { Values } from "../options";
import type { CliIo, Outcome, Output } from "../output";
import { LineReader } from "../prompt";
import type { Command, CommandContext } from "./command";

async function runEnd(ctx: CommandContext, values: Values): Promise<Outcome> {
  const { core, out, io } = ctx;
  const options: EndOptions = {
    topic: values.topic ?? null,
    summary: values.summary ?? null,
    nextAction: values.next ?? null,
    endAt: values.at === undefined ? undefined : endTimeOf(values.at),
  };
  let result: EndResult;
  try {
    result = await core.end(options);
  } catch (error) {
    if (!(error instanceof LongSilenceError) || !io.isTerminal || out.json || values.at !== undefined) throw error;
    result = await core.end({ ...options, endAt: endTimeOf(await askEnd(error, io, ctx.offsetAt)) });
  }
  reportEnd(result, out);
  return 0;
}

async function askEnd(silence: LongSilenceError, io: CliIo, offsetAt: OffsetAt): Promise<string> {
  const reader = new LineReader(io.stdin);
  const last = Date.parse(silence.lastSignAt);
  try {
    io.stderr(`${silence.situation}.\n`);
    for (;;) {
      io.stderr(`End at [L]ast activity (${localClock(last, offsetAt)}), [N]ow, or [T]ype a time? `);
      const answer = (await reader.next())?.trim().toLowerCase().slice(0, 1) ?? null;
      if (answer === null) throw new UsageError("no answer: input ended, nothing was written", "long_silence");
      if (answer === "l") return "last";
      if (answer === "n") return "now";
      if (answer === "t") {
        io.stderr("Ended at (HH:MM or ISO 8601): ");
        const typed = await reader.next();
        if (typed === null) throw new UsageError("no answer: input ended, nothing was written", "long_silence");
        return typed.trim();
      }
      io.stderr("Please answer l, n or t.\n");
    }
  } finally {
    reader.close();
  }
}

function reportEnd(result: EndResult, out: Output): void {
  for (const w of result.warnings) out.warn(w);
  if (out.json) {
    out.doc({
      status: "ended",
      session: sessionJson(result.session),
      absorbed_drafts: result.absorbedDrafts,
      warnings: result.warnings,
      ...(result.alreadySaved ? { already_saved: true } : {}),
    });
  }
  const s = result.session;
  const breaks = s.breakMinutes > 0 ? `; ${formatDuration(s.breakMinutes)} of breaks not counted` : "";
  const duration = formatDuration(s.durationMinutes);
  out.text(
    result.alreadySaved
      ? `This session was already saved as ${s.sessionId} (${duration}); nothing new was written.`
      : `Saved ${s.sessionId}: ${s.topicId}, ${duration} (${s.startedAt} → ${s.endedAt}${breaks}).`,
  );
  if (result.absorbedDrafts.length && !result.alreadySaved) {
    out.text(`Merged and trashed: ${result.absorbedDrafts.join(", ")}`);
  }
}

export const end: Command = {
  name: "end",
  summary: "Ends the open session and saves it as a session note; hot.md and index.md follow.",
  options: {
    topic: "the session's topic (refused if the open session is on another)",
    summary: "the summary",
    next: "the next action",
    at: "when the session ended: now, last, HH:MM or ISO 8601 (needed after a long silence)",
  },
  example: 'palee session end --summary "- lifetimes" --next "exercises 4.1-4.3"',
  run: runEnd,
};
