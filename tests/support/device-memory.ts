import { RESAVE_MS, toKeep } from "../../src/cli/device-memory/open-memory";
import type { MemoryOwner } from "../../src/cli/device-memory/envelope";
import { sha256 } from "../../src/cli/device-memory/envelope";
import * as files from "../../src/cli/device-memory/memory-files";
import { isDeepStrictEqual } from "node:util";
import { CheckedIndexes } from "../../src/core/device-memory/checked-indexes";
import { classifyRecord } from "../../src/core/records/frontmatter";
import type { DeviceMemory, OlderNotes, SessionStore } from "../../src/core/ports";
import { kindOf } from "../../src/core/scan/names";
import type { FolderReading, TimeOf, TimesOf } from "../../src/core/device-memory/folder-reading";
import { RememberingStore } from "../../src/core/device-memory/remembering-store";
import { KeptFields } from "../../src/core/device-memory/kept-fields";
import { OlderFields, sectionsOf } from "../../src/core/device-memory/older-fields";
import type { OlderFold, OlderReviews } from "../../src/core/device-memory/older-reviews";
import { parseOlderReviews, renderOlderReviews } from "../../src/cli/device-memory/older-reviews-file";
import { parseOlderFields, renderOlderFields } from "../../src/cli/device-memory/older-file";
import { plainSection } from "../../src/core/records/brief";
import type { ConfirmedSession } from "../../src/core/records/records";
import { interpretConfirmed } from "../../src/core/records/records";
import { ForwardingStore } from "./forwarding-store";
import { OlderTotalsPart } from "../../src/core/device-memory/older-totals-part";
import type { Covered, DayRow } from "../../src/core/device-memory/older-totals";
import { decidingFacts, plainCount, sumsOf } from "../../src/core/device-memory/older-totals";
import { parseOlderTotals, renderOlderTotals } from "../../src/cli/device-memory/older-totals-file";
import type { MemoryStore } from "./memory-store";

const DAY_MS = 24 * 3_600_000;

const OWNER: MemoryOwner = { tool: "test", vault: "/vault", folder: "palee/sessions" };

/** A store over `inner` that keeps the fields of the recent notes it reads in `kept`, and nothing else. */
export function keepingFields(inner: SessionStore, kept: KeptFields): RememberingStore {
  const noTimes: TimesOf = () => Promise.reject(new Error("no times are asked of a store that keeps fields only"));
  return new RememberingStore(inner, kept.folder, noTimes, null, { fields: kept });
}

/** What can happen to a device's cache file between two calls (issue 22). */
export type CacheTrouble = "delete" | "corrupt" | "stale" | "future";
export const CACHE_TROUBLES: readonly CacheTrouble[] = ["delete", "corrupt", "stale", "future"];

/** The modification times of an in-memory store, as NodeStore.modifiedTimes tells them. */
export function memoryTimes(memory: MemoryStore): TimesOf {
  return (folder, names) =>
    Promise.resolve(
      names.map((name): TimeOf => {
        const path = `${folder}/${name}`;
        return memory.files.has(path) ? (memory.mtimes.get(path) ?? "untold") : "missing";
      }),
    );
}

/**
 * A folder of `store` read as NodeStore reads it for the CLI's cache (open-memory.ts): its names alone (in order
 * by name, as the usual file systems list them), then what some of them are, or both at once.
 */
export function readingOf(store: SessionStore, timesOf?: TimesOf): FolderReading {
  const listing = async (folder: string) => {
    const [files, folders] = await Promise.all([store.list(folder), store.folders(folder)]);
    return { files, folders };
  };
  return {
    listing,
    names: async (folder) => {
      const { files, folders } = await listing(folder);
      return [...files, ...folders].sort();
    },
    kinds: async (folder, names) => {
      const { files, folders } = await listing(folder);
      const told = { files: names.filter((n) => files.includes(n)), folders: names.filter((n) => folders.includes(n)) };
      if (!timesOf) return told;
      // With the times told along, as NodeStore.kindsOf tells them.
      const ats = await timesOf(folder, told.files);
      const times = new Map<string, number>();
      told.files.forEach((n, i) => {
        const at = ats[i];
        if (typeof at === "number") times.set(n, at);
      });
      return { ...told, times };
    },
  };
}

