import type { HotState } from "../records/hot-memory";
import { isOpen } from "../records/hot-memory";
import type { ConfirmedSession } from "../records/records";
import { compareNewestFirst } from "../records/records";
import { scanRecent } from "./reading";
import type { SessionContext } from "./context";
import { indexEntries } from "../records/index-text";
import { sessionOfLine, trustedIndex } from "./incremental-index";
import type { ListResult } from "./list";
import { asReconciled } from "./list";
import { parseTimestamp } from "../time";

/**
 * list's answer from a trusted index.md (incremental-index.ts), without reading the history: the folder's
 * names, the drafts, the notes that may have absorbed one, and the ten shown. Damaged optional fields are
 * named for what was read (list --all, stats and rebuild read everything). Null when the index cannot be
 * trusted or the store cannot tell which notes changed: list then reads every note. Passed in by the CLI
 * (SessionsOptions.recentList); the plugin lists everything from its metadata cache.
 */
export async function recentList(ctx: SessionContext, hot: HotState): Promise<ListResult | null> {
  const now = ctx.ports.clock.now();
  // hot.md's open session's start too: a note that saved it is read (asReconciled).
  const opened = isOpen(hot) ? parseTimestamp(hot.startedAt, ctx.offsetAt) : null;
  const scan = await scanRecent(ctx, { now, starts: opened === null ? [] : [opened], required: [] });
  const index = scan && (await trustedIndex(ctx, scan, null));
  if (!scan || !index) return null;
  // The ten shown and the one after them, each checked against its line and in order by recorded start: an index
  // in name order is trusted, and a note whose name and start disagree (a hand-edited start) may sort otherwise.
  const newest: ConfirmedSession[] = [];
  for (const { link, line } of indexEntries(index)) {
    const session = await sessionOfLine(ctx, link, line);
    if (!session) return null;
    if (newest.length > 0 && compareNewestFirst(newest[newest.length - 1], session) > 0) return null;
    if (newest.length === 10) break;
    newest.push(session);
  }
  return asReconciled(ctx, hot, scan.confirmed, {
    openDraftId: isOpen(hot) ? hot.openDraft : null,
    confirmed: newest,
    drafts: scan.drafts,
    totalConfirmed: index.count,
    totalDrafts: scan.drafts.length,
    skipped: scan.skipped,
    warnings: [...new Set([...scan.warnings, ...newest.flatMap((s) => s.fieldWarnings ?? [])])],
  });
}
