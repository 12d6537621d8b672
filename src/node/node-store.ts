import { randomBytes } from "node:crypto";
import { closeSync, constants as fsConstants, lstatSync, openSync, realpathSync } from "node:fs";
import * as fs from "./async-fs";
import * as path from "node:path";
import { monotonicMs } from "./monotonic";
import { BoundaryError, ConflictError, FileExistsError, LinkOutsideVaultError, PaleeError } from "../core/errors";
import type { ChangeReport, ModifiedAt, SessionStore } from "../core/ports";
import type { TimeOf } from "../core/device-memory/folder-reading";
import { STALE_TEMP_MS } from "../core/records/temp-files";
import type { TopicNotes } from "../core/topics/note";
import { fileKeyAt } from "./file-key";
import { readFileText } from "./file-text";
import type { EarlyFolder, FolderKinds } from "./folder-reading";
import { EARLY_NAMES_MAX_MS, kindsOf, readListing, readNames, statTimes } from "./folder-reading";
import { hashForWrite, writtenWith } from "./text-digests";
import { holdsExactly, writeText } from "./text-pieces";
import { isErrno, naming, withPath } from "./store-errors";
import { isInside, moveToTrash } from "./trash";
import { readTopicNotes } from "./topic-notes";

/** Writes a new file's content through `write`, a part at a time (NodeStore.createWith). */
export type TextFill = (write: (text: string) => void) => void | Promise<void>;

/** open(2)'s flag that fails (ELOOP) on a symbolic link instead of following it; none on Windows. */
const NO_FOLLOW: number | undefined = fsConstants.O_NOFOLLOW;

/**
 * The session store on the Node file system (the CLI's). New files are created exclusively with their full
 * content (temp file + hard link, so a crash never leaves a half-written note); replacements go to a temp
 * file that is flushed and renamed into place; removal moves a file into the vault's `.trash/`. Temp files
 * are dot-files (Obsidian ignores them) and are removed after success and after failure.
 */
export class NodeStore implements SessionStore {
  readonly root: string;
  /** A folder read before it was asked: taken by its first reading, unless a write came first. */
  private early: EarlyFolder | null;

  /** The text `keep` had when last read, kept for its next read while nothing is written through this store. */
  private kept: { text: string | null } | null = null;

  /**
   * `derived`: vault-relative paths of views derived wholly from the notes (the CLI's index.md), written without a
   * flush: a kill cannot lose what was written (the page cache keeps it), and what a power cut can leave (an empty
   * or older file) the index trust check detects and rebuilds (docs/decisions.md "A derived view is not flushed").
   * `keep`: a file one call reads more than once (the CLI's index.md, read by the topic check and then by the
   * operation; the largest file a call reads). Its text as last read serves its next read: as sound as reading it
   * then, since a text read for an operation is checked against the listing, and a replacement against the file.
   */
  constructor(
    vaultRoot: string,
    early: EarlyFolder | null = null,
    private readonly keep: string | null = null,
    private readonly beforeWrite: () => void = () => undefined, // throws to stop before a write (cli/lock.ts)
    private readonly derived: readonly string[] = [],
  ) {
    this.root = path.resolve(vaultRoot);
    this.early = early;
  }

  /** Absolute path of a vault-relative path; refuses anything that leaves the vault. */
  resolve(relative: string): string {
    if (relative.startsWith("/") || relative.startsWith("\\") || path.isAbsolute(relative)) {
      throw new BoundaryError(relative);
    }
    const absolute = path.resolve(this.root, ...relative.split("/"));
    if (absolute !== this.root && !absolute.startsWith(this.root + path.sep)) {
      throw new BoundaryError(relative);
    }
    return absolute;
  }

  read(relative: string): Promise<string | null> {
    const keeps = relative === this.keep;
    if (keeps && this.kept !== null) return Promise.resolve(this.kept.text);
    let text: string | null;
    try {
      // Synchronous: the CLI has nothing else to do, and fs.promises.readFile costs 5 thread-pool round trips.
      text = this.readText(relative, this.resolve(relative));
    } catch (error) {
      if (error instanceof PaleeError) return Promise.reject(error);
      if (!isErrno(error, "ENOENT")) return Promise.reject(withPath(this.root, relative, error));
      text = null;
    }
    if (keeps) this.kept = { text };
    return Promise.resolve(text);
  }

  /** Runs a write: what was listed or kept before it is not what is there after it. */
  private async writing<T>(write: () => Promise<T>): Promise<T> {
    this.beforeWrite();
    this.early = null;
    this.kept = null;
    try {
      return await write();
    } finally {
      this.kept = null;
    }
  }

