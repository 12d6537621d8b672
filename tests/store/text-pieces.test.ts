/**
 * A long text converted to bytes piece by piece (src/node/text-pieces.ts): the same bytes as the whole, for any
 * text (lone surrogates and pairs at every place a piece could end), in the hash and in the file NodeStore writes.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { sha256 } from "../../src/cli/cache-file";
import { createHash } from "node:crypto";
import { NodeStore } from "../../src/node/node-store";
import { PIECE_LENGTH, WRITE_PIECE_LENGTH, pieces } from "../../src/node/text-pieces";

/** Any UTF-16 text: pairs, lone halves of pairs and plain characters, mixed. */
const anyText = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
    ),
  )
  .map((parts) => parts.join(""));

describe("pieces", () => {
  it("give exactly the bytes of the whole, in pieces no longer than asked", () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 2, max: 9 }), (text, length) => {
        const parts = [...pieces(text, length)];
        expect(parts.join("")).toBe(text);
        for (const part of parts) expect(part.length).toBeLessThanOrEqual(length);
        expect(Buffer.concat(parts.map((p) => Buffer.from(p, "utf8")))).toEqual(Buffer.from(text, "utf8"));
      }),
    );
  });

  it("hash a long text as the whole would be hashed, and write it byte for byte", async () => {
    const pair = "\u{1F600}";
    const text = `${"a".repeat(PIECE_LENGTH - 1)}${pair}é${"b".repeat(PIECE_LENGTH)}\ud800`;
    expect(sha256(text)).toBe(createHash("sha256").update(text).digest("hex"));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "palee-pieces-"));
    try {
      const long = `${"c".repeat(WRITE_PIECE_LENGTH - 1)}${pair}${text}`;
      await new NodeStore(dir).create("t.md", long);
      expect(fs.readFileSync(path.join(dir, "t.md"))).toEqual(Buffer.from(long, "utf8"));
      await new NodeStore(dir).create("empty.md", "");
      expect(fs.readFileSync(path.join(dir, "empty.md"))).toHaveLength(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
