/**
 * RememberingStore (issue 22): the bounded scans' `changedAmong` answered from remembered file times, asking the
 * store only about names it has not seen; its own writes forget their names' times; what it keeps to save.
 */
import { createHash } from "node:crypto";
import { summaryOf } from "../../src/core/device-memory/folder-summary";
import { RememberingStore } from "../../src/core/device-memory/remembering-store";
import type { TimeOf } from "../../src/core/device-memory/folder-reading";
import { MemoryStore } from "../support/memory-store";
import { memoryTimes } from "../support/device-memory";

const FOLDER = "palee/sessions";
const A = "S-20260101T090000-aaaa.md";
const B = "S-20260102T090000-bbbb.md";
const C = "S-20260103T090000-cccc.md";
const NOW = Date.parse("2026-03-01T00:00:00Z");
const sha = (text: string): string => createHash("sha256").update(text).digest("hex");

/** A store holding A (written at 1 000) and B (at 5 000), and a RememberingStore over it counting what it asks. */
function setup(known: Map<string, number> | null = null) {
  const store = new MemoryStore({ [`${FOLDER}/${A}`]: "a", [`${FOLDER}/${B}`]: "b" });
  store.mtimes.set(`${FOLDER}/${A}`, 1000);
  store.mtimes.set(`${FOLDER}/${B}`, 5000);
  const asked: string[] = [];
  const times = memoryTimes(store);
  const timesOf = (folder: string, names: readonly string[]): Promise<TimeOf[]> => {
    asked.push(...names);
    return times(folder, names);
  };
  return { store, asked, remembered: new RememberingStore(store, FOLDER, timesOf, known, { digest: sha }) };
}

describe("RememberingStore", () => {
  it("asks only about names it does not know, and answers the rest from what it remembers", async () => {
    // A is remembered as written at 9 000 (later than it was: the cache only reads more), B is not known.
    const { remembered, asked } = setup(new Map([[A, 9000]]));
    await remembered.list(FOLDER);
    expect(await remembered.changedAmong(FOLDER, [A, B], 4000)).toEqual([A, B]);
    expect(asked).toEqual([B]);
    expect(await remembered.changedAmong(FOLDER, [A, B], 6000)).toEqual([A]);
    expect(asked).toEqual([B]); // B is known now
  });

  it("leaves out a name that is gone and reads one whose time cannot be told", async () => {
    const { remembered, store } = setup();
    store.files.set(`${FOLDER}/${C}`, "c"); // no time recorded: untold
    expect(await remembered.changedAmong(FOLDER, [C, "S-20260104T090000-dddd.md"], 0)).toEqual([C]);
    await remembered.list(FOLDER);
    expect(remembered.remembered(NOW)?.times?.has(C)).toBe(false); // nothing learned about it
  });

  it("forgets the time of every name it creates, replaces or trashes", async () => {
    const { remembered, asked } = setup(new Map([[A, 1000]]));
    await remembered.list(FOLDER);
    await remembered.replace(`${FOLDER}/${A}`, "a", "a, rewritten");
    expect(remembered.learned()).toBe(true);
    expect(await remembered.changedAmong(FOLDER, [A], 2000)).toEqual([A]); // asked again: written now
    expect(asked).toEqual([A]);
    await remembered.create(`${FOLDER}/${C}`, "c");
    await remembered.trash(`${FOLDER}/${B}`);
    expect([...(await remembered.reusingListing(() => remembered.list(FOLDER)))].sort()).toEqual([A, C]);
  });

  it("keeps only names of the latest listing, and says whether anything changed", async () => {
    const { remembered, store } = setup(
      new Map([
        [A, 1000],
        [B, 5000],
      ]),
    );
    await remembered.list(FOLDER);
    const kept = remembered.remembered(NOW);
    expect(kept).toEqual({
      times: new Map([
        [A, 1000],
        [B, 5000],
      ]),
      summary: summaryOf([A, B], (name) => kept?.times?.get(name), NOW, null, sha),
      changed: true, // the summary is new
    });
    const summary = kept?.summary;
    if (!summary) throw new Error("no summary made");
    remembered.begin({ summary, times: () => new Map(kept.times) });
    await remembered.list(FOLDER);
    expect(remembered.remembered(NOW)).toEqual({ times: null, summary, changed: false });
    store.files.delete(`${FOLDER}/${B}`);
    await remembered.list(FOLDER);
    expect(remembered.learned()).toBe(false);
    expect(remembered.remembered(NOW)).toMatchObject({ times: new Map([[A, 1000]]), changed: true });
  });

  it("keeps nothing when it never listed the folder, and learns every note's time for a rebuild", async () => {
    const { remembered } = setup();
    expect(remembered.remembered(NOW)).toBeNull();
    await remembered.learnAll();
    expect(remembered.remembered(NOW)?.times).toEqual(
      new Map([
        [A, 1000],
        [B, 5000],
      ]),
    );
  });

  it("answers the folder's subfolders once from the listing's own reading", async () => {
    const store = new MemoryStore({ [`${FOLDER}/${A}`]: "a" });
    const reads: string[] = [];
    const listing = (folder: string) => {
      reads.push(folder);
      return Promise.resolve({ files: [A], folders: ["moved"] });
    };
    const remembered = new RememberingStore(store, FOLDER, memoryTimes(store), null, { listing });
    expect(await remembered.list(FOLDER)).toEqual([A]);
    expect(await remembered.folders(FOLDER)).toEqual(["moved"]);
    expect(await remembered.folders(FOLDER)).toEqual([]); // the store's own answer: a later scan reads again
    expect(reads).toEqual([FOLDER]);
  });
});
