/**
 * The incremental scan (ScanCache + ObsidianStore.changesSince) must always see what a full read of the folder
 * sees: whatever sync, the user, the store itself and the lagging metadata cache do, in any order.
 */
import fc from "fast-check";
import type { EventRef } from "obsidian";
import { layoutFor } from "../../src/core/records/layout";
import { ScanCache, scanSessions } from "../../src/core/scan";
import type { Scan } from "../../src/core/scan";
import type { SessionStore } from "../../src/core/ports";
import { ObsidianStore } from "../../src/plugin/adapters/obsidian-store";
import { confirmedText, draftText } from "../support/builders";
import { createObsidianHarness } from "./support/obsidian-harness";

const layout = layoutFor("palee");
const offsetAt = (): number => 0;
const S = (name: string): string => `palee/sessions/${name}`;

/** What a scan found, without object identities (the incremental one shares records between scans). */
function view(scan: Scan): unknown {
  return {
    confirmed: scan.confirmed.map((s) => [s.path, s.sessionId, s.startedAt, s.durationMinutes, s.absorbedDrafts]),
    drafts: scan.drafts.map((d) => [d.path, d.lastCheckpointAt, d.body]),
    draftFiles: [...scan.draftFiles].sort(),
    skipped: scan.skipped,
    warnings: scan.warnings,
  };
}

const ids = ["S-20260810T100000-aaaa", "S-20260811T100000-bbbb", "S-20260812T100000-cccc"];
const drafts = ["DRAFT-S-00000001", "DRAFT-S-00000002"];

type Step =
  | { op: "sync-write-confirmed"; id: number; minutes: number }
  | { op: "store-create-confirmed"; id: number }
  | { op: "sync-write-draft"; id: number; note: string }
  | { op: "store-replace-draft"; id: number; note: string }
  | { op: "remove"; name: string }
  | { op: "store-trash-draft"; id: number }
  | { op: "damage"; name: string }
  | { op: "duplicate"; id: number }
  | { op: "other-file" }
  | { op: "catch-up" }
  | { op: "scan" };

const name = fc.constantFrom(...ids.map((i) => `${i}.md`), ...drafts.map((d) => `${d}.md`), "notes.md");
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant("sync-write-confirmed" as const), id: fc.nat(2), minutes: fc.nat(90) }),
  fc.record({ op: fc.constant("store-create-confirmed" as const), id: fc.nat(2) }),
  fc.record({ op: fc.constant("sync-write-draft" as const), id: fc.nat(1), note: fc.constantFrom("a", "b", "") }),
  fc.record({ op: fc.constant("store-replace-draft" as const), id: fc.nat(1), note: fc.constantFrom("c", "d") }),
  fc.record({ op: fc.constant("remove" as const), name }),
  fc.record({ op: fc.constant("store-trash-draft" as const), id: fc.nat(1) }),
  fc.record({ op: fc.constant("damage" as const), name }),
  fc.record({ op: fc.constant("duplicate" as const), id: fc.nat(2) }),
  fc.constant({ op: "other-file" as const }),
  fc.constant({ op: "catch-up" as const }),
  fc.constant({ op: "scan" as const }),
);

