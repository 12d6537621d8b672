import type { App, CachedMetadata, EventRef, TAbstractFile } from "obsidian";
import { TFile, TFolder, normalizePath } from "obsidian";
import { ConflictError, FileExistsError } from "../../core/errors";
import type { ChangeReport, ModifiedAt, SessionStore } from "../../core/ports";
import { saveEditors, writeThroughEditor } from "./open-editors";

/**
 * The session store on Obsidian's Vault / FileManager API, so every write is seen by sync, links and the
 * metadata cache. Paths are normalized with normalizePath; nothing here uses the adapter.
 *
 * The metadata cache catches up with a write asynchronously: a file this store wrote is never judged by
 * the cache until the cache has seen exactly that content (see `cacheCaughtUp`).
 */
export class ObsidianStore implements SessionStore {
  /** Files written here whose metadata-cache entry may still describe an older content. */
  private readonly awaitingCache = new Map<string, string>();
  /**
   * Frontmatter by path as the metadata cache last reported it ("changed" events, or a first lookup): a
   * plain map, so a scan of thousands of notes costs one lookup each.
   */
  private readonly frontmatter = new Map<string, Record<string, unknown> | null>();

  /** Change tracking (see `track`): the latest change number, and each changed file's, by folder and name. */
  private version = 0;
  private tracking = false;
  /** The change number of the last folder created, renamed or deleted. */
  private foldersChangedAt = 0;
  private readonly changes = new Map<string, Map<string, number>>();
  /** Subfolder names by folder, as of a folder change number (see `folders`). */
  private readonly subfolders = new Map<string, { at: number; names: string[] }>();

  constructor(private readonly app: App) {}

  /**
   * Starts following the vault's file events and the metadata cache, so `changesSince` can tell a scan which
   * files changed and the frontmatter map stays current. `register` ties each handler to the plugin's
   * lifetime (Plugin.registerEvent). Until this is called, every scan looks at the whole folder.
   */
  track(register: (ref: EventRef) => void): void {
    const { vault, metadataCache } = this.app;
    register(metadataCache.on("changed", (file, data, cache) => this.cacheCaughtUp(file, data, cache)));
    register(
      vault.on("create", (file) => {
        if (file instanceof TFolder) this.foldersChangedAt = ++this.version;
        this.noteChange(file.path);
      }),
    );
    register(vault.on("modify", (file) => this.noteChange(file.path)));
    register(
      vault.on("delete", (file) => {
        if (file instanceof TFolder) this.foldersChangedAt = ++this.version;
        this.forget(file.path);
        this.noteChange(file.path);
      }),
    );
    register(
      vault.on("rename", (file, oldPath) => {
        if (file instanceof TFolder) this.foldersChangedAt = ++this.version;
        this.forget(oldPath);
        this.noteChange(oldPath);
        this.noteChange(file.path);
      }),
    );
    this.tracking = true;
  }

  changesSince(folder: string, since: number | null): ChangeReport {
    if (!this.tracking) return { kind: "unfollowed" }; // nothing is followed yet: every scan looks at everything
    const token = this.version;
    const target = normalizePath(folder);
    // A folder created, renamed or deleted (the session folder itself, or one above it) can change many files
    // at once: look at everything again.
    const isFolder = (): boolean => this.app.vault.getAbstractFileByPath(target) instanceof TFolder;
    if (since === null || since < this.foldersChangedAt || !isFolder()) {
      return { kind: "everything", token };
    }
    const changed: Array<{ name: string; exists: boolean }> = [];
    for (const [name, at] of this.changes.get(target) ?? []) {
      if (at <= since) continue;
      changed.push({ name, exists: this.app.vault.getAbstractFileByPath(`${target}/${name}`) instanceof TFile });
    }
    return { kind: "changed", token, changed };
  }

  /** The vault's writes leave no temp files of the tool's own: none is ever aged. */
  modifiedAt(): Promise<ModifiedAt> {
    return Promise.resolve({ kind: "untold" });
  }

