import type { Fields, ReadResult } from "./frontmatter";
import { describeReadProblem } from "./frontmatter";
import type { BreakInterval } from "../honest-time/breaks";
import { readBreakList, readBreakMinutes } from "../honest-time/breaks";
import { readHonestFields } from "../honest-time/draft-fields";
import { normalizeTopic } from "../topics/ids";
import type { Rating } from "../review/rating";
import { readRecallRating } from "../review/rating";
import { durationMinutes, parseTimestamp } from "../time/index";
import type { OffsetAt } from "../time/index";

/** A finished session: the source of truth (views are derived from these notes). */
export interface ConfirmedSession {
  sessionId: string;
  path: string;
  topicId: string;
  startedAt: string;
  startedMs: number;
  endedAt: string;
  durationMinutes: number;
  /** Pauses and time away inside the session (break_minutes; absent or damaged = 0). */
  breakMinutes: number;
  /**
   * The break intervals inside the span as recorded, "<from>/<to>" (version 3; empty when the note records none,
   * or before version 3); damaged items are left out and reported.
   */
  breaks?: string[];
  outcome: string;
  absorbedDrafts: string[];
  topicNote: string | null;
  /** Who opened the session when it was not the learner by hand (contract §2 `agent`, version 3), else null. */
  agent?: string | null;
  /** The learner's recall rating 1–4 (contract §2 `recall_rating`, version 4); null: unrated. */
  recallRating?: Rating | null;
  /** `next_done: true` (version 4): the next action carried to this session was done in it. */
  nextDone?: boolean;
  body: string;
  /** True when the record came from the app's metadata cache: `body` is empty until the file is read. */
  bodyPending?: boolean;
  /** Damaged optional fields (break_minutes), one line each naming the file; the scan reports them. */
  fieldWarnings?: string[];
}

/** The unconfirmed record of an open or interrupted session. Its ID is its file name without ".md". */
export interface Draft {
  draftId: string;
  /**
   * The session_id its frontmatter records (the file name without ".md" when missing). A sync tool's conflict
   * copy (`DRAFT-S-… 2.md`, `DRAFT-S-… (conflict …).md`) keeps the original's: both are drafts of one sitting.
   */
  recordId: string;
  path: string;
  topicId: string;
  /** null when the recorded value is missing or not a valid timestamp. */
  startedAt: string | null;
  startedMs: number | null;
  lastCheckpointAt: string | null;
  lastCheckpointMs: number | null;
  device: string | null;
  topicNote: string | null;
  /** Who opened the session when it was not the learner by hand (contract §2 `agent`, version 3), else null. */
  agent?: string | null;
  body: string;
  /** paused_at while the session is paused (null: running, or the value was damaged). */
  pausedAt: string | null;
  pausedMs: number | null;
  /** Finished pauses and time away so far, oldest first (contract §2 `breaks`; honest-time readDraftBreaks). */
  breaks: BreakInterval[];
  /** The total of `breaks`, in whole minutes (break_minutes). */
  breakMinutes: number;
  /**
   * paused_at holds a valid timestamp that could not be used (ahead of this clock or before the start: a clock
   * that went back, another device's clock): not a pause to end at, yet the learner paused, so no gap of
   * this session is taken for time away.
   */
  pauseUnusable?: boolean;
  /** Damaged paused_at / breaks / break_minutes, one line each naming the file; reported by the scan. */
  fieldWarnings?: string[];
}

export interface Skipped {
  path: string;
  reason: string;
}

/** The one wording of a skipped file, for every face: "skipped <path>: <reason>". */
export function skippedWarning(s: Skipped): string {
  return `skipped ${s.path}: ${s.reason}`;
}

export type Interpreted<T> = { record: T } | { reason: string };

function stem(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name.endsWith(".md") ? name.slice(0, -3) : name;
}

