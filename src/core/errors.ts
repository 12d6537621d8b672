/**
 * Typed errors. Each carries the CLI exit code it maps to: usage 2, conflict and busy 4, unexpected 5.
 * The faces only translate them (exit status, notice); they never decide policy from the message text.
 */
export type ExitCode = 2 | 4 | 5;

export type ErrorKind =
  | "usage"
  | "topic_required"
  | "invalid_topic"
  | "no_such_draft"
  // show (contract §4b, version 3): an ID that names no readable session or draft (exit 2).
  | "no_such_session"
  | "nothing_open"
  // Agent-safe options (contract §4b, version 3): end --agent found a session this agent did not open (exit 2).
  | "not_this_agent"
  | "session_open_elsewhere"
  | "other_session_open"
  | "folder_missing"
  | "folder_outside_vault"
  | "link_outside_vault"
  | "conflict"
  | "boundary"
  | "unexpected"
  | "saved_incomplete"
  // Honest time (contract §4, version 2): refusals, all exit 2.
  | "already_paused"
  | "not_paused"
  | "invalid_time"
  | "overlap"
  | "long_silence"
  // One at a time (contract §4, version 3): another process holds the vault lock (exit 4); the device's cache
  // folder, where the lock lives, cannot be used (exit 2).
  | "busy"
  | "cache_dir"
  // Finding a topic by name (contract §4, version 3): several topic notes match, or none does (exit 2).
  | "ambiguous_topic"
  | "unknown_topic"
  // Goals (contract §4c refusals, version 4), all exit 2: a bad target or weekday, a bad date or pause, a
  // plan.md that cannot be read (never overwritten).
  | "invalid_goal"
  | "invalid_date"
  | "plan_unreadable"
  // The learning loop (contract §4c, version 4): a rating that is not one (exit 2).
  | "invalid_rating";

export class PaleeError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly exitCode: ExitCode,
    message: string,
  ) {
    super(message);
    this.name = "PaleeError";
  }
}

export class UsageError extends PaleeError {
  constructor(message: string, kind: ErrorKind = "usage") {
    super(kind, 2, message);
    this.name = "UsageError";
  }
}

/**
 * end without `at` when the session has been silent for longer than the grace period and 2 hours (contract §4):
 * nothing says when it ended. `details` is added to the CLI's JSON error document as it is.
 */
export class LongSilenceError extends UsageError {
  constructor(
    /** The silence and the session's length in words, without the advice (the terminal asks instead). */
    readonly situation: string,
    message: string,
    /** Time since the last sign of life, and since the start, in ms; the last sign of life as written. */
    readonly silenceMs: number,
    readonly sessionMs: number,
    readonly lastSignAt: string,
    /** The session's draft is gone: nothing shows it alive after its start, so "now" is no answer. */
    readonly nowRefused = false,
  ) {
    super(message, "long_silence");
    this.name = "LongSilenceError";
  }

  get details(): { silence_seconds: number; session_seconds: number; last_activity_at: string } {
    return {
      silence_seconds: Math.floor(this.silenceMs / 1000),
      session_seconds: Math.floor(this.sessionMs / 1000),
      last_activity_at: this.lastSignAt,
    };
  }
}

/**
 * A topic name that matches several topic notes (`ambiguous_topic`) or none (`unknown_topic`), contract §4
 * "finding a topic by name". `details` is added to the CLI's JSON error document as it is.
 */
export class TopicLookupError extends UsageError {
  constructor(
    kind: "ambiguous_topic" | "unknown_topic",
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message, kind);
    this.name = "TopicLookupError";
  }
}

/** A logged session that overlaps a confirmed session or the open one by more than a minute (contract §4 log). */
export class OverlapError extends UsageError {
  constructor(
    message: string,
    /** The confirmed session's ID, or the open session's draft ID. */
    readonly sessionId: string,
  ) {
    super(message, "overlap");
    this.name = "OverlapError";
  }
}

