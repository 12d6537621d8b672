/**
 * What a device remembers of checking index.md (issue 22): that a text, by its digest, has exactly the shape
 * renderIndexOfLines writes and lists exactly a set of confirmed notes, by a digest of their names. Checking it
 * costs a walk of the whole text and a set of every note's name; the answer depends only on the
 * text and the names, so it is remembered as it is (a memo, never a guess): the next call that finds the same
 * text beside the same names skips the walk (operations/incremental-index.ts, DeviceMemory.indexListsExactly).
 * The face keeps the memo between its processes (the CLI: cli/device-memory/memory-files.ts, outside the vault). Pure.
 */
import type { Digest, NamesDigest } from "./names-digest";
import { namesDigest } from "./names-digest";
import { knownToBeginWith } from "../scan/joined";

/**
 * One remembered check: the text's digest, the digest of the names it lists (namesKey, split at `split`) and
 * their number.
 */
export interface IndexCheck {
  readonly text: string;
  readonly names: string;
  readonly count: number;
  readonly split: string;
}

/**
 * Names this call already knows the digest of (the folder summary's older notes, vouched for by the listing:
 * folder-summary.ts olderRange): `older`, every name before `split`, whose set's digest is `old`.
 */
export interface KnownOlder {
  readonly split: string;
  readonly old: NamesDigest;
  readonly older: readonly string[];
}

/**
 * The digest of a set of names, cut at `split`: of the split, the digest of the names before it (namesDigest)
 * and the names at or after it, so that a call that knows the first digest (`known`, for the same split) digests
 * only the few recent names, not the history. The same set and split give the same digest either way.
 */
export function namesKey(
  names: readonly string[],
  split: string,
  digest: Digest,
  known: KnownOlder | null = null,
): NamesDigest {
  const after = known !== null && known.split === split ? afterKnown(names, known) : null;
  if (after !== null && known !== null) return keyAfterKnown(known, after, digest);
  const old = namesDigest(
    names.filter((n) => n < split),
    digest,
  );
  return splitKey(
    split,
    old,
    names.filter((n) => n >= split),
    names.length,
    digest,
  );
}

/** namesKey of `known.older` and `rest`, every one of `rest` at or after `known.split` (what afterKnown gives). */
function keyAfterKnown(known: KnownOlder, rest: readonly string[], digest: Digest): NamesDigest {
  return splitKey(known.split, known.old, rest, known.older.length + rest.length, digest);
}

/** namesKey of `count` names: those before `split`, digested as `old`, and the others, `rest` (all at or after it). */
export function splitKey(
  split: string,
  old: NamesDigest,
  rest: readonly string[],
  count: number,
  digest: Digest,
): NamesDigest {
  const head = JSON.stringify([split, old.digest, old.count]);
  return { digest: digest(`${head}\n${JSON.stringify(rest.slice().sort())}`), count };
}

/**
 * The names after `known.older` when they begin with exactly it and none after is before the split. Every one of
 * `known.older` is before it (KnownOlder: a set whose digest is the summary's, made of names before the split only).
 */
function afterKnown(names: readonly string[], known: KnownOlder): readonly string[] | null {
  const { older, split } = known;
  if (names.length < older.length) return null;
  if (!knownToBeginWith(names, older)) for (let i = 0; i < older.length; i++) if (names[i] !== older[i]) return null;
  const rest = names.slice(older.length);
  return rest.every((n) => n >= split) ? rest : null;
}

/**
 * The checks kept: the latest few, newest first. Usually the index an end wrote is the one the next call
 * reads; a few more cover an index put back as it was (a sync undoing a write, the benchmark's reset).
 */
export const CHECKS_KEPT = 4;