/**
 * One device's memory as the CLI keeps it, in memory: its file's text (through the real format of
 * cli/device-memory/memory-files.ts), loaded when a call begins and saved when a writing call ends. `store` is what the
 * device's core works on.
 */
export class DeviceMemoryModel {
  text: string | null = null;
  /** The index checks' file (core/device-memory/checked-indexes.ts), beside it: saved and troubled alike. */
  checksText: string | null = null;
  readonly savedChecks: string[] = [];
  /** The folder summary's file (core/device-memory/folder-summary.ts), beside them: saved and troubled alike. */
  summaryText: string | null = null;
  readonly savedSummaries: string[] = [];
  checks!: CheckedIndexes;
  /** The recent notes kept by identity (core/device-memory/kept-fields.ts), beside them: saved and troubled alike. */
  fieldsText: string | null = null;
  readonly savedFields: string[] = [];
  kept!: KeptFields;
  private fieldsBegan: number | undefined;
  /** The older notes' records kept by name (core/device-memory/older-fields.ts): saved by reads too. */
  olderText: string | null = null;
  readonly savedOlder: string[] = [];
  older!: OlderFields;
  /** The older notes' review fold (core/device-memory/older-reviews.ts): saved by reads too, troubled alike. */
  reviewsText: string | null = null;
  readonly savedReviews: string[] = [];
  private foldMade: OlderReviews | null = null;
  /** The older notes' totals (core/device-memory/older-totals.ts): saved by the calls that fold them. */
  totalsText: string | null = null;
  readonly savedTotals: string[] = [];
  totals!: OlderTotalsPart;
  /** When the current call began, and when the older notes it loaded were read (null: none loaded). */
  private callAt = 0;
  private olderAt: number | null = null;
  /** When the files the current call trusted were saved (undefined: none trusted), and whether a summary was. */
  private began: number | undefined;
  private summaryBegan = false;
  /** Every text saved, oldest first: a stale cache is one of them. */
  readonly saved: string[] = [];
  remembered!: RememberingStore;
  /**
   * What the core works on, as its store and its device memory: the remembered times, checked against the
   * store's own answer (CheckedTimes).
   */
  store!: SessionStore & DeviceMemory;
  /**
   * Names a test replaced with other content by hand (a rename over an existing note): the one case the cache
   * does not see until it is rebuilt (docs/performance.md), left out of the check.
   */
  readonly rewritten = new Set<string>();
  /**
   * How the calls began: with a cache trusted, or learning afresh; how many answers the cache gave; how often an
   * index.md was known from a remembered check (and so not checked line by line); how many writing calls the
   * folder summary answered alone (the times never read); how many notes were answered from the notes kept; how
   * many listings came with their older notes known; how many calls trusted a memory saved over a day before
   * (issue 36: trusted for 30 days).
   */
  readonly counts = {
    ...{ warm: 0, cold: 0, answered: 0, indexKnown: 0, summaryOnly: 0, kept: 0, span: 0, aged: 0 },
    /** Sessions answered from the older notes kept by name, and files of them saved. */
    ...{ older: 0, olderSaved: 0 },
    /** Calls that took the older notes' review fold, and folds saved. */
    ...{ folded: 0, foldSaved: 0 },
    /** Calls answered with the older notes' totals, and files of them saved. */
    ...{ totals: 0, totalsSaved: 0 },
  };

  constructor(
    inner: SessionStore,
    private readonly memory: MemoryStore,
  ) {
    this.rewire(inner);
  }

