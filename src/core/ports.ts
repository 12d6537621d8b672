/**
 * The ports through which the core reaches the world. Paths are vault-relative, separated by "/".
 * Adapters: src/node/node-store.ts (CLI), tests/support/memory-store.ts (tests), and the Obsidian store
 * (plugin). All of them pass the same contract suite (tests/store/store-contract.ts).
 */
export interface SessionStore {
  /** The file's text, or null when it does not exist. Other errors propagate. Never writes. */
  read(path: string): Promise<string | null>;
  /** Names (not paths) of the files directly inside `folder`; [] when the folder does not exist. */
  list(folder: string): Promise<string[]>;
  /**
   * Names of the folders directly inside `folder`; [] when it does not exist. Scans use it to name session
   * notes moved into a subfolder of sessions/ (never counted). Never writes.
   */
  folders(folder: string): Promise<string[]>;
  /**
   * Creates a new file with its full content, creating parent folders first. Exclusive: throws
   * FileExistsError when the path exists; never overwrites. Never leaves a half-written file.
   */
  create(path: string, content: string): Promise<void>;
  /**
   * Optimistic write: replaces the file only if it still has `expected` (null: only if it does not exist),
   * else throws ConflictError. Creates parent folders. Never leaves a half-written file.
   */
  replace(path: string, expected: string | null, content: string): Promise<void>;
  /** Moves the file to the trash (never a permanent delete). The core checks the deletion boundary first. */
  trash(path: string): Promise<void>;
  /**
   * When the file was last modified (epoch ms). Used only to age the tool's own temp files left by a killed
   * write (contract §2 "Temporary files"), never to order sessions. A store whose writes leave no temp files (the
   * Obsidian vault) answers "untold", and then no temp file is ever aged.
   */
  modifiedAt(path: string): Promise<ModifiedAt>;
  /**
   * For scans that read only what may have changed: which of `names` (files directly inside `folder`) were
   * written at or after `since` (epoch ms, this device's clock), by their modification time (the Obsidian
   * vault: the later of modification and creation). A name whose times cannot be told is included; one that
   * no longer exists may be left out. Never writes.
   */
  changedAmong(folder: string, names: readonly string[], since: number): Promise<string[]>;
  /**
   * Fast path for scans: the frontmatter of `path` as the app's metadata cache holds it, without reading the
   * file; undefined when the store has no such cache, the cache does not know the file, or it may be behind
   * it (e.g. just written). Only a result that reads as a valid confirmed session is used; anything else is
   * read in full.
   */
  cachedFields(path: string): Record<string, unknown> | undefined;
  /**
   * Faster than cachedFields, where the store has it (the CLI's device memory, kept-fields.ts): the confirmed
   * session at `path` as reading its note gives it in every time zone, its body pending; undefined when not kept.
   */
  cachedConfirmed?(path: string): import("./records/records").ConfirmedSession | undefined;
  /**
   * With the app's file events: which files directly inside `folder` may have changed (created, modified,
   * deleted, renamed, re-read by the metadata cache) since `since`, a token this method returned earlier.
   * See ChangeReport for the three answers. Never writes.
   */
  changesSince(folder: string, since: number | null): ChangeReport;
}

/**
 * What a device remembers between its processes, beside the store (the CLI's device memory, core/device-memory/;
 * docs/core.md "Device memory"). Optional in CorePorts: without it every answer is worked out from the store.
 * Each answer is one the store's own files would give; the arguments are in docs/performance.md.
 */
