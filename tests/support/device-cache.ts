import { RESAVE_MS } from "../../src/cli/cache";
import type { CacheOwner, Remembered } from "../../src/cli/cache-file";
import { parseScanCache, renderScanCache } from "../../src/cli/cache-file";
import type { SessionStore } from "../../src/core/ports";
import type { TimeOf, TimesOf } from "../../src/core/scan/remembered-times";
import { RememberedTimes } from "../../src/core/scan/remembered-times";
import { ForwardingStore } from "./forwarding-store";
import type { MemoryStore } from "./memory-store";

const OWNER: CacheOwner = { tool: "test", vault: "/vault", folder: "palee/sessions" };

/** What can happen to a device's cache file between two calls (issue 22). */
export type CacheTrouble = "delete" | "corrupt" | "stale" | "future";
export const CACHE_TROUBLES: readonly CacheTrouble[] = ["delete", "corrupt", "stale", "future"];

/** The modification times of an in-memory store, as NodeStore.modifiedTimes tells them. */
export function memoryTimes(memory: MemoryStore): TimesOf {
  return (folder, names) =>
    Promise.resolve(
      names.map((name): TimeOf => {
        const path = `${folder}/${name}`;
        return memory.files.has(path) ? (memory.mtimes.get(path) ?? "untold") : "missing";
      }),
    );
}

/**
 * One device's scan cache as the CLI keeps it, in memory: its file's text (through the real format of
 * src/cli/cache-file.ts), loaded when a call begins and saved when a writing call ends. `store` is what the
 * device's core works on.
 */
export class DeviceCache {
  text: string | null = null;
  /** The cache as the current call read it (null: not trusted). */
  private began: Remembered | null = null;
  /** Every text saved, oldest first: a stale cache is one of them. */
  readonly saved: string[] = [];
  remembered!: RememberedTimes;
  /** What the core works on: the remembered times, checked against the store's own answer (CheckedTimes). */
  store!: SessionStore;
  /**
   * Names a test replaced with other content by hand (a rename over an existing note): the one case the cache
   * does not see until it is rebuilt (docs/performance.md), left out of the check.
   */
  readonly rewritten = new Set<string>();
  /** How the calls began: with a cache trusted, or learning afresh; and how many answers the cache gave. */
  readonly counts = { warm: 0, cold: 0, answered: 0 };

  constructor(
    inner: SessionStore,
    private readonly memory: MemoryStore,
  ) {
    this.rewire(inner);
  }

  /** The cache over another store (a fresh instance of the app after a crash); returns what the core uses. */
  rewire(inner: SessionStore): SessionStore {
    this.remembered = new RememberedTimes(inner, OWNER.folder, memoryTimes(this.memory));
    this.store = new CheckedTimes(this.remembered, this.memory, this);
    return this.store;
  }

  /** A call begins: the cache file is read (a text not to be trusted: nothing known). Returns whether trusted. */
  begin(now: number): boolean {
    const read = this.text === null ? null : parseScanCache(this.text, OWNER, now);
    this.remembered.begin(read?.times ?? null);
    this.began = read;
    this.counts[read === null ? "cold" : "warm"] += 1;
    return read !== null;
  }

  /** A writing call ends (under the lock): what it learned is saved, as src/cli/cache.ts `finish` does. */
  save(now: number): void {
    const trusted = this.began;
    if (trusted !== null && !this.remembered.learned() && now - trusted.savedAt < RESAVE_MS) return;
    const kept = this.remembered.remembered();
    if (kept === null) return;
    this.text = renderScanCache(OWNER, kept.times, now);
    this.saved.push(this.text);
  }

  trouble(kind: CacheTrouble, pick: number, now: number): void {
    const text = this.text;
    if (kind === "delete" || text === null) this.text = null;
    else if (kind === "corrupt") {
      // One character of the body changed: the checksum no longer holds.
      const body = text.indexOf("\n", text.indexOf("\n") + 1) + 1;
      const at = body + (pick % (text.length - body));
      this.text = `${text.slice(0, at)}${text[at] === "7" ? "3" : "7"}${text.slice(at + 1)}`;
    } else if (kind === "stale") {
      this.text = this.saved[pick % this.saved.length] ?? null;
    } else {
      // Saved "in the future" (this clock was set back since): not trusted.
      this.text = text.replace(/"saved_at":\d+/, `"saved_at":${now + 60_000}`);
    }
  }
}

/**
 * The oracle: every name the store itself reports as written since `since` is among the cache's answer (it may
 * answer more: a time it remembers can be later than a file's, never earlier). A miss fails the test at once.
 */
class CheckedTimes extends ForwardingStore<RememberedTimes> {
  constructor(
    inner: RememberedTimes,
    private readonly memory: MemoryStore,
    private readonly cache: DeviceCache,
  ) {
    super(inner, true);
  }

  async changedAmong(folder: string, names: readonly string[], since: number): Promise<string[]> {
    const answer = await this.inner.changedAmong(folder, names, since);
    const truth = await this.memory.changedAmong(folder, names, since);
    const given = new Set(answer);
    const missed = truth.filter((name) => !given.has(name) && !this.cache.rewritten.has(name));
    if (missed.length > 0) throw new Error(`the scan cache missed ${missed.join(", ")} (written since ${since})`);
    this.cache.counts.answered += 1;
    return answer;
  }
}
