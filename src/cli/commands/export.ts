/** `palee session export` (contract §4a, §5): the core's export rows as CSV or JSON, on stdout or in a new file. */
import { existsSync, realpathSync, statSync } from "node:fs";
import * as path from "node:path";
import { FileExistsError, UsageError, errorMessage } from "../../core/errors";
import type { Skipped } from "../../core/records/records";
import { skippedWarning } from "../../core/records/records";
import type { ExportOptions } from "../../core/sessions";
import type { TextFill } from "../../node/node-store";
import { NodeStore } from "../../node/node-store";
import type { ExportDocument } from "../export-document";
import { csvDocument, jsonDocument } from "../export-document";
import { dayRangeOf } from "../day-range";
import type { Values } from "../options";
import type { Outcome } from "../output";
import { jsonText, plural } from "../text";
import { keepYoungGenerationSmall } from "../young-generation";
import type { Command, CommandContext } from "./command";

const exists = (target: string): string =>
  `${target} already exists: choose another --out name (an export never overwrites a file)`;

/** Writes a new file with what `fill` gives: never replaces one (a careful user does not expect an export to). */
async function writeNewFile(target: string, fill: TextFill): Promise<void> {
  if (existsSync(target)) throw new UsageError(exists(target));
  try {
    // The store's create: a flushed temp file published whole, exclusive even against a racing writer.
    const folder = new NodeStore(path.dirname(target));
    // Temp files of killed exports of this name, older than an hour, go first (contract §2; node-store.ts).
    await folder.removeStaleTempFilesOf(path.basename(target), Date.now()).catch(() => []);
    await folder.createWith(path.basename(target), fill);
  } catch (error) {
    if (error instanceof FileExistsError) throw new UsageError(exists(target));
    throw error;
  }
}

/** About this many characters are gathered before a write, so 30 000 rows are not 30 000 small writes. */
const PART_LENGTH = 8 * 1024;

/**
 * The document, written through `write` as the rows are read (one note body at a time): the export holds
 * neither every row nor the whole text (contract §4a; docs/performance.md).
 */
async function writeDocument(
  ctx: CommandContext,
  range: ExportOptions,
  document: ExportDocument,
  write: (text: string) => void | Promise<void>,
): Promise<{ rows: number; skipped: Skipped[] }> {
  let part = document.head;
  let index = 0;
  const result = await ctx.core.exportEachRow(range, async (row) => {
    part += document.row(row, index++);
    if (part.length < PART_LENGTH) return;
    const full = part;
    part = "";
    await write(full);
  });
  await write(part + document.tail(result.rows, result.skipped));
  return result;
}

/** `target` relative to the vault root with "/" when it lies inside the vault (also through a symlink), else null. */
function vaultRelative(root: string, target: string): string | null {
  const within = (base: string, file: string): string | null => {
    const relative = path.relative(base, file);
    if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return null;
    return relative.split(path.sep).join("/");
  };
  const real = (p: string): string => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  return within(root, target) ?? within(real(root), path.join(real(path.dirname(target)), path.basename(target)));
}

/**
 * The --out file, refused before any work: blank, an existing file or folder, or a file the tool owns inside
 * the vault (hot.md, index.md, anything in the sessions folder: an export there would be scanned as a session).
 */
function outTarget(ctx: CommandContext, out: string): { target: string; relative: string | null } {
  if (out.trim() === "") {
    throw new UsageError("--out is empty: give the name of a new file (or leave --out out to print on stdout)");
  }
  const target = path.resolve(ctx.io.cwd, out);
  if (existsSync(target) && statSync(target).isDirectory()) {
    throw new UsageError(`${target} is a folder: give the name of a new file (e.g. ${path.join(out, "sessions.csv")})`);
  }
  if (existsSync(target)) throw new UsageError(exists(target));
  const relative = vaultRelative(ctx.store.root, target);
  const { layout } = ctx.core;
  const owned = [layout.hot, layout.index].map((p) => p.toLowerCase());
  const lower = relative?.toLowerCase() ?? null;
  if (lower !== null && (owned.includes(lower) || lower.startsWith(`${layout.sessions.toLowerCase()}/`))) {
    throw new UsageError(
      `--out ${relative} is inside the tool's own files (${layout.sessions}/, ${layout.hot}, ${layout.index}): ` +
        `choose a file elsewhere, e.g. ${layout.folder}/exports/sessions.csv`,
    );
  }
  return { target, relative };
}

async function runExport(ctx: CommandContext, values: Values): Promise<Outcome> {
  keepYoungGenerationSmall(); // a full scan (young-generation.ts)
  const { io, out } = ctx;
  const range = dayRangeOf(values);
  const format = values.format ?? (out.json && values.out === undefined ? "json" : "csv");
  if (format !== "csv" && format !== "json") throw new UsageError(`--format must be csv or json (got "${format}")`);
  if (out.json && values.out === undefined && format === "csv") {
    throw new UsageError("--json prints the export as JSON: use --format json, or --out <file> for a CSV file");
  }
  const chosen = values.out === undefined ? null : outTarget(ctx, values.out); // before any work
  const target = chosen?.target ?? null;
  const document = format === "csv" ? csvDocument : jsonDocument;
  if (target === null) {
    const { skipped } = await writeDocument(ctx, range, document, async (text) => {
      io.stdout(text);
      await io.drained?.();
    });
    for (const s of skipped) out.warn(skippedWarning(s));
    return 0;
  }
  let written = { rows: 0, skipped: [] as Skipped[] };
  try {
    await writeNewFile(target, async (write) => {
      written = await writeDocument(ctx, range, document, write);
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot write ${target}: ${errorMessage(error)}`);
  }
  const { rows, skipped } = written;
  for (const s of skipped) out.warn(skippedWarning(s));
  // contract §5: the path relative to the vault when the file is inside it; `sessions` is the older name of `rows`.
  const shown = chosen?.relative ?? target;
  if (out.json) io.stdout(jsonText({ status: "exported", format, path: shown, rows, sessions: rows }));
  else io.stdout(`Exported ${plural(rows, "session")} to ${target} (${format}).\n`);
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
