/**
 * What an export holds (contract §4a): the confirmed sessions started within the local days asked for, with
 * their Summary read from the note bodies, oldest first, and the files that could not be read. Both faces
 * render these rows (CSV or JSON) and write them where they write; neither reads the notes itself.
 */
import type { ExportRow } from "../insight/export";
import { exportRows } from "../insight/export";
import { inRange } from "../insight/stats";
import type { ConfirmedSession, Skipped } from "../records";
import { withBody } from "../scan";
import type { SessionContext } from "./context";

export interface ExportOptions {
  /** First local day (YYYY-MM-DD), inclusive; null or absent: from the first session. */
  since?: string | null;
  /** Last local day (YYYY-MM-DD), inclusive; null or absent: to the last session. */
  until?: string | null;
}

export interface ExportResult {
  rows: ExportRow[];
  skipped: Skipped[];
}

export async function exportSessions(ctx: SessionContext, options: ExportOptions = {}): Promise<ExportResult> {
  const scan = await ctx.scan();
  // The summaries are in the bodies: an export is the one insight that reads every note it holds in full.
  const chosen: ConfirmedSession[] = [];
  for (const s of scan.confirmed) {
    if (inRange(s, ctx.offsetAt, options.since, options.until)) {
      chosen.push(await withBody(ctx.ports.store, s, ctx.offsetAt));
    }
  }
  return { rows: exportRows(chosen), skipped: scan.skipped };
}
