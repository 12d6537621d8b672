/**
 * Pins the in-memory Obsidian of tests/plugin/support/obsidian-harness.ts: each test fails if the harness is
 * as lenient as the bare mock where real Obsidian is not.
 */
import type { CachedMetadata, TFile as TFileOriginal } from "obsidian";
import { TFile, TFolder } from "obsidian-test-mocks/obsidian";
import { createObsidianHarness } from "./support/obsidian-harness";

const NOTE = "palee/sessions/S-1.md";
const note = (n: number) => `---\npalee_schema: 1\nn: ${n}\n---\nbody ${n}\n`;

function fileAt(h: ReturnType<typeof createObsidianHarness>, path: string): TFileOriginal {
  const file = h.app.vault.getFileByPath(path);
  if (!file) throw new Error(`${path} is not a file`);
  return file;
}

/**
 * The vault's own trash and delete, which plugin code must not use (lint: prefer-file-manager-trash-file);
 * the harness records them anyway, in case it does.
 */
interface TrashBypass {
  trash(file: TFileOriginal, system: boolean): Promise<void>;
  delete(file: TFileOriginal): Promise<void>;
}
const bypassingTrashSetting = (h: ReturnType<typeof createObsidianHarness>): TrashBypass => h.app.vault;

/** metadataCache "changed" events, as [path, data, frontmatter]. */
function recordChanges(h: ReturnType<typeof createObsidianHarness>): Array<[string, string, unknown]> {
  const seen: Array<[string, string, unknown]> = [];
  h.app.metadataCache.on("changed", (file, data, cache) => {
    seen.push([file.path, data, cache.frontmatter]);
  });
  return seen;
}

describe("plugin test environment", () => {
  it("runs in UTC (the globalSetup applies to this project too) with a DOM", () => {
    expect(process.env.TZ).toBe("UTC");
    expect(new Date(0).getTimezoneOffset()).toBe(0);
    expect(new Date(Date.UTC(2026, 7, 14, 12)).getHours()).toBe(12);
    expect(createDiv().tagName).toBe("DIV"); // the DOM, with obsidian-test-mocks' helpers installed
  });

  it("exposes one app, typed as Obsidian's App and as the mock", () => {
    const h = createObsidianHarness({ files: { "a.md": "a" } });
    expect(h.app.vault).toBe(h.mock.vault);
    expect(h.app.vault.adapter).toBe(h.adapter);
    expect(h.app.vault.getAbstractFileByPath("a.md")).toBeInstanceOf(TFile);
  });
});

describe("vault writes behave like Obsidian", () => {
  it("refuses to create a file where a file already exists, and keeps its content", async () => {
    const h = createObsidianHarness({ files: { [NOTE]: "first" } });
    await expect(h.app.vault.create(NOTE, "second")).rejects.toThrow("File already exists.");
    expect(h.files()[NOTE]).toBe("first");
    expect(h.events).toEqual([]);
  });

  it("refuses to create a file where a folder exists", async () => {
    const h = createObsidianHarness({ files: { [NOTE]: "x" } });
    await expect(h.app.vault.create("palee/sessions", "oops")).rejects.toThrow("File already exists.");
    expect(h.mock.vault.getAbstractFileByPath("palee/sessions")).toBeInstanceOf(TFolder);
  });

  it("refuses to create a file whose parent folder does not exist, and writes nothing", async () => {
    const h = createObsidianHarness();
    await expect(h.app.vault.create("palee/sessions/S-1.md", "x")).rejects.toThrow(/ENOENT/);
    expect(h.files()).toEqual({});
    expect(h.mock.vault.getAbstractFileByPath("palee")).toBeNull();
    await h.app.vault.createFolder("palee/sessions");
    await h.app.vault.create("palee/sessions/S-1.md", "x");
    const folder = h.mock.vault.getAbstractFileByPath("palee/sessions");
    expect(folder instanceof TFolder && folder.children.map((c) => c.name)).toEqual(["S-1.md"]);
  });

  it("refuses to create a folder that already exists", async () => {
    const h = createObsidianHarness();
    await h.app.vault.createFolder("palee/sessions");
    await expect(h.app.vault.createFolder("palee/sessions")).rejects.toThrow("Folder already exists.");
    await expect(h.app.vault.createFolder("palee")).rejects.toThrow("Folder already exists.");
  });

  it("runs process as one step: no other write lands between its read and its write", async () => {
    const h = createObsidianHarness({ files: { "palee/hot.md": "v1" } });
    const file = fileAt(h, "palee/hot.md");
    let seen = "";
    const processing = h.app.vault.process(file, (current) => {
      seen = current;
      return `${current}+`;
    });
    const modifying = h.app.vault.modify(file, "other");
    await Promise.all([processing, modifying]);
    // Either the other write came first and process saw it, or process came first and was overwritten
    // afterwards; never is the other write silently undone by a process that read before it.
    const final = h.files()["palee/hot.md"];
    expect([
      ["other", "other+"],
      ["v1", "other"],
    ]).toContainEqual([seen, final]);
  });
});

