/**
 * A file's identity as NodeStore tells it (fileKey), on real files: what the recent notes kept by identity
 * (device-memory/kept-fields.ts) rely on to see every write, also one that keeps the size and the modification time.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { KeptFields } from "../../src/core/device-memory/kept-fields";
import { keepingFields } from "../support/device-memory";
import { FRESH_MS } from "../../src/node/file-key";
import { NodeStore } from "../../src/node/node-store";
import { tempFolders } from "../support/temp-folders";

const tempDir = tempFolders();
const note = (topic: string) =>
  `---\npalee_schema: 1\nsession_id: x\ntopic_id: ${topic}\nduration_minutes: 5\n---\n# Session\n\nbody\n`;

/** The clock FRESH_MS and more ahead: the files just written are settled. */
function settled(): void {
  const real = Date.now.bind(Date);
  jest.spyOn(Date, "now").mockImplementation(() => real() + FRESH_MS + 1000);
}
afterEach(() => jest.restoreAllMocks());

/**
 * Waits out a tick of the file system's clock (coarse on Linux): what FRESH_MS ensures for real calls, which the
 * clock moved ahead here skips.
 */
function tick(): void {
  const end = performance.now() + 25;
  while (performance.now() < end) fs.statSync(os.tmpdir());
}

describe("a file's identity", () => {
  it("is the same while the file is untouched, and none while it is fresh", () => {
    const root = tempDir("palee-key-");
    fs.writeFileSync(path.join(root, "a.md"), "a");
    const store = new NodeStore(root);
    expect(store.fileKey("a.md")).toBeNull(); // just written: a write in the same tick could leave the same times
    settled();
    const key = store.fileKey("a.md");
    expect(key).not.toBeNull();
    expect(store.fileKey("a.md")).toBe(key);
  });

  it("changes with a rewrite in place that keeps the size and puts the modification time back", () => {
    const root = tempDir("palee-key-");
    const file = path.join(root, "a.md");
    fs.writeFileSync(file, "abc");
    fs.utimesSync(file, 1_700_000_000, 1_700_000_000);
    settled();
    const store = new NodeStore(root);
    const before = store.fileKey("a.md");
    tick(); // then rewritten as a careless sync tool would
    fs.writeFileSync(file, "xyz");
    fs.utimesSync(file, 1_700_000_000, 1_700_000_000);
    expect(fs.statSync(file).mtimeMs).toBe(1_700_000_000_000);
    expect(store.fileKey("a.md")).not.toBe(before);
  });

  it("is none for a link, a folder, a missing file or a path out of the vault", () => {
    const root = tempDir("palee-key-");
    fs.writeFileSync(path.join(root, "a.md"), "a");
    fs.symlinkSync(path.join(root, "a.md"), path.join(root, "link.md"));
    fs.mkdirSync(path.join(root, "sub"));
    settled();
    const store = new NodeStore(root);
    for (const p of ["link.md", "sub", "gone.md", "../a.md"]) expect(store.fileKey(p)).toBeNull();
  });
});

describe("the recent notes kept by identity, on real files", () => {
  it("sees a note rewritten in place with its size and modification time kept", async () => {
    const root = tempDir("palee-key-");
    const folder = "palee/sessions";
    fs.mkdirSync(path.join(root, folder), { recursive: true });
    const name = `S-20261201T090000-ab12.md`;
    const file = path.join(root, folder, name);
    fs.writeFileSync(file, note("T-aaa"));
    fs.utimesSync(file, 1_764_579_600, 1_764_579_600);
    settled();
    const store = new NodeStore(root);
    const keyOf = (p: string) => store.fileKey(p);
    const kept = new KeptFields(folder, keyOf);
    kept.begin(null, Date.parse("2026-12-02T04:00:00Z"));
    const first = keepingFields(store, kept);
    await first.read(`${folder}/${name}`);
    expect(first.cachedFields(`${folder}/${name}`)).toMatchObject({ topic_id: "T-aaa" });
    tick();
    fs.writeFileSync(file, note("T-zzz")); // same size
    fs.utimesSync(file, 1_764_579_600, 1_764_579_600);
    // A later call, from what this one kept.
    const next = new KeptFields(folder, keyOf);
    next.begin(kept.kept(), Date.parse("2026-12-02T04:00:00Z"));
    const later = keepingFields(store, next);
    expect(later.cachedFields(`${folder}/${name}`)).toBeUndefined();
    await later.read(`${folder}/${name}`);
    expect(fs.statSync(file).size).toBe(note("T-aaa").length);
    expect(later.cachedFields(`${folder}/${name}`)).toMatchObject({ topic_id: "T-zzz" });
  });
});
