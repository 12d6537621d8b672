import { ForwardingStore } from "./forwarding-store";
import type { SessionStore } from "../../src/core/ports";

/** What a write throws once the simulated crash has happened. */
export class SimulatedCrash extends Error {
  constructor(readonly write: string) {
    super("simulated crash");
    this.name = "SimulatedCrash";
  }
}

/**
 * A SessionStore over another one that lets the first `allowed` writes (create, replace, trash) through and
 * fails every later write, as a crash would: from write number `allowed` on (counting from 0), nothing more
 * reaches the files. With the default `allowed` (infinity) it only counts, which gives the number of writes
 * of an uninterrupted run, i.e. the crash points k = 0 … writes to try. Reads and the optional fast paths are
 * passed through unchanged.
 */
export class CrashingStore extends ForwardingStore {
  /** Writes attempted so far, the refused ones included. */
  writes = 0;
  /** The writes that reached the inner store, in order ("create <path>", "replace <path>", "trash <path>"). */
  readonly log: string[] = [];
  /** Every content that a create or replace wrote, by path, in order. */
  readonly contents = new Map<string, string[]>();
  /** The first refused write, once the crash has happened. */
  crashedAt: string | null = null;

  constructor(
    inner: SessionStore,
    readonly allowed = Number.POSITIVE_INFINITY,
  ) {
    super(inner);
  }

  get crashed(): boolean {
    return this.crashedAt !== null;
  }

  create(path: string, content: string): Promise<void> {
    return this.gate(`create ${path}`, () => this.inner.create(path, content), path, content);
  }

  replace(path: string, expected: string | null, content: string): Promise<void> {
    return this.gate(`replace ${path}`, () => this.inner.replace(path, expected, content), path, content);
  }

  trash(path: string): Promise<void> {
    return this.gate(`trash ${path}`, () => this.inner.trash(path));
  }

  private async gate(write: string, perform: () => Promise<void>, path?: string, content?: string): Promise<void> {
    if (this.writes++ >= this.allowed) {
      this.crashedAt ??= write;
      throw new SimulatedCrash(write);
    }
    await perform();
    this.log.push(write);
    if (path !== undefined && content !== undefined)
      this.contents.set(path, [...(this.contents.get(path) ?? []), content]);
  }
}
