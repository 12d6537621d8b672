/**
 * The folder summary (issue 22, core/device-memory/folder-summary.ts): a session folder's older notes remembered as the
 * digest of their set and the few written late, so that a bounded scan's "written since?" costs the recent notes.
 * Its answers must be exactly the truth whenever it gives one, and it must give none once an older note came or
 * went; RememberingStore uses it without reading the full times.
 */
import fc from "fast-check";
import {
  SUMMARY_MOVE_MS,
  SUMMARY_SPAN_MS,
  summaryChanged,
  summaryKept,
  summaryOf,
  olderRange,
} from "../../src/core/device-memory/folder-summary";
import type { FolderSummary } from "../../src/core/device-memory/folder-summary";
import { RememberingStore } from "../../src/core/device-memory/remembering-store";
import type { TimeOf } from "../../src/core/device-memory/folder-reading";
import { formatUtcCompact } from "../../src/core/time";
import { createHash } from "node:crypto";
import { digestInOrder, namesDigest } from "../../src/core/device-memory/names-digest";
import { memoryTimes, readingOf } from "../support/device-memory";
import { MemoryStore } from "../support/memory-store";

const DAY = 86_400_000;
const NOW = Date.parse("2026-12-02T12:00:00Z");
const FOLDER = "palee/sessions";
const name = (at: number, tail: string): string => `S-${formatUtcCompact(at)}-${tail}.md`;
const sha = (text: string): string => createHash("sha256").update(text).digest("hex");

/** A folder's notes: each named by a start up to 60 days back, written some time after it (or synced late). */
const notes = fc.uniqueArray(
  fc.record({
    startedDaysBack: fc.integer({ min: 0, max: 60 }),
    tail: fc.stringMatching(/^[0-9a-f]{4}$/),
    writtenAfterDays: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60 })),
  }),
  { selector: (n) => `${n.startedDaysBack}-${n.tail}`, maxLength: 40 },
);

function folderOf(list: ReadonlyArray<{ startedDaysBack: number; tail: string; writtenAfterDays: number }>) {
  const times = new Map<string, number>();
  for (const n of list) {
    const started = NOW - n.startedDaysBack * DAY;
    times.set(name(started, n.tail), Math.min(NOW, started + n.writtenAfterDays * DAY));
  }
  return times;
}

/** What a bounded scan would ask: the names before `from`; and the truth, those written since the bound. */
function truth(times: ReadonlyMap<string, number>, bound: number): { asked: string[]; changed: string[] } {
  const from = `S-${formatUtcCompact(bound)}`;
  const asked = [...times.keys()].filter((n) => n < from).sort(); // a listing's order: by name
  return { asked, changed: asked.filter((n) => (times.get(n) ?? 0) >= bound) };
}

