/**
 * Where a sorted list splits: the first index in [0, length) at which `before` is false, given that it is
 * true for every index before that one and false from there on. A binary search, O(log n).
 */
export function partitionPoint(length: number, before: (index: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The items of `list` that are not in `before` when `list` is `before` with items inserted (the same items,
 * compared by reference, in the same order otherwise), else null. A scan hands out its unchanged records again,
 * so after one end the new list is the previous one with the new note inserted: what a memo derives from.
 */
export function insertedInto<T>(before: readonly T[], list: readonly T[]): T[] | null {
  if (list.length < before.length) return null;
  const added: T[] = [];
  let j = 0;
  for (const item of list) {
    if (j < before.length && item === before[j]) j++;
    else added.push(item);
  }
  return j === before.length ? added : null;
}
