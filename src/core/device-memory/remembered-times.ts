import type { ChangeReport, DeviceMemory, ModifiedAt, OlderNotes, SessionStore } from "../ports";
import type { CheckedIndexes, KnownOlder } from "./checked-indexes";
import type { FolderBrief } from "./folder-brief";
import type { Digest } from "./names-digest";
import { briefChanged, briefKept, briefOf, olderRange, sameBrief } from "./folder-brief";
import { Listed } from "./listed";
import { kindOf } from "../scan/names";

/**
 * The modification times of the session folder's confirmed notes as a device last saw them, so that a bounded
 * scan (recent-scan.ts) asks the file system only about names it has not seen (docs/performance.md "A
 * device-local cache"). The face keeps them between its processes (the CLI: cli/device-memory/, outside the
 * vault); this file only diffs names against them. Pure: no file system here.
 */

/** A name's modification time (epoch ms), or: no such file, or the store cannot tell (then it is read). */
export type TimeOf = number | "missing" | "untold";

/** How the face asks for the modification times of names directly inside a folder (following links), in order. */
export type TimesOf = (folder: string, names: readonly string[]) => Promise<TimeOf[]>;

/** A folder's files (as SessionStore.list) and subfolders (as SessionStore.folders) from one reading of it. */
export type Listing = (folder: string) => Promise<{ files: string[]; folders: string[] }>;

/**
 * A folder read by its names alone, and then asked what some of them are: at 30 000 names cheaper than a
 * listing that tells every entry's kind, as the names the folder brief vouches for need not be asked
 * (docs/performance.md "Names without types").
 */
export interface FolderReading {
  /** The folder's files and subfolders told apart by one reading: for when the brief cannot vouch. */
  listing: Listing;
  /** The names of every entry of the folder, files and subfolders alike. */
  names: (folder: string) => Promise<string[]>;
  /**
   * Which of `names` (entries of `folder`) are files and which subfolders, order kept; a name gone is neither.
   * With `times`, the files' modification times told by the same asking, as TimesOf tells them: learned.
   */
  kinds: (
    folder: string,
    names: readonly string[],
  ) => Promise<{ files: string[]; folders: string[]; times?: ReadonlyMap<string, number> }>;
}

/** What a call begins from: the remembered times, or a brief of the folder with the times read only if needed. */
export type Known = Map<string, number> | { brief: FolderBrief; times: () => Map<string, number> | null } | null;

/** What a face keeps after a call (remembered()): see there. */
export interface Kept {
  /** Every remembered time; null when the times were not needed (the face keeps the ones it has). */
  times: Map<string, number> | null;
  /** The folder in brief, or null when it cannot be told (an older note's time is not known). */
  brief: FolderBrief | null;
  /** Whether any of it differs from what the call began with. */
  changed: boolean;
}

/**
 * A SessionStore that answers `changedAmong` for the session folder from remembered times, asking `timesOf`
 * only about names it does not know; every other call goes to `inner`. Sound because a note that saves a draft
 * is created whole under a new name (create-only; a sync tool delivers it under that name), so a name already
 * seen keeps the time that bounds it. It follows its own writes (a name created, replaced or trashed forgets
 * its time) and the latest listing of the folder, which `remembered` keeps: what the face may save.
 */
export class RememberedTimes implements SessionStore, DeviceMemory {
  /** The times known: all remembered, or (with a brief) only those learned since `begin`. */
  private times = new Map<string, number>();
  /**
   * While set, the times are not read yet: `changedAmong` answers from the brief (folder-brief.ts) while it can,
   * and the times are read (`readTimes`) once it cannot. `recent` is the brief's recent times less what this
   * store wrote since; `forgotten`, what it wrote.
   */
  private brief: {
    brief: FolderBrief;
    times: () => Map<string, number> | null;
    recent: Map<string, number>;
    forgotten: Set<string>;
  } | null = null;
  /** The brief the call began with, if any (what remembered() compares with). */
  private began: FolderBrief | null = null;
  /** The folder's names as last listed, with this store's writes since; null before the first listing. */
  private listed: Listed | null = null;
  /** While set, `list` of the folder answers from `listed` (the temp sweep after an operation: no new listing). */
  private reuse = false;
  /** The session folder's subfolders from the latest listing, until `folders` takes them. */
  private subfolders: string[] | null = null;
  /** Whether a time was learned or forgotten since `begin`. */
  private changed = false;
  /**
   * The brief's older notes as the latest listing found them (olderRange: exactly those names, in its order),
   * so that changedAmong need not digest them again, and its other files; null when it did not vouch for them.
   */
  private verified: { older: string[]; others: string[]; known: KnownOlder } | null = null;
  /** The latest listing with its older notes apart (olderNotesIn), by the identity of the array returned. */
  private olderNotes: { names: readonly string[]; older: OlderNotes } | null = null;

