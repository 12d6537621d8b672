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
