import type { ReadResult } from "../frontmatter";
import type { HotState } from "../hot-memory";
import { isOpen } from "../hot-memory";
import type { ConfirmedSession, Draft, Skipped } from "../records";
import type { SessionContext } from "./context";
import type { OpenSession } from "./open-session";
import { openSessionOf } from "./open-session";
import { damagedPointerWarnings, readDraft, readHot } from "./reading";

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