  private noteChange(path: string): void {
    const slash = path.lastIndexOf("/");
    const folder = slash < 0 ? "" : path.slice(0, slash);
    let names = this.changes.get(folder);
    if (!names) this.changes.set(folder, (names = new Map<string, number>()));
    names.set(path.slice(slash + 1), ++this.version);
  }

  /** From the vault's own record of each file's times (TFile.stat): no file is touched. 0: not recorded. */
  changedAmong(folder: string, names: readonly string[], since: number): Promise<string[]> {
    const found = this.app.vault.getAbstractFileByPath(normalizePath(folder));
    const wanted = new Set(names);
    const changed = (found instanceof TFolder ? found.children : []).filter((file) => {
      const latest = file instanceof TFile ? Math.max(file.stat.mtime, file.stat.ctime) : 0;
      return wanted.has(file.name) && !(latest > 0 && latest < since);
    });
    return Promise.resolve(changed.map((file) => file.name));
  }

  /** An editor showing the file is saved first: what the learner typed is part of what is read. */
  async read(path: string): Promise<string | null> {
    const file = this.fileAt(path);
    if (!file) return null;
    const saving = saveEditors(this.app, file);
    if (saving instanceof Promise) await saving;
    return this.app.vault.read(file);
  }

  list(folder: string): Promise<string[]> {
    const found = this.app.vault.getAbstractFileByPath(normalizePath(folder));
    if (!(found instanceof TFolder)) return Promise.resolve([]);
    return Promise.resolve(found.children.filter((child): child is TFile => child instanceof TFile).map((f) => f.name));
  }

  folders(folder: string): Promise<string[]> {
    const target = normalizePath(folder);
    // While folder events are followed, a folder's subfolders change only with one (every scan asks).
    const known = this.tracking ? this.subfolders.get(target) : undefined;
    if (known && known.at === this.foldersChangedAt) return Promise.resolve(known.names.slice());
    const found = this.app.vault.getAbstractFileByPath(target);
    const names = found instanceof TFolder ? found.children.filter((c) => c instanceof TFolder).map((f) => f.name) : [];
    if (this.tracking) this.subfolders.set(target, { at: this.foldersChangedAt, names });
    return Promise.resolve(names.slice());
  }

  async create(path: string, content: string): Promise<void> {
    const target = normalizePath(path);
    await this.ensureParent(target);
    if (this.app.vault.getAbstractFileByPath(target)) throw new FileExistsError(target);
    try {
      await this.awaitingCacheOf(target, content, () => this.app.vault.create(target, content));
    } catch (error) {
      // Another writer (sync, a second window) created it between the check and the create; the vault may
      // not list a file sync has just written yet, but refuses to create it: the caller draws another name.
      if (this.app.vault.getAbstractFileByPath(target) || saysItExists(error)) throw new FileExistsError(target);
      throw error;
    }
  }

  /**
   * Marks the file as ahead of the cache before writing (the cache may index it before this write's promise
   * settles), and restores the previous mark when the write fails.
   */
  private async awaitingCacheOf<T>(path: string, content: string, write: () => Promise<T>): Promise<T> {
    const before = this.awaitingCache.get(path);
    this.awaitingCache.set(path, content);
    try {
      return await write();
    } catch (error) {
      if (before === undefined) this.awaitingCache.delete(path);
      else this.awaitingCache.set(path, before);
      throw error;
    } finally {
      this.noteChange(path); // also after a failed write: the next scan looks at the file again
    }
  }

