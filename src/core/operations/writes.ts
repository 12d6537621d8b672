import { BusyError, ConflictError, FileExistsError, LockLostError, markSaved } from "../errors";
import { classifyRecord } from "../records/frontmatter";
import { handWrittenHot, keptCopyPath } from "../records/hand-written";
import { newDraftId, newSessionId } from "../records/ids";
import { assertRemovable, sessionPath } from "../records/layout";
import type { ConfirmedSession, Draft } from "../records/records";
import { interpretConfirmed } from "../records/records";
import type { Scan } from "../scan";
import type { ConfirmedNoteInput } from "../records/session-note";
import { renderConfirmedNote } from "../records/session-note";
import type { SessionContext } from "./context";
import { stamp } from "./reading";

/** How many times a colliding random ID is drawn again before giving up (2^16 / 2^32 spaces). */
const ID_ATTEMPTS = 20;

/** What a view's `compute` decided from the file's text: the new text (null: leave it alone), and why. */
export interface ViewChange<T> {
  next: string | null;
  value: T;
  /** Something to read before the file's text can be computed (a topic's memory): then computed again. */
  before?: () => Promise<void>;
}

/** A view written: the text the file now holds, the last `compute`'s value, and what to tell the user. */
export interface ViewWritten<T> {
  text: string | null;
  value: T;
  /** That hand-written text in hot.md was kept in a copy before it was replaced (invariant 10). */
  warnings: string[];
}

/**
 * Optimistic write of a derived view (hot.md, index.md, a draft's frontmatter): computes from a fresh read,
 * writes only if the file still holds what was read, retries once from a fresh read, then reports the
 * conflict. `compute` returns null to leave the file alone. Returns the text the file now holds.
 */
export async function writeView(
  ctx: SessionContext,
  path: string,
  compute: (text: string | null) => string | null,
  /** Before the retry: re-read what `compute` derives the view from (another writer may have changed it too). */
  refresh?: () => Promise<void>,
): Promise<ViewWritten<undefined>> {
  return writeViewWith(ctx, path, (text) => ({ next: compute(text), value: undefined }), refresh);
}

/** writeView whose `compute` also returns a value (what it saw or decided at write time): the last one wins. */
export async function writeViewWith<T>(
  ctx: SessionContext,
  path: string,
  compute: (text: string | null) => ViewChange<T>,
  refresh?: () => Promise<void>,
): Promise<ViewWritten<T>> {
  const kept = new Set<string>();
  const warnings: string[] = [];
  for (let attempt = 1; ;) {
    const text = await ctx.ports.store.read(path);
    const { next, value, before } = compute(text);
    if (before) {
      await before(); // what `compute` needs read first: then it computes again, from a fresh read
      continue;
    }
    if (next === null || next === text) return { text, value, warnings };
    if (path === ctx.layout.hot && text !== null && !kept.has(text)) {
      const lost = handWrittenHot(text);
      if (lost !== null) {
        const copy = await keepCopy(ctx, text);
        kept.add(text);
        warnings.push(`kept the text of ${path} (${lost}) in ${copy} before replacing it`);
      } else {
        // No text of the learner's to keep, but say that a damaged hot.md was replaced (e.g. a YAML bomb).
        const read = classifyRecord(text);
        if (read.state === "corrupt") warnings.push(`replaced ${path}, which could not be read (${read.reason})`);
        kept.add(text);
      }
    }
    try {
      await ctx.ports.store.replace(path, text, next);
      return { text: next, value, warnings };
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= 2) throw error;
      attempt++;
      await refresh?.();
    }
  }
}

/** Copies hand-written hot.md text to a new file (create-only) and returns its path. */
async function keepCopy(ctx: SessionContext, text: string): Promise<string> {
  const at = stamp(ctx, ctx.ports.clock.now());
  for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
    const path = keptCopyPath(ctx.layout, at, attempt);
    try {
      await ctx.ports.store.create(path, text);
      return path;
    } catch (error) {
      if (!(error instanceof FileExistsError)) throw error;
    }
  }
  throw new ConflictError(ctx.layout.hot, `no free name to keep the text of ${ctx.layout.hot}; nothing was replaced`);
}

