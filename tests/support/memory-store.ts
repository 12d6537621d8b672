import { ConflictError, FileExistsError } from "../../src/core/errors";
import type { ChangeReport, ModifiedAt, SessionStore } from "../../src/core/ports";

/** An in-memory SessionStore with the same contract as the Node store (tests/store/store-contract.ts). */
export class MemoryStore implements SessionStore {
  readonly files = new Map<string, string>();
  readonly trashed: Array<{ path: string; content: string }> = [];
  /** Every write, in order: useful to assert that an operation wrote nothing. */
  readonly writes: string[] = [];
  /** Modification times by path (epoch ms): set by each write, or by a test (files set directly have none). */
  readonly mtimes = new Map<string, number>();

  /** What stamps each write's time: a test's clock (harness), else the real one. */
  now: () => number = Date.now;

  constructor(initial: Record<string, string> = {}) {
    for (const [path, content] of Object.entries(initial)) this.files.set(path, content);
  }

  /** Files without a recorded time (set directly by a test, e.g. a sync) count as changed: nothing is skipped. */
  changedAmong(folder: string, names: readonly string[], since: number): Promise<string[]> {
    return Promise.resolve(
      names.filter((name) => {
        const path = `${folder}/${name}`;
        if (!this.files.has(path)) return false;
        const at = this.mtimes.get(path);
        return at === undefined || at >= since;
      }),
    );
  }

  read(path: string): Promise<string | null> {
    return Promise.resolve(this.files.get(path) ?? null);
  }

  list(folder: string): Promise<string[]> {
    const prefix = `${folder}/`;
    const names = [...this.files.keys()]
      .filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes("/"))
      .map((p) => p.slice(prefix.length));
    return Promise.resolve(names);
  }

  folders(folder: string): Promise<string[]> {
    const prefix = `${folder}/`;
    const names = [...this.files.keys()]
      .filter((p) => p.startsWith(prefix) && p.slice(prefix.length).includes("/"))
      .map((p) => p.slice(prefix.length).split("/")[0]);
    return Promise.resolve([...new Set(names)]);
  }

  create(path: string, content: string): Promise<void> {
    if (this.files.has(path)) return Promise.reject(new FileExistsError(path));
    this.files.set(path, content);
    this.mtimes.set(path, this.now());
    this.writes.push(`create ${path}`);
    return Promise.resolve();
  }

  replace(path: string, expected: string | null, content: string): Promise<void> {
    if ((this.files.get(path) ?? null) !== expected) return Promise.reject(new ConflictError(path));
    this.files.set(path, content);
    this.mtimes.set(path, this.now());
    this.writes.push(`replace ${path}`);
    return Promise.resolve();
  }

  trash(path: string): Promise<void> {
    const content = this.files.get(path);
    if (content === undefined) return Promise.reject(new Error(`${path} does not exist`));
    this.files.delete(path);
    this.mtimes.delete(path);
    this.trashed.push({ path, content });
    this.writes.push(`trash ${path}`);
    return Promise.resolve();
  }

  modifiedAt(path: string): Promise<ModifiedAt> {
    if (!this.files.has(path)) return Promise.resolve({ kind: "missing" });
    return Promise.resolve({ kind: "at", ms: this.mtimes.get(path) ?? 0 });
  }

  /** No metadata cache: every note is read. */
  cachedFields(_path: string): undefined {
    return undefined;
  }

  /** No file events: every scan looks at the whole folder. */
  changesSince(_folder: string, _since: number | null): ChangeReport {
    return { kind: "unfollowed" };
  }

  snapshot(): Record<string, string> {
    return Object.fromEntries([...this.files.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
  }
}
