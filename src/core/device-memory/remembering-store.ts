import type { ChangeReport, DeviceMemory, ModifiedAt, OlderNotes, SessionStore } from "../ports";
import type { Vouched } from "./by-names";
import { readByNames } from "./by-names";
import type { CheckedIndexes } from "./checked-indexes";
import type { FolderReading, Listing, TimesOf } from "./folder-reading";
import type { KeptFields } from "./kept-fields";
import type { OlderFields, OlderKept, OlderSave } from "./older-fields";
import { Listed } from "./listed";
import type { RunBefore } from "./listed";
import type { Digest } from "./names-digest";
import type { Kept, Known } from "./note-times";
import { NoteTimes } from "./note-times";
import { kindOf } from "../scan/names";
import { SECTIONS } from "./older-fields";
import type { ConfirmedSession } from "../records/records";
import type { OlderFold, OlderReviews } from "./older-reviews";
import { olderKey, withDigest } from "./older-reviews";
import type { KnownOlder } from "./checked-indexes";
import { namesKey } from "./checked-indexes";
import { sameDigest } from "./names-digest";
import type { OlderTotalsPart } from "./older-totals-part";
import type { Covered, OlderTotals } from "./older-totals";

export type { Kept, Known } from "./note-times";

/*
 * The one store of the device memory (docs/core.md "Device memory"): the vault's store as this device remembers
 * it, over the face's own. Pure: no file system here; the face keeps what it learned between its processes (the
 * CLI: cli/device-memory/, outside the vault).
 */

/** The parts a RememberingStore answers from, each optional: what it lacks it passes on to `inner`. */
export interface MemoryParts {
  /**
   * The folder's subfolders come from the listing's own reading (once per listing); a FolderReading reads names
   * alone while a summary can vouch for its older notes.
   */
  listing?: Listing | FolderReading;
  /** What this device remembers of checking index.md (checked-indexes.ts). */
  checks?: CheckedIndexes;
  /** The folder is kept as a summary (folder-summary.ts), its sets of names by this digest. */
  digest?: Digest;
  /** The recent notes' frontmatter kept by their files' identities (kept-fields.ts). */
  fields?: KeptFields;
  /** The older notes' record fields kept by name (older-fields.ts). */
  older?: OlderFields;
  /** The older notes' review fold (older-reviews.ts): what the face keeps, and what this call made to keep. */
  reviews?: { load: () => OlderReviews | null; keep: (reviews: OlderReviews) => void };
  /** The older notes' totals (older-totals.ts). */
  totals?: OlderTotalsPart;
}

/**
 * For the session folder, answers `changedAmong` from the notes' times (note-times.ts), `cachedFields` from the
 * fields kept, and DeviceMemory from the index checks and the latest listing; every other call goes to `inner`.
 * It follows its own writes (a name written forgets its time and its kept fields) and the latest listing, which
 * `remembered` keeps: what the face may save.
 */
export class RememberingStore implements SessionStore, DeviceMemory {
  private readonly times: NoteTimes;
  /** The folder's names as last listed, with this store's writes since; null before the first listing. */
  private listed: Listed | null = null;
  /** "reused": `list` of the folder answers from `listed` (the temp sweep after an operation: no new listing). */
  private listing: "fresh" | "reused" = "fresh";
  /** The session folder's subfolders from the latest listing, until `folders` takes them. */
  private subfolders: string[] | null = null;
  /** The latest listing's older notes, when the summary vouched for them; null when it did not. */
  private vouched: Vouched | null = null;

  constructor(
    readonly inner: SessionStore,
    /** The session folder (Layout.sessions), vault-relative. */
    readonly folder: string,
    timesOf: TimesOf,
    known: Known = null,
    private readonly parts: MemoryParts = {},
  ) {
    this.times = new NoteTimes(folder, timesOf, parts.digest);
    this.begin(known);
  }

