/**
 * end, with --at and --if-none. Without --at after a long silence the core refuses (long_silence); on a
 * terminal (not --json) the learner is asked instead: [L]ast activity, [N]ow, or a time they type. With no open
 * session the core refuses (nothing_open); --if-none ignore makes that a success that wrote nothing. The rules
 * live in the core (contract §4, §5 version 2 and 3); this file only translates.
 */
import { LongSilenceError, UsageError, afterSaveError, isPaleeError } from "../../core/errors";
import { sessionJson } from "../../core/formats/json";
import type { OffsetAt } from "../../core/time";
import { formatDuration, localClock } from "../../core/time";
import type { AgentEndOptions, EndAnswer } from "../../core/sessions";
import { endTimeOf } from "../../core/sessions";
import { nothingOpen } from "../../core/operations/end";
import type { Values } from "../options";
import type { CliIo, Outcome, Output } from "../output";
import { LineReader } from "../prompt";
import type { Command, CommandContext, Prepared } from "./command";
import { OPEN_SESSION_SPAN_MS } from "../../core/device-memory/kept-fields";
import { topicOption } from "../topic";
import { validateAgentId } from "../../core/records/ids";
import { endTexts } from "../stdin-text";
import { ratingWord } from "../../core/review/rating";
import { countAwayIfAsked } from "../count-away";

type EndTexts = Awaited<ReturnType<typeof endTexts>>;

/** `--summary -` / `--next -` are read before the vault is locked (main.ts), then the end runs under it. */
async function prepareEnd(values: Values, io: CliIo): Promise<Prepared> {
  const texts = await endTexts(io.stdin, values);
  // `-` read nothing: said, not silently dropped (issue 35 §4).
  if (values.summary === "-" && texts.summary === null) io.stderr("warning: --summary -: standard input was empty\n");
  if (values.next === "-" && texts.nextAction === null) io.stderr("warning: --next -: standard input was empty\n");
  return { run: (ctx) => runEnd(ctx, values, texts) };
}

async function runEnd(ctx: CommandContext, values: Values, texts: EndTexts): Promise<Outcome> {
  const { out } = ctx;
  const ifNone = values["if-none"] ?? "refuse";
  if (ifNone !== "refuse" && ifNone !== "ignore") {
    throw new UsageError(`--if-none must be refuse or ignore (got "${ifNone}")`);
  }
  try {
    reportEnd(await ended(ctx, values, texts), out);
  } catch (caught) {
    const error = ifNone === "ignore" ? await topicOrNothing(ctx, caught) : caught;
    // Nothing open, nothing to end (contract §4 end step 2): with --if-none ignore, a success that wrote nothing.
    if (ifNone === "ignore" && isPaleeError(error) && error.kind === "nothing_open") {
      if (out.json) out.doc({ status: "nothing_open" });
      out.text("No open session: nothing to end, nothing was written.");
      return 0;
    }
    // end --agent and the open session is not this agent's (contract §4b): left alone; ignore makes it exit 0.
    if (ifNone === "ignore" && isPaleeError(error) && error.kind === "not_this_agent") {
      if (out.json) out.doc({ status: "not_this_agent" });
      out.text(`${error.message}.`);
      return 0;
    }
    // A failure after the session note was written says first that the session is saved.
    throw afterSaveError(error) ?? error;
  }
  return 0;
}

/**
 * With `--if-none ignore`, "topic required" when no topic is given or active and no session is open is
 * nothing to end (contract §4 end: nothing_open), a success (issue 35 §2). A plain end keeps topic_required.
 */
async function topicOrNothing(ctx: CommandContext, error: unknown): Promise<unknown> {
  if (!isPaleeError(error) || error.kind !== "topic_required") return error;
  return (await ctx.core.status()).open === null ? nothingOpen(null) : error;
}

