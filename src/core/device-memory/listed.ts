/** Up to this many names gone, each is looked up in the listing; more, and the listing is walked once. */
const FEW_GONE = 8;

/**
 * A run of a listing's names all before a name: `names[from]` up to `names[to]` (not included) are each before
 * `before` (the older notes a folder summary vouched for: by-names.ts).
 */
export interface RunBefore {
  readonly from: number;
  readonly to: number;
  readonly before: string;
}

/**
 * A folder's names as a listing gave them, with the writes since: the listing itself is kept as it is (30 000
 * names need no set of their own unless one is asked about). With `older`, a name at or after its `before` (a
 * note written by this call) is looked for outside that run only.
 */
export class Listed {
  private readonly added = new Set<string>();
  private readonly gone = new Set<string>();
  private set: Set<string> | null = null;
  /** `all()` as last made: a call asks for it several times between its writes (30 000 names a copy). */
  private every: string[] | null = null;

  constructor(
    private readonly names: readonly string[],
    private readonly older: RunBefore | null = null,
  ) {}

  add(name: string): void {
    this.every = null;
    this.gone.delete(name);
    if (!this.inListing(name)) this.added.add(name);
  }

  delete(name: string): void {
    this.every = null;
    this.added.delete(name);
    if (this.inListing(name)) this.gone.add(name);
  }

  /** Whether `name` is there now: for asking about many names (a set of the listing is made once). */
  has(name: string): boolean {
    this.set ??= new Set(this.names);
    return this.added.has(name) || (!this.gone.has(name) && this.set.has(name));
  }

  /**
   * Every name now, the listing's in its order and then those added: the same array until a write, shared as the
   * listing itself is (SessionStore.list's answer), so never changed by whoever asks.
   */
  all(): string[] {
    this.every ??= this.current(this.names);
    return this.every;
  }

  /** `some` of the listing's names that are still there, and every name added since. */
  current(some: readonly string[]): string[] {
    // A call removes a name or two: each found by the engine's own search, not by a walk of 30 000 in script.
    const few = this.gone.size <= FEW_GONE;
    const kept = few ? some.slice() : some.filter((name) => !this.gone.has(name));
    if (few) {
      for (const name of this.gone) {
        const at = kept.indexOf(name);
        if (at >= 0) kept.splice(at, 1);
      }
    }
    kept.push(...this.added);
    return kept;
  }

  /**
   * Whether the listing had `name`: a walk of it, as a call writes a name or two (or the set, once made); for a
   * name not before `older.before`, of the names outside that run (the recent ones: no walk of the history).
   */
  private inListing(name: string): boolean {
    if (this.set) return this.set.has(name);
    const run = this.older;
    if (run === null || name < run.before) return this.names.includes(name);
    return this.names.slice(0, run.from).includes(name) || this.names.indexOf(name, run.to) >= 0;
  }
}