function optionalString(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

function timestampField(fields: Fields, key: string, offsetAt: OffsetAt) {
  const raw = fields[key];
  const ms = parseTimestamp(raw, offsetAt);
  return ms === null ? null : { text: (raw as string).trim(), ms };
}

export function interpretConfirmed(path: string, read: ReadResult, offsetAt: OffsetAt): Interpreted<ConfirmedSession> {
  if (read.state !== "ok") return { reason: describeReadProblem(read) };
  const f = read.fields;
  const topicId = normalizeTopic(f.topic_id);
  if (topicId === null) return { reason: "topic_id is missing or not text" };
  if (f.status !== undefined && f.status !== "completed") {
    return { reason: `status is ${JSON.stringify(f.status)}, expected "completed"` };
  }
  const started = timestampField(f, "started_at", offsetAt);
  if (!started) return { reason: "started_at is missing or not a valid ISO 8601 timestamp" };
  const ended = timestampField(f, "ended_at", offsetAt);
  if (!ended) return { reason: "ended_at is missing or not a valid ISO 8601 timestamp" };
  // The original PALEE tool never wrote duration_minutes (contract §2): its notes are dated by their timestamps.
  // A value that is present is the record's word, so a damaged one is still skipped.
  const duration = f.duration_minutes === undefined ? durationMinutes(started.ms, ended.ms) : f.duration_minutes;
  if (typeof duration !== "number" || !Number.isInteger(duration) || duration < 0) {
    return { reason: "duration_minutes is not a whole number of minutes" };
  }
  const breaks = readBreakMinutes(f.break_minutes, path);
  const intervals = readBreakList(f.breaks, path, offsetAt);
  // Ratings are frontmatter: a scan from the metadata cache knows them without reading a body (contract §4c).
  const recall = readRecallRating(f.recall_rating, path);
  const fieldWarnings = [
    ...(breaks.warning === null ? [] : [breaks.warning]),
    ...intervals.warnings,
    ...(recall.warning === null ? [] : [recall.warning]),
  ];
  // A single draft ID written as text instead of a one-item list (a hand edit, another tool) still names the
  // draft this note absorbed: ignoring it would offer that draft for recovery and save the session twice.
  const absorbed = Array.isArray(f.absorbed_drafts)
    ? f.absorbed_drafts.filter((d): d is string => typeof d === "string")
    : typeof f.absorbed_drafts === "string" && f.absorbed_drafts.trim() !== ""
      ? [f.absorbed_drafts.trim()]
      : [];
  return {
    record: {
      sessionId: optionalString(f.session_id)?.trim() ?? stem(path),
      path,
      topicId,
      startedAt: started.text,
      startedMs: started.ms,
      endedAt: ended.text,
      durationMinutes: duration,
      breakMinutes: breaks.breakMinutes,
      ...(intervals.recorded.length > 0 ? { breaks: intervals.recorded } : {}),
      outcome: optionalString(f.outcome) ?? "completed",
      absorbedDrafts: absorbed,
      topicNote: optionalString(f.topic_note),
      agent: optionalString(f.agent)?.trim() ?? null,
      recallRating: recall.rating,
      nextDone:
        f.next_done === true || (typeof f.next_done === "string" && f.next_done.trim().toLowerCase() === "true"),
      body: read.body,
      ...(fieldWarnings.length === 0 ? {} : { fieldWarnings }),
    },
  };
}

/**
 * A draft as recorded. `now` judges a paused_at in the future (honest-time.ts readHonestFields); without it,
 * only unreadable values are refused.
 */
export function interpretDraft(
  path: string,
  read: ReadResult,
  offsetAt: OffsetAt,
  now = Number.POSITIVE_INFINITY,
): Interpreted<Draft> {
  if (read.state !== "ok") return { reason: describeReadProblem(read) };
  const f = read.fields;
  const topicId = normalizeTopic(f.topic_id);
  if (topicId === null) return { reason: "topic_id is missing or not text" };
  if (f.status !== undefined && f.status !== "draft") {
    return { reason: `status is ${JSON.stringify(f.status)}, expected "draft"` };
  }
  // A draft with a damaged start time is still the learner's work: it stays usable (it can be saved or
  // absorbed), it just cannot date the session.
  const started = timestampField(f, "started_at", offsetAt);
  const checkpoint = timestampField(f, "last_checkpoint_at", offsetAt);
  const honest = readHonestFields(f, path, now, offsetAt);
  const pausedRaw = parseTimestamp(f.paused_at, offsetAt);
  const pauseUnusable = honest.pausedMs === null && pausedRaw !== null;
  return {
    record: {
      draftId: stem(path),
      recordId: optionalString(f.session_id)?.trim() || stem(path),
      path,
      topicId,
      startedAt: started?.text ?? null,
      startedMs: started?.ms ?? null,
      lastCheckpointAt: checkpoint?.text ?? null,
      lastCheckpointMs: checkpoint?.ms ?? null,
      device: optionalString(f.device),
      topicNote: optionalString(f.topic_note),
      agent: optionalString(f.agent)?.trim() ?? null,
      body: read.body,
      pausedAt: honest.pausedAt,
      pausedMs: honest.pausedMs,
      breaks: honest.breaks,
      breakMinutes: honest.breakMinutes,
      ...(pauseUnusable ? { pauseUnusable } : {}),
      ...(honest.warnings.length === 0 ? {} : { fieldWarnings: honest.warnings }),
    },
  };
}

/** Newest first by recorded started_at, ties by session_id. Never file times (sync rewrites them). */
export function compareNewestFirst(a: ConfirmedSession, b: ConfirmedSession): number {
  if (a.startedMs !== b.startedMs) return b.startedMs - a.startedMs;
  return a.sessionId < b.sessionId ? 1 : a.sessionId > b.sessionId ? -1 : 0;
}

/** Drafts oldest first (a draft without a valid start sorts last), ties by ID. */
export function compareDraftsOldestFirst(a: Draft, b: Draft): number {
  const am = a.startedMs ?? Number.POSITIVE_INFINITY;
  const bm = b.startedMs ?? Number.POSITIVE_INFINITY;
  if (am !== bm) return am < bm ? -1 : 1;
  return a.draftId < b.draftId ? -1 : a.draftId > b.draftId ? 1 : 0;
}
