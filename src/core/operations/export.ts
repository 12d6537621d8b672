/**
 * What an export holds (contract §4a): the confirmed sessions started within the local days asked for, with
 * their Summary read from the note bodies, oldest first, and the files that could not be read. Both faces
 * render these rows (CSV or JSON) and write them where they write; neither reads the notes itself.
 */
import type { ExportRow } from "../insight/export";
import { exportRow, oldestFirst } from "../insight/export";
import { inRange } from "../insight/stats";
import type { Skipped } from "../records/records";
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

/** Takes each row as it is made; an export written a row at a time holds one note body at a time. */
export type ExportRowWriter = (row: ExportRow) => void | Promise<void>;

/**
 * The export's rows, oldest first, handed to `write` one at a time: each note's body is read for its Summary,
 * made into a row and let go before the next, so what the export holds does not grow with the notes' text.
 */
export async function exportEachRow(
  ctx: SessionContext,
  options: ExportOptions,
  write: ExportRowWriter,
): Promise<{ rows: number; skipped: Skipped[] }> {
  const scan = await ctx.scan();
  const chosen = oldestFirst(scan.confirmed.filter((s) => inRange(s, ctx.offsetAt, options.since, options.until)));
  // The summaries are in the bodies: an export is the one insight that reads every note it holds in full.
  for (const s of chosen) await write(exportRow(await withBody(ctx.ports.store, s, ctx.offsetAt)));
  return { rows: chosen.length, skipped: scan.skipped };
}

export async function exportSessions(ctx: SessionContext, options: ExportOptions = {}): Promise<ExportResult> {
  const rows: ExportRow[] = [];
  const { skipped } = await exportEachRow(ctx, options, (row) => {
    rows.push(row);
  });
  return { rows, skipped };
}
