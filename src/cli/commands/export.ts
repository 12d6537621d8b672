/** `palee session export` (contract §4a, §5): the core's export rows as CSV or JSON, on stdout or in a new file. */
import * as fs from "node:fs";
import * as path from "node:path";
import { FileExistsError, UsageError, errorMessage } from "../../core/errors";
import { skippedJson } from "../../core/formats/json";
import { renderExportCsv } from "../../core/insight/export";
import { skippedWarning } from "../../core/records";
import { NodeStore } from "../../node/node-store";
import { dayRangeOf } from "../day-range";
import type { Values } from "../options";
import type { Outcome } from "../output";
import { jsonText, plural } from "../text";
import type { Command, CommandContext } from "./command";

const exists = (target: string): string =>
  `${target} already exists: choose another --out name (an export never overwrites a file)`;

/** Writes `text` to a new file: never replaces one (a careful user does not expect an export to). */
async function writeNewFile(target: string, text: string): Promise<void> {
  if (fs.existsSync(target)) throw new UsageError(exists(target));
  try {
    // The store's create: a flushed temp file published whole, exclusive even against a racing writer.
    const folder = new NodeStore(path.dirname(target));
    // Temp files of killed exports of this name, older than an hour, go first (contract §2; node-store.ts).
    await folder.removeStaleTempFilesOf(path.basename(target), Date.now()).catch(() => []);
    await folder.create(path.basename(target), text);
  } catch (error) {
    if (error instanceof FileExistsError) throw new UsageError(exists(target));
    throw error;
  }
}

async function runExport(ctx: CommandContext, values: Values): Promise<Outcome> {
  const { io, out } = ctx;
  const range = dayRangeOf(values);
  const format = values.format ?? (out.json && values.out === undefined ? "json" : "csv");
  if (format !== "csv" && format !== "json") throw new UsageError(`--format must be csv or json (got "${format}")`);
  if (out.json && values.out === undefined && format === "csv") {
    throw new UsageError("--json prints the export as JSON: use --format json, or --out <file> for a CSV file");
  }
  const target = values.out === undefined ? null : path.resolve(io.cwd, values.out);
  if (target !== null && fs.existsSync(target)) throw new UsageError(exists(target)); // before any work
  const { rows, skipped } = await ctx.core.exportRows(range);
  for (const s of skipped) out.warn(skippedWarning(s));
  const text =
    format === "csv" ? renderExportCsv(rows) : jsonText({ sessions: rows, skipped: skipped.map(skippedJson) });
  if (target === null) {
    io.stdout(text);
    return 0;
  }
  try {
    await writeNewFile(target, text);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot write ${target}: ${errorMessage(error)}`);
  }
  if (out.json) io.stdout(jsonText({ status: "exported", format, path: target, sessions: rows.length }));
  else io.stdout(`Exported ${plural(rows.length, "session")} to ${target} (${format}).\n`);
  return 0;
}

export const exportCommand: Command = {
  name: "export",
  summary: "Exports the confirmed sessions, oldest first, as CSV or JSON (to stdout, or to a new file).",
  options: {
    since: "first local day, YYYY-MM-DD (inclusive)",
    until: "last local day, YYYY-MM-DD (inclusive)",
    format: "csv (default) or json",
    out: "a new file to write (never overwritten)",
  },
  example: "palee session export --since 2026-11-01 --out sessions.csv",
  run: runExport,
};