  /** The cache over another store (a fresh instance of the app after a crash); returns what the core uses. */
  rewire(inner: SessionStore): SessionStore & DeviceMemory {
    this.checks = new CheckedIndexes(sha256);
    // A file's identity here is its content (a write that leaves it as it was changes nothing one could read).
    const keyOf = (path: string): string | null => {
      const text = this.memory.files.get(path);
      return text === undefined ? null : `${text.length}:${text}`;
    };
    this.kept = new KeptFields(OWNER.folder, keyOf);
    this.older = new OlderFields(OWNER.folder, () => {
      const read = this.olderText === null ? null : parseOlderFields(this.olderText, OWNER, this.callAt);
      this.olderAt = read?.savedAt ?? null;
      return read?.kept ?? null;
    });
    this.totals = new OlderTotalsPart(
      OWNER.folder,
      () => (this.totalsText === null ? null : parseOlderTotals(this.totalsText, OWNER, this.callAt)),
      sha256,
    );
    this.remembered = new RememberingStore(inner, OWNER.folder, memoryTimes(this.memory), null, {
      listing: readingOf(inner, memoryTimes(this.memory)),
      checks: this.checks,
      digest: sha256,
      fields: this.kept,
      older: this.older,
      reviews: {
        load: () => (this.reviewsText === null ? null : parseOlderReviews(this.reviewsText, OWNER, this.callAt)),
        keep: (fold) => {
          this.foldMade = fold;
        },
      },
      totals: this.totals,
    });
    this.store = new CheckedTimes(this.remembered, this.memory, this);
    return this.store;
  }

  /**
   * A call begins: the cache files are read (a text not to be trusted: nothing known from it), as open-memory.ts
   * `openMemory` does. Returns whether any was trusted.
   */
  begin(now: number): boolean {
    const summary = this.summaryText === null ? null : files.parseFolderSummary(this.summaryText, OWNER, now);
    const text = this.text;
    const times = () => (text === null ? null : files.parseNoteTimes(text, OWNER, now));
    const read = summary === null ? times() : null;
    this.remembered.begin(
      summary ? { summary: summary.summary, times: () => times()?.times ?? null } : (read?.times ?? null),
    );
    this.checks.begin(this.checksText === null ? null : files.parseIndexChecks(this.checksText, OWNER, now));
    const fields = this.fieldsText === null ? null : files.parseKeptFields(this.fieldsText, OWNER, now);
    this.kept.begin(fields?.notes ?? null, now);
    this.kept.prepare(); // as the CLI does: every answer of the call from the identities asked at its beginning
    this.callAt = now;
    this.olderAt = null;
    this.foldMade = null;
    this.older.begin(now);
    this.totals.begin(now);
    this.fieldsBegan = fields?.savedAt;
    this.began = summary?.savedAt ?? read?.savedAt;
    this.summaryBegan = summary !== null;
    this.counts[this.began === undefined ? "cold" : "warm"] += 1;
    if (this.began !== undefined && now - this.began > DAY_MS) this.counts.aged += 1;
    return this.began !== undefined;
  }

  /**
   * A call ends, as open-memory.ts `finish` does: the older notes it read are saved by any call (a reader too);
   * the rest only by a writing one (`writes`), under the lock.
   */
  end(now: number, writes: boolean): void {
    const save = this.remembered.olderToSave();
    const at = save === null ? null : save.at === "as read" ? this.olderAt : save.at;
    if (save !== null && at !== null) {
      this.olderText = renderOlderFields(OWNER, save.notes, at);
      this.savedOlder.push(this.olderText);
      this.counts.olderSaved += 1;
    }
    const totals = this.remembered.olderTotalsToSave(this.olderAt);
    if (totals !== null) {
      this.totalsText = renderOlderTotals(OWNER, totals, now);
      this.savedTotals.push(this.totalsText);
      this.counts.totalsSaved += 1;
    }
    if (this.foldMade !== null) {
      this.reviewsText = renderOlderReviews(OWNER, this.foldMade, this.olderAt ?? this.callAt);
      this.savedReviews.push(this.reviewsText);
      this.counts.foldSaved += 1;
    }
    // An index check is saved by any call, as open-memory.ts `finish` does.
    if (this.checks.learned()) {
      this.checksText = files.renderIndexChecks(OWNER, this.checks.remembered(), now);
      this.savedChecks.push(this.checksText);
    }
    if (writes) this.save(now);
  }

