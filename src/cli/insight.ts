/** `palee session stats` and `palee session export` (SPEC §4a, §5): the CLI face of src/core/insight. */
import * as fs from "node:fs";
import * as path from "node:path";
import { FileExistsError, UsageError, errorMessage } from "../core/errors";
import { exportRows, renderExportCsv } from "../core/insight/export";
import type { ExportRow } from "../core/insight/export";
import type { DayTotal, SessionStats, Totals } from "../core/insight/stats";
import { computeStats, daySeries, inRange } from "../core/insight/stats";
import type { OffsetAt } from "../core/time";
import { dayOf, formatDuration } from "../core/time";
import type { Clock } from "../core/ports";
import type { ConfirmedSession, Skipped } from "../core/records";
import { skippedWarning } from "../core/records";
import { withBody } from "../core/scan";
import { NodeStore } from "../node/node-store";
import type { PaleeSessions } from "../core/sessions";
import type { SessionStore } from "../core/ports";
import { skippedJson } from "../core/formats/json";

export interface InsightOptions {
  since?: string;
  until?: string;
  json: boolean;
  format?: string;
  out?: string;
}

export interface InsightIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  clock: Clock;
  store: SessionStore;
}

type Range = { since: string | null; until: string | null };

function rangeOf(options: InsightOptions): Range {
  const check = (flag: string, value: string | undefined): string | null => {
    if (value === undefined) return null;
    if (dayOf(value) === null) throw new UsageError(`--${flag} must be a date as YYYY-MM-DD (got "${value}")`);
    return value.trim();
  };
  const since = check("since", options.since);
  const until = check("until", options.until);
  if (since && until && since > until) throw new UsageError(`--since ${since} is after --until ${until}`);
  return { since, until };
}

const warnSkipped = (io: InsightIo, skipped: readonly Skipped[]): void => {
  for (const s of skipped) io.stderr(`warning: ${skippedWarning(s)}\n`);
};

// ---- stats ----------------------------------------------------------------------------------------------

const totalsJson = (t: { minutes: number; sessions: number }) => ({ minutes: t.minutes, sessions: t.sessions });