/** Creates a new file under a fresh random ID; a collision draws again, never overwrites. */
async function createUnique(
  ctx: SessionContext,
  makeId: () => string,
  render: (id: string) => string,
): Promise<string> {
  for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
    const id = makeId();
    try {
      await ctx.ports.store.create(sessionPath(ctx.layout, `${id}.md`), render(id));
      return id;
    } catch (error) {
      if (!(error instanceof FileExistsError)) throw error;
    }
  }
  throw new ConflictError(ctx.layout.sessions, `could not find a free session ID in ${ctx.layout.sessions}`);
}

/**
 * Creates a confirmed note under a fresh ID and returns the session as written — never read back, since an
 * app's cache may lag behind the write.
 */
export async function writeConfirmed(
  ctx: SessionContext,
  startedMs: number,
  data: Omit<ConfirmedNoteInput, "sessionId">,
): Promise<ConfirmedSession> {
  let text = "";
  const sessionId = await createUnique(
    ctx,
    () => newSessionId(startedMs, ctx.ports.random),
    (id) => (text = renderConfirmedNote({ ...data, sessionId: id })),
  );
  const result = interpretConfirmed(sessionPath(ctx.layout, `${sessionId}.md`), classifyRecord(text), ctx.offsetAt);
  if (!("record" in result)) throw new Error(`rendered session ${sessionId} does not read back: ${result.reason}`);
  return result.record;
}

/**
 * A draft ID that names no draft file and no draft absorbed by a note the scan read. A bounded scan reads the
 * notes written from about now on: a note of the same ID that ended before that never counts for the new draft
 * (recovery/absorbed.ts savedIn), so the reuse is harmless; avoiding every ID the scan saw keeps it rarer still.
 */
export async function pickFreeDraftId(ctx: SessionContext, scan: Scan): Promise<string> {
  const absorbed = ctx.absorbedIn(scan.confirmed);
  for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
    const id = newDraftId(ctx.ports.random);
    if (scan.draftFiles.has(id) || absorbed.has(id)) continue;
    if ((await ctx.ports.store.read(sessionPath(ctx.layout, `${id}.md`))) === null) return id;
  }
  throw new ConflictError(ctx.layout.sessions, `could not find a free draft ID in ${ctx.layout.sessions}`);
}

/** Moves a draft to the trash after the deletion boundary check (layout.ts assertRemovable). */
export async function trashDraft(ctx: SessionContext, draft: Draft): Promise<void> {
  assertRemovable(ctx.layout, draft.path);
  try {
    await ctx.ports.store.trash(draft.path);
  } catch (error) {
    // Already gone: another device or window trashed it meanwhile (its reconcile, once this session's note
    // reached it). What this step is for has happened; anything else is a real failure.
    if ((await ctx.ports.store.read(draft.path)) !== null) throw error;
  }
}

/**
 * What follows a session note's write (its drafts to the trash, the views): a conflict or a lost vault lock says
 * that the session itself is safe (exit 4); any other failure (a full disk) is marked as coming after the save
 * (errors.ts markSaved), so a face can say first that the session is saved.
 */
export async function afterSaving<T>(session: ConfirmedSession, updateViews: () => Promise<T>): Promise<T> {
  try {
    return await updateViews();
  } catch (error) {
    if (error instanceof LockLostError) {
      throw new BusyError(`${session.sessionId} is saved, but then ${error.message}; a rebuild refreshes the views`);
    }
    if (!(error instanceof ConflictError)) {
      const minutes = `${session.durationMinutes} min`;
      throw markSaved(error, session.sessionId, `Saved ${session.sessionId} (${session.topicId}, ${minutes})`);
    }
    throw new ConflictError(
      error.path,
      `${session.sessionId} is saved, but ${error.path} changed while it was being updated; ` +
        "a rebuild refreshes the views",
      session.sessionId,
    );
  }
}
