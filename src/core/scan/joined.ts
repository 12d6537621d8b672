/**
 * Lists made by joining a known run of names and a few more (`joined`), remembered with that run: a later check
 * that such a list begins with exactly the run (the older notes a folder summary vouched for, 30 000 names at
 * 30 000 sessions: checked-indexes.ts afterKnown, folder-summary.ts summaryChanged) is then known without a walk
 * of the run in script. Sound because the list is new, made here, and read-only afterwards (readonly arrays);
 * a list made any other way is walked as before.
 */
const heads = new WeakMap<readonly string[], readonly string[]>();

/** `head` then `tail`, as a new list remembered to begin with exactly `head`. */
export function joined(head: readonly string[], tail: readonly string[]): readonly string[] {
  const list = head.concat(tail);
  heads.set(list, head);
  return list;
}

/** Whether `list` is known to begin with exactly `head` (made by `joined`, or `head` itself); false: not known. */
export function knownToBeginWith(list: readonly string[], head: readonly string[]): boolean {
  return list === head || heads.get(list) === head;
}
