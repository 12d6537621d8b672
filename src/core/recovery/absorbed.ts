import type { ConfirmedSession, Draft } from "../records/records";
import { compareNewestFirst } from "../records/records";
import { lastSignOfLife } from "../honest-time";
import { parseTimestamp } from "../time";
import type { OffsetAt } from "../time";

/**
 * How far behind a draft's start the clock of the device that wrote the note absorbing it may have been: how
 * far back a bounded scan looks (scan.ts).
 */
export const CLOCK_BEHIND_MS = 24 * 3_600_000;

/**
 * How long before a draft began the note that saved it may say it ended (a clock behind, an end at a chosen
 * time): generous, since a draft ID comes round again only over months or years (savedIn).
 */
export const SAVED_WITHIN_MS = 7 * 24 * 3_600_000;

/** When a confirmed session ended, in ms; when that cannot be told, as late as can be (it may have saved any). */
function endedMs(session: ConfirmedSession, offsetAt: OffsetAt): number {
  return parseTimestamp(session.endedAt, offsetAt) ?? Number.POSITIVE_INFINITY;
}

/**
 * Which confirmed session absorbed each draft ID (its `absorbed_drafts`): of several, the one that ended
 * last, the only one that can have saved a draft begun after the others (savedIn).
 */
export function absorbedBy(confirmed: readonly ConfirmedSession[], offsetAt: OffsetAt): Map<string, ConfirmedSession> {
  const map = new Absorbed();
  for (const session of confirmed) {
    for (const id of session.absorbedDrafts) {
      const other = map.get(id);
      if (!other || endedMs(session, offsetAt) > endedMs(other, offsetAt)) map.set(id, session);
    }
  }
  return map;
}

/** absorbedBy's map, which keeps its absorbedCopies once worked out (it is never changed after it is made). */
class Absorbed extends Map<string, ConfirmedSession> {
  copies: Map<string, ConfirmedSession[]> | null = null;
}

/**
 * absorbedBy of a list that is `previous`'s list with `added` inserted, from `previous` (a copy, not a walk of
 * the whole history); null when a tie in ended time, which the list's order settles, needs the whole list.
 */
export function absorbedAfter(
  previous: ReadonlyMap<string, ConfirmedSession>,
  added: readonly ConfirmedSession[],
  offsetAt: OffsetAt,
): Map<string, ConfirmedSession> | null {
  const map = new Absorbed(previous);
  let copyChanged = false;
  for (const session of added) {
    for (const id of session.absorbedDrafts) {
      const other = map.get(id);
      const ended = endedMs(session, offsetAt);
      if (other && ended === endedMs(other, offsetAt)) return null;
      if (other && ended < endedMs(other, offsetAt)) continue;
      map.set(id, session);
      copyChanged ||= copiedId(id) !== null;
    }
  }
  // No sync-tool copy's ID changed hands: the copies are the previous map's (absorbedCopies).
  if (!copyChanged && previous instanceof Absorbed) map.copies = previous.copies;
  return map;
}

/**
 * The note that saved the draft `draftId` begun at `startedMs`: a note naming its ID that ended after shortly
 * before it began (SAVED_WITHIN_MS). A note that ended earlier saved another draft of the same ID: draft IDs
 * are 8 random hex digits, so over a long history one comes round again, and a new draft is never taken for
 * finished business by a note from before it. `startedMs` null (unknown, or the draft is gone): the ID decides.
 */
export function savedIn(
  absorbed: ReadonlyMap<string, ConfirmedSession>,
  draftId: string,
  startedMs: number | null,
  offsetAt: OffsetAt,
): ConfirmedSession | undefined {
  const note = absorbed.get(draftId);
  return note && (startedMs === null || endedMs(note, offsetAt) >= startedMs - SAVED_WITHIN_MS) ? note : undefined;
}

/**
 * Drafts named by more than one confirmed note: the same sitting saved twice (two devices ended or saved it
 * before sync carried the first note across, or a copy of a note). A confirmed note is never deleted, so
 * they are only reported by name, for the learner to keep one. Notes naming one ID months apart saved two
 * different drafts that happened to get the same ID: only notes that ended within SAVED_WITHIN_MS of the latest
 * one count.
 */
