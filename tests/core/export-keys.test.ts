/**
 * Issue 36: the export found by a scan that keeps a key per note (scan/key-scan.ts) gives exactly the rows and
 * the skipped files of the export found by a full scan of records (the oracle below), whatever the folder holds:
 * duplicate session_ids, notes named after another ID or out of their start's order, unusable notes, drafts,
 * strays, a day range.
 */
import fc from "fast-check";
import { oldestFirst, exportRow } from "../../src/core/insight/export";
import { inRange } from "../../src/core/insight/stats";
import { layoutFor } from "../../src/core/records/layout";
import { oneFilePerId } from "../../src/core/scan/assemble";
import { ScanCache, scanSessions, withBody } from "../../src/core/scan";
import type { ExportOptions } from "../../src/core/operations/export";
import { confirmedText, draftText } from "../support/builders";
import { harness } from "../support/fakes";
import { MemoryStore } from "../support/memory-store";

const LAYOUT = layoutFor("palee");
const NOW = Date.parse("2026-08-20T12:00:00Z");
const IDS = ["S-20260810T090000-aa11", "S-20260811T090000-bb22", "S-20260812T090000-cc33", "S-20260812T090000-dd44"];
const STARTS = ["2026-08-10T09:00:00+02:00", "2026-08-11T23:30:00-05:00", "2026-08-12T09:00:00Z", "oops"];

/** The export as it was made before issue 36 (every record held), the oracle. */
async function exportOfRecords(store: MemoryStore, options: ExportOptions) {
  const offsetAt = (): number => 0;
  const scan = await scanSessions(store, LAYOUT, offsetAt, new ScanCache(), NOW);
  const chosen = oldestFirst(scan.confirmed.filter((s) => inRange(s, offsetAt, options.since, options.until)));
  const rows = [];
  for (const s of chosen) rows.push(exportRow(await withBody(store, s, offsetAt)));
  return { rows, skipped: scan.skipped };
}

async function exportOfKeys(store: MemoryStore, options: ExportOptions) {
  const { core } = harness({ at: "2026-08-20T12:00:00Z", store });
  return core.exportRows(options);
}

const note: fc.Arbitrary<Note> = fc.record({
  name: fc.oneof(
    fc.constantFrom(...IDS),
    fc.constantFrom(...IDS).map((id) => `${id.slice(0, -4)}ee55`),
  ),
  id: fc.constantFrom(...IDS),
  startedAt: fc.constantFrom(...STARTS),
  summary: fc.constantFrom("", "Read the chapter.", 'A, "quoted"\nsummary'),
  kind: fc.constantFrom("ok", "ok", "ok", "empty", "corrupt"),
});

interface Note {
  name: string;
  id: string;
  startedAt: string;
  summary: string;
  kind: string;
}

function vaultOf(notes: readonly Note[], strays: boolean): MemoryStore {
  const store = new MemoryStore();
  for (const n of notes) {
    const text =
      n.kind === "empty"
        ? ""
        : n.kind === "corrupt"
          ? "---\nsession_id: [\n---\n"
          : confirmedText({ session_id: n.id, started_at: n.startedAt }, { summary: n.summary });
    store.files.set(`palee/sessions/${n.name}.md`, text);
  }
  if (strays) {
    store.files.set("palee/sessions/DRAFT-S-0badf00d.md", "---\npalee_schema: 2\n---\n");
    store.files.set("palee/sessions/DRAFT-S-00c0ffee.md", draftText({ session_id: "DRAFT-S-00c0ffee" }));
    store.files.set("palee/sessions/notes.md", "hand-written");
    store.files.set("palee/sessions/.S-20260801T090000-ab12.md.icloud", "");
    store.files.set("palee/sessions/old/S-20260701T090000-ab12.md", confirmedText({ session_id: "S-x" }));
  }
  return store;
}

describe("the export by keys", () => {
  it("gives the rows and skipped files of the export of every record", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(note, { maxLength: 12 }),
        fc.boolean(),
        fc.record({
          since: fc.constantFrom(null, "2026-08-11", "2026-08-12"),
          until: fc.constantFrom(null, "2026-08-11", "2026-08-12"),
        }),
        async (notes, strays, options) => {
          const store = vaultOf(notes, strays);
          expect(await exportOfKeys(store, options)).toEqual(await exportOfRecords(store, options));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps one file per session_id over more notes than it reads at a time", async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 1300; i++) {
      const day = `0${1 + (i % 8)}${String(10 + (i % 18)).padStart(2, "0")}`;
      const id = `S-2026${day}T0900${String(i % 60).padStart(2, "0")}-${(4096 + i).toString(16)}`;
      const summary = `Session ${i}`;
      store.files.set(`palee/sessions/${id}.md`, confirmedText({ session_id: id }, { summary }));
      // Every fiftieth note has a copy under another name, far from it in the listing; some unusable files too.
      if (i % 100 === 0) store.files.set(`palee/sessions/S-20990101T000000-${(4096 + i).toString(16)}.md`, "");
      if (i % 50 === 1) {
        const copy = `palee/sessions/S-20000101T000000-${(4096 + i).toString(16)}.md`;
        store.files.set(copy, confirmedText({ session_id: id }, { summary }));
      }
    }
    const byKeys = await exportOfKeys(store, {});
    expect(byKeys).toEqual(await exportOfRecords(store, {}));
    expect(byKeys.rows).toHaveLength(1300);
    expect(byKeys.skipped.filter((s) => s.reason.startsWith("duplicate"))).toHaveLength(26);
  });

  it("names a note that changed while the export read it, and exports no half of it", async () => {
    const store = vaultOf([{ name: IDS[0], id: IDS[0], startedAt: STARTS[0], summary: "x", kind: "ok" }], false);
    const read = store.read.bind(store);
    let reads = 0;
    store.read = (path) => {
      if (path.endsWith(`${IDS[0]}.md`) && ++reads === 2) store.files.set(path, "");
      return read(path);
    };
    const result = await exportOfKeys(store, {});
    expect(result.rows).toEqual([]);
    expect(result.skipped.map((s) => s.reason)).toEqual([expect.stringContaining("changed or removed while")]);
  });
});

describe("one file per session_id", () => {
  it("keeps the same file and gives the same reasons in any order", () => {
    const files = ["b", "a", "S-1"].map((name) => ({ sessionId: "S-1", path: `palee/sessions/${name}.md` }));
    const orders = [files, [...files].reverse(), [files[1], files[2], files[0]]];
    const results = orders.map((order) => {
      const { kept, skipped } = oneFilePerId(order);
      return { kept, skipped: [...skipped].sort((x, y) => (x.path < y.path ? -1 : 1)) };
    });
    expect(results[0].kept).toEqual([files[2]]);
    // Each copy names the file kept, never another copy dropped after it.
    expect(results[0].skipped.map((s) => s.reason)).toEqual([
      "duplicate session_id S-1 (also in palee/sessions/S-1.md)",
      "duplicate session_id S-1 (also in palee/sessions/S-1.md)",
    ]);
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  });
});
