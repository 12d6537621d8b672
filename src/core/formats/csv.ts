/**
 * CSV as RFC 4180 describes it: a header row, `\r\n` after every record, a field quoted when it holds a
 * comma, a quote or a line break (quotes doubled). A field a spreadsheet would run as a formula (starting
 * with `=`, `+`, `-`, `@`, or a tab or carriage return that hides one) is prefixed with `'` (contract §4a).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export type CsvValue = string | number | null;

export function csvField(value: CsvValue): string {
  let text = value === null ? "" : typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value;
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, ended by `\r\n`. */
export function csvRecord(fields: readonly CsvValue[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}

/** The whole document: `header`, then one record per row. */
export function renderCsv(header: readonly string[], rows: ReadonlyArray<readonly CsvValue[]>): string {
  return csvRecord(header) + rows.map(csvRecord).join("");
}