export class CheckedIndexes {
  private checks: IndexCheck[] = [];
  private changed = false;
  /** afterKnown of the last names asked, kept: a call checks and then remembers the same listing. */
  private after: { names: readonly string[]; known: KnownOlder; rest: readonly string[] | null } | null = null;
  /** The last text digested and its digest: a call checks and then remembers the same text. */
  private last: { text: string; digest: string } | null = null;
  /** The sets digested (setOf), by the identity of their names, the change and the split. */
  private sets: {
    names: readonly string[];
    minus: string | null;
    plus: string | null;
    set: Map<string, NamesDigest>;
  } | null = null;

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
    this.sets = null;
    this.after = null;
  }

  /** Whether a check was added since `begin` (then the face saves them). */
  learned(): boolean {
    return this.changed;
  }

  /** The checks to keep, newest first. */
  remembered(): readonly IndexCheck[] {
    return this.checks;
  }

  /**
   * Whether `text` was found to list exactly `names` (file names; `except` left out when among them). `known`:
   * names before a split whose digest this call knows (they are not digested again).
   */
  listsExactly(
    text: string,
    names: readonly string[],
    except: string | null,
    known: KnownOlder | null = null,
  ): boolean {
    const minus = except !== null && this.holds(names, except, known) ? except : null;
    const count = names.length - (minus === null ? 0 : 1);
    // Those split where this call knows the older names' digest first: their names cost the recent ones only.
    const cheap = (c: IndexCheck): number => (c.split === known?.split ? 0 : 1);
    const candidates = this.checks.filter((c) => c.count === count).sort((x, y) => cheap(x) - cheap(y));
    let digest: string | null = null;
    const found = candidates.find(
      (c) =>
        c.names === this.setOf(names, minus, null, c.split, known).digest &&
        c.text === (digest ??= this.digestOf(text)),
    );
    if (found === undefined) return false;
    // Saved split elsewhere (by a call without a summary, or before the split moved): kept split where it is now.
    const hit =
      known === null || found.split === known.split
        ? found
        : { ...found, names: this.setOf(names, minus, null, known.split, known).digest, split: known.split };
    if (this.checks[0] !== hit) {
      // The latest used goes first, so that the checks kept are those in use.
      this.checks = [hit, ...this.checks.filter((c) => c !== found)];
      this.changed = true;
    }
    return true;
  }

  /**
   * `text` was found (or written) to list exactly `names`, less `except` when among them, and `plus` (if new);
   * remembered split at `known`'s split (its names not digested again), or at none without it.
   */
  checked(
    text: string,
    names: readonly string[],
    except: string | null,
    plus: string | null,
    known: KnownOlder | null = null,
  ): void {
    const minus = except !== null && this.holds(names, except, known) ? except : null;
    const split = known?.split ?? "";
    const set = this.setOf(names, minus, plus !== null && !this.holds(names, plus, known) ? plus : null, split, known);
    const check: IndexCheck = { text: this.digestOf(text), names: set.digest, count: set.count, split };
    const same = (c: IndexCheck): boolean =>
      c.text === check.text && c.names === check.names && c.count === check.count && c.split === check.split;
    if (this.checks.length > 0 && same(this.checks[0])) return;
    this.checks = [check, ...this.checks.filter((c) => !same(c))].slice(0, CHECKS_KEPT);
    this.changed = true;
  }

  /**
   * The digest of `names` (a listing's: no name twice), less `minus` (one of them) and with `plus` (not one of
   * them), split at `split` (namesKey); digested once per listing, change and split: a call checks and then
   * remembers the same names.
   */
  private setOf(
    names: readonly string[],
    minus: string | null,
    plus: string | null,
    split: string,
    known: KnownOlder | null,
  ): NamesDigest {
    const same = this.sets?.names === names && this.sets.minus === minus && this.sets.plus === plus;
    if (!same || this.sets === null) this.sets = { names, minus, plus, set: new Map() };
    const done = this.sets.set.get(split);
    if (done !== undefined) return done;
    // The older names known to begin the listing (and no change among them): only the recent ones are copied.
    const rest = known !== null && known.split === split ? this.restOf(names, known) : null;
    let set: NamesDigest;
    if (rest !== null && known !== null && (minus === null || minus >= split) && (plus === null || plus >= split)) {
      const after = minus === null ? rest.slice() : rest.filter((n) => n !== minus);
      if (plus !== null) after.push(plus);
      set = keyAfterKnown(known, after, this.digest);
    } else {
      const list = names.slice();
      if (minus !== null) list.splice(list.indexOf(minus), 1);
      if (plus !== null) list.push(plus);
      set = namesKey(list, split, this.digest, known);
    }
    this.sets.set.set(split, set);
    return set;
  }

  /** afterKnown(names, known), once per listing and claim. */
  private restOf(names: readonly string[], known: KnownOlder): readonly string[] | null {
    if (this.after?.names !== names || this.after.known !== known) {
      this.after = { names, known, rest: afterKnown(names, known) };
    }
    return this.after.rest;
  }

  /** Whether `names` (a listing) holds `name`: among the recent ones only, when the older are known to begin it. */
  private holds(names: readonly string[], name: string, known: KnownOlder | null): boolean {
    const rest = known !== null && name >= known.split ? this.restOf(names, known) : null;
    return rest !== null ? rest.includes(name) : names.includes(name);
  }

  private digestOf(text: string): string {
    if (this.last?.text !== text) this.last = { text, digest: this.digest(text) };
    return this.last.digest;
  }
}
