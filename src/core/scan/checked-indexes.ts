/**
 * What a device remembers of checking index.md (issue 22): that a text, by its digest, has exactly the shape
 * renderIndexOfLines writes and lists exactly a set of confirmed notes, by a digest of their names. Checking it
 * costs a walk of the 2.7 MB text and a set of 30 000 names at 30 000 sessions; the answer depends only on the
 * text and the names, so it is remembered as it is (a memo, never a guess): the next call that finds the same
 * text beside the same names skips the walk (operations/incremental-index.ts, SessionStore.indexListsExactly).
 * The face keeps the memo between its processes (the CLI: src/cli/cache-file.ts, outside the vault). Pure.
 */

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

/** A digest of a text (the CLI: SHA-256). */
export type Digest = (text: string) => string;

export class CheckedIndexes {
  private checks: IndexCheck[] = [];
  private changed = false;
  /** The last text digested and its digest: a call checks and then remembers the same text. */
  private last: { text: string; digest: string } | null = null;
  /** The last names summed (namesSum), by identity. */
  private lastNames: { names: readonly string[]; sum: readonly [number, number] } | null = null;

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
    this.lastNames = null;
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
    const matches = this.checks.filter((c) => c.names === set.digest && c.count === set.count);
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

  /** namesDigest, summing `names` once per listing: a call checks and then remembers the same names. */
  private setOf(names: readonly string[], minus: string | null, plus: string | null): NamesDigest {
    if (this.lastNames?.names !== names) this.lastNames = { names, sum: namesSum(names) };
    return namesDigest(this.lastNames.sum, names.length, minus, plus);
  }

  private digestOf(text: string): string {
    if (this.last?.text !== text) this.last = { text, digest: this.digest(text) };
    return this.last.digest;
  }
}

/** A set of names' digest (namesDigest) and how many names it has. */
export interface NamesDigest {
  digest: string;
  count: number;
}

/** The sum of the names' hashes (add), in two 32-bit lanes. */
function namesSum(names: readonly string[]): readonly [number, number] {
  const sum: [number, number] = [0, 0];
  for (const name of names) add(sum, name, 1);
  return sum;
}

/**
 * A digest of a set of names that does not depend on their order (a listing's order is the file system's): the
 * sum, in two independent 32-bit lanes, of each name's mixed hash (`sum`, of `count` names: namesSum), with the
 * number of names. Two different sets of the same size collide with a chance of about 2^-64. `minus` (one of
 * them) is left out, `plus` (not one of them) added.
 */
function namesDigest(
  sum: readonly [number, number],
  count: number,
  minus: string | null,
  plus: string | null,
): NamesDigest {
  const total: [number, number] = [sum[0], sum[1]];
  if (minus !== null) add(total, minus, -1);
  if (plus !== null) add(total, plus, 1);
  return {
    digest: hex8(total[0]) + hex8(total[1]),
    count: count - (minus === null ? 0 : 1) + (plus === null ? 0 : 1),
  };
}

/**
 * Adds (sign 1) or takes away (-1) one name's two hashes, in one pass over its UTF-16 code units: FNV-1a, and a
 * multiply-rotate of another seed; each then avalanched (MurmurHash3's finaliser) so that sums spread evenly.
 */
function add(sum: [number, number], name: string, sign: 1 | -1): void {
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ name.length;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b = (b << 13) | (b >>> 19);
  }
  sum[0] = (sum[0] + sign * mix(a)) >>> 0;
  sum[1] = (sum[1] + sign * mix(b ^ 0x27d4eb2f)) >>> 0;
}

const hex8 = (n: number): string => n.toString(16).padStart(8, "0");

/** The 32-bit finaliser of MurmurHash3. */
function mix(x: number): number {
  let h = x;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
