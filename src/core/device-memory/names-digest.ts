/**
 * A digest of a set of file names (issue 22) that does not depend on their order (a listing's order is the file
 * system's): the digest of the names sorted, as a JSON array. Used for the sets a device remembers without keeping
 * their names: the names an index.md lists (checked-indexes.ts) and a session folder's older notes
 * (folder-summary.ts). Sorting, writing and digesting are the engine's own work, cheap even in a process that
 * runs them once, as the CLI does; a hash summed name by name in script, not yet compiled in such a process, cost
 * more (docs/decisions.md "Index checks are a memo"). Pure.
 */

/** A digest of a text (the CLI: SHA-256). */
export type Digest = (text: string) => string;

/** A set of names' digest and how many names it has. */
export interface NamesDigest {
  readonly digest: string;
  readonly count: number;
}

/** The digest of `names`, a set (no name twice), in any order. */
export function namesDigest(names: readonly string[], digest: Digest): NamesDigest {
  return { digest: digest(JSON.stringify(names.slice().sort())), count: names.length };
}

/**
 * The digest of `names` taken in the order they are in: namesDigest's exactly when that order is ascending (as a
 * listing's is on the usual file systems), without the copy and the sort. So equal
 * to a set's namesDigest only if `names` is that set, in ascending order.
 */
export function digestInOrder(names: readonly string[], digest: Digest): NamesDigest {
  return { digest: digest(JSON.stringify(names)), count: names.length };
}

export const sameDigest = (x: NamesDigest, y: NamesDigest): boolean => x.digest === y.digest && x.count === y.count;