  /** A writing call ends (under the lock): what it learned is saved, as open-memory.ts `finish` does. */
  save(now: number): void {
    if (!this.remembered.timesRead()) this.counts.summaryOnly += 1;
    const began = this.fieldsBegan;
    if (this.kept.learned() || began === undefined || now - began >= RESAVE_MS) {
      this.fieldsText = files.renderKeptFields(OWNER, this.kept.kept(), now);
      this.savedFields.push(this.fieldsText);
    }
    const kept = toKeep(this.remembered, { savedAt: this.began, summary: this.summaryBegan }, now);
    if (kept === null) return;
    if (kept.times !== null) this.text = files.renderNoteTimes(OWNER, kept.times, now);
    else if (this.text !== null) this.text = files.refreshedNoteTimes(this.text, OWNER, now, RESAVE_MS) ?? this.text;
    if (this.text !== null) this.saved.push(this.text);
    this.summaryText = kept.summary === null ? null : files.renderFolderSummary(OWNER, kept.summary, now);
    if (this.summaryText !== null) this.savedSummaries.push(this.summaryText);
  }

  /** `kind` befalls the device's cache files (the note times, the index checks, the folder summary, the notes kept). */
  trouble(kind: CacheTrouble, pick: number, now: number): void {
    this.text = troubled(this.text, this.saved, kind, pick, now);
    this.checksText = troubled(this.checksText, this.savedChecks, kind, pick, now);
    this.summaryText = troubled(this.summaryText, this.savedSummaries, kind, pick, now);
    this.fieldsText = troubled(this.fieldsText, this.savedFields, kind, pick, now);
    this.olderText = troubled(this.olderText, this.savedOlder, kind, pick, now);
    this.reviewsText = troubled(this.reviewsText, this.savedReviews, kind, pick, now);
    this.totalsText = troubled(this.totalsText, this.savedTotals, kind, pick, now);
  }

  /**
   * A note named `name` was replaced by other content (a rename over it): the older notes' blind spot, as the
   * note times' (docs/performance.md), seen at the next rebuild or within a day; the model takes the rebuild's
   * remedy at once for the part that would show it in the views, and leaves the name out of every check.
   */
  replaced(name: string): void {
    this.rewritten.add(name);
    this.olderText = null;
    this.reviewsText = null;
    this.totalsText = null;
  }
}

function troubled(text: string | null, saved: readonly string[], kind: CacheTrouble, pick: number, now: number) {
  if (kind === "delete" || text === null) return null;
  if (kind === "corrupt") {
    // One character of the body changed: the checksum no longer holds.
    const body = text.indexOf("\n", text.indexOf("\n") + 1) + 1;
    const at = body + (pick % (text.length - body));
    return `${text.slice(0, at)}${text[at] === "7" ? "3" : "7"}${text.slice(at + 1)}`;
  }
  if (kind === "stale") return saved[pick % saved.length] ?? null;
  // Saved "in the future" (this clock was set back since): not trusted.
  return text.replace(/"saved_at":\d+/, `"saved_at":${now + 60_000}`);
}

/**
 * The oracle: every name the store itself reports as written since `since` is among the cache's answer (it may
 * answer more: a time it remembers can be later than a file's, never earlier). A miss fails the test at once.
 */
class CheckedTimes extends ForwardingStore<RememberingStore> implements DeviceMemory {
  constructor(
    inner: RememberingStore,
    private readonly memory: MemoryStore,
    private readonly cache: DeviceMemoryModel,
  ) {
    super(inner, true);
  }

  indexListsExactly(text: string, names: readonly string[], except: string | null): boolean {
    const known = this.inner.indexListsExactly(text, names, except);
    if (known) this.cache.counts.indexKnown += 1;
    return known;
  }

  indexChecked(text: string, names: readonly string[], except: string | null, plus: string | null): void {
    this.inner.indexChecked(text, names, except, plus);
  }

