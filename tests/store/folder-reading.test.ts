import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { isUtf8 } from "node:buffer";
import fc from "fast-check";
import { decodeText, readFileText } from "../../src/node/file-text";
import { kindsOf, readListing, readNames, statTimes } from "../../src/node/folder-reading";

const roots: string[] = [];
function tempDir(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "palee-reading-"));
  roots.push(root);
  return root;
}
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

describe("a file's text", () => {
  it("is what a UTF-8 read gives for UTF-8, and never U+FFFD for a stray byte (issue 35 §4)", () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc.uint8Array({ max: 0x7f, maxLength: 200 }), // ASCII only: the Latin-1 path
      fc.string({ unit: "grapheme", maxLength: 60 }).map((s) => new Uint8Array(Buffer.from(s, "utf8"))),
    );
    fc.assert(
      fc.property(bytes, (raw) => {
        const buffer = Buffer.from(raw);
        if (isUtf8(buffer)) expect(decodeText(buffer)).toBe(buffer.toString("utf8"));
        // Every byte read: as UTF-8 where it is, else as its Latin-1 character (never dropped, never U+FFFD).
        else if (!buffer.includes(Buffer.from("\ufffd", "utf8"))) expect(decodeText(buffer)).not.toContain("\ufffd");
      }),
      { numRuns: 500 },
    );
  });

  it("keeps a byte-order mark, reads a broken sequence as Latin-1, and reads an empty file", () => {
    for (const raw of [[0xef, 0xbb, 0xbf, 0x41], [0x7f], []]) {
      const buffer = Buffer.from(raw);
      expect(decodeText(buffer)).toBe(buffer.toString("utf8"));
    }
    expect(decodeText(Buffer.from([0x41, 0xc3]))).toBe("A\u00c3");
    expect(decodeText(Buffer.from([0xff, 0x0a]))).toBe("\u00ff\n");
    const dir = tempDir();
    const file = path.join(dir, "n.md");
    fs.writeFileSync(file, "");
    expect(readFileText(file)).toBe("");
    fs.writeFileSync(file, "été\n");
    expect(readFileText(file)).toBe("été\n");
    const fd = fs.openSync(file, "r");
    try {
      expect(readFileText(fd)).toBe("été\n");
    } finally {
      fs.closeSync(fd);
    }
  });
});

describe("a folder read by its names", () => {
  it("tells files and subfolders apart as a typed listing does, links told as it tells them", async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "S-a.md"), "a");
    fs.writeFileSync(path.join(dir, "index.md"), "i");
    fs.mkdirSync(path.join(dir, "sub"));
    fs.symlinkSync(path.join(dir, "sub"), path.join(dir, "to-folder"));
    fs.symlinkSync(path.join(dir, "S-a.md"), path.join(dir, "to-file.md"));
    fs.symlinkSync(path.join(dir, "nowhere"), path.join(dir, "dangling.md"));
    const names = await readNames(dir);
    expect([...names].sort()).toEqual(["S-a.md", "dangling.md", "index.md", "sub", "to-file.md", "to-folder"]);
    const typed = await readListing(dir);
    const told = kindsOf(dir, names);
    expect([...told.files].sort()).toEqual([...typed.files].sort());
    expect([...told.folders].sort()).toEqual([...typed.folders].sort());
    expect(told.folders).toEqual(["sub"]); // a link to a folder is neither, in both
    expect(told.files).not.toContain("to-folder");
  });

  it("tells the files' modification times along, a link's from its target, as statTimes does", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "S-a.md"), "a");
    fs.utimesSync(path.join(dir, "S-a.md"), 1_700_000_000, 1_700_000_000);
    fs.mkdirSync(path.join(dir, "sub"));
    fs.symlinkSync(path.join(dir, "S-a.md"), path.join(dir, "to-file.md"));
    fs.symlinkSync(path.join(dir, "nowhere"), path.join(dir, "dangling.md"));
    const names = ["S-a.md", "sub", "to-file.md", "dangling.md"];
    const told = kindsOf(dir, names);
    expect(told.files).toEqual(["S-a.md", "to-file.md", "dangling.md"]);
    expect([...told.times]).toEqual([
      ["S-a.md", 1_700_000_000_000],
      ["to-file.md", 1_700_000_000_000],
    ]);
    expect(statTimes(dir, ["S-a.md", "to-file.md"])).toEqual([1_700_000_000_000, 1_700_000_000_000]);
  });

  it("keeps the order asked and leaves out a name gone meanwhile", () => {
    const dir = tempDir();
    for (const name of ["b.md", "a.md", "c.md"]) fs.writeFileSync(path.join(dir, name), name);
    const told = kindsOf(dir, ["c.md", "gone.md", "a.md", "b.md"]);
    expect({ files: told.files, folders: told.folders }).toEqual({ files: ["c.md", "a.md", "b.md"], folders: [] });
  });
});
