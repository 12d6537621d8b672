/**
 * An in-memory Obsidian for plugin tests: obsidian-test-mocks' App over its in-memory adapter, with the few
 * changes that make it behave like the real app where our code could otherwise be fooled. Every change is
 * listed (and explained) in `installRealism` and `installCacheLag`; everything else is the mock as it is.
 *
 * Test files import mock-only members from "obsidian-test-mocks/obsidian"; the code under test imports
 * "obsidian", which jest maps to the same module (jest.config.cjs), so `instanceof TFile` agrees on both sides.
 */
import type { App as AppOriginal, CachedMetadata, DataWriteOptions } from "obsidian";
import { App, FileSystemAdapter, MetadataCache, TFile, TFolder } from "obsidian-test-mocks/obsidian";
import type { TAbstractFile } from "obsidian-test-mocks/obsidian";

export interface HarnessOptions {
  /** Files present when the test starts (parent folders are created), already indexed by the metadata cache. */
  files?: Record<string, string>;
  /**
   * true (default): the metadata cache lags behind writes until `catchUpCache()`, as the real one does
   * (it parses files asynchronously, in a worker). false: every write is indexed at once (benchmarks, or
   * tests that do not care about the cache).
   */
  cacheLag?: boolean;
}

/** How a file was read: vault.read, vault.cachedRead, or the adapter directly. */
export type ReadKind = "read" | "cachedRead" | "adapter.read";

export interface TrashRecord {
  path: string;
  /** The text the file had when it was trashed (null for a folder or a binary file). */
  content: string | null;
  via: "fileManager.trashFile" | "vault.trash";
}

/** Counts the reads of file contents, per path (the metadata cache's own indexing is not counted). */
export class ReadCounter {
  private entries: Array<{ path: string; kind: ReadKind }> = [];

  record(path: string, kind: ReadKind): void {
    this.entries.push({ path, kind });
  }

  /** Reads of `path` (every path when omitted), of every kind or of one. */
  count(path?: string, kind?: ReadKind): number {
    return this.entries.filter(
      (e) => (path === undefined || e.path === path) && (kind === undefined || e.kind === kind),
    ).length;
  }

  /** The distinct paths read since the last reset, sorted. */
  paths(): string[] {
    return [...new Set(this.entries.map((e) => e.path))].sort();
  }

  /** Every read since the last reset, in order. */
  log(): Array<{ path: string; kind: ReadKind }> {
    return this.entries.slice();
  }

  reset(): void {
    this.entries = [];
  }
}

export interface ObsidianHarness {
  /** The app, typed as the real Obsidian App: pass this to the code under test. */
  readonly app: AppOriginal;
  /** The same app, typed as the mock (for mock-only members such as workspace.setLayoutReady__()). */
  readonly mock: App;
  /** The in-memory adapter behind the vault. */
  readonly adapter: FileSystemAdapter;
  /** Reads of file contents through vault.read, vault.cachedRead and adapter.read. */
  readonly reads: ReadCounter;
  /** Every file moved to the trash, in order, and through which API. */
  readonly trashed: TrashRecord[];
  /** Every path deleted permanently through vault.delete (never expected from our code). */
  readonly deleted: string[];
  /** Vault events in order: "create <path>", "modify <path>", "delete <path>", "rename <old> -> <new>". */
  readonly events: string[];
  /**
   * Lets the metadata cache index what was written since it last caught up (only `paths` when given), firing
   * metadataCache "changed" (file, content, cache) for each file, then "resolved".
   */
  catchUpCache(...paths: string[]): void;
  /** Paths written since the cache last indexed them, sorted. */
  pendingCache(): string[];
  /** Every text file in the vault (including dot-folders), path → content, sorted by path. */
  files(): Record<string, string>;
  /**
   * Writes a file as sync or the user would (creating parent folders, firing the vault's create or modify
   * event, so the cache lags behind it like any write). Not counted as a read and not done through the
   * methods the code under test uses.
   */
  write(path: string, content: string): void;
  /**
   * A file sync has written to disk that the vault does not list yet (it learns of it from the file watcher
   * a moment later): a `vault.create` of that path fails with "File already exists.", as in the app.
   * `announce()` lets the vault list it (its create event fires).
   */
  arrivesOnDisk(path: string, content: string): { announce(): void };
  /** Deletes a file as sync or the user would (not recorded in `deleted`). */
  remove(path: string): Promise<void>;
  /** Clears reads, trashed, deleted and events. */
  resetLogs(): void;
}

type MetadataParser = { parseFileMetadata(file: TAbstractFile): void };

/** The mock's own parser (private in its types), called once the harness lets the cache catch up. */
const parseWithMock = (MetadataCache.prototype as unknown as MetadataParser).parseFileMetadata;

