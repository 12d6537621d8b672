/**
 * The CLI face of honest time (SPEC §4, §5 version 2): pause, continue, log, end --at, and the question a
 * terminal gets instead of the long_silence refusal. Rules live in the core; this file only translates.
 */
import { LongSilenceError, UsageError } from "../core/errors";
import { sessionJson } from "../core/formats/json";
import type { AwayBreak } from "../core/honest-time";
import { awayNotice } from "../core/honest-time";
import type { OffsetAt } from "../core/time";
import { formatDuration, localClock } from "../core/time";
import type { EndOptions, EndResult, PaleeSessions } from "../core/sessions";
import type { CliIo, Outcome, Output } from "./output";
import { LineReader } from "./prompt";

export interface HonestValues {
  topic?: string;
  summary?: string;
  next?: string;
  at?: string;
  from?: string;
  to?: string;
  minutes?: string;
}

export async function runPause(core: PaleeSessions, values: HonestValues, out: Output): Promise<Outcome> {
  const r = await core.pause({ topic: values.topic ?? null });
  if (out.json) out.doc({ status: "paused", draft_id: r.draftId, paused_at: r.pausedAt });
  out.text(`Paused the session (${r.draftId}) at ${r.pausedAt}; "palee session continue" goes on.`);
  return 0;
}

export async function runContinue(core: PaleeSessions, values: HonestValues, out: Output): Promise<Outcome> {
  const r = await core.continueSession({ topic: values.topic ?? null });
  if (out.json) out.doc({ status: "continued", draft_id: r.draftId, break_minutes: r.breakMinutes });
  out.text(`Continued the session (${r.draftId}); breaks so far: ${formatDuration(r.breakMinutes)}, not counted.`);
  return 0;
}

export async function runLog(core: PaleeSessions, values: HonestValues, out: Output): Promise<Outcome> {
  const r = await core.log({
    topic: values.topic ?? null,
    from: values.from,
    to: values.to,
    minutes: values.minutes,
    summary: values.summary ?? null,
    nextAction: values.next ?? null,
  });
  for (const w of r.warnings) out.warn(w);
  if (out.json) out.doc({ status: "logged", session: sessionJson(r.session) });
  const s = r.session;
  out.text(
    `Logged ${s.sessionId}: ${s.topicId}, ${formatDuration(s.durationMinutes)} (${s.startedAt} → ${s.endedAt}).`,
  );
  return 0;
}

/** "Away 23:10–07:05, not counted" after a checkpoint that recorded time away (stderr: it is news, not data). */
export function reportAway(away: AwayBreak | null, io: CliIo, offsetAt: OffsetAt): void {
  if (away) io.stderr(`${awayNotice(away, offsetAt)} (${formatDuration(away.minutes)} recorded as a break).\n`);
}

/**
 * end, with --at. Without --at after a long silence the core refuses (long_silence); on a terminal (not
 * --json) the learner is asked instead: [L]ast activity, [N]ow, or a time they type.
 */
export async function runEnd(
  core: PaleeSessions,
  values: HonestValues,
  out: Output,
  io: CliIo,
  offsetAt: OffsetAt,
): Promise<Outcome> {
  const options: EndOptions = {
    topic: values.topic ?? null,
    summary: values.summary ?? null,
    nextAction: values.next ?? null,
    endAt: values.at,
  };
  let result: EndResult;
  try {
    result = await core.end(options);
  } catch (error) {
    if (!(error instanceof LongSilenceError) || !io.isTerminal || out.json || values.at !== undefined) throw error;
    result = await core.end({ ...options, endAt: await askEnd(error, io, offsetAt) });
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
