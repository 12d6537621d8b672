import type { Clock, CorePorts, RandomSource, SessionStore } from "../../src/core/ports";
import { BOUNDED_VIEWS } from "../../src/core/operations/bounded-views";
import { layoutFor } from "../../src/core/records/layout";
import { PaleeSessions } from "../../src/core/sessions";
import { MemoryStore } from "./memory-store";

/** A clock that only moves when told to, with a fixed UTC offset (minutes east of UTC). */
export class FakeClock implements Clock {
  constructor(
    public ms: number,
    public offset = 0,
  ) {}
  static at(iso: string, offset = 0): FakeClock {
    return new FakeClock(Date.parse(iso), offset);
  }
  now(): number {
    return this.ms;
  }
  offsetMinutes(): number {
    return this.offset;
  }
  advance(minutes: number): void {
    this.ms += minutes * 60_000;
  }
}

/** Deterministic bytes from a seed (a small xorshift): reproducible IDs in tests. */
export class SeededRandom implements RandomSource {
  private state: number;
  constructor(seed = 1) {
    this.state = seed >>> 0 || 1;
  }
  bytes(count: number): Uint8Array {
    const out = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      this.state ^= this.state << 13;
      this.state ^= this.state >>> 17;
      this.state ^= this.state << 5;
      out[i] = this.state & 0xff;
    }
    return out;
  }
}

/** Always returns the same bytes: forces ID collisions. */
export class FixedRandom implements RandomSource {
  constructor(private readonly byte = 0xab) {}
  bytes(count: number): Uint8Array {
    return new Uint8Array(count).fill(this.byte);
  }
}

export interface Harness<S extends SessionStore = MemoryStore> {
  store: S;
  clock: FakeClock;
  random: RandomSource;
  core: PaleeSessions;
  ports: CorePorts;
}

/**
 * A core over `store` (any store: a watched or crashing wrapper too; by default a fresh in-memory one).
 * `bounded`: the CLI's list and views from a trusted index.md (core/operations/bounded-views.ts), as `palee`
 * runs the core.
 */
export function harness<S extends SessionStore = MemoryStore>(
  options: {
    at?: string;
    offset?: number;
    device?: string;
    store?: S;
    random?: RandomSource;
    folder?: string;
    bounded?: boolean;
  } = {},
): Harness<S> {
  const clock = FakeClock.at(options.at ?? "2026-08-14T12:00:00Z", options.offset ?? 0);
  const store = options.store ?? ownStore<S>(clock);
  const random = options.random ?? new SeededRandom(42);
  const ports = { store, clock, random, device: options.device ?? "laptop" };
  const layout = layoutFor(options.folder ?? "palee");
  const core = new PaleeSessions(ports, layout, options.bounded ? BOUNDED_VIEWS : {});
  return { store, clock, random, ports, core };
}

/** The default store of `harness`: it stamps its writes with the test's clock, as a disk does with the device's. */
function ownStore<S>(clock: FakeClock): S {
  const store = new MemoryStore();
  store.now = () => clock.now();
  // Sound: S is MemoryStore whenever the caller passes no store (the type parameter's default).
  return store as unknown as S;
}
