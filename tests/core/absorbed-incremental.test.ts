/**
 * The plugin's scans hand out, after one end, the previous list with the new note inserted; which note absorbed
 * each draft is then worked out from the previous answer (absorbedAfter) instead of the whole history. It must
 * be exactly what absorbedBy of the whole list says, and so must the copies of it (absorbedCopies).
 */
import fc from "fast-check";
import type { ConfirmedSession } from "../../src/core/records/records";
import { compareNewestFirst } from "../../src/core/records/records";
import { absorbedAfter, absorbedBy, absorbedCopies } from "../../src/core/recovery";

const offsetAt = (): number => 0;
const draftIds = ["DRAFT-S-00000001", "DRAFT-S-00000002", "DRAFT-S-00000001 2", "DRAFT-S-00000003 (conflict)"];

function session(i: number, endedHour: number, absorbed: string[]): ConfirmedSession {
  const startedMs = Date.UTC(2026, 7, 1, i % 24, i);
  return {
    sessionId: `S-${String(i).padStart(4, "0")}`,
    path: `palee/sessions/S-${String(i).padStart(4, "0")}.md`,
    topicId: "T-rust",
    startedAt: new Date(startedMs).toISOString(),
    startedMs,
    endedAt: endedHour < 0 ? "not a time" : `2026-08-02T${String(endedHour).padStart(2, "0")}:00:00+00:00`,
    durationMinutes: 30,
    breakMinutes: 0,
    outcome: "completed",
    absorbedDrafts: absorbed,
    topicNote: null,
    body: "",
  };
}

const sessions = fc
  .array(fc.record({ ended: fc.integer({ min: -1, max: 5 }), ids: fc.subarray(draftIds) }), { maxLength: 14 })
  .map((specs) => specs.map((s, i) => session(i, s.ended, s.ids)).sort(compareNewestFirst));

const entries = (map: ReadonlyMap<string, ConfirmedSession>): Array<[string, string]> =>
  [...map].map(([id, s]) => [id, s.path] as [string, string]).sort();
const copies = (map: ReadonlyMap<string, ConfirmedSession>): Array<[string, string[]]> =>
  [...absorbedCopies(map)].map(([id, list]) => [id, list.map((s) => s.path)] as [string, string[]]).sort();

describe("absorbedAfter", () => {
  it("gives what absorbedBy of the whole list gives, or declines (a tie the list order settles)", () => {
    let compared = 0;
    fc.assert(
      fc.property(sessions, fc.array(fc.boolean(), { maxLength: 14 }), fc.boolean(), (list, isNew, copiedBefore) => {
        const before = list.filter((_, i) => !isNew[i]);
        const added = list.filter((_, i) => isNew[i]);
        const previous = absorbedBy(before, offsetAt);
        if (copiedBefore) absorbedCopies(previous); // worked out already: the new map may take them over
        const incremental = absorbedAfter(previous, added, offsetAt);
        if (incremental === null) return;
        const full = absorbedBy(list, offsetAt);
        expect(entries(incremental)).toEqual(entries(full));
        expect(copies(incremental)).toEqual(copies(full));
        compared++;
      }),
      { numRuns: 2000 },
    );
    expect(compared).toBeGreaterThan(500);
  });
});