describe("summaryChanged", () => {
  it("gives exactly the notes written since any bound after its `since`, looking up only recent names", () => {
    fc.assert(
      fc.property(notes, fc.integer({ min: 0, max: 13 }), (list, boundDaysBack) => {
        const times = folderOf(list);
        const summary = summaryOf([...times.keys()], (n) => times.get(n), NOW, null, sha);
        if (summary === null) throw new Error("every time is known: a summary is made");
        const bound = NOW - boundDaysBack * DAY;
        const { asked, changed } = truth(times, bound);
        const told = summaryChanged(summary, asked, bound, sha);
        if (told === null) throw new Error("the older notes did not change: the summary tells");
        const answer = [
          ...told.changed,
          ...told.rest.filter((n) => (summary.recent.get(n) ?? -1) >= bound || (times.get(n) ?? -1) >= bound),
        ];
        expect(told.rest.every((n) => n >= summary.split)).toBe(true);
        expect(answer.sort()).toEqual([...changed].sort());
      }),
    );
  });

  it("tells nothing once an older note came, went or was renamed, or for a bound before its `since`", () => {
    fc.assert(
      fc.property(notes, fc.nat(), fc.constantFrom("came", "went", "renamed"), (list, pick, change) => {
        const times = folderOf(list);
        const summary = summaryOf([...times.keys()], (n) => times.get(n), NOW, null, sha) as FolderSummary;
        const older = [...times.keys()].filter((n) => n < summary.split);
        const bound = NOW - 8 * DAY;
        expect(summaryChanged(summary, older, summary.since - 1, sha)).toBeNull();
        const other = name(NOW - 40 * DAY, "zzzz");
        const names =
          change === "came"
            ? [...older, other]
            : older.length === 0
              ? [other]
              : change === "went"
                ? older.filter((_, i) => i !== pick % older.length)
                : older.map((n, i) => (i === pick % older.length ? other : n));
        expect(summaryChanged(summary, names.sort(), bound, sha)).toBeNull();
      }),
    );
  });
  it("in another order than by name tells nothing, or the truth", () => {
    fc.assert(
      fc.property(notes, fc.integer({ min: 0, max: 13 }), fc.nat(), (list, boundDaysBack, seed) => {
        const times = folderOf(list);
        const summary = summaryOf([...times.keys()], (n) => times.get(n), NOW, null, sha) as FolderSummary;
        const bound = NOW - boundDaysBack * DAY;
        const { asked, changed } = truth(times, bound);
        const shuffled = asked
          .map((n, i) => [n, (i * 7919 + seed) % 1009] as const)
          .sort((x, y) => x[1] - y[1])
          .map(([n]) => n);
        const told = summaryChanged(summary, shuffled, bound, sha);
        if (told === null) return;
        // Every name is either an older note the summary vouches for, or one the caller looks up.
        const vouched = shuffled.filter((n) => !told.rest.includes(n));
        expect(vouched.every((n) => n < summary.split)).toBe(true);
        const answer = [...told.changed, ...told.rest.filter((n) => (times.get(n) ?? -1) >= bound)];
        expect(answer.sort()).toEqual([...changed].sort());
      }),
    );
  });
});

/** Entries a session folder holds beside its notes: a draft, a view, a subfolder, a name like a note's but not one. */
const besides = fc.subarray(["DRAFT-S-0a1b2c3d.md", "Attachments", "hot.md", "S-notes.txt", "index.base", "~tmp"]);

