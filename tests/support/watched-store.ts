import { ForwardingStore } from "./forwarding-store";
import { ConflictError } from "../../src/core/errors";
import type { MemoryStore } from "./memory-store";

/**
 * A store over a MemoryStore that records every read and makes the next `conflicts` replaces of one path
 * fail as if another writer (a sync daemon, another device) changed it underneath.
 */
export class WatchedStore extends ForwardingStore<MemoryStore> {
  readonly reads: string[] = [];
  conflicts = 0;
  constructor(
    inner: MemoryStore,
    private readonly conflictPath: string | null = null,
  ) {
    super(inner);
  }
  read(p: string) {
    this.reads.push(p);
    return this.inner.read(p);
  }
  replace(p: string, expected: string | null, content: string) {
    if (p === this.conflictPath && this.conflicts > 0) {
      this.conflicts--;
      return Promise.reject(new ConflictError(p));
    }
    return this.inner.replace(p, expected, content);
  }
}
