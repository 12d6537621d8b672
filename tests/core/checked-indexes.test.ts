/**
 * The index checks a device remembers (src/core/device-memory/checked-indexes.ts, issue 22): a memo of "this text lists
 * exactly these names", by digests; it answers yes only for the same text beside the same set of names.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { CHECKS_KEPT, CheckedIndexes, namesKey } from "../../src/core/device-memory/checked-indexes";
import { namesDigest } from "../../src/core/device-memory/names-digest";

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

  it("knows the older names of a summary without digesting them, and a check saved at one split at another", () => {
    const known = { split: "S-20260102", old: namesDigest([A], sha), older: [A] };
    const checks = new CheckedIndexes(sha);
    checks.checked("index four", [A, B], null, C, known);
    expect(checks.remembered()[0]).toEqual(expect.objectContaining({ split: "S-20260102", count: 3 }));
    expect(checks.listsExactly("index four", [A, B, C], null, known)).toBe(true);
    expect(checks.listsExactly("index four", [C, B, A], null)).toBe(true); // no summary: every name digested
    const later = { split: "S-20260103", old: namesDigest([A, B], sha), older: [A, B] };
    expect(checks.listsExactly("index four", [A, B, C], null, later)).toBe(true);
    // Found at another split, it is kept split at this call's, where its older names cost nothing.
    expect(checks.remembered()[0]).toEqual(expect.objectContaining({ split: "S-20260103", count: 3 }));
    expect(checks.listsExactly("index four", [C, A, B], null)).toBe(true);
    expect(checks.listsExactly("index four", [A, B], null, known)).toBe(false);
  });
});

describe("CheckedIndexes with the older names known", () => {
  const name = fc.stringMatching(/^S-[0-9a-f]{1,4}\.md$/);
  const split = fc.stringMatching(/^S-[0-9a-f]{0,2}$/);

  it("answers as without them, a note left out or added on either side of the split", () => {
    fc.assert(
      fc.property(fc.uniqueArray(name, { maxLength: 20 }), split, name, name, (names, at, except, plus) => {
        const older = names.filter((n) => n < at).sort();
        const listing = [...older, ...names.filter((n) => n >= at)];
        const known = { split: at, old: namesDigest(older, sha), older };
        const written = [...listing.filter((n) => n !== except), ...(listing.includes(plus) ? [] : [plus])];
        const wrote = new CheckedIndexes(sha);
        wrote.checked("t", listing, except, plus, known);
        // Found by a call that knows the older names, and by one that digests every name.
        for (const claim of [known, null]) {
          const checks = new CheckedIndexes(sha, wrote.remembered());
          expect(checks.listsExactly("t", written, null, claim)).toBe(true);
          expect(checks.listsExactly("t", [...written, "S-new.md"], "S-new.md", claim)).toBe(true);
          expect(checks.listsExactly("t", [...written, "S-new.md"], null, claim)).toBe(false);
        }
        const plain = new CheckedIndexes(sha);
        plain.checked("t", listing, except, plus);
        expect(new CheckedIndexes(sha, plain.remembered()).listsExactly("t", listing, except, known)).toBe(
          listing.includes(plus),
        );
      }),
    );
  });
});

describe("namesKey: a set's digest cut at a split", () => {
  const name = fc.stringMatching(/^S-[0-9a-f]{1,6}\.md$/);
  const split = fc.stringMatching(/^S-[0-9a-f]{0,3}$/);

  it("is the same for the same set in any order, with the older names' digest known or not", () => {
    fc.assert(
      fc.property(fc.uniqueArray(name, { maxLength: 30 }), split, fc.integer(), (names, at, seed) => {
        const older = names.filter((n) => n < at).sort();
        const recent = names.filter((n) => n >= at);
        const shuffled = [...names].sort((x, y) => ((x.length * seed) % 7) - ((y.length * seed) % 7));
        const full = namesKey(shuffled, at, sha);
        const known = { split: at, old: namesDigest(older, sha), older };
        expect(namesKey([...older, ...recent.reverse()], at, sha, known)).toEqual(full);
        expect(namesKey(names, at, sha)).toEqual(full);
      }),
    );
  });

  it("tells sets apart, and digests every name when what is known is not how the names begin", () => {
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 2, maxLength: 30 }), split, (names, at) => {
        const sorted = [...names].sort();
        const [gone, ...kept] = sorted;
        expect(namesKey(kept, at, sha)).not.toEqual(namesKey(sorted, at, sha));
        // A wrong claim (a name the set lacks, or a name after the split not among the older) changes nothing.
        // (A claim's older names are all before its split: a summary's digest is made of no other: KnownOlder.)
        const wrong = { split: at, old: namesDigest([gone], sha), older: [gone] };
        expect(namesKey(kept, at, sha, wrong)).toEqual(namesKey(kept, at, sha));
        const before = sorted.filter((n) => n < at);
        const short = { split: at, old: namesDigest(before.slice(1), sha), older: before.slice(1) };
        if (before.length > 0) expect(namesKey(sorted, at, sha, short)).toEqual(namesKey(sorted, at, sha));
      }),
    );
  });
});
