import type { ReadResult } from "../frontmatter";
import { isOpen } from "../hot-memory";
import type { ConfirmedSession, Draft, Skipped } from "../records";
import type { SessionContext } from "./context";
import type { OpenSession } from "./open-session";
import { openSessionOf } from "./open-session";
import { indexWith, sessionsOfIndex } from "./incremental-index";
import type { HotRead } from "./reading";
import { damagedPointerWarnings, readDraft, readHot } from "./reading";
import { scanRecentSessions } from "../scan";

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

export interface StatusResult {
  open: OpenSession | null;
  hotState: ReadResult["state"];
  /** What is wrong with hot.md's pointer (a damaged open_draft), to tell the user. */
  warnings: string[];
}

/** The newest ten confirmed sessions (or all), the drafts and the unusable files. Never writes. */
export async function list(ctx: SessionContext, options: { all?: boolean }): Promise<ListResult> {
  const hot = await readHot(ctx);
  const recent = options.all ? null : await recentList(ctx, hot);
  if (recent) return recent;
  const scan = await ctx.scan();
  return {
    openDraftId: isOpen(hot.state) ? hot.state.openDraft : null,
    confirmed: scan.confirmed.slice(0, options.all ? undefined : 10),
    drafts: scan.drafts,
    totalConfirmed: scan.confirmed.length,
    totalDrafts: scan.drafts.length,
    skipped: scan.skipped,
    warnings: scan.warnings,
  };
}

/** The open session, or null: absence is an answer, not an error. Never writes. */
export async function status(ctx: SessionContext): Promise<StatusResult> {
  const hot = await readHot(ctx);
  const open = isOpen(hot.state) ? openSessionOf(ctx, hot.state, await readDraft(ctx, hot.state.openDraft)) : null;
  return { open, hotState: hot.read.state, warnings: damagedPointerWarnings(ctx, hot.state) };
}

/**
 * The newest ten from a trusted index.md (incremental-index.ts), without reading the history: the folder's
 * names, the drafts, the notes that may have absorbed one, and the ten shown. Damaged optional fields are named
 * for what was read (list --all, stats and rebuild read everything). Null when the index cannot be trusted or
 * the store cannot tell which notes changed: then every note is read.
 */
async function recentList(ctx: SessionContext, hot: HotRead): Promise<ListResult | null> {
  const now = ctx.ports.clock.now();
  const scan = await scanRecentSessions(ctx.ports.store, ctx.layout, ctx.offsetAt, { now, starts: [] });
  const index = scan && (await indexWith(ctx, null, scan));
  const newest = index && (await sessionsOfIndex(ctx, index, 10));
  if (!scan || !index || !newest) return null;
  return {
    openDraftId: isOpen(hot.state) ? hot.state.openDraft : null,
    confirmed: newest,
    drafts: scan.drafts,
    totalConfirmed: index.links.length,
    totalDrafts: scan.drafts.length,
    skipped: scan.skipped,
    warnings: [...new Set([...scan.warnings, ...newest.flatMap((s) => s.fieldWarnings ?? [])])],
  };
}
