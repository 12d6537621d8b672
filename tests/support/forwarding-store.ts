import type { ChangeReport, ModifiedAt, SessionStore } from "../../src/core/ports";
import type { ConfirmedSession } from "../../src/core/records/records";

/**
 * A SessionStore that passes every call to `inner`: the base of the test wrappers (crashing, watched,
 * gated), which override only the calls they observe or fail. `modifiedAt` answers "untold" unless
 * `tellsModifiedAt` is set, as the stores before modifiedAt did, so temp files are never aged through a
 * wrapper by default.
 */
export class ForwardingStore<Inner extends SessionStore = SessionStore> implements SessionStore {
  constructor(
    readonly inner: Inner,
    private readonly tellsModifiedAt = false,
  ) {}

  read(path: string): Promise<string | null> {
    return this.inner.read(path);
  }

  list(folder: string): Promise<string[]> {
    return this.inner.list(folder);
  }

  folders(folder: string): Promise<string[]> {
    return this.inner.folders(folder);
  }

  create(path: string, content: string): Promise<void> {
    return this.inner.create(path, content);
  }

  replace(path: string, expected: string | null, content: string): Promise<void> {
    return this.inner.replace(path, expected, content);
  }

  trash(path: string): Promise<void> {
    return this.inner.trash(path);
  }

  modifiedAt(path: string): Promise<ModifiedAt> {
    return this.tellsModifiedAt ? this.inner.modifiedAt(path) : Promise.resolve({ kind: "untold" });
  }

  changedAmong(folder: string, names: readonly string[], since: number): Promise<string[]> {
    return this.inner.changedAmong(folder, names, since);
  }

  cachedFields(path: string): Record<string, unknown> | undefined {
    return this.inner.cachedFields(path);
  }

  cachedConfirmed(path: string): ConfirmedSession | undefined {
    return this.inner.cachedConfirmed?.(path);
  }

  changesSince(folder: string, since: number | null): ChangeReport {
    return this.inner.changesSince(folder, since);
  }
}