describe("the metadata cache lags behind writes", () => {
  it("has indexed the seeded files when the test starts", () => {
    const h = createObsidianHarness({ files: { [NOTE]: note(1) } });
    expect(h.app.metadataCache.getFileCache(fileAt(h, NOTE))?.frontmatter).toEqual({ palee_schema: 1, n: 1 });
    expect(h.pendingCache()).toEqual([]);
  });

  it("knows nothing of a new file until it catches up, then fires changed with the file's content", async () => {
    const h = createObsidianHarness({ files: { "palee/sessions/other.md": "o" } });
    const changes = recordChanges(h);
    const file = await h.app.vault.create(NOTE, note(1));
    expect(h.app.metadataCache.getFileCache(file)).toBeNull();
    expect(h.pendingCache()).toEqual([NOTE]);
    expect(changes).toEqual([]);
    h.catchUpCache();
    expect(h.app.metadataCache.getFileCache(file)?.frontmatter).toEqual({ palee_schema: 1, n: 1 });
    expect(changes).toEqual([[NOTE, note(1), { palee_schema: 1, n: 1 }]]);
    expect(h.pendingCache()).toEqual([]);
  });

  it("keeps the previous entry after a modification until it catches up", async () => {
    const h = createObsidianHarness({ files: { [NOTE]: note(1) } });
    const changes = recordChanges(h);
    const file = fileAt(h, NOTE);
    await h.app.vault.modify(file, note(2));
    await h.app.vault.process(file, () => note(3));
    expect(h.app.metadataCache.getFileCache(file)?.frontmatter).toEqual({ palee_schema: 1, n: 1 });
    h.catchUpCache();
    // One catch-up indexes the file once, as it is now.
    expect(changes).toEqual([[NOTE, note(3), { palee_schema: 1, n: 3 }]]);
    expect(h.app.metadataCache.getFileCache(file)?.frontmatter).toEqual({ palee_schema: 1, n: 3 });
  });

  it("lags behind files written by sync or the user too, and can catch up one path at a time", async () => {
    const h = createObsidianHarness();
    h.write("a.md", note(1));
    await h.app.vault.create("b.md", note(2));
    expect(h.pendingCache()).toEqual(["a.md", "b.md"]);
    h.catchUpCache("b.md");
    expect(h.pendingCache()).toEqual(["a.md"]);
    expect(h.app.metadataCache.getCache("a.md")).toBeNull();
    expect(h.app.metadataCache.getCache("b.md")?.frontmatter).toEqual({ palee_schema: 1, n: 2 });
  });

  it("fires resolved when it has caught up", () => {
    const h = createObsidianHarness();
    let resolved = 0;
    h.app.metadataCache.on("resolved", () => resolved++);
    h.write("a.md", note(1));
    h.catchUpCache();
    expect(resolved).toBe(1);
  });

  it("updates at once with cacheLag: false", async () => {
    const h = createObsidianHarness({ cacheLag: false });
    const changes = recordChanges(h);
    const file = await h.app.vault.create("a.md", note(1));
    expect(h.app.metadataCache.getFileCache(file)?.frontmatter).toEqual({ palee_schema: 1, n: 1 });
    expect(changes).toEqual([["a.md", note(1), { palee_schema: 1, n: 1 }]]);
    expect(h.pendingCache()).toEqual([]);
  });

  it("drops the entry of a deleted file and fires deleted", async () => {
    const h = createObsidianHarness({ files: { [NOTE]: note(1), "b.md": note(2) } });
    const deletedEvents: Array<[string, CachedMetadata | null]> = [];
    h.app.metadataCache.on("deleted", (file, previous) => deletedEvents.push([file.path, previous]));
    const changes = recordChanges(h);
    await h.app.fileManager.trashFile(fileAt(h, NOTE));
    expect(h.app.metadataCache.getCache(NOTE)).toBeNull();
    expect(deletedEvents.map(([path, previous]) => [path, previous?.frontmatter])).toEqual([
      [NOTE, { palee_schema: 1, n: 1 }],
    ]);
    // A file deleted before the cache caught up with it is never reported as changed.
    await h.app.vault.modify(fileAt(h, "b.md"), note(3));
    await h.remove("b.md");
    h.catchUpCache();
    expect(changes).toEqual([]);
    expect(h.app.metadataCache.getCache("b.md")).toBeNull();
  });

  it("moves the entry of a renamed file with it", async () => {
    const h = createObsidianHarness({ files: { "a.md": note(1) } });
    await h.app.fileManager.renameFile(fileAt(h, "a.md"), "b.md");
    expect(h.app.metadataCache.getCache("a.md")).toBeNull();
    expect(h.app.metadataCache.getCache("b.md")?.frontmatter).toEqual({ palee_schema: 1, n: 1 });
  });

  it("indexes a malformed or empty frontmatter as none, without throwing", async () => {
    const h = createObsidianHarness({ cacheLag: false });
    const bad = await h.app.vault.create("bad.md", "---\nkey: [unclosed\n---\nbody\n");
    const empty = await h.app.vault.create("empty.md", "---\n---\nbody\n");
    // Indexed (an entry exists), with no frontmatter in it.
    expect(h.app.metadataCache.getFileCache(bad)).not.toBeNull();
    expect(h.app.metadataCache.getFileCache(empty)).not.toBeNull();
    expect(h.app.metadataCache.getFileCache(bad)?.frontmatter).toBeUndefined();
    expect(h.app.metadataCache.getFileCache(empty)?.frontmatter).toBeUndefined();
  });
});