  /**
   * The oracle of the older notes known in a listing: each a confirmed note's name, named before `before`, and
   * with the others exactly the listing.
   */
  olderNotesIn(folder: string, names: readonly string[]): OlderNotes | null {
    const known = this.inner.olderNotesIn(folder, names);
    if (known === null) return known;
    const wrong = known.older.filter((n) => kindOf(n) !== "confirmed" || n >= known.before);
    if (wrong.length > 0) throw new Error(`the older notes known hold ${wrong.join(", ")}`);
    if ([...known.older, ...known.others].sort().join("\n") !== [...names].sort().join("\n")) {
      throw new Error("the older notes known and the others are not the listing");
    }
    this.cache.counts.span += 1;
    return known;
  }

  /**
   * The oracle of the older notes kept by name: an answer is what reading the note as it is now gives (in any zone:
   * only a record that depends on none is kept), its body pending; a stale one fails at once.
   */
  cachedSession(path: string): ConfirmedSession | undefined {
    const session = this.inner.cachedSession(path);
    if (session === undefined || this.cache.rewritten.has(path.slice(OWNER.folder.length + 1))) return session;
    const truth = interpretConfirmed(path, classifyRecord(this.memory.files.get(path) ?? null), () => 0);
    if (!("record" in truth) || !isDeepStrictEqual({ ...truth.record, body: "", bodyPending: true }, session)) {
      throw new Error(`the older notes kept answered ${path} as it no longer reads`);
    }
    this.cache.counts.older += 1;
    return session;
  }

  sessionRead(path: string, session: ConfirmedSession | null): void {
    this.inner.sessionRead(path, session);
  }

  /** The fold kept is judged where it is used: next's answers against the full computation (older-reviews tests). */
  olderReviewsFor(names: readonly string[]): OlderReviews | null {
    const kept = this.inner.olderReviewsFor(names);
    if (kept !== null) this.cache.counts.folded += 1;
    return kept;
  }

  keepOlderReviews(fold: OlderFold): void {
    this.inner.keepOlderReviews(fold);
  }

  /** The oracle of an older note's sections: what its note has now. */
  olderSections(path: string): number | undefined {
    const bits = this.inner.olderSections(path);
    if (bits === undefined || this.cache.rewritten.has(path.slice(OWNER.folder.length + 1))) return bits;
    const read = classifyRecord(this.memory.files.get(path) ?? null);
    if (read.state !== "ok" || sectionsOf(read.body) !== bits)
      throw new Error(`the older sections of ${path} are wrong`);
    return bits;
  }

