/**
 * A bounded scan given a run of names the store knows to be older confirmed notes (DeviceMemory.olderNotesIn,
 * the CLI's folder summary): it reads exactly the notes, and finds exactly the sessions, that it finds telling
 * every name apart itself.
 */
import fc from "fast-check";
import { layoutFor } from "../../src/core/records/layout";
import type { OlderNotes } from "../../src/core/ports";
import { scanRecentSessions } from "../../src/core/scan";
import { formatTimestamp, formatUtcCompact } from "../../src/core/time";
import { confirmedText, draftText } from "../support/builders";
import { MemoryStore } from "../support/memory-store";

const LAYOUT = layoutFor("palee");
const NOW = Date.parse("2026-12-02T04:00:00Z");
const DAY = 86_400_000;

/** A store that lists in name order and, like the CLI's, knows the notes named before `split`. */
class Spanning extends MemoryStore {
  readonly reads: string[] = [];
  private last: string[] | null = null;
  constructor(private readonly split: string | null) {
    super();
  }
  async list(folder: string): Promise<string[]> {
    const names = (await super.list(folder)).sort();
    this.last = names;
    return names;
  }
  read(path: string): Promise<string | null> {
    this.reads.push(path);
    return super.read(path);
  }
  olderNotesIn(folder: string, names: readonly string[]): OlderNotes | null {
    const split = this.split;
    if (split === null || names !== this.last || folder !== LAYOUT.sessions) return null;
    const older = names.filter((n) => n.startsWith("S-") && n.endsWith(".md") && n < split);
    return { older, others: names.filter((n) => !older.includes(n)), before: split };
  }
}

describe("a bounded scan with the older notes known", () => {
  it("reads and finds what it finds telling every name apart", async () => {
    await fc.assert(
      fc.asyncProperty(
        // Notes, hours back; some with a file time far older than their names (a copy that kept an old time).
        fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 60 * 24 }), fc.boolean()), {
          maxLength: 40,
          selector: ([h]) => h,
        }),
        fc.option(fc.integer({ min: 1, max: 40 * 24 }), { nil: null }), // a draft begun so many hours back
        fc.integer({ min: 1, max: 30 }), // the split, days back
        async (hours, draftHours, splitDays) => {
          const make = (split: string | null) => {
            const store = new Spanning(split);
            store.mtimes.clear();
            for (const [h, oldTime] of hours) {
              const at = NOW - h * 3_600_000;
              const id = `S-${formatUtcCompact(at)}-${(h % 0xffff).toString(16).padStart(4, "0")}`;
              const path = `${LAYOUT.sessions}/${id}.md`;
              store.files.set(path, confirmedText({ session_id: id, started_at: formatTimestamp(at, 0) }));
              store.mtimes.set(path, oldTime ? at - 90 * DAY : at + 1_800_000);
            }
            store.files.set(`${LAYOUT.sessions}/notes.md`, "a note of the learner's");
            if (draftHours !== null) {
              const at = NOW - draftHours * 3_600_000;
              const id = "DRAFT-S-0a1b2c3d";
              store.files.set(
                `${LAYOUT.sessions}/${id}.md`,
                draftText({ session_id: id, started_at: formatTimestamp(at, 0) }),
              );
            }
            return store;
          };
          const split = `S-${formatUtcCompact(NOW - splitDays * DAY)}`;
          const plain = make(null);
          const spanning = make(split);
          const at = { now: NOW, starts: [NOW - 7 * DAY], required: [] };
          const a = await scanRecentSessions(plain, LAYOUT, () => 0, at, plain);
          const b = await scanRecentSessions(spanning, LAYOUT, () => 0, at, spanning);
          expect(spanning.reads.sort()).toEqual(plain.reads.sort());
          expect(b?.confirmed.map((s) => s.path)).toEqual(a?.confirmed.map((s) => s.path));
          expect([...(b?.partial?.names ?? [])].sort()).toEqual([...(a?.partial?.names ?? [])].sort());
          expect(b?.skipped).toEqual(a?.skipped);
        },
      ),
      { numRuns: 150 },
    );
  });
});
