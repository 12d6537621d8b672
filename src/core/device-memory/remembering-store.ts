import type { ChangeReport, DeviceMemory, ModifiedAt, OlderNotes, SessionStore } from "../ports";
import type { CheckedIndexes } from "./checked-indexes";
import type { FolderSummary } from "./folder-summary";
import type { Digest } from "./names-digest";
import { summaryChanged, summaryKept, summaryOf, sameSummary } from "./folder-summary";
import type { FolderReading, Listing, TimesOf } from "./folder-reading";
import type { Vouched } from "./by-names";
import { readByNames } from "./by-names";
import type { KeptFields } from "./kept-fields";
import { Listed } from "./listed";
import { kindOf } from "../scan/names";

/** What a call begins from: the remembered times, or a summary of the folder with the times read only if needed. */
export type Known = Map<string, number> | { summary: FolderSummary; times: () => Map<string, number> | null } | null;

/** What a face keeps after a call (remembered()): see there. */
export interface Kept {
  /** Every remembered time; null when the times were not needed (the face keeps the ones it has). */
  times: Map<string, number> | null;
  /** The folder summary, or null when it cannot be told (an older note's time is not known). */
  summary: FolderSummary | null;
  /** Whether any of it differs from what the call began with. */
  changed: boolean;
}

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
}

/**
 * Where the times stand in a call (the named states of the store):
 * - "summary": not read yet; `changedAmong` answers from the summary (folder-summary.ts) while it can, and the times
 *   are read (`readTimes`) once it cannot. `recent` is the summary's recent times less what this store wrote since;
 *   `forgotten`, what it wrote;
 * - "read": every time known is in the store's `times`.
 */
type TimesState =
  | {
      kind: "summary";
      summary: FolderSummary;
      times: () => Map<string, number> | null;
      recent: Map<string, number>;
      forgotten: Set<string>;
    }
  | { kind: "read" };

/**
 * The one store of the device memory (docs/core.md "Device memory"): the vault's store as this device remembers
 * it. For the session folder it answers `changedAmong` from the notes' remembered times (or the summary), asking
 * `timesOf` only about names it does not know: sound because a note that saves a draft is created whole under a
 * new name (create-only; a sync tool delivers it under that name), so a name already seen keeps the time that
 * bounds it. It answers `cachedFields` from the fields kept, and DeviceMemory from the index checks and the latest
 * listing; every other call goes to `inner`. It follows its own writes (a name written forgets its time and its
 * kept fields) and the latest listing, which `remembered` keeps: what the face may save (the CLI:
 * cli/device-memory/, outside the vault). Pure: no file system here.
 */
export class RememberingStore implements SessionStore, DeviceMemory {
  /** The times known: all remembered ("read"), or only those learned since `begin` ("summary"). */
  private times = new Map<string, number>();
  private state: TimesState = { kind: "read" };
  /** The summary the call began with, if any (what remembered() compares with). */
  private began: FolderSummary | null = null;
  /** The folder's names as last listed, with this store's writes since; null before the first listing. */
  private listed: Listed | null = null;
  /** "reused": `list` of the folder answers from `listed` (the temp sweep after an operation: no new listing). */
  private listing: "fresh" | "reused" = "fresh";
  /** The session folder's subfolders from the latest listing, until `folders` takes them. */
  private subfolders: string[] | null = null;
  /** Whether a time was learned or forgotten since `begin`. */
  private changed = false;
  /** The latest listing's older notes, when the summary vouched for them; null when it did not. */
  private vouched: Vouched | null = null;

  constructor(
    readonly inner: SessionStore,
    /** The session folder (Layout.sessions), vault-relative. */
    readonly folder: string,
    private readonly timesOf: TimesOf,
    known: Known = null,
    private readonly parts: MemoryParts = {},
  ) {
    this.begin(known);
  }

  /** Starts afresh from `known` (null: nothing known, every name is asked about once). Takes ownership of it. */
  begin(known: Known): void {
    const summary = known instanceof Map || known === null ? null : known;
    this.times = known instanceof Map ? known : new Map<string, number>();
    this.state = summary
      ? { kind: "summary", ...summary, recent: new Map(summary.summary.recent), forgotten: new Set() }
      : { kind: "read" };
    this.began = summary?.summary ?? null;
    this.listed = null;
    this.subfolders = null;
    this.changed = false;
    this.vouched = null;
  }

  /** Whether a time was learned or forgotten since `begin` (names gone from the folder are not counted here). */
  learned(): boolean {
    return this.changed;
  }

  /** Whether the times were read (or given at `begin`): false while the summary answered every question. */
  timesRead(): boolean {
    return this.state.kind === "read";
  }