/** A file changed between our read and our write (another device, a sync daemon, the user). */
export class ConflictError extends PaleeError {
  constructor(
    readonly path: string,
    message?: string,
    /** Set when the conflict hit a derived view after this session was saved: the session itself is safe. */
    readonly savedSession?: string,
  ) {
    super("conflict", 4, message ?? `${path} changed while it was being written; try again`);
    this.name = "ConflictError";
  }
}

/** Another palee process held the vault's lock for the whole wait (contract §4 "One at a time"): nothing written. */
export class BusyError extends PaleeError {
  constructor(message = "another palee process is writing to this vault; try again") {
    super("busy", 4, message);
    this.name = "BusyError";
  }
}

/**
 * The CLI's vault lock was taken from this process while it was writing (cli/lock.ts): it writes nothing more.
 * Busy, exit 4; after a session note was written, `afterSaving` says first that the session is saved.
 */
export class LockLostError extends BusyError {
  constructor(
    readonly lock: string,
    readonly why: string,
  ) {
    super(`the vault lock ${lock} was taken from this process while it was writing (${why}): nothing more was written`);
    this.name = "LockLostError";
  }
}

/** A removal outside the deletion boundary (layout.ts): always a bug or a hostile path, never user error. */
export class BoundaryError extends PaleeError {
  constructor(readonly path: string) {
    super("boundary", 5, `refused to remove ${path}: only drafts inside the sessions folder may be removed`);
    this.name = "BoundaryError";
  }
}

/**
 * A file (or the trash folder) that is a symbolic link leading out of the vault: never read, written or moved
 * into (contract §3, §4 deletion boundary). Scans skip such a note by name; a command that needs it stops.
 */
export class LinkOutsideVaultError extends UsageError {
  constructor(
    readonly path: string,
    message = `${path} is a symbolic link leading out of the vault: not followed ` +
      "(remove the link, or put the file itself there)",
  ) {
    super(message, "link_outside_vault");
    this.name = "LinkOutsideVaultError";
  }
}

/** Thrown by a store's create() when the file already exists (create is exclusive). */
export class FileExistsError extends Error {
  constructor(readonly path: string) {
    super(`${path} already exists`);
    this.name = "FileExistsError";
  }
}

/**
 * A failure after the confirmed note was written (a full disk on index.md, a draft that cannot be moved to the
 * trash): the session is saved, and the message says so first. Exit 5, as any unexpected failure.
 */
export class AfterSaveError extends PaleeError {
  constructor(
    readonly savedSession: string,
    message: string,
  ) {
    super("saved_incomplete", 5, message);
    this.name = "AfterSaveError";
  }
}

/** Errors thrown after a session note was written, with what was saved: marked, never wrapped or changed. */
const savedBefore = new WeakMap<object, { sessionId: string; saved: string }>();

/** Marks `error` as thrown after `sessionId` was saved (`saved`: "Saved S-… (T-…, 45 min)"); returns it. */
export function markSaved(error: unknown, sessionId: string, saved: string): unknown {
  if (typeof error === "object" && error !== null && !savedBefore.has(error)) {
    savedBefore.set(error, { sessionId, saved });
  }
  return error;
}

/**
 * A marked failure (markSaved) as the face reports it: what was saved first, then what failed; null for any
 * other error and for a conflict, which says so itself.
 */
export function afterSaveError(error: unknown): AfterSaveError | null {
  if (typeof error !== "object" || error === null || error instanceof ConflictError) return null;
  const mark = savedBefore.get(error);
  if (mark === undefined) return null;
  return new AfterSaveError(
    mark.sessionId,
    `${mark.saved}, but what follows the save failed: ${errorMessage(error)}; ` +
      "the session is safe: once that is fixed, a rebuild refreshes the views",
  );
}

export function isPaleeError(error: unknown): error is PaleeError {
  return error instanceof PaleeError;
}

/** The message of anything thrown (also of errors from another realm, where instanceof Error fails). */
export function errorMessage(error: unknown): string {
  if (typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string") {
    return (error as { message: string }).message;
  }
  return String(error);
}

/** Wraps anything that is not already typed, so the faces always see an exit code. */
export function toPaleeError(error: unknown): PaleeError {
  if (error instanceof PaleeError) return error;
  return new PaleeError("unexpected", 5, errorMessage(error));
}
