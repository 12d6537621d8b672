/**
 * The index checks a device remembers (src/core/scan/checked-indexes.ts, issue 22): a memo of "this text lists
 * exactly these names", by digests; it answers yes only for the same text beside the same set of names.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { CHECKS_KEPT, CheckedIndexes } from "../../src/core/scan/checked-indexes";

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");
const A = "S-20260101T090000-aaaa.md";
const B = "S-20260102T090000-bbbb.md";
const C = "S-20260103T090000-cccc.md";

describe("CheckedIndexes", () => {
  it("knows a text beside the same names in any order, and nothing else", () => {
    const checks = new CheckedIndexes(sha);
    expect(checks.listsExactly("index one", [A, B], null)).toBe(false);
    checks.checked("index one", [A, B], null, null);
    expect(checks.learned()).toBe(true);
    expect(checks.listsExactly("index one", [B, A], null)).toBe(true);
    expect(checks.listsExactly("index one!", [A, B], null)).toBe(false); // another text
    expect(checks.listsExactly("index one", [A, C], null)).toBe(false); // a name swapped for another
    expect(checks.listsExactly("index one", [A], null)).toBe(false); // a name gone
    expect(checks.listsExactly("index one", [A, B, C], null)).toBe(false); // a name more
    expect(checks.listsExactly("index one", [A, B, C], C)).toBe(true); // …written since, and left out
  });

  it("remembers what an end wrote: the names it read and the note it added", () => {
    const checks = new CheckedIndexes(sha);
    checks.checked("index two", [A, B], null, C);
    expect(checks.listsExactly("index two", [C, A, B], null)).toBe(true);
    checks.checked("index three", [A, B, C], C, null);
    expect(checks.listsExactly("index three", [B, A], null)).toBe(true);
  });

  it("keeps the latest few it used, and starts afresh from what it is given", () => {
    const checks = new CheckedIndexes(sha);
    for (let i = 0; i <= CHECKS_KEPT; i++) checks.checked(`index ${i}`, [A], null, null);
    expect(checks.remembered()).toHaveLength(CHECKS_KEPT);
    expect(checks.listsExactly("index 0", [A], null)).toBe(false); // the oldest went
    expect(checks.listsExactly("index 1", [A], null)).toBe(true);
    expect(checks.remembered()[0]).toEqual(expect.objectContaining({ text: sha("index 1") })); // used: first
    const kept = checks.remembered();
    const next = new CheckedIndexes(sha, kept);
    expect([next.learned(), next.listsExactly("index 2", [A], null)]).toEqual([false, true]);
    next.begin(null);
    expect(next.listsExactly("index 2", [A], null)).toBe(false);
  });

  it("tells sets of names apart by their digest", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^S-[0-9a-f]{1,8}\.md$/), { minLength: 1, maxLength: 40 }),
        fc.stringMatching(/^S-[0-9a-f]{1,8}\.md$/),
        (names, other) => {
          fc.pre(!names.includes(other));
          const checks = new CheckedIndexes(sha);
          checks.checked("t", names, null, null);
          expect(checks.listsExactly("t", [...names].reverse(), null)).toBe(true);
          expect(checks.listsExactly("t", [...names.slice(1), other], null)).toBe(false);
        },
      ),
    );
  });
});