  /**
   * What to keep, made at `now`, from the latest listing: every time known of its names (null when the summary
   * answered every question and still describes the folder: the face keeps the times it has), the folder in
   * summary, and whether any of it differs from what `begin` was given (a time learned or forgotten, a name gone, a
   * summary moved); null when this store never listed the folder.
   */
  remembered(now: number): Kept | null {
    const listed = this.listed;
    if (listed === null) return null;
    const { digest } = this.parts;
    const open = this.state.kind === "summary" ? this.state : null;
    const vouched = this.vouched;
    if (open !== null && vouched !== null) {
      // The older notes are the summary's (no older note written since, or the summary would be closed): only the
      // others are walked.
      const { summary, recent } = open;
      const others = listed.current(vouched.older.others).filter((name) => kindOf(name) === "confirmed");
      const timeOf = (name: string): number | undefined => this.times.get(name) ?? recent.get(name);
      const kept = summaryKept(summary, others, timeOf, now);
      if (kept !== null) return { times: null, summary: kept, changed: this.changed || !sameSummary(kept, summary) };
    }
    const confirmed = listed.all().filter((name) => kindOf(name) === "confirmed");
    if (open !== null) {
      const { summary, recent } = open;
      const timeOf = (name: string): number | undefined =>
        this.times.get(name) ??
        recent.get(name) ??
        (name < summary.split ? (summary.late.get(name) ?? -Infinity) : undefined);
      const made = digest ? summaryOf(confirmed, timeOf, now, summary, digest) : null;
      if (made !== null) return { times: null, summary: made, changed: this.changed || !sameSummary(made, summary) };
    }
    const times = this.readTimes();
    let changed = this.changed;
    // Names gone from the folder lose their times. When every time is one of a listed note's (counted: the
    // listing has no name twice), none is gone, and no set of the listing's names is made to ask.
    let listedTimes = 0;
    for (const name of confirmed) if (times.has(name)) listedTimes++;
    for (const name of listedTimes === times.size ? [] : times.keys()) {
      if (listed.has(name)) continue;
      times.delete(name); // gone from the folder (deleting the current key is safe while iterating a Map)
      changed = true;
    }
    const summary = digest ? summaryOf(confirmed, (name) => times.get(name), now, null, digest) : null;
    const began = this.began;
    const same = summary === null || began === null ? summary === began : sameSummary(summary, began);
    return { times, summary, changed: changed || !same };
  }

  /**
   * The times, read now if the summary answered so far: the remembered ones, then the summary's (saved with or after
   * them), then those learned since `begin`, less the names this store wrote since.
   */
  private readTimes(): Map<string, number> {
    const open = this.state;
    if (open.kind === "read") return this.times;
    const times = open.times() ?? new Map<string, number>();
    for (const [name, at] of open.summary.late) times.set(name, at);
    for (const [name, at] of open.recent) times.set(name, at);
    for (const name of open.forgotten) times.delete(name);
    for (const [name, at] of this.times) times.set(name, at);
    this.times = times;
    this.state = { kind: "read" };
    return times;
  }

  /** Lists the folder and learns the time of every confirmed note in it (rebuild refreshes the whole cache). */
  async learnAll(): Promise<void> {
    const names = (await this.list(this.folder)).filter((name) => kindOf(name) === "confirmed");
    const times = this.readTimes();
    await this.learn(names.filter((name) => !times.has(name)));
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
    const open = this.state.kind === "summary" ? this.state : null;
    const { digest } = this.parts;
    const vouched = this.vouched?.older.older ?? null;
    const told = open && digest && summaryChanged(open.summary, names, since, digest, vouched);
    if (open !== null && told) {
      // No older note came or went: only a late one can be among them; the rest are looked up one by one.
      const timeOf = (name: string): number | undefined => this.times.get(name) ?? open.recent.get(name);
      const missing = await this.learn(told.rest.filter((name) => timeOf(name) === undefined));
      const rest = told.rest.filter((name) => {
        const at = timeOf(name);
        return at === undefined ? !missing.has(name) : at >= since;
      });
      return [...told.changed, ...rest];
    }
    const times = this.readTimes();
    const missing = await this.learn(names.filter((name) => !times.has(name)));
    return names.filter((name) => {
      const at = times.get(name);
      return at === undefined ? !missing.has(name) : at >= since; // a time not told: read it
    });
  }

  /** Learns the times of `names`; returns those that no longer exist. */
  private async learn(names: readonly string[]): Promise<Set<string>> {
    const missing = new Set<string>();
    if (names.length === 0) return missing;
    const told = await this.timesOf(this.folder, names);
    names.forEach((name, i) => {
      const at = told[i];
      if (at === "missing") missing.add(name);
      if (typeof at !== "number") return;
      this.times.set(name, at);
      this.changed = true;
    });
    return missing;
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
    this.listed = new Listed(names);
    return names;
  }

  /** The folder by its names while the summary can vouch for its older notes (readByNames), else one typed listing. */
  private async readVouched(reading: FolderReading): Promise<{ files: string[]; folders: string[] }> {
    const open = this.state.kind === "summary" ? this.state : null;
    const { digest } = this.parts;
    if (open === null || !digest) return reading.listing(this.folder);
    const read = await readByNames(reading, this.folder, open.summary, digest);
    if (read.vouched === null) return read;
    // The recent notes' times, told along, are learned: the next call finds them in the summary, and asks nothing.
    for (const [name, at] of read.times) {
      if (kindOf(name) !== "confirmed" || this.times.get(name) === at) continue;
      this.times.set(name, at);
      this.changed = true;
    }
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
    const { fields } = this.parts;
    const name = fields?.nameOf(path) ?? null;
    if (fields && name !== null) fields.forget(name);
  }

  /** After a write of `path` (also a failed one): its time is forgotten, and the listing follows. */
  private wrote(path: string, exists: boolean): void {
    const name = this.own(path);
    if (name === null) return;
    const open = this.state.kind === "summary" ? this.state : null;
    if (open !== null && kindOf(name) === "confirmed" && name < open.summary.split) {
      this.readTimes(); // an older note came or went: the summary no longer tells
    } else if (open !== null) {
      open.forgotten.add(name);
      if (open.recent.delete(name)) this.changed = true;
    }
    if (this.times.delete(name)) this.changed = true;
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

  /** A recent note's frontmatter as kept, while its file keeps the identity it had when read. */
  cachedFields(path: string): Record<string, unknown> | undefined {
    const { fields } = this.parts;
    const name = fields ? fields.nameOf(path) : null;
    const kept = fields && name !== null ? fields.fieldsOf(name, path) : undefined;
    return kept ? { ...kept } : this.inner.cachedFields(path);
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