export interface DeviceMemory {
  /**
   * Whether this device remembers having found that `text`, an index.md, has exactly renderIndexOfLines' shape
   * and lists exactly the confirmed notes `names` (file names; `except` left out when among them). False when it
   * does not know.
   */
  indexListsExactly(text: string, names: readonly string[], except: string | null): boolean;
  /** `text` was found (or written) to list exactly `names` − `except` + `plus`. */
  indexChecked(text: string, names: readonly string[], except: string | null, plus: string | null): void;
  /**
   * `names`, the very array the store's latest `list(folder)` returned, as the confirmed notes known to be named
   * before `before` (`older`: a scan need not tell them apart one by one) and the other names; null when it knows
   * none.
   */
  olderNotesIn(folder: string, names: readonly string[]): OlderNotes | null;
  /**
   * The confirmed session at `path` (a name of the store's latest listing) as reading its note gives it, its body
   * pending, without reading or interpreting anything (issues 37/38: the older notes kept by name); undefined
   * when this device cannot tell. (The record's type named in place: records/ids.ts imports RandomSource from
   * here, and a module-level import would make the two modules import each other.)
   */
  cachedSession(path: string): import("./records/records").ConfirmedSession | undefined;
  /**
   * Whether the note at `path` has a `## <heading>` with text (as plainSection reads it), as this device kept it
   * without reading the body (issue 37: next reads one body per topic); undefined when it cannot tell.
   */
  sectionKnown(path: string, heading: string): boolean | undefined;
  /**
   * The full scan read the note at `path`: `session` is what it gave (its body still there) when it is a confirmed
   * session whose reading never asked for the local offset, else null. What the memory may keep of it, learned
   * from the scan's own reading (never parsed twice).
   */
  sessionRead(path: string, session: import("./records/records").ConfirmedSession | null): void;
  /**
   * The older notes' review fold this device keeps (device-memory/older-reviews.ts) when it folds exactly the
   * confirmed names before its split among `names` (a listing of the session folder); else null.
   */
  olderReviewsFor(names: readonly string[]): import("./device-memory/older-reviews").OlderReviews | null;
  /** A fold this call made from every note, to keep (saved after the call, as the older notes' records are). */
  keepOlderReviews(fold: import("./device-memory/older-reviews").OlderFold): void;
  /** An older note's sections bits (older-fields.ts SECTIONS) as this call loaded or read them; else undefined. */
  olderSections(path: string): number | undefined;
  /**
   * The older notes' totals (issues 37/38: stats, goal and year without a record per older note) that hold for
   * `names`, the very array the store's latest `list(folder)` returned; null (or absent) when none hold: the call
   * then reads every note, and the memory folds them for the next (device-memory/older-totals.ts).
   */
  olderTotals?(folder: string, names: readonly string[]): import("./device-memory/older-totals").Covered | null;
}

/** DeviceMemory.olderNotesIn: a listing's names, the older notes known as such apart. Read only. */
export interface OlderNotes {
  readonly older: readonly string[];
  readonly others: readonly string[];
  readonly before: string;
}

/** SessionStore.modifiedAt: the file's modification time, no such file, or a store that cannot tell. */
export type ModifiedAt = { kind: "at"; ms: number } | { kind: "missing" } | { kind: "untold" };

/**
 * SessionStore.changesSince:
 * - "unfollowed": the store does not follow changes (yet), so no later call can be compared with this one;
 * - "everything": `since` was null or the store cannot tell what changed: look at the whole folder;
 * - "changed": the files that may have changed since `since`, and whether each still exists.
 * `token` is always the current one, to pass as `since` next time.
 */
export type ChangeReport =
  | { kind: "unfollowed" }
  | { kind: "everything"; token: number }
  | { kind: "changed"; token: number; changed: Array<{ name: string; exists: boolean }> };

/** Milliseconds since the epoch, and the local UTC offset (minutes east of UTC) at a given instant. */
export interface Clock {
  now(): number;
  offsetMinutes(instant: number): number;
}

/** Cryptographically random bytes (crypto.getRandomValues); never Math.random. */
export interface RandomSource {
  bytes(count: number): Uint8Array;
}

export interface CorePorts {
  store: SessionStore;
  clock: Clock;
  random: RandomSource;
  /** The name of this device, written into drafts and hot.md. */
  device: string;
  /** What this device remembers between its processes (the CLI); none: every answer from the store. */
  memory?: DeviceMemory;
}
