/**
 * What an export holds (contract §4a): the confirmed sessions started within the local days asked for, with
 * their Summary read from the note bodies, oldest first, and the files that could not be read. Both faces
 * render these rows (CSV or JSON) and write them where they write; neither reads the notes itself.
 */
import type { ExportRow } from "../insight/export";
import { exportRow, oldestFirst } from "../insight/export";
import { inRange } from "../insight/stats";
import { classifyRecord } from "../records/frontmatter";
import type { ConfirmedSession, Skipped } from "../records/records";
import { interpretConfirmed } from "../records/records";
import { scanKeys, withBody } from "../scan";
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
 * The export's rows, oldest first, handed to `write` one at a time. Where a full scan is not already at hand (the
 * CLI), a scan that keeps only each note's key finds the rows and their order, and each note is then read again
 * for its row, made into it and let go (issue 36): what the export holds does not grow with the notes. Where
 * one is (the plugin's warm scan), its records are used, each body read for its Summary.
 */
export async function exportEachRow(
  ctx: SessionContext,
  options: ExportOptions,
  write: ExportRowWriter,
): Promise<{ rows: number; skipped: Skipped[] }> {
  const choose = (s: ConfirmedSession): boolean => inRange(s, ctx.offsetAt, options.since, options.until);
  if (ctx.scanIsWarm()) {
    const scan = await ctx.scan();
    const chosen = oldestFirst(scan.confirmed.filter(choose));
    // The summaries are in the bodies: an export is the one insight that reads every note it holds in full.
    for (const s of chosen) await write(exportRow(await withBody(ctx.ports.store, s, ctx.offsetAt)));
    return { rows: chosen.length, skipped: scan.skipped };
  }
  const { store } = ctx.ports;
  const { keys, skipped } = await scanKeys(store, ctx.layout, ctx.offsetAt, ctx.ports.clock.now(), choose);
  let rows = 0;
  for (const i of keys.chosenOldestFirst()) {
    const key = keys.key(i);
    const read = interpretConfirmed(key.path, classifyRecord(await store.read(key.path)), ctx.offsetAt);
    // A note that changed or went while the export ran is named, never exported half from each reading.
    const same = "record" in read && read.record.sessionId === key.sessionId;
    if (!same || !Object.is(read.record.startedMs, key.startedMs)) {
      skipped.push({ path: key.path, reason: CHANGED_DURING_EXPORT });
      continue;
    }
    await write(exportRow(read.record));
    rows++;
  }
  return { rows, skipped };
}

const CHANGED_DURING_EXPORT = "changed or removed while the export read it: not exported (export again)";

export async function exportSessions(ctx: SessionContext, options: ExportOptions = {}): Promise<ExportResult> {
  const rows: ExportRow[] = [];
  const { skipped } = await exportEachRow(ctx, options, (row) => {
    rows.push(row);
  });
  return { rows, skipped };
}