  /** Starts afresh from `known` (null: nothing known, every name is asked about once). Takes ownership of it. */
  begin(known: Known): void {
    this.times.begin(known);
    this.listed = null;
    this.subfolders = null;
    this.vouched = null;
  }

  /** Whether a time was learned or forgotten since `begin` (names gone from the folder are not counted here). */
  learned(): boolean {
    return this.times.learned();
  }

  /** Whether the times were read (or given at `begin`): false while the summary answered every question. */
  timesRead(): boolean {
    return this.times.timesRead();
  }

  /** What to keep, made at `now` (NoteTimes.remembered); null when this store never listed the folder. */
  remembered(now: number): Kept | null {
    return this.listed === null ? null : this.times.remembered(this.listed, this.vouched, now);
  }

  /** Lists the folder and learns the time of every confirmed note in it (rebuild refreshes the whole memory). */
  async learnAll(): Promise<void> {
    const names = (await this.list(this.folder)).filter((name) => kindOf(name) === "confirmed");
    await this.times.learnAll(names);
  }

  /** Runs `fn` with listings of the folder answered from the latest one (and this store's writes since). */
  async reusingListing<T>(fn: () => Promise<T>): Promise<T> {
    this.listing = "reused";
    try {
      return await fn();
    } finally {
      this.listing = "fresh";
    }
  }

  async changedAmong(folder: string, names: readonly string[], since: number): Promise<string[]> {
    if (folder !== this.folder) return this.inner.changedAmong(folder, names, since);
    const changed = await this.times.changedAmong(names, since, this.vouched?.older.older ?? null);
    this.parts.older?.wasWritten(changed);
    return changed;
  }

  async list(folder: string): Promise<string[]> {
    if (folder !== this.folder) return this.inner.list(folder);
    if (this.listing === "reused" && this.listed !== null) return this.listed.all();
    let names: string[];
    this.vouched = null;
    const { listing } = this.parts;
    if (listing) {
      const read = typeof listing === "function" ? await listing(folder) : await this.readVouched(listing);
      names = read.files;
      this.subfolders = read.folders;
    } else names = await this.inner.list(folder);
    this.listed = new Listed(names, this.olderRun(names));
    return names;
  }

  /** Where the older notes the summary vouched for are in `names` (readByNames put them there as one run). */
  private olderRun(names: readonly string[]): RunBefore | null {
    const vouched = this.vouched;
    if (vouched === null || vouched.files !== names || vouched.older.older.length === 0) return null;
    const { older, before } = vouched.older;
    const from = names.indexOf(older[0]); // after the few names before the confirmed ones (a listing: none twice)
    return from < 0 ? null : { from, to: from + older.length, before };
  }

  /** The folder by its names while the summary can vouch for its older notes (readByNames), else one typed listing. */
  private async readVouched(reading: FolderReading): Promise<{ files: string[]; folders: string[] }> {
    const summary = this.times.summary();
    const { digest } = this.parts;
    if (summary === null || !digest) return reading.listing(this.folder);
    const read = await readByNames(reading, this.folder, summary, digest);
    if (read.vouched === null) return read;
    // The recent notes' times, told along, are learned: the next call finds them in the summary, and asks nothing.
    this.times.told(read.times);
    this.vouched = read.vouched;
    return read;
  }

  folders(folder: string): Promise<string[]> {
    const read = folder === this.folder ? this.subfolders : null;
    this.subfolders = null; // once: a later scan reads the folder again
    return read ? Promise.resolve(read) : this.inner.folders(folder);
  }

  /** The name in the session folder that `path` is, or null for a path elsewhere. */
  private own(path: string): string | null {
    const prefix = `${this.folder}/`;
    return path.startsWith(prefix) && !path.slice(prefix.length).includes("/") ? path.slice(prefix.length) : null;
  }

  /** Before a write of `path`: its kept fields are forgotten (the write may change the note). */
  private writing(path: string): void {
    const { fields, older } = this.parts;
    const name = fields?.nameOf(path) ?? null;
    if (fields && name !== null) fields.forget(name);
    const old = older?.nameOf(path) ?? null;
    if (older && old !== null) older.forget(old);
  }

