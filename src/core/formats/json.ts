import type { OpenSession } from "../operations/open-session";
import type { ConfirmedSession, Draft, Skipped } from "../records/records";

/**
 * The JSON documents the CLI prints (`--json`): a session, a draft, the open session and a skipped file, in
 * snake_case with vault-relative paths.
 */
export function sessionJson(s: ConfirmedSession) {
  return {
    session_id: s.sessionId,
    topic_id: s.topicId,
    started_at: s.startedAt,
    ended_at: s.endedAt,
    duration_minutes: s.durationMinutes,
    break_minutes: s.breakMinutes,
    ...(s.breaks && s.breaks.length > 0 ? { breaks: s.breaks } : {}),
    outcome: s.outcome,
    ...(s.agent ? { agent: s.agent } : {}),
    recall_rating: s.recallRating ?? null,
    next_done: s.nextDone === true,
    path: s.path,
  };
}

export function draftJson(d: Draft) {
  return {
    draft_id: d.draftId,
    topic_id: d.topicId,
    started_at: d.startedAt,
    last_checkpoint_at: d.lastCheckpointAt,
    device: d.device,
    ...(d.agent ? { agent: d.agent } : {}),
    path: d.path,
  };
}

export function openJson(o: OpenSession) {
  return {
    topic_id: o.topicId,
    started_at: o.startedAt,
    device: o.device,
    draft_id: o.draftId,
    elapsed_seconds: o.elapsedSeconds,
    last_checkpoint_at: o.lastCheckpointAt,
    paused_at: o.pausedAt,
    break_minutes: o.breakMinutes,
    silence_seconds: o.silenceSeconds,
    agent: o.agent,
    draft_path: o.draftPath,
  };
}

export function skippedJson(s: Skipped) {
  return { path: s.path, reason: s.reason };
}

/** S + summary and next_action (contract §5 version 3: list --json, show, latest). */
export function detailedSessionJson(d: {
  session: ConfirmedSession;
  summary: string | null;
  nextAction: string | null;
}) {
  return { ...sessionJson(d.session), summary: d.summary, next_action: d.nextAction };
}