export function duplicateSaves(confirmed: readonly ConfirmedSession[], offsetAt: OffsetAt): string[] {
  const savers = new Map<string, ConfirmedSession[]>();
  for (const session of confirmed) {
    for (const id of new Set(session.absorbedDrafts)) savers.set(id, [...(savers.get(id) ?? []), session]);
  }
  const warnings: string[] = [];
  for (const [id, sessions] of savers) {
    // The notes that may have saved the draft the latest one saved (savedIn): a note of that ID that ended
    // long before saved another draft.
    const latest = Math.max(...sessions.map((s) => endedMs(s, offsetAt)));
    const paths = sessions.filter((s) => endedMs(s, offsetAt) >= latest - SAVED_WITHIN_MS).map((s) => s.path);
    if (paths.length < 2) continue;
    warnings.push(
      `${paths.sort().join(" and ")} both record the session ${id} (saved twice, e.g. on two devices at once); ` +
        "keep one and delete the others by hand",
    );
  }
  return warnings.sort();
}

/** The draft ID a sync tool's copy name starts with (`DRAFT-S-… 2`, `DRAFT-S-… (conflict …)`), or null. */
function copiedId(draftId: string): string | null {
  const space = draftId.indexOf(" ");
  return space > 0 ? draftId.slice(0, space) : null;
}

/**
 * The notes that absorbed a sync tool's copy of a draft, by the ID the copy's name starts with: a note that
 * saved `DRAFT-S-x 2` saved the sitting of `DRAFT-S-x` too (savedDraft).
 */
export function absorbedCopies(
  absorbed: ReadonlyMap<string, ConfirmedSession>,
): ReadonlyMap<string, readonly ConfirmedSession[]> {
  if (absorbed instanceof Absorbed && absorbed.copies) return absorbed.copies;
  const copies = new Map<string, ConfirmedSession[]>();
  for (const [id, session] of absorbed) {
    const original = copiedId(id);
    if (original !== null) copies.set(original, [...(copies.get(original) ?? []), session]);
  }
  // Newest first, whatever order the map was built in (absorbedAfter appends what absorbedBy would list first).
  for (const list of copies.values()) list.sort(compareNewestFirst);
  if (absorbed instanceof Absorbed) absorbed.copies = copies;
  return copies;
}

/**
 * The note that saved `draft` (contract §4 reconcile): the one naming its file's ID (savedIn), or one that saved
 * the same session under another name. A sync tool's conflict copy keeps the original's session_id under
 * another file name (`DRAFT-S-x 2.md`); it is the same session as a note that names that session_id — or
 * another copy of it — when it is of the same topic and its whole span lies inside that note's: its recorded
 * start (a copy keeps the original's; the note starts at its earliest draft) and its last sign of life (a copy
 * that went on after the note ended holds time the note lacks). A copy whose start cannot be read is not
 * taken for it: it is offered, and saving it at worst warns "saved twice".
 */
export function savedDraft(
  absorbed: ReadonlyMap<string, ConfirmedSession>,
  copies: ReadonlyMap<string, readonly ConfirmedSession[]>,
  draft: Pick<Draft, "draftId" | "recordId" | "topicId" | "startedMs" | "lastCheckpointMs">,
  offsetAt: OffsetAt,
): ConfirmedSession | undefined {
  const own = savedIn(absorbed, draft.draftId, draft.startedMs, offsetAt);
  const started = draft.startedMs;
  if (own || started === null) return own;
  const lastSign = lastSignOfLife(draft) ?? started;
  const sameSitting = (note: ConfirmedSession | undefined): boolean =>
    note !== undefined &&
    note.topicId === draft.topicId &&
    note.startedMs <= started &&
    lastSign <= endedMs(note, offsetAt);
  const ids = new Set([draft.recordId, copiedId(draft.draftId) ?? draft.draftId, copiedId(draft.recordId)]);
  const candidates = [...ids].flatMap((id) => (id === null ? [] : [absorbed.get(id), ...(copies.get(id) ?? [])]));
  return candidates.find(sameSitting);
}
