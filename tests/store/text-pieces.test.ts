/**
 * A long text converted to bytes piece by piece (src/node/text-pieces.ts): the same bytes as the whole, for any
 * text (lone surrogates and pairs at every place a piece could end), in the hash and in the file NodeStore writes.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { sha256 } from "../../src/cli/device-memory/envelope";
import { createHash } from "node:crypto";
import { NodeStore } from "../../src/node/node-store";
import { PIECE_LENGTH, WRITE_PIECE_LENGTH, holdsExactly, pieces, writeText } from "../../src/node/text-pieces";

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

describe("a text written to a file in pieces (writeText)", () => {
  it("writes exactly the bytes of the whole, any text, across pieces too", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "palee-write-"));
    const file = path.join(dir, "t.md");
    const written = (text: string): Buffer => {
      const fd = fs.openSync(file, "w");
      try {
        writeText(fd, text);
      } finally {
        fs.closeSync(fd);
      }
      return fs.readFileSync(file);
    };
    try {
      fc.assert(
        fc.property(anyText, (text) => {
          expect(written(text)).toEqual(Buffer.from(text, "utf8"));
        }),
        { numRuns: 50 },
      );
      // A pair cut by the piece length, and characters of three bytes filling a whole piece.
      const long = `${"a".repeat(WRITE_PIECE_LENGTH - 1)}\u{1F600}${"€".repeat(WRITE_PIECE_LENGTH)}\udc00z`;
      expect(written(long)).toEqual(Buffer.from(long, "utf8"));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a file compared with a text in pieces (holdsExactly)", () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });
  const fileWith = (bytes: Buffer): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "palee-holds-"));
    made.push(dir);
    const file = path.join(dir, "index.md");
    fs.writeFileSync(file, bytes);
    return file;
  };
  /** Texts a read can give (no lone surrogate), some longer than a piece. */
  const readText = fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 40 }),
    fc
      .tuple(fc.string({ unit: "grapheme", maxLength: 4 }), fc.integer({ min: 1, max: 3 }))
      .map(([s, n]) => `${"é".repeat(PIECE_LENGTH - 1)}😀${s}`.repeat(n)),
  );

  it("holds exactly when the file's bytes are the text's, and not when they differ anywhere", () => {
    fc.assert(
      fc.property(readText, fc.nat(), fc.constantFrom("same", "extra", "short", "changed"), (text, pick, how) => {
        const bytes = Buffer.from(text, "utf8");
        const other = Buffer.from(bytes);
        if (how === "extra") expect(holdsExactly(fileWith(Buffer.concat([bytes, Buffer.from("x")])), text)).toBe(false);
        if (how === "short" && bytes.length > 0) {
          expect(holdsExactly(fileWith(bytes.subarray(0, bytes.length - 1)), text)).toBe(false);
        }
        if (how === "changed" && bytes.length > 0) {
          other[pick % other.length] ^= 0x01;
          expect(holdsExactly(fileWith(other), text)).toBe(false);
        }
        expect(holdsExactly(fileWith(bytes), text)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it("cannot tell through a link or of a missing file", () => {
    const file = fileWith(Buffer.from("abc"));
    const link = `${file}.link.md`;
    fs.symlinkSync(file, link);
    expect(holdsExactly(link, "abc")).toBe(false);
    expect(holdsExactly(`${file}.gone`, "")).toBe(false);
  });

  it("lets a replacement go ahead when the file holds the expected text, and refuses it otherwise", async () => {
    const file = fileWith(Buffer.from("old\n"));
    const store = new NodeStore(path.dirname(file));
    await store.replace("index.md", "old\n", "new\n");
    expect(fs.readFileSync(file, "utf8")).toBe("new\n");
    fs.writeFileSync(file, "changed meanwhile\n");
    await expect(store.replace("index.md", "new\n", "newer\n")).rejects.toThrow();
    expect(fs.readFileSync(file, "utf8")).toBe("changed meanwhile\n");
  });
});