  constructor(
    readonly inner: SessionStore,
    /** The session folder (Layout.sessions), vault-relative. */
    readonly folder: string,
    private readonly timesOf: TimesOf,
    known: Known = null,
    /**
     * When given, the folder's subfolders come from the listing's own reading (once per listing); a
     * FolderReading reads names alone while a brief can vouch for its older notes.
     */
    private readonly listing?: Listing | FolderReading,
    /** When given, what this device remembers of checking index.md (checked-indexes.ts). */
    readonly checks?: CheckedIndexes,
    /** When given, the folder is kept in brief (folder-brief.ts), its sets of names by this digest. */
    private readonly digest?: Digest,
  ) {
    this.begin(known);
  }

  /** Starts afresh from `known` (null: nothing known, every name is asked about once). Takes ownership of it. */
  begin(known: Known): void {
    const brief = known instanceof Map || known === null ? null : known;
    this.times = known instanceof Map ? known : new Map<string, number>();
    this.brief = brief && { ...brief, recent: new Map(brief.brief.recent), forgotten: new Set() };
    this.began = brief?.brief ?? null;
    this.listed = null;
    this.subfolders = null;
    this.changed = false;
    this.verified = null;
    this.olderNotes = null;
  }

  /** Whether a time was learned or forgotten since `begin` (names gone from the folder are not counted here). */
  learned(): boolean {
    return this.changed;
  }

  /** Whether the times were read (or given at `begin`): false while the brief answered every question. */
  timesRead(): boolean {
    return this.brief === null;
  }

  /**
   * What to keep, made at `now`, from the latest listing: every time known of its names (null when the brief
   * answered every question and still describes the folder: the face keeps the times it has), the folder in
   * brief, and whether any of it differs from what `begin` was given (a time learned or forgotten, a name gone, a
   * brief moved); null when this store never listed the folder.
   */
  remembered(now: number): Kept | null {
    const listed = this.listed;
    if (listed === null) return null;
    const { digest } = this;
    const open = this.brief;
    const verified = this.verified;
    if (open !== null && verified !== null) {
      // The older notes are the brief's (no older note written since, or the brief would be closed): only the
      // others are walked.
      const { brief, recent } = open;
      const others = listed.current(verified.others).filter((name) => kindOf(name) === "confirmed");
      const timeOf = (name: string): number | undefined => this.times.get(name) ?? recent.get(name);
      const kept = briefKept(brief, others, timeOf, now);
      if (kept !== null) return { times: null, brief: kept, changed: this.changed || !sameBrief(kept, brief) };
    }
    const confirmed = listed.all().filter((name) => kindOf(name) === "confirmed");
    if (open !== null) {
      const { brief, recent } = open;
      const timeOf = (name: string): number | undefined =>
        this.times.get(name) ??
        recent.get(name) ??
        (name < brief.split ? (brief.late.get(name) ?? -Infinity) : undefined);
      const made = digest ? briefOf(confirmed, timeOf, now, brief, digest) : null;
      if (made !== null) return { times: null, brief: made, changed: this.changed || !sameBrief(made, brief) };
    }
    const times = this.readTimes();
    let changed = this.changed;
    // Names gone from the folder lose their times. When every time is one of a listed note's (counted: the
    // listing has no name twice), none is gone, and no set of the listing's 30 000 names is made to ask.
    let listedTimes = 0;
    for (const name of confirmed) if (times.has(name)) listedTimes++;
    for (const name of listedTimes === times.size ? [] : times.keys()) {
      if (listed.has(name)) continue;
      times.delete(name); // gone from the folder (deleting the current key is safe while iterating a Map)
      changed = true;
    }
    const brief = digest ? briefOf(confirmed, (name) => times.get(name), now, null, digest) : null;
    const began = this.began;
    const same = brief === null || began === null ? brief === began : sameBrief(brief, began);
    return { times, brief, changed: changed || !same };
  }

  /**
   * The times, read now if the brief answered so far: the remembered ones, then the brief's (saved with or after
   * them), then those learned since `begin`, less the names this store wrote since.
   */
  private readTimes(): Map<string, number> {
    const open = this.brief;
    if (open === null) return this.times;
    const times = open.times() ?? new Map<string, number>();
    for (const [name, at] of open.brief.late) times.set(name, at);
    for (const [name, at] of open.recent) times.set(name, at);
    for (const name of open.forgotten) times.delete(name);
    for (const [name, at] of this.times) times.set(name, at);
    this.times = times;
    this.brief = null;
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
    this.reuse = true;
    try {
      return await fn();
    } finally {
      this.reuse = false;
    }
  }