function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

export function createObsidianHarness(options: HarnessOptions = {}): ObsidianHarness {
  const adapter = FileSystemAdapter.create__("/mock-vault");
  const mock = App.createConfigured__({ adapter: adapter.asOriginalType__() });
  const vault = mock.vault;
  const reads = new ReadCounter();
  const trashed: TrashRecord[] = [];
  const deleted: string[] = [];
  const events: string[] = [];

  // Unwrapped originals, for the harness's own use (seeding, removal) so it does not show in the logs.
  const createSync = vault.createSync__.bind(vault);
  const createFolderSync = vault.createFolderSync__.bind(vault);
  const deleteFile = vault.delete.bind(vault);
  const textOf = (path: string): string | null => {
    try {
      return adapter.readSync__(path);
    } catch {
      return null;
    }
  };

  installRealism();
  const cache = installCacheLag(options.cacheLag ?? true);

  vault.on("create", (file) => events.push(`create ${(file as TAbstractFile).path}`));
  vault.on("modify", (file) => events.push(`modify ${(file as TAbstractFile).path}`));
  vault.on("delete", (file) => events.push(`delete ${(file as TAbstractFile).path}`));
  vault.on("rename", (file, oldPath) => events.push(`rename ${oldPath as string} -> ${(file as TAbstractFile).path}`));

  const harness: ObsidianHarness = {
    app: mock.asOriginalType__(),
    mock,
    adapter,
    reads,
    trashed,
    deleted,
    events,
    catchUpCache: (...paths) => cache.catchUp(paths),
    pendingCache: () => cache.pending(),
    files() {
      const paths = adapter.listAll__().files.sort();
      const out: Record<string, string> = {};
      for (const path of paths) {
        const text = textOf(path);
        if (text !== null) out[path] = text;
      }
      return out;
    },
    write(path, content) {
      const existing = vault.getAbstractFileByPath(path);
      if (existing instanceof TFile) {
        adapter.writeSync__(path, content);
        vault.trigger("modify", existing);
        return;
      }
      if (existing) throw new Error(`harness.write: ${path} is a folder`);
      const parent = parentOf(path);
      if (parent !== "" && !(vault.getAbstractFileByPath(parent) instanceof TFolder)) createFolderSync(parent);
      createSync(path, content);
    },
    arrivesOnDisk(path, content) {
      adapter.writeSync__(path, content);
      return { announce: () => createSync(path, content) };
    },
    async remove(path) {
      const file = vault.getAbstractFileByPath(path);
      if (!file) throw new Error(`harness.remove: ${path} does not exist`);
      await deleteFile(file, true);
    },
    resetLogs() {
      reads.reset();
      trashed.length = 0;
      deleted.length = 0;
      events.length = 0;
    },
  };

  for (const [path, content] of Object.entries(options.files ?? {})) harness.write(path, content);
  // Obsidian has indexed the vault by the time a plugin's layout-ready work runs.
  harness.catchUpCache();
  harness.resetLogs();
  return harness;

  /** Where the mock is more lenient than Obsidian in ways our code could rely on by mistake. */
  function installRealism(): void {
    const create = vault.create.bind(vault);
    const createFolder = vault.createFolder.bind(vault);
    const trash = vault.trash.bind(vault);
    const readText = adapter.read.bind(adapter);
    // The mock overwrites an existing file silently; Obsidian refuses. Our create-only session notes (never
    // overwrite a confirmed note) depend on this refusal.
    // The mock also accepts a missing parent folder (the adapter makes it, but the vault never lists the file
    // in a folder); Obsidian fails, so the store must create the folders first.
    // (As in Obsidian, the existence check and the write are not one atomic step: two creates of one path
    // started together both pass the check. Our code must not run such creates concurrently.)
    vault.create = async (path: string, data: string, opts?: DataWriteOptions): Promise<TFile> => {
      if (vault.getAbstractFileByPath(path) || textOf(path) !== null) throw new Error("File already exists.");
      const parent = parentOf(path);
      if (parent !== "" && !(vault.getAbstractFileByPath(parent) instanceof TFolder)) {
        throw new Error(`ENOENT: no such file or directory, open '${path}'`);
      }
      return create(path, data, opts);
    };
    // The mock returns the existing folder; Obsidian refuses (the store must tolerate a folder that appeared).
    vault.createFolder = async (path: string): Promise<TFolder> => {
      if (vault.getAbstractFileByPath(path)) throw new Error("Folder already exists.");
      return createFolder(path);
    };
    // Obsidian's process is atomic: nothing can write between its read and its write. The mock awaits in
    // between, so a concurrent write could be lost there; here it is one synchronous step after a tick.
    vault.process = async (file: TFile, fn: (data: string) => string, opts?: DataWriteOptions): Promise<string> => {
      await Promise.resolve();
      const result = fn(adapter.readSync__(file.path));
      adapter.writeSync__(file.path, result, opts);
      vault.trigger("modify", file);
      return result;
    };

    // Read counting. vault.read and cachedRead go straight to the adapter's original read, so a vault read is
    // counted once, under its own kind.
    adapter.read = (path: string): Promise<string> => {
      reads.record(path, "adapter.read");
      return readText(path);
    };
    vault.read = (file: TFile): Promise<string> => {
      reads.record(file.path, "read");
      return readText(file.path);
    };
    vault.cachedRead = (file: TFile): Promise<string> => {
      reads.record(file.path, "cachedRead");
      return readText(file.path);
    };

    // Trash and delete are recorded, so tests can check that only drafts ever went, and only to the trash.
    // (The mock's trashFile calls vault.trash; here it goes to the original directly, to record it once.)
    const moveToTrash = async (file: TAbstractFile, system: boolean, via: TrashRecord["via"]): Promise<void> => {
      const content = file instanceof TFile ? textOf(file.path) : null;
      const path = file.path;
      await trash(file, system);
      trashed.push({ path, content, via });
    };
    mock.fileManager.trashFile = (file: TAbstractFile) => moveToTrash(file, true, "fileManager.trashFile");
    vault.trash = (file: TAbstractFile, system: boolean) => moveToTrash(file, system, "vault.trash");
    vault.delete = async (file: TAbstractFile, force?: boolean): Promise<void> => {
      const path = file.path;
      await deleteFile(file, force);
      deleted.push(path);
    };
  }

  /**
   * The metadata cache: lagging (or not), never throwing, and following deletes and renames.
   *
   * The mock's MetadataCache indexes a file synchronously inside the vault's create/modify event, by calling
   * its own `parseFileMetadata(file)`. That method is replaced on the instance: it queues the file, and
   * `catchUp` runs the mock's parser on the queued files. Until then getFileCache returns the previous entry
   * (null for a new file), exactly what a real plugin sees right after a write.
   */
  function installCacheLag(lag: boolean): { catchUp(paths: string[]): void; pending(): string[] } {
    const metadataCache = mock.metadataCache;
    const queued = new Map<string, TFile>();

    const parse = (file: TFile): void => {
      try {
        parseWithMock.call(metadataCache, file);
      } catch {
        // The mock's YAML parser throws on a malformed frontmatter (inside the vault's event, so a vault
        // write would reject). Obsidian indexes such a note without frontmatter.
        const content = textOf(file.path);
        if (content === null) return;
        const entry: CachedMetadata = {};
        metadataCache.cache__.set(file.path, entry);
        metadataCache.trigger("changed", file, content, entry);
        return;
      }
      // An empty (or non-mapping) frontmatter block is cached by the mock as a strict proxy that throws on
      // any key it lacks (`frontmatter.palee_schema` would throw). Obsidian has no frontmatter for it.
      const entry = metadataCache.cache__.get(file.path);
      if (entry?.frontmatter && Object.keys(entry.frontmatter).length === 0) delete entry.frontmatter;
    };

    (metadataCache as unknown as MetadataParser).parseFileMetadata = (file: TAbstractFile): void => {
      if (!(file instanceof TFile) || file.extension !== "md") return;
      if (lag) queued.set(file.path, file);
      else parse(file);
    };

    // The mock keeps the entry of a deleted file forever; Obsidian drops it and fires "deleted".
    vault.on("delete", (file) => {
      if (!(file instanceof TFile)) return;
      queued.delete(file.path);
      const previous = metadataCache.cache__.get(file.path) ?? null;
      metadataCache.cache__.delete(file.path);
      delete metadataCache.fileCache__[file.path];
      metadataCache.trigger("deleted", file, previous);
    });
    // The mock leaves the entry under the old path; Obsidian moves it with the file (files only).
    vault.on("rename", (file, oldPath) => {
      if (!(file instanceof TFile) || typeof oldPath !== "string") return;
      const entry = metadataCache.cache__.get(oldPath);
      metadataCache.cache__.delete(oldPath);
      if (entry) metadataCache.cache__.set(file.path, entry);
      if (queued.delete(oldPath)) queued.set(file.path, file);
    });

    return {
      catchUp(paths) {
        const wanted = paths.length === 0 ? [...queued.keys()] : paths.filter((p) => queued.has(p));
        for (const path of wanted) {
          const file = queued.get(path);
          queued.delete(path);
          if (file && !file.deleted__) parse(file);
        }
        metadataCache.trigger("resolved");
      },
      pending: () => [...queued.keys()].sort(),
    };
  }
}