describe("olderRange", () => {
  it("finds exactly the older notes in a folder's names, whatever else it holds", () => {
    fc.assert(
      fc.property(notes, besides, (list, others) => {
        const times = folderOf(list);
        const summary = summaryOf([...times.keys()], (n) => times.get(n), NOW, null, sha) as FolderSummary;
        const names = [...times.keys(), ...others].sort();
        const range = olderRange(summary, names, sha);
        const older = [...times.keys()].filter((n) => n < summary.split).sort();
        expect(range?.older).toEqual(older);
        expect(names.slice(range?.from, range?.to)).toEqual(older);
      }),
    );
  });

  it("vouches for nothing once an older note came, went or was renamed, or another name is among them", () => {
    fc.assert(
      fc.property(notes, fc.nat(), fc.constantFrom("came", "went", "renamed", "folder"), (list, pick, change) => {
        const times = folderOf(list);
        const summary = summaryOf([...times.keys()], (n) => times.get(n), NOW, null, sha) as FolderSummary;
        const older = [...times.keys()].filter((n) => n < summary.split);
        fc.pre(older.length > 0 || change === "came" || change === "folder");
        const at = pick % Math.max(1, older.length);
        const other = change === "folder" ? `S-${formatUtcCompact(NOW - 40 * DAY)}` : name(NOW - 40 * DAY, "zzzz");
        const changed =
          change === "came" || change === "folder"
            ? [...times.keys(), other]
            : change === "went"
              ? [...times.keys()].filter((n) => n !== older[at])
              : [...times.keys()].map((n) => (n === older[at] ? other : n));
        expect(olderRange(summary, changed.sort(), sha)).toBeNull();
      }),
    );
  });

  it("vouches for the older notes in any order among themselves (digested in order first, then sorted)", () => {
    fc.assert(
      fc.property(notes, fc.nat(), (list, seed) => {
        const times = folderOf(list);
        const summary = summaryOf([...times.keys()], (n) => times.get(n), NOW, null, sha) as FolderSummary;
        const older = [...times.keys()].filter((n) => n < summary.split).sort();
        const recent = [...times.keys()].filter((n) => n >= summary.split).sort();
        const mixed = older.map((n, i) => [n, (i * 7919 + seed) % 1009] as const).sort((x, y) => x[1] - y[1]);
        const names = ["A-first.md", ...mixed.map(([n]) => n), ...recent];
        expect(olderRange(summary, names, sha)?.older).toEqual(mixed.map(([n]) => n));
      }),
    );
  });

  it("digests names in order as namesDigest does exactly when they are ascending", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^S-[0-9a-f]{1,4}$/), { maxLength: 12 }), (names) => {
        const ascending = names.every((n, i) => i === 0 || names[i - 1] < n);
        expect(digestInOrder(names, sha).digest === namesDigest(names, sha).digest).toBe(ascending);
        expect(digestInOrder([...names].sort(), sha)).toEqual(namesDigest(names, sha));
      }),
    );
  });

  it("in another order than by name vouches for nothing, or for exactly the older notes", () => {
    fc.assert(
      fc.property(notes, besides, fc.nat(), (list, others, seed) => {
        const times = folderOf(list);
        const summary = summaryOf([...times.keys()], (n) => times.get(n), NOW, null, sha) as FolderSummary;
        const shuffled = [...times.keys(), ...others]
          .map((n, i) => [n, (i * 7919 + seed) % 1009] as const)
          .sort((x, y) => x[1] - y[1])
          .map(([n]) => n);
        const range = olderRange(summary, shuffled, sha);
        if (range === null) return;
        expect([...range.older].sort()).toEqual([...times.keys()].filter((n) => n < summary.split).sort());
      }),
    );
  });
});

describe("summaryKept", () => {
  it("makes what summaryOf makes while the split is kept, walking only the notes after it", () => {
    fc.assert(
      fc.property(notes, notes, fc.integer({ min: 0, max: 2 * DAY }), (list, added, later) => {
        const times = folderOf(list);
        const prior = summaryOf([...times.keys()], (n) => times.get(n), NOW, null, sha) as FolderSummary;
        // Since then: new notes named after the split (a session ended), some with times known.
        const now = NOW + later;
        const recentAdded = [...folderOf(added).keys()].filter((n) => n >= prior.split && !times.has(n));
        const all = [...times.keys(), ...recentAdded].sort();
        const timeOf = (n: string): number | undefined =>
          n < prior.split
            ? (prior.late.get(n) ?? -Infinity)
            : (prior.recent.get(n) ?? (n.endsWith("0.md") ? undefined : now));
        const others = all.filter((n) => n >= prior.split);
        const kept = summaryKept(prior, others, timeOf, now);
        if (later > SUMMARY_MOVE_MS) expect(kept).toBeNull();
        else expect(kept).toEqual(summaryOf(all, timeOf, now, prior, sha));
      }),
    );
  });

  it("leaves a name before the split to summaryOf", () => {
    const prior = summaryOf([name(NOW - DAY, "0001")], () => NOW - DAY, NOW, null, sha) as FolderSummary;
    expect(summaryKept(prior, [name(NOW - 30 * DAY, "0002")], () => NOW, NOW)).toBeNull();
  });
});

