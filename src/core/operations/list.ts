import type { ReadResult } from "../records/frontmatter";
import type { HotState } from "../records/hot-memory";
import { isOpen } from "../records/hot-memory";
import type { ConfirmedSession, Draft, Skipped } from "../records/records";
import type { SessionContext } from "./context";
import type { OpenSession } from "./open-session";
import { openSessionOf } from "./open-session";
import { damagedPointerWarnings, readDraft, readHot } from "./reading";
import { LONG_SILENCE_MS } from "../honest-time";
import { absorbedCopies, savedDraft, savedIn } from "../recovery";
import { describeInstant, formatDurationMs, parseTimestamp } from "../time";
import { scanForReconcile } from "./reconcile";
import type { Scan } from "../scan";

export interface ListResult {
  /** The open session's draft, as hot.md names it (null when none is open). */
  openDraftId: string | null;
  confirmed: ConfirmedSession[];
  drafts: Draft[];
  totalConfirmed: number;
  totalDrafts: number;
  skipped: Skipped[];
  /** Damaged optional fields (paused_at, break_minutes) of usable records, read as absent. */
  warnings: string[];
}

export type RecentList = (ctx: SessionContext, hot: HotState) => Promise<ListResult | null>;

export interface StatusResult {
  open: OpenSession | null;
  /**
   * The confirmed session that already saved hot.md's open session (an end or Save stopped before it tidied
   * hot.md): status answers as reconcile would, open null, without writing (contract §4 Reconcile).
   */
  savedAs: string | null;
  /**
   * How long the open, unpaused session has shown no sign of life; `long`: end without --at refuses;
   * `draftGone`: its draft no longer exists, so only its start is known (an end at now is refused too).
   */
  silence: { seconds: number; text: string; long: boolean; draftGone: boolean } | null;
  hotState: ReadResult["state"];
  /** What is wrong with hot.md's pointer (a damaged open_draft), to tell the user. */
  warnings: string[];
}

/** The newest ten confirmed sessions (or all), the drafts and the unusable files. Never writes. */
export async function list(
  ctx: SessionContext,
  options: { all?: boolean },
  /** How to answer without reading every note (list-recent.ts), if this face passes one; null: it cannot. */
  recentList?: RecentList,
): Promise<ListResult> {
  const hot = await readHot(ctx);
  const recent = options.all || !recentList ? null : await recentList(ctx, hot.state);
  if (recent) return recent;
  const scan = await ctx.scan();
  return asReconciled(ctx, hot.state, scan.confirmed, {
    openDraftId: isOpen(hot.state) ? hot.state.openDraft : null,
    confirmed: scan.confirmed.slice(0, options.all ? undefined : 10),
    drafts: scan.drafts,
    totalConfirmed: scan.confirmed.length,
    totalDrafts: scan.drafts.length,
    skipped: scan.skipped,
    warnings: scan.warnings,
  });
}

/**
 * A listing as reconcile would leave it, without writing (contract §4 Reconcile), so list agrees with status
 * after an end or a Save cut short (issue 35 §4): a draft a confirmed note already saved is finished business,
 * named in a warning, not listed as a draft; nor is hot.md's open session when a note saved it.
 * `confirmed`: the notes read, among them every note that may have saved a listed draft.
 */
export function asReconciled(
  ctx: SessionContext,
  hot: HotState,
  confirmed: readonly ConfirmedSession[],
  listed: ListResult,
): ListResult {
  const absorbed = ctx.absorbedIn(confirmed);
  const copies = absorbedCopies(absorbed);
  const saved = listed.drafts.flatMap((d) => {
    const note = savedDraft(absorbed, copies, d, ctx.offsetAt);
    return note ? [{ draftId: d.draftId, note }] : [];
  });
  const openSaved =
    isOpen(hot) && savedIn(absorbed, hot.openDraft, parseTimestamp(hot.startedAt, ctx.offsetAt), ctx.offsetAt);
  if (saved.length === 0 && !openSaved) return listed;
  const finished = new Set(saved.map((s) => s.draftId));
  const drafts = listed.drafts.filter((d) => !finished.has(d.draftId));
  const warnings = saved.map(
    ({ draftId, note }) =>
      `${draftId} was already saved as ${note.sessionId} (an end or save stopped before it tidied up): ` +
      "not listed as a draft; the next start, end or recover tidies it",
  );
  return {
    ...listed,
    openDraftId: openSaved ? null : listed.openDraftId,
    drafts,
    totalDrafts: listed.totalDrafts - (listed.drafts.length - drafts.length),
    warnings: [...listed.warnings, ...warnings],
  };
}

/** The open session, or null: absence is an answer, not an error. Never writes. */
export async function status(ctx: SessionContext): Promise<StatusResult> {
  const hot = await readHot(ctx);
  const warnings = damagedPointerWarnings(ctx, hot.state);
  const answer = { open: null, savedAs: null, silence: null, hotState: hot.read.state, warnings };
  if (!isOpen(hot.state)) return answer;
  const draft = await readDraft(ctx, hot.state.openDraft);
  const scan = await scanForReconcile(ctx, hot.state);
  const saved = savedOpenSession(ctx, hot.state, draft, scan);
  if (saved) {
    warnings.push(
      `the open session ${hot.state.openDraft} was already saved as ${saved.sessionId} (an end stopped before ` +
        `it tidied ${ctx.layout.hot}); the next start, end or rebuild tidies it`,
    );
    return { ...answer, savedAs: saved.sessionId };
  }
  const open = openSessionOf(ctx, hot.state, draft);
  const draftGone = !scan.draftFiles.has(hot.state.openDraft);
  return { ...answer, open, silence: open && silenceOfOpen(ctx, open, draftGone) };
}

/** The confirmed note that absorbed hot.md's open draft, if one did (reconcile.ts would close the pointer). */
function savedOpenSession(
  ctx: SessionContext,
  hot: HotState & { openDraft: string },
  draft: Draft | null,
  scan: Scan,
): ConfirmedSession | undefined {
  const startedMs = draft?.startedMs ?? parseTimestamp(hot.startedAt, ctx.offsetAt);
  return savedIn(ctx.absorbedIn(scan.confirmed), hot.openDraft, startedMs, ctx.offsetAt);
}

/** Silence of an unpaused open session (a paused one is not silent: it ends at its pause). */
function silenceOfOpen(ctx: SessionContext, open: OpenSession, draftGone: boolean): StatusResult["silence"] {
  if (open.pausedAt !== null) return null;
  const now = ctx.ports.clock.now();
  const silenceMs = Math.max(0, now - open.lastSignMs);
  if (silenceMs <= ctx.graceMs) return null;
  const since = describeInstant(open.lastSignMs, now, ctx.offsetAt);
  const text = `No activity since ${since}, ${formatDurationMs(silenceMs)} ago`;
  const long = silenceMs > LONG_SILENCE_MS;
  return { seconds: Math.floor(silenceMs / 1000), text, long, draftGone };
}