export function statsJson(stats: SessionStats, range: Range, skipped: readonly Skipped[]) {
  return {
    since: range.since,
    until: range.until,
    total_minutes: stats.total.minutes,
    total_sessions: stats.total.sessions,
    today: { date: stats.today.date, ...totalsJson(stats.today) },
    this_week: { week: stats.thisWeek.week, start: stats.thisWeek.start, ...totalsJson(stats.thisWeek) },
    last_week: { week: stats.lastWeek.week, start: stats.lastWeek.start, ...totalsJson(stats.lastWeek) },
    streak: { current: stats.streak.current, longest: stats.streak.longest },
    by_day: stats.byDay.map((d) => ({ date: d.date, ...totalsJson(d) })),
    by_week: stats.byWeek.map((w) => ({ week: w.week, start: w.start, ...totalsJson(w) })),
    by_topic: stats.byTopic.map((t) => ({ topic_id: t.topicId, ...totalsJson(t), first: t.first, last: t.last })),
    flagged: stats.flagged.map((f) => ({
      session_id: f.sessionId,
      path: f.path,
      problem: f.problem,
      counted: f.counted,
      counted_minutes: f.countedMinutes,
    })),
    skipped: skipped.map(skippedJson),
  };
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A JSON document as printed: indented by two, one line break at the end. */
const jsonText = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** One line per row, columns padded to their widest cell; text cells left, numbers right. */
function table(
  header: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  numeric: readonly boolean[],
): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/** Control characters in recorded text would move the terminal's cursor: shown as "?". */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
const printable = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");

/** "1 h 05 min (3 sessions, 2026-W49)": a period's totals and its name. */
function periodText(totals: Totals, name: string): string {
  return `${formatDuration(totals.minutes)} (${plural(totals.sessions, "session")}, ${name})`;
}

function statsText(stats: SessionStats, range: Range): string[] {
  const over =
    range.since || range.until ? `${range.since ?? "the first session"} to ${range.until ?? "today"}` : "all sessions";
  const lines = [
    `Study statistics (${over})`,
    `  Total       ${formatDuration(stats.total.minutes)} in ${plural(stats.total.sessions, "session")}`,
    `  Today       ${periodText(stats.today, stats.today.date)}`,
    `  This week   ${periodText(stats.thisWeek, stats.thisWeek.week)}`,
    `  Last week   ${periodText(stats.lastWeek, stats.lastWeek.week)}`,
    `  Streak      ${plural(stats.streak.current, "day")} now, longest ${plural(stats.streak.longest, "day")}`,
  ];
  if (stats.byTopic.length > 0) {
    lines.push("", "By topic");
    const rows = stats.byTopic.map((t) => [
      printable(t.topicId),
      String(t.minutes),
      String(t.sessions),
      t.first,
      t.last,
    ]);
    const header = ["Topic", "Minutes", "Sessions", "First", "Last"];
    lines.push(...table(header, rows, [false, true, true, false, false]).map((l) => `  ${l}`));
  }
  const days: DayTotal[] = daySeries(stats, range.until ?? stats.today.date, 14);
  const most = Math.max(1, ...days.map((d) => d.minutes));
  lines.push("", `Last 14 days (to ${days[days.length - 1]?.date ?? stats.today.date})`);
  lines.push(
    ...table(
      ["Day", "Minutes", ""],
      days.map((d) => [d.date, String(d.minutes), "#".repeat(Math.round((d.minutes / most) * 30))]),
      [false, true, false],
    ).map((l) => `  ${l}`),
  );
  return lines;
}

export async function runStats(core: PaleeSessions, options: InsightOptions, io: InsightIo): Promise<0> {
  const range = rangeOf(options);
  const scan = await core.scan();
  const offsetAt: OffsetAt = (instant) => io.clock.offsetMinutes(instant);
  const stats = computeStats(scan.confirmed, { now: io.clock.now(), offsetAt, ...range });
  warnSkipped(io, scan.skipped);
  for (const f of stats.flagged) io.stderr(`warning: ${f.path}: ${printable(f.problem)}\n`);
  if (options.json) io.stdout(jsonText(statsJson(stats, range, scan.skipped)));
  else io.stdout(`${statsText(stats, range).join("\n")}\n`);
  return 0;
}

// ---- export ---------------------------------------------------------------------------------------------

const exists = (target: string): string =>
  `${target} already exists: choose another --out name (an export never overwrites a file)`;

/** Writes `text` to a new file: never replaces one (a careful user does not expect an export to). */
async function writeNewFile(target: string, text: string): Promise<void> {
  if (fs.existsSync(target)) throw new UsageError(exists(target));
  try {
    // The store's create: a flushed temp file published whole, exclusive even against a racing writer.
    await new NodeStore(path.dirname(target)).create(path.basename(target), text);
  } catch (error) {
    if (error instanceof FileExistsError) throw new UsageError(exists(target));
    throw error;
  }
}

export async function exportRowsOf(
  core: PaleeSessions,
  store: SessionStore,
  clock: Clock,
  range: Range,
): Promise<{ rows: ExportRow[]; skipped: Skipped[] }> {
  const scan = await core.scan();
  const offsetAt: OffsetAt = (instant) => clock.offsetMinutes(instant);
  const chosen: ConfirmedSession[] = [];
  for (const s of scan.confirmed) {
    if (inRange(s, offsetAt, range.since, range.until)) chosen.push(await withBody(store, s, offsetAt));
  }
  return { rows: exportRows(chosen), skipped: scan.skipped };
}

export async function runExport(core: PaleeSessions, options: InsightOptions, io: InsightIo): Promise<0> {
  const range = rangeOf(options);
  const format = options.format ?? (options.json && options.out === undefined ? "json" : "csv");
  if (format !== "csv" && format !== "json") throw new UsageError(`--format must be csv or json (got "${format}")`);
  if (options.json && options.out === undefined && format === "csv") {
    throw new UsageError("--json prints the export as JSON: use --format json, or --out <file> for a CSV file");
  }
  const target = options.out === undefined ? null : path.resolve(io.cwd, options.out);
  if (target !== null && fs.existsSync(target)) throw new UsageError(exists(target)); // before any work
  const { rows, skipped } = await exportRowsOf(core, io.store, io.clock, range);
  warnSkipped(io, skipped);
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
  if (options.json) io.stdout(jsonText({ status: "exported", format, path: target, sessions: rows.length }));
  else io.stdout(`Exported ${plural(rows.length, "session")} to ${target} (${format}).\n`);
  return 0;
}
