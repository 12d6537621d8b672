/**
 * The digest of a long text from the bytes this process read or wrote (src/node/text-digests.ts): always the
 * SHA-256 of the text's UTF-8, whichever way it was found, so that the index check (docs/performance.md "The
 * index checks") vouches for exactly the text it hashed.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { readFileText } from "../../src/node/file-text";
import { NodeStore } from "../../src/node/node-store";
import { sha256 } from "../../src/node/text-digests";
import { tempFolders } from "../support/temp-folders";

const tempDir = tempFolders();
const utf8Digest = (text: string): string => createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex");
/** A long index-like text (over the 256 KiB kept), with `extra` in the middle. */
const long = (extra: string): string => {
  const line = "- [[S-20260101T090000-ab12]] · T-rust · 45 min · a line of the index\n";
  return line.repeat(4000) + extra + line.repeat(4000);
};

describe("the digest of a long text", () => {
  it("is its UTF-8's, read as ASCII, as UTF-8, or with stray Latin-1 bytes", () => {
    const dir = tempDir("palee-digest-");
    const cases: Array<[string, Buffer]> = [
      ["ascii", Buffer.from(long("plain\n"), "utf8")],
      ["utf8", Buffer.from(long("café ✓ 😀\n"), "utf8")],
      // A stray byte is read as its Latin-1 character: the text's UTF-8 is not the bytes read.
      ["latin1", Buffer.concat([Buffer.from(long(""), "utf8"), Buffer.from("caf\xe9\n", "latin1")])],
    ];
    for (const [name, bytes] of cases) {
      fs.writeFileSync(path.join(dir, name), bytes);
      const text = readFileText(path.join(dir, name));
      expect({ name, digest: sha256(text) }).toEqual({ name, digest: utf8Digest(text) });
    }
  });

  it("is its UTF-8's when written as a view, and another text's is its own", async () => {
    const root = tempDir("palee-digest-");
    const store = new NodeStore(root);
    const first = long("first ✓\n");
    const next = long("next ✓\n");
    await store.replace("index.md", null, first);
    expect(sha256(first)).toBe(utf8Digest(first));
    await store.replace("index.md", first, next);
    expect(sha256(first)).toBe(utf8Digest(first)); // not the text last written
    expect(sha256(next)).toBe(utf8Digest(next));
    expect(sha256(next)).toBe(utf8Digest(next)); // asked again, once the kept digest was used
    expect(fs.readFileSync(path.join(root, "index.md"), "utf8")).toBe(next);
  });

  it("is never a kept text's for another text read since", () => {
    const dir = tempDir("palee-digest-");
    fs.writeFileSync(path.join(dir, "a"), long("a\n"));
    const a = readFileText(path.join(dir, "a"));
    fs.writeFileSync(path.join(dir, "b"), long("b\n"));
    const b = readFileText(path.join(dir, "b"));
    expect([sha256(a), sha256(b)]).toEqual([utf8Digest(a), utf8Digest(b)]);
  });
});
