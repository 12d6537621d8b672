/**
 * Lists joined from a known run of names (src/core/scan/joined.ts): known to begin with exactly that run, so the
 * index checks and the folder summary need not walk it; any other list is not known and is walked.
 */
import { joined, knownToBeginWith } from "../../src/core/scan/joined";
import { namesKey } from "../../src/core/device-memory/checked-indexes";
import { namesDigest } from "../../src/core/device-memory/names-digest";
import { createHash } from "node:crypto";

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");

describe("joined lists", () => {
  it("are known to begin with their run, and only with it", () => {
    const run = ["S-1.md", "S-2.md"];
    const list = joined(run, ["S-9.md"]);
    expect(list).toEqual(["S-1.md", "S-2.md", "S-9.md"]);
    expect(knownToBeginWith(list, run)).toBe(true);
    expect(knownToBeginWith(run, run)).toBe(true);
    expect(knownToBeginWith(list, [...run])).toBe(false); // an equal run, not the one joined: walked instead
    expect(knownToBeginWith([...list], run)).toBe(false); // a copy: walked
  });

  it("give the digest a walk gives", () => {
    const older = ["S-1.md", "S-2.md"];
    const known = { split: "S-5", old: namesDigest(older, sha), older };
    const list = joined(older, ["S-7.md", "S-6.md"]);
    expect(namesKey(list, "S-5", sha, known)).toEqual(namesKey([...list], "S-5", sha, known));
    expect(namesKey(list, "S-5", sha, known)).toEqual(namesKey([...list].reverse(), "S-5", sha));
  });
});