describe("summaryOf", () => {
  const old = name(NOW - 30 * DAY, "0001");
  const late = name(NOW - 40 * DAY, "0002");
  const recent = name(NOW - 2 * DAY, "0003");
  const times = new Map([
    [old, NOW - 30 * DAY],
    [late, NOW - DAY], // synced late: an old name, a new time
    [recent, NOW - 2 * DAY],
  ]);
  const made = summaryOf([...times.keys()], (n) => times.get(n), NOW, null, sha) as FolderSummary;

  it("splits at SUMMARY_SPAN_MS back: older notes by digest, the late ones and the recent ones with times", () => {
    expect(made.split).toBe(`S-${formatUtcCompact(NOW - SUMMARY_SPAN_MS)}`);
    expect(made.since).toBe(NOW - SUMMARY_SPAN_MS);
    expect(made.old.count).toBe(2);
    expect([...made.late]).toEqual([[late, NOW - DAY]]);
    expect([...made.recent]).toEqual([[recent, NOW - 2 * DAY]]);
  });

  it("vouches for no older note whose time is unknown", () => {
    expect(summaryOf([...times.keys()], (n) => (n === old ? undefined : times.get(n)), NOW, null, sha)).toBeNull();
    expect(
      summaryOf([...times.keys()], (n) => (n === recent ? undefined : times.get(n)), NOW, null, sha)?.recent.size,
    ).toBe(0);
  });

  it("keeps a prior's split until it is a day late, and trusts a prior only for the older notes it describes", () => {
    const fromPrior = (n: string) => (n < made.split ? (made.late.get(n) ?? -Infinity) : times.get(n));
    expect(summaryOf([...times.keys()], fromPrior, NOW + DAY, made, sha)).toEqual(made);
    const moved = summaryOf([...times.keys()], fromPrior, NOW + SUMMARY_MOVE_MS + DAY, made, sha);
    expect(moved?.split).toBe(`S-${formatUtcCompact(NOW + SUMMARY_MOVE_MS + DAY - SUMMARY_SPAN_MS)}`);
    // A note that came under an older name since the prior was made: the prior cannot answer for its time.
    const synced = name(NOW - 50 * DAY, "0004");
    expect(summaryOf([...times.keys(), synced], fromPrior, NOW + DAY, made, sha)).toBeNull();
  });
});

describe("RememberingStore with a summary", () => {
  const old = name(NOW - 30 * DAY, "0001");
  const recent = name(NOW - 2 * DAY, "0003");
  function setup() {
    const store = new MemoryStore({ [`${FOLDER}/${old}`]: "o", [`${FOLDER}/${recent}`]: "r" });
    store.mtimes.set(`${FOLDER}/${old}`, NOW - 30 * DAY);
    store.mtimes.set(`${FOLDER}/${recent}`, NOW - 2 * DAY);
    const full = new Map([
      [old, NOW - 30 * DAY],
      [recent, NOW - 2 * DAY],
    ]);
    const summary = summaryOf([old, recent], (n) => full.get(n), NOW, null, sha) as FolderSummary;
    const asked: string[] = [];
    let reads = 0;
    const times = memoryTimes(store);
    const timesOf = (folder: string, names: readonly string[]): Promise<TimeOf[]> => {
      asked.push(...names);
      return times(folder, names);
    };
    const known = { summary, times: () => (reads++, new Map(full)) };
    const remembered = new RememberingStore(store, FOLDER, timesOf, known, { digest: sha });
    return { store, asked, remembered, summary, reads: () => reads };
  }

  it("answers without reading the times while no older note came or went", async () => {
    const { remembered, asked, reads, summary } = setup();
    await remembered.list(FOLDER);
    expect(await remembered.changedAmong(FOLDER, [old, recent], NOW - 8 * DAY)).toEqual([recent]);
    expect(await remembered.changedAmong(FOLDER, [old, recent], NOW - DAY)).toEqual([]);
    expect({ asked, reads: reads() }).toEqual({ asked: [], reads: 0 });
    expect(remembered.remembered(NOW + 1000)).toEqual({ times: null, summary, changed: false });
  });

  it("asks about a new recent note and keeps it in the summary", async () => {
    const { remembered, store, asked, reads } = setup();
    const added = name(NOW - DAY, "0005");
    store.files.set(`${FOLDER}/${added}`, "n");
    store.mtimes.set(`${FOLDER}/${added}`, NOW - DAY);
    await remembered.list(FOLDER);
    expect(await remembered.changedAmong(FOLDER, [old, recent, added], NOW - 8 * DAY)).toEqual([recent, added]);
    expect({ asked, reads: reads() }).toEqual({ asked: [added], reads: 0 });
    const kept = remembered.remembered(NOW);
    expect(kept?.changed).toBe(true);
    expect(kept?.summary?.recent.get(added)).toBe(NOW - DAY);
  });

  it("reads the times once an older note came, and finds it", async () => {
    const { remembered, store, asked, reads } = setup();
    const synced = name(NOW - 40 * DAY, "0006"); // an old name, delivered now
    store.files.set(`${FOLDER}/${synced}`, "s");
    store.mtimes.set(`${FOLDER}/${synced}`, NOW);
    await remembered.list(FOLDER);
    expect(await remembered.changedAmong(FOLDER, [old, synced, recent], NOW - 8 * DAY)).toEqual([synced, recent]);
    expect({ asked, reads: reads() }).toEqual({ asked: [synced], reads: 1 });
  });

  it("never saves a summary that vouches for an older note it did not see, even without a question asked", async () => {
    const { remembered, store } = setup();
    const synced = name(NOW - 40 * DAY, "0006");
    store.files.set(`${FOLDER}/${synced}`, "s");
    store.mtimes.set(`${FOLDER}/${synced}`, NOW);
    await remembered.list(FOLDER); // a writing call that asked nothing (no draft to bound)
    const kept = remembered.remembered(NOW);
    // Its time was never learned: no summary can vouch for the older notes, and the times are kept as read.
    expect(kept?.summary).toBeNull();
    expect(kept?.times?.has(synced)).toBe(false);
  });

  it("reads the times when it writes an older note, and forgets the time of a recent one it writes", async () => {
    const { remembered, reads } = setup();
    await remembered.list(FOLDER);
    await remembered.replace(`${FOLDER}/${recent}`, "r", "r, rewritten");
    expect(reads()).toBe(0);
    expect(remembered.learned()).toBe(true);
    await remembered.trash(`${FOLDER}/${old}`);
    expect(reads()).toBe(1);
    // The times read hold the rewritten note's time from before: forgotten, not read back.
    expect(remembered.remembered(NOW)?.times).toEqual(new Map());
    expect(await remembered.changedAmong(FOLDER, [recent], NOW - DAY)).toEqual([recent]); // asked again
  });
});