  /** After a write of `path` (also a failed one): its time is forgotten, and the listing follows. */
  private wrote(path: string, exists: boolean): void {
    const name = this.own(path);
    if (name === null) return;
    this.times.wrote(name);
    if (exists) this.listed?.add(name);
    else this.listed?.delete(name);
  }

  async create(path: string, content: string): Promise<void> {
    this.writing(path);
    try {
      await this.inner.create(path, content);
    } finally {
      this.wrote(path, true); // also after a failure: the time is forgotten, and a wrong listing costs one stat
    }
  }

  async replace(path: string, expected: string | null, content: string): Promise<void> {
    this.writing(path);
    try {
      await this.inner.replace(path, expected, content);
    } finally {
      this.wrote(path, true);
    }
  }

  async trash(path: string): Promise<void> {
    this.writing(path);
    try {
      await this.inner.trash(path);
    } finally {
      this.wrote(path, false);
    }
  }

  /** A recent note read is kept by its file's identity, taken first: what is read is the file then, or later. */
  async read(path: string): Promise<string | null> {
    const { fields } = this.parts;
    const name = fields ? fields.nameOf(path) : null;
    const key = fields && name !== null ? fields.keyOf(path) : null;
    const text = await this.inner.read(path);
    if (fields && name !== null && key !== null && text !== null) fields.learn(name, key, text);
    return text;
  }

  /** An older note the full scan read is learned from the scan's own reading (OlderFields.learn). */
  sessionRead(path: string, session: ConfirmedSession | null): void {
    const { older, totals } = this.parts;
    const name = older?.nameOf(path) ?? null;
    if (older && name !== null) older.learn(name, session);
    if (totals && name !== null) totals.read(name, session);
  }

  /** The older notes' totals that hold for `names`, the latest listing as returned (older-totals.ts). */
  olderTotals(folder: string, names: readonly string[]): Covered | null {
    const { totals } = this.parts;
    if (!totals || folder !== this.folder || this.listed === null) return null;
    const older = this.olderNotesIn(folder, names);
    const known = this.vouched?.known ?? null;
    return totals.coveredFor(names, older && known && { known, others: older.others });
  }

  /**
   * What to save of the older notes' totals after this call (OlderTotalsPart.toSave); null for nothing. `asRead`:
   * when the older notes' records this call loaded were read (the face's file date), null when unknown.
   */
  olderTotalsToSave(asRead: number | null): OlderTotals | null {
    const { older, totals } = this.parts;
    const listed = this.listed;
    if (!totals || listed === null) return null;
    const names = listed.all();
    const keptNow = () => {
      const now = older?.keptNow(names, (name) => listed.has(name)) ?? null;
      const readAt = now === null ? null : now.at === "as read" ? asRead : now.at;
      return now && readAt !== null ? { kept: now.notes, readAt } : null;
    };
    // The summary's older notes as it vouched for them, if it did: the totals then keyed at its split too.
    return totals.toSave(names, keptNow, this.vouched?.known ?? null);
  }

  /** A recent note's frontmatter as kept, while its file keeps the identity it had when read. */
  cachedFields(path: string): Record<string, unknown> | undefined {
    const { fields } = this.parts;
    const name = fields ? fields.nameOf(path) : null;
    const kept = fields && name !== null ? fields.fieldsOf(name, path) : undefined;
    return kept ? { ...kept } : this.inner.cachedFields(path);
  }

  /** A recent note's session as kept (KeptFields.sessionOf), while its file keeps the identity it had when read. */
  cachedConfirmed(path: string): ConfirmedSession | undefined {
    const { fields } = this.parts;
    const name = fields ? fields.nameOf(path) : null;
    return fields && name !== null ? fields.sessionOf(name, path) : this.inner.cachedConfirmed?.(path);
  }