  async changedAmong(folder: string, names: readonly string[], since: number): Promise<string[]> {
    if (folder !== this.folder) return this.inner.changedAmong(folder, names, since);
    const open = this.brief;
    const verified = this.verified?.older ?? null;
    const told = open && this.digest && briefChanged(open.brief, names, since, this.digest, verified);
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
    if (this.reuse && this.listed !== null) return this.listed.all();
    let names: string[];
    this.verified = null;
    this.olderNotes = null;
    const { listing } = this;
    if (listing) {
      const read = typeof listing === "function" ? await listing(folder) : await this.readByNames(listing);
      names = read.files;
      this.subfolders = read.folders;
    } else names = await this.inner.list(folder);
    this.listed = new Listed(names);
    return names;
  }

  /**
   * The folder's files and subfolders from its names: the older notes the brief vouches for (olderRange: their
   * set is exactly the brief's) and its recent notes are files, as a name once a note's file stays a file
   * (create-only); every other name is asked. Without a brief, or one that cannot vouch, one typed listing instead.
   */
  private async readByNames(reading: FolderReading): Promise<{ files: string[]; folders: string[] }> {
    const open = this.brief;
    const { digest } = this;
    if (open === null || !digest) return reading.listing(this.folder);
    const names = await reading.names(this.folder);
    const range = olderRange(open.brief, names, digest);
    if (range === null) return reading.listing(this.folder);
    const before = names.slice(0, range.from);
    const later = names.slice(range.to);
    const { recent } = open.brief;
    const asked = await reading.kinds(this.folder, [...before, ...later.filter((name) => !recent.has(name))]);
    const told = new Set(asked.files);
    // The recent notes' times, told along, are learned: the next call finds them in the brief, and asks nothing.
    for (const [name, at] of asked.times ?? []) {
      if (kindOf(name) !== "confirmed" || this.times.get(name) === at) continue;
      this.times.set(name, at);
      this.changed = true;
    }
    const isFile = (name: string): boolean => recent.has(name) || told.has(name);
    const head = before.filter(isFile);
    const tail = later.filter(isFile);
    const known = { split: open.brief.split, old: open.brief.old, older: range.older };
    this.verified = { older: range.older, others: head.concat(tail), known };
    // concat, not a spread: see recent-scan.ts
    const files = head.concat(range.older, tail);
    const older = { older: range.older, others: this.verified.others, before: known.split };
    this.olderNotes = { names: files, older };
    return { files, folders: asked.folders };
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

  private wrote(path: string, exists: boolean): void {
    const name = this.own(path);
    if (name === null) return;
    const open = this.brief;
    if (open !== null && kindOf(name) === "confirmed" && name < open.brief.split) {
      this.readTimes(); // an older note came or went: the brief no longer tells
    } else if (open !== null) {
      open.forgotten.add(name);
      if (open.recent.delete(name)) this.changed = true;
    }
    if (this.times.delete(name)) this.changed = true;
    if (exists) this.listed?.add(name);
    else this.listed?.delete(name);
  }

  async create(path: string, content: string): Promise<void> {
    try {
      await this.inner.create(path, content);
    } finally {
      this.wrote(path, true); // also after a failure: the time is forgotten, and a wrong listing costs one stat
    }
  }

  async replace(path: string, expected: string | null, content: string): Promise<void> {
    try {
      await this.inner.replace(path, expected, content);
    } finally {
      this.wrote(path, true);
    }
  }

  async trash(path: string): Promise<void> {
    try {
      await this.inner.trash(path);
    } finally {
      this.wrote(path, false);
    }
  }

  read(path: string): Promise<string | null> {
    return this.inner.read(path);
  }

  modifiedAt(path: string): Promise<ModifiedAt> {
    return this.inner.modifiedAt(path);
  }

  cachedFields(path: string): Record<string, unknown> | undefined {
    return this.inner.cachedFields(path);
  }

  changesSince(folder: string, since: number | null): ChangeReport {
    return this.inner.changesSince(folder, since);
  }

  /** The brief's older notes in the latest listing, when `names` is that listing as returned (olderRange's). */
  olderNotesIn(folder: string, names: readonly string[]): OlderNotes | null {
    const known = this.olderNotes;
    return folder === this.folder && known !== null && known.names === names ? known.older : null;
  }

  /** The older notes' names, as the latest listing vouched for them, are not digested again (checked-indexes.ts). */
  indexListsExactly(text: string, names: readonly string[], except: string | null): boolean {
    return this.checks?.listsExactly(text, names, except, this.verified?.known ?? null) ?? false;
  }

  indexChecked(text: string, names: readonly string[], except: string | null, plus: string | null): void {
    this.checks?.checked(text, names, except, plus, this.verified?.known ?? null);
  }
}