describe("RememberingStore reading the folder by its names", () => {
  const old = name(NOW - 30 * DAY, "0001");
  const older = name(NOW - 20 * DAY, "0002");
  const recent = name(NOW - 2 * DAY, "0003");
  const draft = "DRAFT-S-0a1b2c3d.md";
  function setup(extra: Record<string, string> = {}) {
    const store = new MemoryStore({
      [`${FOLDER}/${old}`]: "o",
      [`${FOLDER}/${older}`]: "o2",
      [`${FOLDER}/${recent}`]: "r",
      [`${FOLDER}/${draft}`]: "d",
      [`${FOLDER}/moved/${name(NOW - 9 * DAY, "0009")}`]: "in a subfolder",
      ...extra,
    });
    const full = new Map([
      [old, NOW - 30 * DAY],
      [older, NOW - 20 * DAY],
      [recent, NOW - 2 * DAY],
    ]);
    for (const [n, at] of full) store.mtimes.set(`${FOLDER}/${n}`, at);
    const summary = summaryOf([...full.keys()], (n) => full.get(n), NOW, null, sha) as FolderSummary;
    const plain = readingOf(store);
    const asked: string[][] = [];
    let typed = 0;
    const reading = {
      ...plain,
      listing: (folder: string) => (typed++, plain.listing(folder)),
      kinds: (folder: string, names: readonly string[]) => (asked.push([...names]), plain.kinds(folder, names)),
    };
    const known = () => ({ summary, times: () => new Map(full) });
    const remembered = new RememberingStore(store, FOLDER, memoryTimes(store), known(), {
      listing: reading,
      digest: sha,
    });
    // The same store read by one typed listing, as before names alone: what it tells must not differ.
    const typedOnly = new RememberingStore(store, FOLDER, memoryTimes(store), known(), {
      listing: plain.listing,
      digest: sha,
    });
    return { store, summary, remembered, typedOnly, asked, typed: () => typed };
  }

  it("lists what a typed listing lists, asking only about names the summary does not vouch for", async () => {
    const { remembered, typedOnly, asked, typed } = setup();
    const files = await remembered.list(FOLDER);
    expect(files.sort()).toEqual((await typedOnly.list(FOLDER)).sort());
    expect(await remembered.folders(FOLDER)).toEqual(["moved"]);
    expect(asked.flat().sort()).toEqual([draft, "moved"]);
    expect(typed()).toBe(0);
    expect(await remembered.changedAmong(FOLDER, [old, older], NOW - 8 * DAY)).toEqual([]);
    expect(remembered.timesRead()).toBe(false);
  });

  it("reads the folder typed once an older note came, and finds it", async () => {
    const synced = name(NOW - 40 * DAY, "0006");
    const { store, remembered, typed } = setup({ [`${FOLDER}/${synced}`]: "s" });
    store.mtimes.set(`${FOLDER}/${synced}`, NOW);
    const files = await remembered.list(FOLDER);
    expect(files).toContain(synced);
    expect(typed()).toBe(1);
    expect(await remembered.changedAmong(FOLDER, [synced, old, older], NOW - 8 * DAY)).toEqual([synced]);
  });

  it("learns the times told along with the kinds, so that the next call asks nothing of those names", async () => {
    const arrived = name(NOW - 3 * DAY, "0008"); // a recent note synced since the summary was made
    const { store, summary } = setup({ [`${FOLDER}/${arrived}`]: "a" });
    store.mtimes.set(`${FOLDER}/${arrived}`, NOW - DAY);
    const plain = readingOf(store, memoryTimes(store));
    const asked: string[] = [];
    const reading = { ...plain, kinds: (f: string, n: readonly string[]) => (asked.push(...n), plain.kinds(f, n)) };
    const parts = { listing: reading, digest: sha };
    const first = new RememberingStore(store, FOLDER, memoryTimes(store), { summary, times: () => null }, parts);
    await first.list(FOLDER);
    expect(asked).toContain(arrived);
    expect(first.learned()).toBe(true);
    const kept = first.remembered(NOW)?.summary as FolderSummary;
    expect(kept.recent.get(arrived)).toBe(NOW - DAY);
    asked.length = 0;
    const next = new RememberingStore(store, FOLDER, memoryTimes(store), { summary: kept, times: () => null }, parts);
    expect((await next.list(FOLDER)).sort()).toEqual([arrived, draft, old, older, recent].sort());
    expect(asked).not.toContain(arrived);
    expect(next.learned()).toBe(false);
    expect(await next.changedAmong(FOLDER, [old, older, arrived], NOW - 2 * DAY)).toEqual([arrived]);
    expect(next.learned()).toBe(false);
  });

  it("keeps, after writes, the summary a typed listing would have kept", async () => {
    const { store, remembered, typedOnly } = setup();
    const ended = name(NOW - 3600_000, "0007");
    for (const r of [remembered, typedOnly]) {
      await r.list(FOLDER);
      await r.changedAmong(FOLDER, [old, older, recent], NOW - 8 * DAY);
    }
    // One end, seen by both (the store is shared): a note created, the draft trashed.
    await remembered.create(`${FOLDER}/${ended}`, "e");
    await remembered.trash(`${FOLDER}/${draft}`);
    typedOnly.begin({ summary: (typedOnly.remembered(NOW) as { summary: FolderSummary }).summary, times: () => null });
    await typedOnly.list(FOLDER);
    expect(store.files.has(`${FOLDER}/${ended}`)).toBe(true);
    const kept = remembered.remembered(NOW + 1000);
    expect(kept?.summary).toEqual(typedOnly.remembered(NOW + 1000)?.summary);
    expect(kept?.times).toBeNull();
    expect((await remembered.reusingListing(() => remembered.list(FOLDER))).sort()).toEqual(
      [old, older, recent, ended].sort(),
    );
  });
});