describe("the incremental scan", () => {
  it("always agrees with a full scan of the folder", async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const h = createObsidianHarness();
        const tracked = new ObsidianStore(h.app);
        const refs: EventRef[] = [];
        tracked.track((ref) => refs.push(ref));
        // The truth: every file read in full (no metadata cache, no change tracking).
        const plain = new ObsidianStore(h.app);
        const truth: SessionStore = {
          read: (path) => plain.read(path),
          list: (folder) => plain.list(folder),
          folders: (folder) => plain.folders(folder),
          create: (path, content) => plain.create(path, content),
          replace: (path, expected, content) => plain.replace(path, expected, content),
          trash: (path) => plain.trash(path),
          modifiedAt: () => Promise.resolve({ kind: "untold" }),
          changedAmong: (_folder, names) => Promise.resolve([...names]), // cannot tell: every name may have changed
          cachedFields: () => undefined,
          changesSince: () => ({ kind: "unfollowed" }),
        };
        const cache = new ScanCache();
        // While the metadata cache lags behind a change, a scan may see the cache's older view, as Obsidian
        // itself does; once it has caught up, the incremental scan must see exactly what a full read sees,
        // whatever it saw in between.
        const scan = (): Promise<Scan> => scanSessions(tracked, layout, offsetAt, cache);
        const check = async (): Promise<void> => {
          if (h.pendingCache().length > 0) {
            await scan();
            return;
          }
          const incremental = await scan();
          const full = await scanSessions(truth, layout, offsetAt);
          expect(view(incremental)).toEqual(view(full));
          compared++;
        };
        for (const s of steps) {
          switch (s.op) {
            case "sync-write-confirmed":
              // Starts an hour apart by the minutes, so new notes land before, between and after the others.
              h.write(
                S(`${ids[s.id]}.md`),
                confirmedText({
                  session_id: ids[s.id],
                  duration_minutes: s.minutes,
                  started_at: `2026-08-1${s.minutes % 3}T0${s.minutes % 10}:00:00+00:00`,
                  ended_at: "2026-08-13T23:00:00+00:00",
                  ...(s.minutes % 7 === 0 ? { break_minutes: "lots" } : {}),
                }),
              );
              break;
            case "store-create-confirmed":
              await tracked
                .create(S(`${ids[s.id]}.md`), confirmedText({ session_id: ids[s.id] }))
                .catch(() => undefined);
              break;
            case "sync-write-draft":
              h.write(S(`${drafts[s.id]}.md`), draftText({ session_id: drafts[s.id] }, s.note));
              break;
            case "store-replace-draft": {
              const path = S(`${drafts[s.id]}.md`);
              const current = await tracked.read(path);
              await tracked.replace(path, current, draftText({ session_id: drafts[s.id] }, s.note));
              break;
            }
            case "remove":
              if (h.files()[S(s.name)] !== undefined) await h.remove(S(s.name));
              break;
            case "store-trash-draft":
              if (h.files()[S(`${drafts[s.id]}.md`)] !== undefined) await tracked.trash(S(`${drafts[s.id]}.md`));
              break;
            case "damage":
              h.write(S(s.name), "---\npalee_schema: [1\n---\n");
              break;
            case "duplicate":
              h.write(S(`${ids[s.id]} (conflict).md`), confirmedText({ session_id: ids[s.id], duration_minutes: 1 }));
              break;
            case "other-file":
              h.write(S("README.md"), "not a session\n");
              break;
            case "catch-up":
              h.catchUpCache();
              await check();
              break;
            case "scan":
              await check();
              break;
          }
        }
        await check();
        h.catchUpCache();
        await check();
      }),
      { numRuns: Number(process.env.SCAN_RUNS ?? 400) },
    );
    expect(compared).toBeGreaterThanOrEqual(400); // at least the final comparison of every run
  });

  it("reads no confirmed note that did not change since the last scan", async () => {
    const files: Record<string, string> = {};
    for (const id of ids) files[S(`${id}.md`)] = confirmedText({ session_id: id });
    const h = createObsidianHarness({ files });
    const store = new ObsidianStore(h.app);
    store.track(() => undefined);
    const cache = new ScanCache();
    await scanSessions(store, layout, offsetAt, cache);
    h.write(S("S-20260813T100000-dddd.md"), confirmedText({ session_id: "S-20260813T100000-dddd" }));
    h.resetLogs();
    const scan = await scanSessions(store, layout, offsetAt, cache);
    expect(scan.confirmed).toHaveLength(4);
    // The new note is read (the cache has not indexed it yet); the three unchanged ones are not.
    expect(h.reads.paths()).toEqual([S("S-20260813T100000-dddd.md")]);
  });
});

describe("the incremental scan and folders", () => {
  it("looks at the whole folder again after the session folder was renamed away", async () => {
    const files: Record<string, string> = {};
    for (const id of ids) files[S(`${id}.md`)] = confirmedText({ session_id: id });
    const h = createObsidianHarness({ files });
    const store = new ObsidianStore(h.app);
    store.track(() => undefined);
    const cache = new ScanCache();
    expect((await scanSessions(store, layout, offsetAt, cache)).confirmed).toHaveLength(3);
    const folder = h.app.vault.getFolderByPath("palee/sessions");
    if (!folder) throw new Error("no folder");
    await h.app.fileManager.renameFile(folder, "palee/archive");
    expect((await scanSessions(store, layout, offsetAt, cache)).confirmed).toHaveLength(0);
  });

  it("does not trust changes noted before it followed the vault", async () => {
    const h = createObsidianHarness({ files: { [S(`${ids[0]}.md`)]: confirmedText({ session_id: ids[0] }) } });
    const store = new ObsidianStore(h.app);
    const cache = new ScanCache();
    await scanSessions(store, layout, offsetAt, cache); // before track(): a full scan, nothing to compare with
    h.write(S(`${ids[1]}.md`), confirmedText({ session_id: ids[1] }));
    store.track(() => undefined);
    expect((await scanSessions(store, layout, offsetAt, cache)).confirmed.map((s) => s.sessionId).sort()).toEqual([
      ids[0],
      ids[1],
    ]);
  });
});
