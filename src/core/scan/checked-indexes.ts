/**
 * What a device remembers of checking index.md (issue 22): that a text, by its digest, has exactly the shape
 * renderIndexOfLines writes and lists exactly a set of confirmed notes, by a digest of their names. Checking it
 * costs a walk of the 2.7 MB text and a set of 30 000 names at 30 000 sessions; the answer depends only on the
 * text and the names, so it is remembered as it is (a memo, never a guess): the next call that finds the same
 * text beside the same names skips the walk (operations/incremental-index.ts, SessionStore.indexListsExactly).
 * The face keeps the memo between its processes (the CLI: src/cli/cache-file.ts, outside the vault). Pure.
 */
import type { Digest, NamesDigest } from "./names-digest";
import { namesDigest, sameDigest } from "./names-digest";

/** One remembered check: the text's digest, the digest of the names it lists and their number. */
export interface IndexCheck {
  readonly text: string;
  readonly names: string;
  readonly count: number;
}

/**
 * The checks kept: the latest few, newest first. Usually the index an end wrote is the one the next call
 * reads; a few more cover an index put back as it was (a sync undoing a write, the benchmark's reset).
 */
export const CHECKS_KEPT = 4;

export class CheckedIndexes {
  private checks: IndexCheck[] = [];
  private changed = false;
  /** The last text digested and its digest: a call checks and then remembers the same text. */
  private last: { text: string; digest: string } | null = null;
  /** The last set digested (setOf), by the identity of its names. */
  private lastSet: { names: readonly string[]; minus: string | null; plus: string | null; set: NamesDigest } | null =
    null;

  constructor(
    private readonly digest: Digest,
    known: readonly IndexCheck[] | null = null,
  ) {
    this.begin(known);
  }

  /** Starts afresh from `known` (null: none known). */
  begin(known: readonly IndexCheck[] | null): void {
    this.checks = known ? known.slice(0, CHECKS_KEPT) : [];
    this.changed = false;
    this.last = null;
    this.lastSet = null;
  }

  /** Whether a check was added since `begin` (then the face saves them). */
  learned(): boolean {
    return this.changed;
  }

  /** The checks to keep, newest first. */
  remembered(): readonly IndexCheck[] {
    return this.checks;
  }

  /** Whether `text` was found to list exactly `names` (file names; `except` left out when among them). */
  listsExactly(text: string, names: readonly string[], except: string | null): boolean {
    if (this.checks.length === 0) return false;
    const set = this.setOf(names, except !== null && names.includes(except) ? except : null, null);
    const matches = this.checks.filter((c) => sameDigest({ digest: c.names, count: c.count }, set));
    if (matches.length === 0) return false;
    const digest = this.digestOf(text);
    const hit = matches.find((c) => c.text === digest);
    if (hit === undefined) return false;
    if (this.checks[0] !== hit) {
      // The latest used goes first, so that the checks kept are those in use.
      this.checks = [hit, ...this.checks.filter((c) => c !== hit)];
      this.changed = true;
    }
    return true;
  }

  /** `text` was found (or written) to list exactly `names`, less `except` when among them, and `plus` (if new). */
  checked(text: string, names: readonly string[], except: string | null, plus: string | null): void {
    const minus = except !== null && names.includes(except) ? except : null;
    const set = this.setOf(names, minus, plus !== null && !names.includes(plus) ? plus : null);
    const check: IndexCheck = { text: this.digestOf(text), names: set.digest, count: set.count };
    const same = (c: IndexCheck): boolean =>
      c.text === check.text && c.names === check.names && c.count === check.count;
    if (this.checks.length > 0 && same(this.checks[0])) return;
    this.checks = [check, ...this.checks.filter((c) => !same(c))].slice(0, CHECKS_KEPT);
    this.changed = true;
  }

  /**
   * The digest of `names` (a listing's: no name twice), less `minus` (one of them) and with `plus` (not one of
   * them); digested once per listing and change: a call checks and then remembers the same names.
   */
  private setOf(names: readonly string[], minus: string | null, plus: string | null): NamesDigest {
    const last = this.lastSet;
    if (last?.names === names && last.minus === minus && last.plus === plus) return last.set;
    const list = names.slice();
    if (minus !== null) list.splice(list.indexOf(minus), 1);
    if (plus !== null) list.push(plus);
    const set = namesDigest(list, this.digest);
    this.lastSet = { names, minus, plus, set };
    return set;
  }

  private digestOf(text: string): string {
    if (this.last?.text !== text) this.last = { text, digest: this.digest(text) };
    return this.last.digest;
  }
}
