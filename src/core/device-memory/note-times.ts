import type { Vouched } from "./by-names";
import type { FolderSummary } from "./folder-summary";
import { sameSummary, summaryChanged, summaryKept, summaryOf } from "./folder-summary";
import type { TimesOf } from "./folder-reading";
import type { Listed } from "./listed";
import type { Digest } from "./names-digest";
import { kindOf } from "../scan/names";

/** What a call begins from: the remembered times, or a summary of the folder with the times read only if needed. */
export type Known = Map<string, number> | { summary: FolderSummary; times: () => Map<string, number> | null } | null;

/** What a face keeps after a call (remembered()): see there. */
export interface Kept {
  /** Every remembered time; null when the times were not needed (the face keeps the ones it has). */
  times: Map<string, number> | null;
  /** The folder summary, or null when it cannot be told (an older note's time is not known). */
  summary: FolderSummary | null;
  /** Whether any of it differs from what the call began with. */
  changed: boolean;
}

/**
 * Where the times stand in a call (the named states):
 * - "summary": not read yet; `changedAmong` answers from the summary (folder-summary.ts) while it can, and the times
 *   are read (`readAll`) once it cannot. `recent` is the summary's recent times less the names written since;
 *   `forgotten`, the names written;
 * - "read": every time known is in `times`.
 */
type TimesState =
  | {
      kind: "summary";
      summary: FolderSummary;
      times: () => Map<string, number> | null;
      recent: Map<string, number>;
      forgotten: Set<string>;
    }
  | { kind: "read" };

/**
 * The modification times of the session folder's confirmed notes as this device last saw them, so that a bounded
 * scan asks the file system only about names it has not seen (docs/performance.md "The note times"). Sound because
 * a note that saves a draft is created whole under a new name (create-only; a sync tool delivers it under that
 * name), so a name already seen keeps the time that bounds it. Pure: the face tells the times (`timesOf`).
 */
export class NoteTimes {
  /** The times known: all remembered ("read"), or only those learned since `begin` ("summary"). */
  private times = new Map<string, number>();
  private state: TimesState = { kind: "read" };
  /** The summary the call began with, if any (what remembered() compares with). */
  private began: FolderSummary | null = null;
  /** Whether a time was learned or forgotten since `begin`. */
  private changed = false;

  constructor(
    /** The session folder (Layout.sessions), vault-relative. */
    private readonly folder: string,
    private readonly timesOf: TimesOf,
    /** When given, the folder is kept as a summary (folder-summary.ts), its sets of names by this digest. */
    private readonly digest?: Digest,
  ) {}

  /** Starts afresh from `known` (null: nothing known, every name is asked about once). Takes ownership of it. */
  begin(known: Known): void {
    const summary = known instanceof Map || known === null ? null : known;
    this.times = known instanceof Map ? known : new Map<string, number>();
    this.state = summary
      ? { kind: "summary", ...summary, recent: new Map(summary.summary.recent), forgotten: new Set() }
      : { kind: "read" };
    this.began = summary?.summary ?? null;
    this.changed = false;
  }

  /** Whether a time was learned or forgotten since `begin` (names gone from the folder are not counted here). */
  learned(): boolean {
    return this.changed;
  }

  /** Whether the times were read (or given at `begin`): false while the summary answered every question. */
  timesRead(): boolean {
    return this.state.kind === "read";
  }

  /** The summary that answers while the times are not read; null once they are. */
  summary(): FolderSummary | null {
    return this.state.kind === "summary" ? this.state.summary : null;
  }

