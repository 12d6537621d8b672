/**
 * One CLI invocation's use of the device memory: read its files (memory-files.ts, in envelope.ts's envelope) before
 * the command, hand the core one store that answers from them (core/device-memory/remembering-store.ts), and save
 * what the call learned afterwards. Read or empty, then persist:
 *
 * - A writing action saves, under the vault lock it holds (invoke.ts calls `finish` before releasing it).
 * - A read-only action reads the memory and never writes it: it holds no lock, and what it learns (a stat or two
 *   of names new since) is cheap to learn again. But the older notes' records (older-file.ts) and their review
 *   fold (older-reviews-file.ts), which only a read of the whole history learns, and an index check (a line-by-line
 *   walk of index.md): any call that learned one saves it, atomically, without the lock; and their totals
 *   (older-totals-file.ts) any stats, goal or year that folded them or took them forward.
 * - `rebuild` ignores the memory, and saves it made afresh from every confirmed note's time.
 * - The fields kept are saved when the call learned or forgot a note, or an hour after they were last saved; the
 *   index checks when one was added; the folder summary is read first, and the note times only if it cannot answer.
 * - A file that cannot be found, read or written never fails the command: the call learns afresh.
 */
import * as fs from "../../node/async-fs";
import { monotonicMs } from "../../node/monotonic";
import * as path from "node:path";
import type { CorePorts, DeviceMemory } from "../../core/ports";
import type { Layout } from "../../core/records/layout";
import { RememberingStore } from "../../core/device-memory/remembering-store";
import type { Kept } from "../../core/device-memory/remembering-store";
import type { FolderReading } from "../../core/device-memory/folder-reading";
import type { NodeStore } from "../../node/node-store";
import type { MemoryOwner } from "./envelope";
import { CheckedIndexes } from "../../core/device-memory/checked-indexes";
import { KeptFields } from "../../core/device-memory/kept-fields";
import type { FileKeyOf } from "../../core/device-memory/kept-fields";
import { fileKeyAt } from "../../node/file-key";
import { OlderFields } from "../../core/device-memory/older-fields";
import { parseOlderFields, renderOlderFields } from "./older-file";
import type { OlderReviews } from "../../core/device-memory/older-reviews";
import { parseOlderReviews, renderOlderReviews } from "./older-reviews-file";
import { OlderTotalsPart } from "../../core/device-memory/older-totals-part";
import { parseOlderTotals, renderOlderTotals } from "./older-totals-file";
import type { Remembered } from "./memory-files";
import { MEMORY_FILES } from "./file-names";
import {
  parseFolderSummary,
  parseIndexChecks,
  parseKeptFields,
  parseNoteTimes,
  refreshedNoteTimes,
  renderFolderSummary,
  renderIndexChecks,
  renderKeptFields,
  saveNoteTimes,
} from "./memory-files";
import { readMemoryFile, readMemoryFileNow, sha256, writeMemoryFile } from "./envelope";
import { vaultStatePath } from "../state-dir";
import { VERSION } from "../version";

/** Unchanged note times are saved again after this long, so that it never ages past CACHE_MAX_AGE_MS in use. */
export const RESAVE_MS = 3600 * 1000;

export interface CliMemory {
  /** The store the core works on: the vault's, with the remembered times. */
  store: RememberingStore;
  /** What the device remembers for the core (CorePorts.memory): the same store. */
  memory: DeviceMemory;
  /** The temp-file sweep after a start or an end, run on the listing the operation already made. */
  sweep: (sweepOn: (ports: CorePorts, layout: Layout) => Promise<string[]>) => typeof sweepOn;
  /** Saves what the call learned (a writing action only); never throws. */
  finish: () => Promise<void>;
}

export interface MemoryUse {
  /** Whether the action writes (and so holds the lock): only then is the memory saved. */
  writes: boolean;
  /** rebuild: the memory is ignored and saved anew from every note. */
  fresh: boolean;
  now: () => number;
  /** How far back from now the notes the call reads are named as a rule (Command.readsNotesWithin); else all. */
  notesWithin?: number;
}

/**
 * What a writing call saves of its device cache (`remembered`, begun from files saved at `began.savedAt`, with a
 * folder summary or not), or null for nothing. Nothing learned: saved again only once an hour, to stay well
 * within its age limit (CACHE_MAX_AGE_MS); a name gone from the folder meanwhile keeps its time until the next
 * save, and is never asked about while it is gone. Without a folder summary, or with one that no longer told (an
 * older note came or went), one is saved as soon as it can be made.
 */
export function toKeep(
  remembered: RememberingStore,
  began: { savedAt: number | undefined; summary: boolean },
  now: number,
): Kept | null {
  const due =
    began.savedAt === undefined ||
    remembered.learned() ||
    now - began.savedAt >= RESAVE_MS ||
    (began.summary && remembered.timesRead());
  if (!due && began.summary) return null;
  const kept = remembered.remembered(now);
  return kept === null || (!due && kept.summary === null) ? null : kept;
}