  /**
   * The oracle of the older notes' totals: the notes they fold are exactly the listed ones in their rows, each as
   * it reads now (its topic, day and minutes, in any zone), the topic notes' facts those of the notes folded, and
   * each note kept whole as it reads now. A total that no longer holds fails at once.
   */
  olderTotals(folder: string, names: readonly string[]): Covered | null {
    const covered = this.inner.olderTotals(folder, names);
    if (covered === null) return covered;
    const { totals } = covered;
    const rows: string[] = [];
    const facts = new Map<string, Array<{ startedMs: number; sessionId: string; topicNote: string | null }>>();
    const rest = new Set(covered.rest);
    for (const name of names) {
      const path = `${folder}/${name}`;
      // The call's own to read. (A note replaced by hand took the totals with it, replaced: not left out here.)
      if (rest.has(name)) continue;
      const truth = interpretConfirmed(path, classifyRecord(this.memory.files.get(path) ?? null), () => 0);
      const kept = totals.irregular.get(name);
      if (!("record" in truth)) throw new Error(`the older totals hold ${name}, which does not read`);
      if (kept !== undefined) {
        if (
          !isDeepStrictEqual(
            { ...truth.record, path, body: "", bodyPending: true },
            { ...kept, path, body: "", bodyPending: true },
          )
        ) {
          throw new Error(`the older totals keep ${name} as it no longer reads`);
        }
        continue;
      }
      const plain = plainCount(name, truth.record, Number.POSITIVE_INFINITY);
      if (plain === null || !covered.folded(name)) throw new Error(`the older totals fold ${name}, not a plain note`);
      rows.push(`${truth.record.topicId} ${plain.day} ${plain.minutes}`);
      const { topicId, startedMs, sessionId, topicNote } = truth.record;
      facts.set(topicId, [...(facts.get(topicId) ?? []), { startedMs, sessionId, topicNote }]);
    }
    const held = (totals.rows() ?? []).flatMap((r) => r.minutes.map((m) => `${r.topicId} ${r.day} ${m}`));
    // The sums per day and per topic, which the answers take without a range, are the rows'.
    const sums = sumsOf(totals.rows() ?? []);
    const sorted = (days: readonly DayRow[]) =>
      days.map((d) => ({ day: d.day, total: d.total, minutes: [...d.minutes].sort((a, b) => a - b) }));
    if (!isDeepStrictEqual([sorted(sums.days), sums.topics], [sorted(totals.days), new Map(totals.topics)])) {
      throw new Error("the older totals' sums per day and per topic are not their rows'");
    }
    if (held.sort().join("\n") !== rows.sort().join("\n")) throw new Error("the older totals' rows are not the notes'");
    const decided = new Map([...facts].map(([topic, all]) => [topic, decidingFacts(all)]));
    if (!isDeepStrictEqual(decided, new Map(totals.facts))) throw new Error("the older totals' topic notes differ");
    this.cache.counts.totals += 1;
    return covered;
  }

  /** The oracle of the sections kept: a note said to have none has none now (one said to have one is read). */
  sectionKnown(path: string, heading: string): boolean | undefined {
    const known = this.inner.sectionKnown(path, heading);
    if (known === undefined || this.cache.rewritten.has(path.slice(OWNER.folder.length + 1))) return known;
    const read = classifyRecord(this.memory.files.get(path) ?? null);
    const truth = read.state === "ok" && plainSection(read.body, heading) !== null;
    if (known !== truth) throw new Error(`the older notes kept say ${path} has ${known ? "a" : "no"} ${heading}`);
    return known;
  }

  /** The oracle of the notes kept: an answer is the frontmatter the note has now. A stale one fails at once. */
  cachedFields(path: string): Record<string, unknown> | undefined {
    const fields = this.inner.cachedFields(path);
    if (fields === undefined) return fields;
    const truth = classifyRecord(this.memory.files.get(path) ?? null);
    if (truth.state !== "ok" || !isDeepStrictEqual(truth.fields, fields)) {
      throw new Error(`the notes kept answered ${path} as it no longer is`);
    }
    this.cache.counts.kept += 1;
    return fields;
  }

  /**
   * The oracle of the notes kept as their sessions: an answer is what reading the note as it is now gives (in any
   * zone: only a session that depends on none is kept so), its body pending. A stale one fails at once.
   */
  cachedConfirmed(path: string): ConfirmedSession | undefined {
    const session = this.inner.cachedConfirmed(path);
    if (session === undefined) return session;
    const truth = interpretConfirmed(path, classifyRecord(this.memory.files.get(path) ?? null), () => 0);
    if (!("record" in truth) || !isDeepStrictEqual({ ...truth.record, body: "", bodyPending: true }, session)) {
      throw new Error(`the notes kept answered ${path} as it no longer reads`);
    }
    this.cache.counts.kept += 1;
    return session;
  }

  async changedAmong(folder: string, names: readonly string[], since: number): Promise<string[]> {
    const answer = await this.inner.changedAmong(folder, names, since);
    const truth = await this.memory.changedAmong(folder, names, since);
    const given = new Set(answer);
    const missed = truth.filter((name) => !given.has(name) && !this.cache.rewritten.has(name));
    if (missed.length > 0) throw new Error(`the note times missed ${missed.join(", ")} (written since ${since})`);
    this.cache.counts.answered += 1;
    return answer;
  }
}