async function ended(ctx: CommandContext, values: Values, texts: EndTexts): Promise<EndAnswer> {
  const { core, out, io } = ctx;
  const endAt = values.at === undefined ? undefined : endTimeOf(values.at);
  const outcome = values.outcome;
  if (outcome !== undefined && outcome !== "completed" && outcome !== "interrupted") {
    throw new UsageError(`--outcome must be completed or interrupted (got ${JSON.stringify(outcome)})`);
  }
  if (values.agent !== undefined) validateAgentId(values.agent);
  const topic = await topicOption(ctx, values.topic, "acts on the open session");
  await countAwayIfAsked(ctx, values);
  const options: AgentEndOptions = {
    topic,
    ...texts,
    endAt,
    agent: values.agent ?? null,
    outcome,
    note: values.note ?? null,
    // The recall step (contract §4c): given or not, never asked for (an agent's end waits for nothing).
    rating: values.rating ?? null,
    done: values.done === true,
  };
  try {
    return await core.endOrDiscard(options);
  } catch (error) {
    if (!(error instanceof LongSilenceError) || !io.isTerminal || out.json || values.at !== undefined) throw error;
    return core.endOrDiscard({ ...options, endAt: endTimeOf(await askEnd(error, io, ctx.offsetAt)) });
  }
}

async function askEnd(silence: LongSilenceError, io: CliIo, offsetAt: OffsetAt): Promise<string> {
  const reader = new LineReader(io.stdin);
  const last = Date.parse(silence.lastSignAt);
  try {
    io.stderr(`${silence.situation}.\n`);
    // A session whose draft is gone shows no activity after its start: "now" would count all of it.
    const lastWord = silence.nowRefused ? "its [L]ast sign of life, the start (0 min)" : "[L]ast activity";
    const question = `End at ${lastWord} (${localClock(last, offsetAt)})${silence.nowRefused ? "" : ", [N]ow,"}`;
    for (;;) {
      io.stderr(`${question} or [T]ype a time? `);
      const answer = (await reader.next())?.trim().toLowerCase().slice(0, 1) ?? null;
      if (answer === null) throw new UsageError("no answer: input ended, nothing was written", "long_silence");
      if (answer === "l") return "last";
      if (answer === "n" && !silence.nowRefused) return "now";
      if (answer === "t") {
        io.stderr("Ended at (HH:MM or ISO 8601): ");
        const typed = await reader.next();
        if (typed === null) throw new UsageError("no answer: input ended, nothing was written", "long_silence");
        return typed.trim();
      }
      io.stderr(silence.nowRefused ? "Please answer l or t.\n" : "Please answer l, n or t.\n");
    }
  } finally {
    reader.close();
  }
}

function reportEnd(result: EndAnswer, out: Output): void {
  for (const w of result.warnings) out.warn(w);
  if (result.discardedEmpty !== undefined) {
    // An agent's session that recorded nothing (contract §5 version 4, agents): no note, no streak day.
    if (out.json) out.doc({ status: "discarded_empty", draft_id: result.discardedEmpty });
    out.text(
      `Nothing was studied in ${result.discardedEmpty} (${result.topicId}, opened by an agent: 0 min, no notes): ` +
        "its draft went to the trash and no session was saved.",
    );
    return;
  }
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
  const rated = s.recallRating ? `; recall rated ${ratingWord(s.recallRating)}` : "";
  out.text(
    result.alreadySaved
      ? `This session was already saved as ${s.sessionId} (${duration}); nothing new was written.`
      : `Saved ${s.sessionId}: ${s.topicId}, ${duration} (${s.startedAt} → ${s.endedAt}${breaks}${rated}).`,
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
    summary: 'the summary ("-": read it from standard input)',
    next: 'the next action ("-": read it from standard input)',
    at: "when the session ended: now, last, HH:MM or ISO 8601 (needed after a long silence)",
    "if-none":
      "with no open session (or, with --agent, none of this agent's): refuse (default, exit 2) or ignore (exit 0)",
    note: "a last note, merged into the session's Notes as a checkpoint's",
    agent: "end only a session this agent opened; any other is left alone (not_this_agent)",
    outcome: "completed (default) or interrupted: the episode was cut short",
    recall: 'what you remember, without looking ("-": read it from standard input)',
    rating: "how well you recalled it: 1-4 or again, hard, good, easy",
    done: "the next action carried from an earlier session was done in this one",
    "count-away": "count the time away recorded in the open session as study after all",
  },
  example: 'palee session end --summary "- lifetimes" --recall "borrow rules" --rating good --next "exercises 4.1-4.3"',
  prepare: prepareEnd,
  run: async (ctx, values) => (await prepareEnd(values, ctx.io)).run(ctx),
  readsNotesWithin: OPEN_SESSION_SPAN_MS,
};