describe("harness helpers", () => {
  it("write creates the parent folders and fires create, then modify", () => {
    const h = createObsidianHarness();
    h.write("palee/sessions/S-1.md", "one");
    h.write("palee/sessions/S-1.md", "two");
    expect(h.files()).toEqual({ "palee/sessions/S-1.md": "two" });
    const folder = h.mock.vault.getAbstractFileByPath("palee/sessions");
    expect(folder instanceof TFolder && folder.children.map((c) => c.path)).toEqual(["palee/sessions/S-1.md"]);
    expect(h.events).toEqual([
      "create palee",
      "create palee/sessions",
      "create palee/sessions/S-1.md",
      "modify palee/sessions/S-1.md",
    ]);
  });

  it("files lists every file with its content, sorted", () => {
    const h = createObsidianHarness({ files: { "z.md": "z", "a/b.md": "b", ".hidden/x.json": "{}" } });
    expect(Object.entries(h.files())).toEqual([
      [".hidden/x.json", "{}"],
      ["a/b.md", "b"],
      ["z.md", "z"],
    ]);
  });

  it("remove deletes a file without recording it as deleted by the code under test", async () => {
    const h = createObsidianHarness({ files: { "a.md": "a" } });
    await h.remove("a.md");
    expect(h.files()).toEqual({});
    expect(h.deleted).toEqual([]);
    expect(h.trashed).toEqual([]);
    expect(h.events).toEqual(["delete a.md"]);
  });

  it("records what went to the trash, with its content and through which API, once", async () => {
    const h = createObsidianHarness({ files: { "a.md": "a", "b.md": "b", "c.md": "c" } });
    await h.app.fileManager.trashFile(fileAt(h, "a.md"));
    await bypassingTrashSetting(h).trash(fileAt(h, "b.md"), false);
    expect(h.trashed).toEqual([
      { path: "a.md", content: "a", via: "fileManager.trashFile" },
      { path: "b.md", content: "b", via: "vault.trash" },
    ]);
    expect(h.deleted).toEqual([]);
    await bypassingTrashSetting(h).delete(fileAt(h, "c.md"));
    expect(h.deleted).toEqual(["c.md"]);
    expect(h.files()).toEqual({});
  });

  it("counts reads of contents per path and kind, each read once", async () => {
    const h = createObsidianHarness({ files: { "a.md": note(1), "b.md": "b" } });
    const a = fileAt(h, "a.md");
    await h.app.vault.read(a);
    await h.app.vault.cachedRead(a);
    await h.app.vault.adapter.read("b.md");
    expect(h.reads.count()).toBe(3);
    expect(h.reads.count("a.md")).toBe(2);
    expect(h.reads.count("a.md", "read")).toBe(1);
    expect(h.reads.count("a.md", "cachedRead")).toBe(1);
    expect(h.reads.count("a.md", "adapter.read")).toBe(0);
    expect(h.reads.log()).toEqual([
      { path: "a.md", kind: "read" },
      { path: "a.md", kind: "cachedRead" },
      { path: "b.md", kind: "adapter.read" },
    ]);
    expect(h.reads.paths()).toEqual(["a.md", "b.md"]);
    h.reads.reset();
    expect(h.reads.count()).toBe(0);
  });

  it("does not count writes, process or the cache's own indexing as reads", async () => {
    const h = createObsidianHarness({ files: { "a.md": note(1) } });
    await h.app.vault.process(fileAt(h, "a.md"), () => note(2));
    await h.app.vault.create("b.md", note(3));
    h.write("c.md", note(4));
    h.catchUpCache();
    expect(h.reads.count()).toBe(0);
  });

  it("starts with empty logs and resetLogs clears them all", async () => {
    const h = createObsidianHarness({ files: { "a.md": "a", "b.md": "b" } });
    expect([h.reads.count(), h.trashed, h.deleted, h.events]).toEqual([0, [], [], []]);
    await h.app.vault.read(fileAt(h, "a.md"));
    await h.app.fileManager.trashFile(fileAt(h, "a.md"));
    await bypassingTrashSetting(h).delete(fileAt(h, "b.md"));
    h.resetLogs();
    expect([h.reads.count(), h.trashed, h.deleted, h.events]).toEqual([0, [], [], []]);
  });
});
