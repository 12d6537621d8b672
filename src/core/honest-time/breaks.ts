/**
 * Breaks: the time inside a session that is not study (pauses and time away), recorded as intervals
 * (contract §2 `breaks`, version 3). Every rule that adds a break, removes one or subtracts them lives here.
 */
import type { FieldValue } from "../records/frontmatter";
import type { OffsetAt } from "../time";
import { durationMinutes, formatTimestamp, parseTimestamp } from "../time";

/** One finished break, epoch ms, `fromMs` ≤ `toMs` (whole seconds, as written). */
export interface BreakInterval {
  fromMs: number;
  toMs: number;
}

/** duration_minutes (contract §2): whole wall-clock minutes minus the breaks, never negative. */
export function studiedMinutes(startedMs: number, endedMs: number, breakMinutes: number): number {
  return Math.max(0, durationMinutes(startedMs, endedMs) - breakMinutes);
}

/** The whole minutes of the breaks: each break's rounded minutes, summed (break_minutes). */
export function totalBreakMinutes(breaks: readonly BreakInterval[]): number {
  return breaks.reduce((sum, b) => sum + durationMinutes(b.fromMs, b.toMs), 0);
}

/** An instant as written: to the second (so a break reads back as it was computed). */
export function toSecond(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}

/** Oldest first, overlapping (or touching) breaks joined, empty ones left out. */
export function normalizeBreaks(breaks: readonly BreakInterval[]): BreakInterval[] {
  const sorted = breaks.filter((b) => b.toMs > b.fromMs).sort((a, b) => a.fromMs - b.fromMs || a.toMs - b.toMs);
  const joined: BreakInterval[] = [];
  for (const b of sorted) {
    const last = joined[joined.length - 1];
    if (last && b.fromMs <= last.toMs) last.toMs = Math.max(last.toMs, b.toMs);
    else joined.push({ ...b });
  }
  return joined;
}

/** The parts of the breaks that lie inside [fromMs, toMs] (contract §4 end at a chosen time). */
export function clipBreaks(breaks: readonly BreakInterval[], fromMs: number, toMs: number): BreakInterval[] {
  return breaks
    .map((b) => ({ fromMs: Math.max(b.fromMs, fromMs), toMs: Math.min(b.toMs, toMs) }))
    .filter((b) => b.toMs > b.fromMs);
}

/** The breaks without the time of `span` (Count it: a time away counted as study after all). */
export function withoutSpan(breaks: readonly BreakInterval[], span: BreakInterval): BreakInterval[] {
  return breaks.flatMap((b) => {
    if (b.toMs <= span.fromMs || b.fromMs >= span.toMs) return [b];
    const parts: BreakInterval[] = [];
    if (b.fromMs < span.fromMs) parts.push({ fromMs: b.fromMs, toMs: span.fromMs });
    if (b.toMs > span.toMs) parts.push({ fromMs: span.toMs, toMs: b.toMs });
    return parts;
  });
}

/** A break as recorded: "<from>/<to>", each in the local offset at that instant. */
export function formatBreak(b: BreakInterval, offsetAt: OffsetAt): string {
  return `${formatTimestamp(b.fromMs, offsetAt(b.fromMs))}/${formatTimestamp(b.toMs, offsetAt(b.toMs))}`;
}

export function formatBreaks(breaks: readonly BreakInterval[], offsetAt: OffsetAt): string[] {
  return breaks.map((b) => formatBreak(b, offsetAt));
}

/** The draft fields that record `breaks`: the list and break_minutes, their total (contract §2). */
export function breakFields(breaks: readonly BreakInterval[], offsetAt: OffsetAt): Record<string, FieldValue> {
  const normal = normalizeBreaks(breaks);
  return { breaks: formatBreaks(normal, offsetAt), break_minutes: totalBreakMinutes(normal) };
}

/** A recorded value as it reads in a warning. */
export function shown(value: unknown): string {
  return JSON.stringify(value) ?? typeof value;
}

/**
 * Reads a value of break_minutes (draft or confirmed note): absent or null is 0; anything but a whole
 * number ≥ 0 (a negative, a fraction, text, even "15" in quotes) is reported and read as 0.
 */
export function readBreakMinutes(value: unknown, path: string): { breakMinutes: number; warning: string | null } {
  if (value === undefined || value === null) return { breakMinutes: 0, warning: null };
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return { breakMinutes: value, warning: null };
  return {
    breakMinutes: 0,
    warning: `${path}: break_minutes ${shown(value)} is not a whole number of minutes ≥ 0; read as 0`,
  };
}

/** One item of `breaks`: "<from>/<to>", two ISO 8601 times; null when it does not parse. */
function parseBreak(item: unknown, offsetAt: OffsetAt): BreakInterval | null {
  if (typeof item !== "string") return null;
  const parts = item.split("/");
  if (parts.length !== 2) return null;
  const fromMs = parseTimestamp(parts[0], offsetAt);
  const toMs = parseTimestamp(parts[1], offsetAt);
  return fromMs === null || toMs === null ? null : { fromMs, toMs };
}

export interface ReadBreaks {
  /** null: `breaks` is absent (a record written before version 3) or not a list. */
  breaks: BreakInterval[] | null;
  /** The items that parse, as written (trimmed), in their order. */
  recorded: string[];
  warnings: string[];
}

/**
 * Reads a `breaks` list, draft or confirmed note. Damaged values are named and handled so that no time is
 * counted twice: an item that does not parse or ends before it starts is left out; overlapping items are
 * read as one break (their time once); a value that is not a list is read as absent.
 */
export function readBreakList(value: unknown, path: string, offsetAt: OffsetAt): ReadBreaks {
  if (value === undefined || value === null) return { breaks: null, recorded: [], warnings: [] };
  if (!Array.isArray(value)) {
    const warning = `${path}: breaks ${shown(value)} is not a list of "<from>/<to>"; read as absent`;
    return { breaks: null, recorded: [], warnings: [warning] };
  }
  const warnings: string[] = [];
  const parsed: BreakInterval[] = [];
  const recorded: string[] = [];
  for (const item of value as unknown[]) {
    const b = parseBreak(item, offsetAt);
    if (b === null)
      warnings.push(`${path}: breaks item ${shown(item)} is not "<from>/<to>" (two ISO 8601 times); left out`);
    else if (b.toMs < b.fromMs) warnings.push(`${path}: breaks item ${shown(item)} ends before it starts; left out`);
    else {
      parsed.push(b);
      recorded.push((item as string).trim());
    }
  }
  const breaks = normalizeBreaks(parsed);
  const overlapping = parsed.filter((b) => b.toMs > b.fromMs).length - breaks.length;
  if (overlapping > 0) warnings.push(`${path}: breaks overlap; the time they share is read as one break`);
  return { breaks, recorded, warnings };
}