/**
 * The note times' text when its file is old enough to be due for saving again (refreshedNoteTimes then decides by
 * the time saved in it, which is never later than the file's), else null, unread. A minute of slack for the write.
 */
async function dueForResave(file: string, now: number): Promise<string | null> {
  const stat = await fs.stat(file).catch(() => null);
  return stat !== null && now - stat.mtimeMs >= RESAVE_MS - 60_000 ? readMemoryFile(file) : null;
}

/**
 * The identity of a file in the session folder (NodeStore.fileKey), a note's path joined to the folder's once
 * resolved: KeptFields asks only about confirmed notes' names directly inside it (no separator, no "..").
 */
function sessionFileKey(store: NodeStore, folder: string): FileKeyOf {
  const prefix = `${folder}/`;
  let absolute: string | null | undefined;
  return (p) => {
    const name = p.startsWith(prefix) ? p.slice(prefix.length) : null;
    if (name === null || name.includes("/") || name.includes("\\")) return store.fileKey(p);
    if (absolute === undefined) {
      try {
        absolute = store.resolve(folder);
      } catch {
        absolute = null;
      }
    }
    return absolute === null ? null : fileKeyAt(`${absolute}${path.sep}${name}`);
  };
}

/** The device memory of the vault `store` is on (`layout`'s session folder), as `use` says. Never throws. */
export async function openMemory(
  store: NodeStore,
  layout: Layout,
  env: NodeJS.ProcessEnv,
  use: MemoryUse,
): Promise<CliMemory> {
  const where = await vaultStatePath(store.root, env).catch(() => null);
  const owner: MemoryOwner | null = where && { tool: VERSION, vault: where.realVault, folder: layout.sessions };
  const file = where && path.join(where.dir, MEMORY_FILES.times);
  const checksFile = where && path.join(where.dir, MEMORY_FILES.checks);
  const summaryFile = where && path.join(where.dir, MEMORY_FILES.summary);
  const read = async (at: string | null): Promise<string | null> =>
    at !== null && owner !== null && !use.fresh ? readMemoryFile(at) : null;
  const fieldsFile = where && path.join(where.dir, MEMORY_FILES.fields);
  const [checksText, summaryText, fieldsText] = await Promise.all([
    read(checksFile),
    read(summaryFile),
    read(fieldsFile),
  ]);
  const began = use.now();
  // The recent notes' frontmatter by their files' identities: what the call need not read again.
  const fields = fieldsText === null || owner === null ? null : parseKeptFields(fieldsText, owner, began);
  const notes = new KeptFields(layout.sessions, sessionFileKey(store, layout.sessions), () => monotonicMs());
  notes.begin(fields?.notes ?? null, began);
  // While the listing begun early is under way (early-listing.ts); only the notes the call reads as a rule.
  notes.prepare(use.notesWithin === undefined ? null : began - use.notesWithin);
  const summary = summaryText === null || owner === null ? null : parseFolderSummary(summaryText, owner, began);
  // The times (one per note: the largest part) are read and parsed only when the folder's summary cannot answer
  // (core/device-memory/folder-summary.ts): without a summary, at once; with one, once a question needs them.
  let timesText: string | null | undefined = summary === null ? await read(file) : undefined;
  const textOfTimes = (): string | null =>
    timesText !== undefined ? timesText : (timesText = file !== null && !use.fresh ? readMemoryFileNow(file) : null);
  let parsed: Remembered | null | undefined;
  const times = (): Remembered | null => {
    if (parsed !== undefined) return parsed;
    const text = owner && textOfTimes();
    return (parsed = text === null || owner === null ? null : parseNoteTimes(text, owner, began));
  };
  const checks = new CheckedIndexes(
    sha256,
    checksText === null || owner === null ? null : parseIndexChecks(checksText, owner, began),
  );
  const reading: FolderReading = {
    listing: (folder) => store.listing(folder),
    names: (folder) => store.names(folder),
    kinds: (folder, names) => store.kindsOf(folder, names),
  };
  // The older notes' record fields (older-fields.ts): read only when a call first asks about an older note.
  const olderFile = where && path.join(where.dir, MEMORY_FILES.older);
  let olderRead: { savedAt: number } | null = null;
  const older = new OlderFields(layout.sessions, () => {
    const text = olderFile !== null && owner !== null && !use.fresh ? readMemoryFileNow(olderFile) : null;
    const parsed = text === null || owner === null ? null : parseOlderFields(text, owner, began);
    olderRead = parsed;
    return parsed?.kept ?? null;
  });
  older.begin(began);
  // The older notes' review fold (older-reviews.ts): read when next first asks; one made by this call saved after it.
  const reviewsFile = where && path.join(where.dir, MEMORY_FILES.reviews);
  let foldMade: OlderReviews | null = null;
  const reviews = {
    load: (): OlderReviews | null => {
      const text = reviewsFile !== null && owner !== null && !use.fresh ? readMemoryFileNow(reviewsFile) : null;
      return text === null || owner === null ? null : parseOlderReviews(text, owner, began);
    },
    keep: (fold: OlderReviews): void => {
      foldMade = fold;
    },
  };
  // The older notes' totals (older-totals.ts): read only when stats, goal or year first asks.
  const totalsFile = where && path.join(where.dir, MEMORY_FILES.totals);
  const totals = new OlderTotalsPart(
    layout.sessions,
    () => {
      const text = totalsFile !== null && owner !== null && !use.fresh ? readMemoryFileNow(totalsFile) : null;
      return text === null || owner === null ? null : parseOlderTotals(text, owner, began);
    },
    sha256,
  );
  totals.begin(began);
  const remembered = new RememberingStore(
    store,
    layout.sessions,
    (folder, names) => store.modifiedTimes(folder, names),
    summary ? { summary: summary.summary, times: () => times()?.times ?? null } : (times()?.times ?? null),
    { listing: reading, checks, digest: sha256, fields: notes, older, reviews, totals },
  );
  // Saved by any call that read them (readers too, without the lock): a file is one call's own reads, or a kept one
  // less the names gone, each entry true of its create-only name, written atomically (docs/performance.md).
  const saveOlder = async (): Promise<void> => {
    const save = olderFile !== null && owner !== null ? remembered.olderToSave() : null;
    const at = save === null ? null : save.at === "as read" ? (olderRead?.savedAt ?? null) : save.at;
    if (save === null || at === null || olderFile === null || owner === null) return;
    await writeMemoryFile(olderFile, renderOlderFields(owner, save.notes, at));
  };
  // Dated when the notes it folds were read: those kept (older-fields.txt), else this call's own reads.
  const saveReviews = async (): Promise<void> => {
    // rebuild remakes the memory from the notes: a fold of what they said before is not kept past it.
    if (use.fresh && reviewsFile !== null) await fs.rm(reviewsFile, { force: true });
    const fold: OlderReviews | null = foldMade;
    if (fold === null || reviewsFile === null || owner === null) return;
    await writeMemoryFile(reviewsFile, renderOlderReviews(owner, fold, olderRead?.savedAt ?? began));
  };
  // Saved by a call that folded them (any call, as the older notes' records are): made afresh from those records,
  // or taken forward by the notes that crossed the split; dated now, trusted by when their notes were read.
  const saveTotals = async (): Promise<void> => {
    // rebuild read every note afresh: totals of the notes as read before are dropped (the next read folds anew).
    if (use.fresh && totalsFile !== null) return fs.rm(totalsFile, { force: true });
    const save =
      totalsFile !== null && owner !== null ? remembered.olderTotalsToSave(olderRead?.savedAt ?? null) : null;
    if (save !== null && totalsFile !== null && owner !== null) {
      await writeMemoryFile(totalsFile, renderOlderTotals(owner, save, use.now()));
    }
  };
  return {
    store: remembered,
    memory: remembered,
    sweep: (sweepOn) => (ports, l) => remembered.reusingListing(() => sweepOn(ports, l)),
    finish: async () => {
      await saveOlder().catch(() => undefined);
      await saveReviews().catch(() => undefined);
      // A check is a fact about two inputs (this text lists exactly these names): a reader saves it too, atomically;
      // a writer's save it overwrites is only learned again (docs/performance.md "The index checks").
      if (checks.learned() && checksFile !== null && owner !== null) {
        await writeMemoryFile(checksFile, renderIndexChecks(owner, checks.remembered(), use.now()));
      }
      await saveTotals().catch(() => undefined);
      if (!use.writes || file === null || summaryFile === null || owner === null) return;
      try {
        if (use.fresh) await remembered.learnAll();
        const now = use.now();
        if (fieldsFile !== null && (notes.learned() || fields === null || now - fields.savedAt >= RESAVE_MS)) {
          await writeMemoryFile(fieldsFile, renderKeptFields(owner, notes.kept(), now));
        }
        const kept = toKeep(
          remembered,
          { savedAt: summary?.savedAt ?? times()?.savedAt, summary: summary !== null },
          now,
        );
        if (kept === null) return;
        if (kept.times !== null) await saveNoteTimes(file, owner, kept.times, now);
        else {
          // The times were not needed: kept as they are, within their day (read only when due by the file's time).
          const text = timesText !== undefined ? timesText : await dueForResave(file, now);
          const refreshed = text === null ? null : refreshedNoteTimes(text, owner, now, RESAVE_MS);
          if (refreshed !== null) await writeMemoryFile(file, refreshed);
        }
        if (kept.summary !== null) await writeMemoryFile(summaryFile, renderFolderSummary(owner, kept.summary, now));
        else await fs.rm(summaryFile, { force: true });
      } catch {
        // the next call learns afresh
      }
    },
  };
}
