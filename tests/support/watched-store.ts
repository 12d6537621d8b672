import { ConflictError } from "../../src/core/errors";
import type { ModifiedAt, SessionStore } from "../../src/core/ports";
import type { MemoryStore } from "./memory-store";

/**
 * A store over a MemoryStore that records every read and makes the next `conflicts` replaces of one path
 * fail as if another writer (a sync daemon, another device) changed it underneath.
 */
export class WatchedStore implements SessionStore {
  readonly reads: string[] = [];
  conflicts = 0;
  constructor(
    readonly inner: MemoryStore,
    private readonly conflictPath: string | null = null,
  ) {}
  read(p: string) {
    this.reads.push(p);
    return this.inner.read(p);
  }
  list(folder: string) {
    return this.inner.list(folder);
  }
  changedAmong(folder: string, names: readonly string[], since: number) {
    return this.inner.changedAmong(folder, names, since);
  }
  /** Like the stores of before modifiedAt: temp files are never aged through this wrapper. */
  modifiedAt(): Promise<ModifiedAt> {
    return Promise.resolve({ kind: "untold" });
  }
  cachedFields(path: string) {
    return this.inner.cachedFields(path);
  }
  changesSince(folder: string, since: number | null) {
    return this.inner.changesSince(folder, since);
  }
  create(p: string, content: string) {
    return this.inner.create(p, content);
  }
  replace(p: string, expected: string | null, content: string) {
    if (p === this.conflictPath && this.conflicts > 0) {
      this.conflicts--;
      return Promise.reject(new ConflictError(p));
    }
    return this.inner.replace(p, expected, content);
  }
  trash(p: string) {
    return this.inner.trash(p);
  }
}