  /**
   * The file's text, never through a symbolic link that leads out of the vault (contract §3, version 3): such a
   * link throws LinkOutsideVaultError, which scans report as "cannot be read" by name. A link that stays inside
   * the vault is followed. Costs nothing extra on a plain file: the open itself refuses to follow a link.
   */
  private readText(relative: string, absolute: string): string {
    if (NO_FOLLOW === undefined) {
      if (lstatSync(absolute, { throwIfNoEntry: false })?.isSymbolicLink()) this.assertLinkInside(relative, absolute);
      return readFileText(absolute);
    }
    let fd: number;
    try {
      fd = openSync(absolute, fsConstants.O_RDONLY | NO_FOLLOW);
    } catch (error) {
      if (!isErrno(error, "ELOOP") && !isErrno(error, "EMLINK")) throw error;
      this.assertLinkInside(relative, absolute);
      return readFileText(absolute);
    }
    try {
      return readFileText(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** Throws LinkOutsideVaultError when the link at `absolute` resolves outside the vault (a dangling one: not). */
  private assertLinkInside(relative: string, absolute: string): void {
    let real: string;
    try {
      real = realpathSync(absolute);
    } catch (error) {
      if (isErrno(error, "ENOENT")) return; // dangling: reads as missing
      throw error;
    }
    if (!isInside(realpathSync(this.root), real)) throw new LinkOutsideVaultError(relative);
  }

  async modifiedAt(relative: string): Promise<ModifiedAt> {
    try {
      return { kind: "at", ms: (await fs.lstat(this.resolve(relative))).mtimeMs };
    } catch (error) {
      if (isErrno(error, "ENOENT")) return { kind: "missing" };
      throw withPath(this.root, relative, error);
    }
  }

  /** The identity of the plain file at `relative` (file-key.ts), or null; never throws. */
  fileKey(relative: string): string | null {
    try {
      return fileKeyAt(this.resolve(relative));
    } catch {
      return null; // out of the vault
    }
  }

  /**
   * By modification time: a note that saved a draft was written after the draft began, and writers, sync tools
   * and copies keep a modification time from then or later. Not the status-change time, which every copy of
   * the vault (a new disk, a restored backup) resets, making every note look new.
   */
  changedAmong(folder: string, names: readonly string[], since: number): Promise<string[]> {
    // Synchronous, like read (statTimes); one whose times cannot be told is read, and the read says what is wrong.
    const times = statTimes(this.resolve(folder), names);
    const changed = (t: TimeOf): boolean => t === "untold" || (typeof t === "number" && t >= since);
    return Promise.resolve(names.filter((_, i) => changed(times[i])));
  }

  /**
   * Each name's modification time, as changedAmong reads it (following a link; "untold" when it cannot be
   * told, "missing" when it is gone): what the device memory remembers (cli/device-memory/memory-files.ts).
   */
  modifiedTimes(folder: string, names: readonly string[]): Promise<TimeOf[]> {
    return Promise.resolve(statTimes(this.resolve(folder), names));
  }

  /**
   * The vault's topic notes from their frontmatter blocks only (topic-notes.ts), outside the `skip` folders
   * (the session folder) and dot-folders; never through a link leading out of the vault.
   */
  topicNotes(skip: readonly string[]): TopicNotes {
    return readTopicNotes(this.root, skip);
  }

  /** The CLI has no metadata cache: every note is read. */
  cachedFields(): undefined {
    return undefined;
  }

  /** The CLI does not follow file events: every scan looks at the whole folder. */
  changesSince(): ChangeReport {
    return { kind: "unfollowed" };
  }

  async list(folder: string): Promise<string[]> {
    return (await this.listing(folder)).files;
  }

  /**
   * `list` of a folder and, from the same reading of it, its subfolders (as `folders` names them): a scan needs
   * both, and the session folder can hold 30 000 notes (folder-reading.ts). Throws as `list` does.
   */
  async listing(folder: string): Promise<{ files: string[]; folders: string[] }> {
    const absolute = this.resolve(folder);
    const early = await this.earlyOf(absolute)?.listing;
    if (early) return early;
    try {
      return await readListing(absolute);
    } catch (error) {
      if (isErrno(error, "ENOENT")) return { files: [], folders: [] };
      throw withPath(this.root, folder, error);
    }
  }

  /** The names of `folder`'s entries, without what each is (folder-reading.ts readNames). Throws as `list` does. */
  async names(folder: string): Promise<string[]> {
    const absolute = this.resolve(folder);
    const early = await this.earlyOf(absolute)?.names;
    if (early) return early;
    try {
      return await readNames(absolute);
    } catch (error) {
      if (isErrno(error, "ENOENT")) return [];
      throw withPath(this.root, folder, error);
    }
  }

  /** The early reading of `absolute`, while fresh: taken by the first reading of it, whichever is asked. */
  private earlyOf(absolute: string): EarlyFolder | null {
    const early = this.early;
    if (early === null || early.folder !== absolute) return null;
    this.early = null;
    return monotonicMs() - early.began <= EARLY_NAMES_MAX_MS ? early : null;
  }

  /** Which of `names` in `folder` are files and which subfolders, each asked, with the files' times (kindsOf). */
  kindsOf(folder: string, names: readonly string[]): Promise<FolderKinds> {
    return Promise.resolve(kindsOf(this.resolve(folder), names));
  }

  /**
   * This store's own temp files for `name` (`.<name>.<8 hex>.tmp`, as tempPathFor makes them) directly in the
   * store's folder, older than an hour: left by a killed write of `name`. Removed (not trashed): the export's
   * --out folder, which is where this runs (before an export writes `name` there), has no trash, and such a
   * file is a partial copy of data the vault still holds (contract §2 "Temporary files"). Returns their names.
   */
  removeStaleTempFilesOf(name: string, now: number): Promise<string[]> {
    return this.writing(() => this.removeStaleTemps(name, now));
  }

  private async removeStaleTemps(name: string, now: number): Promise<string[]> {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const pattern = new RegExp(`^\\.${escaped}\\.[0-9a-f]{8}\\.tmp$`);
    const removed: string[] = [];
    for (const entry of await fs.readdir(this.root, { withFileTypes: true })) {
      if (!entry.isFile() || !pattern.test(entry.name)) continue;
      const file = path.join(this.root, entry.name);
      if (now - (await fs.lstat(file)).mtimeMs <= STALE_TEMP_MS) continue; // perhaps a write in progress
      await fs.rm(file, { force: true });
      removed.push(entry.name);
    }
    return removed.sort();
  }

  async folders(folder: string): Promise<string[]> {
    try {
      const entries = await fs.readdir(this.resolve(folder), { withFileTypes: true });
      return entries.filter((e) => e.isDirectory()).map((e) => e.name);
    } catch (error) {
      if (isErrno(error, "ENOENT") || isErrno(error, "ENOTDIR")) return [];
      throw withPath(this.root, folder, error);
    }
  }

  private tempPathFor(absolute: string): string {
    return path.join(path.dirname(absolute), `.${path.basename(absolute)}.${randomBytes(4).toString("hex")}.tmp`);
  }

  /**
   * Writes what `fill` gives to a new temp file beside `absolute`, flushed to disk unless `relative` is a derived
   * view; returns its path. `digest`: a long text's digest is kept from the bytes written (text-digests.ts; a view,
   * which the index check digests).
   */
  private async writeTemp(relative: string, absolute: string, fill: TextFill, digest = false): Promise<string> {
    await fs.mkdir(path.dirname(absolute), { recursive: true });
    const temp = this.tempPathFor(absolute);
    const handle = await fs.open(temp, "wx");
    try {
      // In pieces: a long text written at once is a transient buffer of its size (text-pieces.ts).
      await fill((text) => {
        const hash = digest ? hashForWrite(text) : null;
        writeText(handle.fd, text, hash);
        if (hash !== null) writtenWith(text, hash);
      });
      if (!this.derived.includes(relative)) await handle.sync();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await fs.rm(temp, { force: true });
      throw error;
    }
    await handle.close();
    return temp;
  }

  create(relative: string, content: string): Promise<void> {
    return this.createWith(relative, (write) => write(content));
  }

  /**
   * create, with the content written by `fill` a part at a time (an export of every session): the same temp
   * file published whole and exclusively, so a reader never sees it half-written and a failed fill leaves nothing.
   */
  createWith(relative: string, fill: TextFill): Promise<void> {
    return this.writing(() => naming(this.root, relative, () => this.createFile(relative, fill)));
  }

  private async createFile(relative: string, fill: TextFill): Promise<void> {
    const absolute = this.resolve(relative);
    const temp = await this.writeTemp(relative, absolute, fill);
    try {
      await fs.link(temp, absolute); // atomic and exclusive: EEXIST if the note exists
    } catch (error) {
      if (isErrno(error, "EEXIST")) throw new FileExistsError(relative);
      if (!isErrno(error, "EPERM") && !isErrno(error, "ENOTSUP") && !isErrno(error, "EXDEV")) throw error;
      // A file system without hard links: claim the name with an exclusive, empty file, then rename the
      // flushed temp file over it. A crash in between leaves an empty note (skipped by name), never a
      // partial one: a note cut after its frontmatter would read as complete, and reconcile would then
      // trash the drafts it absorbed with their notes cut short.
      try {
        await (await fs.open(absolute, "wx")).close();
      } catch (inner) {
        if (isErrno(inner, "EEXIST")) throw new FileExistsError(relative);
        throw inner;
      }
      await fs.rename(temp, absolute);
    } finally {
      await fs.rm(temp, { force: true });
    }
  }

  replace(relative: string, expected: string | null, content: string): Promise<void> {
    return this.writing(() => naming(this.root, relative, () => this.replaceFile(relative, expected, content)));
  }

  private async replaceFile(relative: string, expected: string | null, content: string): Promise<void> {
    const absolute = this.resolve(relative);
    const temp = await this.writeTemp(relative, absolute, (write) => write(content), true);
    try {
      // Compared in pieces first (index.md grows with the history): no copy of the file in memory.
      const same = expected !== null && holdsExactly(this.resolve(relative), expected);
      if (!same && (await this.read(relative)) !== expected) throw new ConflictError(relative);
      await fs.rename(temp, absolute);
    } finally {
      await fs.rm(temp, { force: true });
    }
  }

  trash(relative: string): Promise<void> {
    return this.writing(() =>
      naming(this.root, relative, () => moveToTrash(this.root, relative, this.resolve(relative))),
    );
  }
}