  /** An older note's session as kept (older-fields.ts), its body pending; undefined when not kept. */
  cachedSession(path: string): ConfirmedSession | undefined {
    const older = this.olderNote(path);
    return older && older.kept.session(older.name, path);
  }

  /** An older note as kept, while its name is in the latest listing (a confirmed note is create-only). */
  private olderNote(path: string, load = true): { kept: OlderKept; name: string } | undefined {
    const { older } = this.parts;
    const name = older?.keptName(path) ?? null;
    const listed = older && name !== null && this.listed?.has(name);
    const kept = listed ? (load ? older.keptFor(name) : older.loadedFor(name)) : null;
    return kept && name !== null ? { kept, name } : undefined;
  }

  /**
   * Whether a note has a section (older-fields.ts SECTIONS), as kept; undefined when not kept, or when this call
   * has not loaded the older notes (a call that reads a topic's few notes reads them sooner than it loads them).
   */
  sectionKnown(path: string, heading: string): boolean | undefined {
    const bit = (SECTIONS as readonly string[]).indexOf(heading);
    const older = bit < 0 ? undefined : this.olderNote(path, false);
    const bits = older?.kept.sections(older.name);
    return bits === undefined ? undefined : (bits & (1 << bit)) !== 0;
  }

  /** What to save of the older notes (OlderFields.toSave) after this call; null when it never listed the folder. */
  olderToSave(): OlderSave | null {
    const { older } = this.parts;
    const listed = this.listed;
    return older && listed !== null ? older.toSave(listed.all(), (name) => listed.has(name)) : null;
  }

  /** The fold kept, when its set of older names is exactly the one `names` holds (a digest and a count). */
  olderReviewsFor(names: readonly string[]): OlderReviews | null {
    const { reviews, digest } = this.parts;
    const kept = reviews && digest ? reviews.load() : null;
    if (!kept || !digest) return null;
    const key = olderKey(names, kept.split, kept.keySplit, digest, this.knownIn(names));
    return sameDigest(key, kept.names) ? kept : null;
  }

  /** A fold made by this call, kept by the digest of its older names (cut where the folder summary cuts, if any). */
  keepOlderReviews(fold: OlderFold): void {
    const { reviews, digest } = this.parts;
    if (!reviews || !digest) return;
    const split = this.vouched?.known.split;
    const keySplit = split !== undefined && split <= fold.split ? split : fold.split;
    reviews.keep(withDigest(fold, namesKey(fold.olderNames, keySplit, digest), keySplit));
  }

  /** The folder summary's older notes of the listing `names`, when it vouched for them. */
  private knownIn(names: readonly string[]): { older: OlderNotes; known: KnownOlder } | null {
    const vouched = this.vouched;
    return vouched !== null && vouched.files === names ? { older: vouched.older, known: vouched.known } : null;
  }

  olderSections(path: string): number | undefined {
    const { older } = this.parts;
    const name = older?.keptName(path) ?? null;
    return older && name !== null ? older.bitsOf(name) : undefined;
  }

  modifiedAt(path: string): Promise<ModifiedAt> {
    return this.inner.modifiedAt(path);
  }

  changesSince(folder: string, since: number | null): ChangeReport {
    return this.inner.changesSince(folder, since);
  }

  /** The summary's older notes in the latest listing, when `names` is that listing as returned (olderRange's). */
  olderNotesIn(folder: string, names: readonly string[]): OlderNotes | null {
    const vouched = this.vouched;
    return folder === this.folder && vouched !== null && vouched.files === names ? vouched.older : null;
  }

  /** The older notes' names, as the latest listing vouched for them, are not digested again (checked-indexes.ts). */
  indexListsExactly(text: string, names: readonly string[], except: string | null): boolean {
    return this.parts.checks?.listsExactly(text, names, except, this.vouched?.known ?? null) ?? false;
  }

  indexChecked(text: string, names: readonly string[], except: string | null, plus: string | null): void {
    this.parts.checks?.checked(text, names, except, plus, this.vouched?.known ?? null);
  }
}
