/** One row per confirmed session, oldest first, for CSV and JSON export (contract §4a). Pure. */
import { csvRecord } from "../formats/csv";
import { extractSection } from "../records/session-note";
import type { InsightSession } from "./stats";

export const EXPORT_COLUMNS = [
  "session_id",
  "topic_id",
  "started_at",
  "ended_at",
  "duration_minutes",
  "hours",
  "break_minutes",
  "outcome",
  "summary",
  "path",
] as const;

export interface ExportRow {
  session_id: string;
  topic_id: string;
  started_at: string;
  ended_at: string;
  duration_minutes: number;
  /** duration_minutes / 60, two decimal places. */
  hours: number;
  break_minutes: number;
  outcome: string;
  /** The Summary section's text ("" when there is none). */
  summary: string;
  path: string;
}

/** A session with its note body (withBody); a body still pending reads as no summary. */
export type ExportSession = InsightSession & { body: string };

/** The Summary section as the learner wrote it: headings the note escaped ("\# …") are given back. */
export function summaryOf(body: string): string {
  const section = extractSection(body, "Summary");
  return section === null ? "" : section.replace(/^([ \t]{0,3})\\(#{1,6})(?=[ \t]|$)/gm, "$1$2").trim();
}

function wholeMinutes(value: number | undefined): number {
  return typeof value === "number" && Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0;
}

/** Recorded values, as recorded (an export is a copy of the data, not the statistics' reading of it). */
export function exportRow(session: ExportSession): ExportRow {
  const minutes = wholeMinutes(session.durationMinutes);
  return {
    session_id: session.sessionId,
    topic_id: session.topicId,
    started_at: session.startedAt,
    ended_at: session.endedAt,
    duration_minutes: minutes,
    hours: Math.round((minutes / 60) * 100) / 100,
    break_minutes: wholeMinutes(session.breakMinutes),
    outcome: session.outcome,
    summary: summaryOf(session.body),
    path: session.path,
  };
}

/** Oldest first, ties by session_id (the reverse of the index's order): the export's order. */
export function oldestFirst<T extends { startedMs: number; sessionId: string }>(sessions: readonly T[]): T[] {
  return [...sessions].sort(
    (a, b) => a.startedMs - b.startedMs || (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0),
  );
}

export function exportRows(sessions: readonly ExportSession[]): ExportRow[] {
  return oldestFirst(sessions).map(exportRow);
}

/** The CSV's header record. */
export const EXPORT_CSV_HEADER = csvRecord(EXPORT_COLUMNS);

/** One row as a CSV record (so a long export can be written a row at a time). */
export function exportCsvRecord(row: ExportRow): string {
  return csvRecord(EXPORT_COLUMNS.map((key) => (key === "hours" ? row.hours.toFixed(2) : row[key])));
}

export function renderExportCsv(rows: readonly ExportRow[]): string {
  return EXPORT_CSV_HEADER + rows.map(exportCsvRecord).join("");
}
