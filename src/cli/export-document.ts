/**
 * The export's document (contract §4a, §5) a part at a time: the head, one part per row, the tail. Joined, the
 * parts are byte for byte the whole document (`renderExportCsv`, or `jsonText` of `{ sessions, skipped }`), so
 * an export of every session can be written as it is read, in memory that does not grow with the history.
 */
import type { Skipped } from "../core/records/records";
import { skippedJson } from "../core/formats/json";
import type { ExportRow } from "../core/insight/export";
import { EXPORT_CSV_HEADER, exportCsvRecord } from "../core/insight/export";
import { jsonPart } from "./text";

export interface ExportDocument {
  head: string;
  /** The part of the row at `index` (0 for the first). */
  row(row: ExportRow, index: number): string;
  /** The rest, once `rows` rows were given. */
  tail(rows: number, skipped: readonly Skipped[]): string;
}

export const csvDocument: ExportDocument = {
  head: EXPORT_CSV_HEADER,
  row: (row) => exportCsvRecord(row),
  tail: () => "",
};

/** Each line of a JSON text after the first, indented by `spaces` more (as it sits inside a longer document). */
const nested = (text: string, spaces: number): string => text.replace(/\n/g, `\n${" ".repeat(spaces)}`);

export const jsonDocument: ExportDocument = {
  head: '{\n  "sessions": [',
  row: (row, index) => `${index === 0 ? "\n" : ",\n"}    ${nested(jsonPart(row), 4)}`,
  tail: (rows, skipped) =>
    `${rows === 0 ? "]" : "\n  ]"},\n  "skipped": ${nested(jsonPart(skipped.map(skippedJson)), 2)}\n}\n`,
};
