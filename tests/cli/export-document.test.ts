/** The export written a part at a time (export-document.ts): joined, the parts are the whole document. */
import fc from "fast-check";
import type { ExportRow } from "../../src/core/insight/export";
import { renderExportCsv } from "../../src/core/insight/export";
import type { Skipped } from "../../src/core/records/records";
import { skippedJson } from "../../src/core/formats/json";
import type { ExportDocument } from "../../src/cli/export-document";
import { csvDocument, jsonDocument } from "../../src/cli/export-document";
import { jsonText } from "../../src/cli/text";

/** Text with what a document must carry intact: quotes, commas, line breaks, DEL/C1, formulas, astral characters. */
const text = fc.string({
  unit: fc.constantFrom("a", " ", '"', ",", "\n", "\r\n", "\t", "=", "-", "@", "\u007f", "\u009b", "é", "😀", "\\"),
  maxLength: 12,
});

const row: fc.Arbitrary<ExportRow> = fc.record({
  session_id: text,
  topic_id: text,
  started_at: text,
  ended_at: text,
  duration_minutes: fc.nat(100000),
  hours: fc.nat(10000).map((n) => n / 100),
  break_minutes: fc.nat(1000),
  outcome: text,
  summary: text,
  path: text,
});

const skipped: fc.Arbitrary<Skipped[]> = fc.array(fc.record({ path: text, reason: text }), { maxLength: 3 });

function joined(document: ExportDocument, rows: readonly ExportRow[], left: readonly Skipped[]): string {
  return document.head + rows.map((r, i) => document.row(r, i)).join("") + document.tail(rows.length, left);
}

describe("the export document in parts", () => {
  it("gives the CSV document byte for byte", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 6 }), skipped, (rows, left) => {
        expect(joined(csvDocument, rows, left)).toBe(renderExportCsv(rows));
      }),
    );
  });

  it("gives the JSON document byte for byte, with no rows and with some", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 6 }), skipped, (rows, left) => {
        const whole = jsonText({ sessions: rows, skipped: left.map(skippedJson) });
        expect(joined(jsonDocument, rows, left)).toBe(whole);
      }),
    );
  });

  it("is a JSON document of its own when empty", () => {
    expect(JSON.parse(joined(jsonDocument, [], []))).toEqual({ sessions: [], skipped: [] });
  });
});
