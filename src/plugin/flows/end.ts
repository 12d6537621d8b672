import { PaleeError } from "../../core/errors";
import type { EndAtSession } from "../../core/honest-time";
import { preselectedEnd, resolveEndAt, silenceOf } from "../../core/honest-time";
import type { EndTime } from "../../core/honest-time";

import type { OpenSession } from "../../core/sessions";
import { describeRecorded, formatDuration, localClock, parseGivenTime } from "../../core/time";
import type { EndRequest, OpenState } from "../session-controller";
import type { EndChoice, EndChoiceKind, EndPreview, EndPreviewResult } from "../ui/end-modal";
import { EndSessionModal } from "../ui/end-modal";
import type { FlowContext } from "./context";
import { fail, sentence, warn } from "./notices";
import { recoverInterrupted } from "./recovery";
import { headingsProbe } from "./review-queue";
import { topicName } from "./topics";

/** End session: only this device's running session; the end modal first when a summary is asked for. */
export async function end(ctx: FlowContext): Promise<void> {
  const { controller } = ctx;
  const open = controller.open;
  if (!open) {
    ctx.notify("No session is open.");
    return;
  }
  if (!open.running) return recoverInterrupted(ctx);
  if (!open.mine) {
    const where = open.session.device ?? "another device";
    const topic = topicName(ctx, open.session.topicId, open.session.topicNote);
    ctx.notify(`The session on ${topic} is open on ${where}: end it there.`);
    return;
  }
  if (ctx.ending) return; // a second click while the first end is on screen or being saved
  const preview = endPreview(ctx, open);
  // The carried next action (its Done box): one read of the topic's newest notes; none when it cannot tell.
  const carried = ctx.settings().askForSummary
    ? await ctx.controller.carriedNextAction(open.session.topicId, headingsProbe(ctx)).catch(() => null)
    : null;
  if (ctx.ending) return;
  if (!ctx.settings().askForSummary) {
    // No dialog: the preselected end (the pause, or the last activity after a long silence), never a
    // silent gap counted as study time.
    const chosen = preview.preview(preview.preselected, "");
    const endAt: EndTime = "endAt" in chosen ? chosen.endAt : { kind: "now" };
    return endWith(ctx, { summary: null, nextAction: null, endAt });
  }
  ctx.ending = true;
  new EndSessionModal(
    ctx.app,
    { ...preview, carried: carried && { text: carried.text, day: carried.day }, askRecall: ctx.settings().askRecall },
    (input) => void endWith(ctx, input, open.session),
    () => (ctx.ending = false),
  ).open();
}

/**
 * The session as the honest-time rules see it. While this app runs the session its ticks are signs of life
 * too (contract §4), so the last activity is the later of the draft's and the last tick before any gap.
 */
export function endAtSession(ctx: FlowContext, open: OpenState): EndAtSession {
  const { ticks } = ctx.controller;
  return {
    startedMs: open.startedMs,
    lastCheckpointMs: ticks.lastSign(open.lastCheckpointMs ?? open.startedMs, ctx.controller.now()),
    pausedMs: open.pausedMs,
    breaks: open.session.breaks,
  };
}

/** The end dialog's model: the silence, the choices, and the duration each one would record. */
export function endPreview(ctx: FlowContext, open: OpenState): Omit<EndPreview, "carried" | "askRecall"> {
  const { controller } = ctx;
  const { offsetAt, graceMs } = controller;
  const now = controller.now();
  const session = endAtSession(ctx, open);
  const silence = silenceOf(session, now, offsetAt);
  const endAtOf = (kind: EndChoiceKind, typed: string): EndTime => {
    const { pausedAt } = open.session;
    if (kind === "paused") return pausedAt === null ? { kind: "now" } : { kind: "given", text: pausedAt };
    // This app's last tick counts as a sign of life, though no checkpoint recorded it.
    if (kind === "last") return { kind: "last", aliveAt: silence.lastSignMs };
    return kind === "now" ? { kind: "now" } : { kind: "given", text: typed.trim() };
  };
  const choices: EndChoice[] = [];
  if (open.pausedMs !== null) {
    choices.push({ kind: "paused", label: `At the pause (${localClock(open.pausedMs, offsetAt)})` });
  } else {
    choices.push({ kind: "last", label: `At the last activity (${localClock(silence.lastSignMs, offsetAt)})` });
  }
  choices.push({ kind: "now", label: `Now (${localClock(now, offsetAt)})` });
  choices.push({ kind: "given", label: "At (HH:MM)" });
  const today = controller.today();
  return {
    topicId: open.session.topicId,
    topic: topicName(ctx, open.session.topicId, open.session.topicNote),
    startedText: describeRecorded(open.session.startedAt, today),
    silenceText: open.pausedMs === null && silence.silenceMs > graceMs ? silence.text : null,
    choices,
    preselected: preselectedEnd(session, now, graceMs),
    preview: (kind, typed): EndPreviewResult => {
      const endAt = endAtOf(kind, typed);
      try {
        // parseGivenTime refuses (invalid_time) a wall time the clocks skipped that day: shown like any refusal.
        if (endAt.kind === "given" && parseGivenTime(endAt.text, controller.now(), offsetAt) === null) {
          const text = endAt.text;
          return { error: text === "" ? "Type the time the session ended." : `"${text}" is not a time: type HH:MM.` };
        }
        // The preview is computed at the moment it is shown; the core decides again when confirmed.
        const result = resolveEndAt(endAt, session, controller.now(), graceMs, offsetAt);
        return { minutes: result.durationMinutes, endAt };
      } catch (error) {
        if (error instanceof PaleeError) return { error: sentence(error.message) };
        throw error;
      }
    },
  };
}

/** `shown`: the session the end modal showed (it may have ended elsewhere while the modal was open). */
export async function endWith(ctx: FlowContext, input: EndRequest, shown?: OpenSession): Promise<void> {
  if (ctx.ending && !shown) return;
  ctx.ending = true;
  try {
    const result = await ctx.controller.end(input, shown);
    if (result.discardedEmpty !== undefined) {
      // An agent's session that recorded nothing (contract §5 version 4, agents): discarded, not saved.
      const topic = topicName(ctx, result.topicId);
      ctx.notify(`Nothing was studied in the agent's session on ${topic}: it was discarded, not saved.`);
      warn(ctx, result.warnings);
      return;
    }
    const { session } = result;
    const topic = topicName(ctx, session.topicId, session.topicNote);
    ctx.notify(
      result.alreadySaved
        ? `Session on ${topic} was already saved (${formatDuration(session.durationMinutes)}).`
        : `Session on ${topic} saved (${formatDuration(session.durationMinutes)}).`,
    );
    warn(ctx, result.warnings);
    await ctx.dailyNote.add(session);
  } catch (error) {
    fail(ctx, "end the session", error);
  } finally {
    ctx.ending = false;
  }
}