  /**
   * What to keep, made at `now`, from the latest listing (`listed`, with `vouched`, its older notes as the summary
   * vouched for them, if it did): every time known of its names (null when the summary answered every question and
   * still describes the folder: the face keeps the times it has), the folder summary, and whether any of it differs
   * from what `begin` was given (a time learned or forgotten, a name gone, a summary moved).
   */
  remembered(listed: Listed, vouched: Vouched | null, now: number): Kept {
    const { digest } = this;
    const open = this.state.kind === "summary" ? this.state : null;
    if (open !== null && vouched !== null) {
      // The older notes are the summary's (no older note written since, or the summary would be closed): only the
      // others are walked.
      const { summary, recent } = open;
      const others = listed.current(vouched.older.others).filter((name) => kindOf(name) === "confirmed");
      const timeOf = (name: string): number | undefined => this.times.get(name) ?? recent.get(name);
      const kept = summaryKept(summary, others, timeOf, now);
      if (kept !== null) return { times: null, summary: kept, changed: this.changed || !sameSummary(kept, summary) };
    }
    const confirmed = listed.all().filter((name) => kindOf(name) === "confirmed");
    if (open !== null) {
      const { summary, recent } = open;
      const timeOf = (name: string): number | undefined =>
        this.times.get(name) ??
        recent.get(name) ??
        (name < summary.split ? (summary.late.get(name) ?? -Infinity) : undefined);
      const made = digest ? summaryOf(confirmed, timeOf, now, summary, digest) : null;
      if (made !== null) return { times: null, summary: made, changed: this.changed || !sameSummary(made, summary) };
    }
    const times = this.readAll();
    let changed = this.changed;
    // Names gone from the folder lose their times. When every time is one of a listed note's (counted: the
    // listing has no name twice), none is gone, and no set of the listing's names is made to ask.
    let listedTimes = 0;
    for (const name of confirmed) if (times.has(name)) listedTimes++;
    for (const name of listedTimes === times.size ? [] : times.keys()) {
      if (listed.has(name)) continue;
      times.delete(name); // gone from the folder (deleting the current key is safe while iterating a Map)
      changed = true;
    }
    const summary = digest ? summaryOf(confirmed, (name) => times.get(name), now, null, digest) : null;
    const began = this.began;
    const same = summary === null || began === null ? summary === began : sameSummary(summary, began);
    return { times, summary, changed: changed || !same };
  }

  /**
   * The times, read now if the summary answered so far: the remembered ones, then the summary's (saved with or
   * after them), then those learned since `begin`, less the names written since.
   */
  private readAll(): Map<string, number> {
    const open = this.state;
    if (open.kind === "read") return this.times;
    const times = open.times() ?? new Map<string, number>();
    for (const [name, at] of open.summary.late) times.set(name, at);
    for (const [name, at] of open.recent) times.set(name, at);
    for (const name of open.forgotten) times.delete(name);
    for (const [name, at] of this.times) times.set(name, at);
    this.times = times;
    this.state = { kind: "read" };
    return times;
  }

  /** Learns the time of every one of `confirmed` (rebuild refreshes the whole memory). */
  async learnAll(confirmed: readonly string[]): Promise<void> {
    const times = this.readAll();
    await this.learn(confirmed.filter((name) => !times.has(name)));
  }

  /**
   * Which of `names` (in the folder) were written since `since`, as SessionStore.changedAmong answers; `vouched`:
   * the older notes the latest listing vouched for, which need not be digested again.
   */
  async changedAmong(names: readonly string[], since: number, vouched: readonly string[] | null): Promise<string[]> {
    const open = this.state.kind === "summary" ? this.state : null;
    const { digest } = this;
    const told = open && digest && summaryChanged(open.summary, names, since, digest, vouched);
    if (open !== null && told) {
      // No older note came or went: only a late one can be among them; the rest are looked up one by one.
      const timeOf = (name: string): number | undefined => this.times.get(name) ?? open.recent.get(name);
      const missing = await this.learn(told.rest.filter((name) => timeOf(name) === undefined));
      const rest = told.rest.filter((name) => {
        const at = timeOf(name);
        return at === undefined ? !missing.has(name) : at >= since;
      });
      return [...told.changed, ...rest];
    }
    const times = this.readAll();
    const missing = await this.learn(names.filter((name) => !times.has(name)));
    return names.filter((name) => {
      const at = times.get(name);
      return at === undefined ? !missing.has(name) : at >= since; // a time not told: read it
    });
  }

  /** Learns the times of `names`; returns those that no longer exist. */
  private async learn(names: readonly string[]): Promise<Set<string>> {
    const missing = new Set<string>();
    if (names.length === 0) return missing;
    const told = await this.timesOf(this.folder, names);
    names.forEach((name, i) => {
      const at = told[i];
      if (at === "missing") missing.add(name);
      if (typeof at !== "number") return;
      this.times.set(name, at);
      this.changed = true;
    });
    return missing;
  }

  /** Times told along with a reading of the folder (by-names.ts): the confirmed notes' are learned. */
  told(times: ReadonlyMap<string, number>): void {
    for (const [name, at] of times) {
      if (kindOf(name) !== "confirmed" || this.times.get(name) === at) continue;
      this.times.set(name, at);
      this.changed = true;
    }
  }

  /** `name`, in the folder, was written (created, replaced or trashed): its time is forgotten. */
  wrote(name: string): void {
    const open = this.state.kind === "summary" ? this.state : null;
    if (open !== null && kindOf(name) === "confirmed" && name < open.summary.split) {
      this.readAll(); // an older note came or went: the summary no longer tells
    } else if (open !== null) {
      open.forgotten.add(name);
      if (open.recent.delete(name)) this.changed = true;
    }
    if (this.times.delete(name)) this.changed = true;
  }
}