  async replace(path: string, expected: string | null, content: string): Promise<void> {
    const target = normalizePath(path);
    const existing = this.app.vault.getAbstractFileByPath(target);
    if (existing === null) {
      if (expected !== null) throw new ConflictError(target);
      try {
        await this.create(target, content);
      } catch (error) {
        if (error instanceof FileExistsError) throw new ConflictError(target);
        throw error;
      }
      return;
    }
    if (!(existing instanceof TFile) || expected === null) throw new ConflictError(target);
    const [view] = await saveEditors(this.app, existing);
    const disk = view ? await this.app.vault.read(existing) : null;
    if (view && view.editor.getValue() === disk) {
      // Open in an editor that holds what is on disk: changed through it (from here on with no await before
      // the edit), so the cursor stays and only the lines that differ move (a checkpoint: the frontmatter).
      if (disk !== expected) throw new ConflictError(target);
      await this.awaitingCacheOf(target, content, () => writeThroughEditor(view, expected, content));
      return;
    }
    // Vault.process reads and writes in one step of the vault's queue: the comparison and the write
    // cannot be separated by another write through the app.
    await this.awaitingCacheOf(target, content, () =>
      this.app.vault.process(existing, (current) => {
        if (current !== expected) throw new ConflictError(target);
        return content;
      }),
    );
  }

  async trash(path: string): Promise<void> {
    const file = this.fileAt(path);
    if (!file) throw new Error(`${normalizePath(path)} does not exist`);
    // Honors the user's "deleted files" setting (system trash, .trash or permanent, as they chose).
    try {
      await this.app.fileManager.trashFile(file);
    } finally {
      this.forget(file.path);
      this.noteChange(file.path);
    }
  }

  cachedFields(path: string): Record<string, unknown> | undefined {
    // The core's paths are already normalized: look them up as they are first (a scan asks for thousands).
    let known = this.awaitingCache.has(path) ? undefined : this.frontmatter.get(path);
    if (known !== undefined) return known ?? undefined;
    const target = normalizePath(path);
    if (this.awaitingCache.has(target)) return undefined;
    known = this.frontmatter.get(target);
    if (known === undefined) {
      const file = this.fileAt(target);
      const cache = file ? this.app.metadataCache.getFileCache(file) : null;
      if (!cache) return undefined; // not indexed yet: not remembered, asked again next time
      known = asFields(cache.frontmatter);
      // Remembered only while the cache's "changed" events keep the map current (track()).
      if (this.tracking) this.frontmatter.set(target, known);
    }
    return known ?? undefined;
  }

  /**
   * Called on the metadata cache's "changed" event with the content it parsed: its frontmatter is now the
   * file's, and once it is the content this store wrote, the cache can be trusted again for that file.
   */
  cacheCaughtUp(file: TAbstractFile, data: string, cache: CachedMetadata): void {
    this.frontmatter.set(file.path, asFields(cache.frontmatter));
    this.noteChange(file.path);
    if (this.awaitingCache.get(file.path) === data) this.awaitingCache.delete(file.path);
  }

  /** A file was deleted or renamed (the old path): nothing is known or pending for that path any more. */
  forget(path: string): void {
    this.awaitingCache.delete(path);
    this.frontmatter.delete(path);
  }

  private fileAt(path: string): TFile | null {
    const found = this.app.vault.getAbstractFileByPath(normalizePath(path));
    if (found === null) return null;
    if (!(found instanceof TFile)) throw new Error(`${found.path} is a folder, not a note`);
    return found;
  }

  /** Parent folders are created before the file (the Vault API does not create them). */
  private async ensureParent(path: string): Promise<void> {
    const parts = path.split("/").slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const folder = parts.slice(0, i).join("/");
      const found = this.app.vault.getAbstractFileByPath(folder);
      if (found instanceof TFolder) continue;
      if (found) throw new Error(`${folder} is a file, so ${path} cannot be created in it`);
      try {
        await this.app.vault.createFolder(folder);
      } catch (error) {
        // Created meanwhile (sync, another operation): that is what we wanted.
        if (!(this.app.vault.getAbstractFileByPath(folder) instanceof TFolder)) throw error;
      }
    }
  }
}

/** Vault.create's refusal of a path that exists ("File already exists."; EEXIST from the file system). */
function saysItExists(error: unknown): boolean {
  return error instanceof Error && /already exists|EEXIST/i.test(error.message);
}

function asFields(frontmatter: unknown): Record<string, unknown> | null {
  const isRecord = frontmatter !== null && typeof frontmatter === "object" && !Array.isArray(frontmatter);
  return isRecord ? (frontmatter as Record<string, unknown>) : null;
}
