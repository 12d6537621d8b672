import { ConflictError, FileExistsError } from "../../src/core/errors";
import { layoutFor } from "../../src/core/records/layout";
import { scanSessions } from "../../src/core/scan";
import { ObsidianStore } from "../../src/plugin/adapters/obsidian-store";
import { describeStoreContract } from "../store/store-contract";
import { confirmedText, draftText, hotText } from "../support/builders";
import { TFolder } from "obsidian-test-mocks/obsidian";
import type { HarnessOptions, ObsidianHarness } from "./support/obsidian-harness";
import { createObsidianHarness } from "./support/obsidian-harness";

const SESSIONS = "palee/sessions";
const HOT = "palee/hot.md";
const S1 = `${SESSIONS}/S-20260813T100000-aaaa.md`;

/** A store on a fresh in-memory app, wired to the metadata cache as the plugin wires it. */
function setup(options: HarnessOptions = {}): { h: ObsidianHarness; store: ObsidianStore } {
  const h = createObsidianHarness(options);
  const store = new ObsidianStore(h.app);
  h.app.metadataCache.on("changed", (file, data, cache) => store.cacheCaughtUp(file, data, cache));
  return { h, store };
}

describeStoreContract("Obsidian (in-memory app, lagging metadata cache)", () => setup().store, {
  tellsModifiedAt: false,
});
describeStoreContract("Obsidian (in-memory app, immediate metadata cache)", () => setup({ cacheLag: false }).store, {
  tellsModifiedAt: false,
});

describe("Obsidian store specifics", () => {
  it("reports a file sync has just written, not yet listed by the vault, as existing", async () => {
    const { h, store } = setup();
    h.arrivesOnDisk(S1, "from the phone\n");
    await expect(store.create(S1, "mine\n")).rejects.toBeInstanceOf(FileExistsError);
    expect(h.adapter.readSync__(S1)).toBe("from the phone\n");
  });

  it("does not trust the cache for a file it just created until the cache has seen that content", async () => {
    const { h, store } = setup();
    await store.create(S1, confirmedText({ session_id: "S-20260813T100000-aaaa" }));
    expect(store.cachedFields(S1)).toBeUndefined();
    h.catchUpCache();
    expect(store.cachedFields(S1)).toMatchObject({
      palee_schema: 1,
      session_id: "S-20260813T100000-aaaa",
      duration_minutes: 45,
    });
  });

  it("does not trust a cache entry that describes the content before its own replace", async () => {
    const { h, store } = setup({ files: { [HOT]: hotText({ last_session: "S-old" }) } });
    expect(store.cachedFields(HOT)).toMatchObject({ last_session: "S-old" });
    const before = await store.read(HOT);
    await store.replace(HOT, before, hotText({ last_session: "S-new" }));
    // The cache still holds the old entry (S-old): it must not be served as the file's fields.
    expect(h.app.metadataCache.getCache(HOT)?.frontmatter).toMatchObject({ last_session: "S-old" });
    expect(store.cachedFields(HOT)).toBeUndefined();
    h.catchUpCache();
    expect(store.cachedFields(HOT)).toMatchObject({ last_session: "S-new" });
  });

  it("stays distrustful while the cache reports a content other than the one it wrote", async () => {
    const { h, store } = setup({ files: { [HOT]: hotText({ last_session: "S-1" }) } });
    await store.replace(HOT, hotText({ last_session: "S-1" }), hotText({ last_session: "S-2" }));
    // A late "changed" for an older content (the cache parsed an earlier version) is not the write.
    h.app.metadataCache.trigger(
      "changed",
      h.app.vault.getAbstractFileByPath(HOT),
      hotText({ last_session: "S-1" }),
      {},
    );
    expect(store.cachedFields(HOT)).toBeUndefined();
  });

  it("judges a file written by someone else by the cache, lag included", () => {
    const { h, store } = setup({
      files: { [S1]: confirmedText({ session_id: "S-20260813T100000-aaaa", duration_minutes: 45 }) },
    });
    expect(store.cachedFields(S1)).toMatchObject({ duration_minutes: 45 });
    h.write(`${SESSIONS}/S-20260814T100000-bbbb.md`, confirmedText({ session_id: "S-20260814T100000-bbbb" }));
    expect(store.cachedFields(`${SESSIONS}/S-20260814T100000-bbbb.md`)).toBeUndefined(); // not indexed yet
    h.write(S1, confirmedText({ session_id: "S-20260813T100000-aaaa", duration_minutes: 50 }));
    expect(store.cachedFields(S1)).toMatchObject({ duration_minutes: 45 }); // what the cache says, for now
    h.catchUpCache();
    expect(store.cachedFields(S1)).toMatchObject({ duration_minutes: 50 });
    expect(store.cachedFields(`${SESSIONS}/S-20260814T100000-bbbb.md`)).toMatchObject({
      session_id: "S-20260814T100000-bbbb",
    });
  });

  it("has no cached fields for a missing file or a note without frontmatter", () => {
    const { store } = setup({ files: { "palee/plain.md": "just text\n", "palee/empty.md": "---\n---\nbody\n" } });
    expect(store.cachedFields("palee/missing.md")).toBeUndefined();
    expect(store.cachedFields("palee/plain.md")).toBeUndefined();
    expect(store.cachedFields("palee/empty.md")).toBeUndefined();
  });

  // With an immediate cache the "changed" event for a write fires inside vault.create / vault.process, before
  // the write's promise settles: the store must already know which content it awaits, or it would read every
  // file it wrote in full from then on.
  it("trusts the cache again for its own writes when the cache indexes them immediately", async () => {
    const { store } = setup({ cacheLag: false });
    await store.create(S1, confirmedText({ session_id: "S-20260813T100000-aaaa" }));
    expect(store.cachedFields(S1)).toMatchObject({ session_id: "S-20260813T100000-aaaa" });
  });

  it("moves files to the trash through FileManager.trashFile, the user's trash setting", async () => {
    const draft = `${SESSIONS}/DRAFT-S-00000001.md`;
    const { h, store } = setup({ files: { [draft]: draftText({ session_id: "DRAFT-S-00000001" }, "my notes\n") } });
    await store.trash(draft);
    expect(h.trashed).toEqual([
      {
        path: draft,
        content: draftText({ session_id: "DRAFT-S-00000001" }, "my notes\n"),
        via: "fileManager.trashFile",
      },
    ]);
    expect(h.deleted).toEqual([]);
    expect(h.files()).toEqual({});
    expect(h.app.metadataCache.getCache(draft)).toBeNull();
    await expect(store.trash(draft)).rejects.toThrow(/does not exist/);
  });

  it("creates the missing parent folders, outermost first, before the file", async () => {
    const { h, store } = setup();
    await store.create("Study/palee/sessions/S-1.md", "one");
    expect(h.events).toEqual([
      "create Study",
      "create Study/palee",
      "create Study/palee/sessions",
      "create Study/palee/sessions/S-1.md",
    ]);
    expect(h.mock.vault.getAbstractFileByPath("Study/palee/sessions")).toBeInstanceOf(TFolder);
    await expect(store.list("Study/palee/sessions")).resolves.toEqual(["S-1.md"]);
  });

  it("tolerates a parent folder that appears while it creates it", async () => {
    const { h, store } = setup();
    const createFolder = h.mock.vault.createFolder.bind(h.mock.vault);
    h.mock.vault.createFolder = (path: string) => {
      h.write(`${path}/synced.md`, "from another device"); // sync creates the folder first
      return createFolder(path);
    };
    await store.create(S1, "mine");
    expect(h.files()).toEqual({
      "palee/synced.md": "from another device",
      "palee/sessions/synced.md": "from another device",
      [S1]: "mine",
    });
  });

  it("refuses a file in place of a parent folder", async () => {
    const { h, store } = setup({ files: { palee: "a file named palee" } });
    await expect(store.create(S1, "x")).rejects.toThrow(/palee is a file/);
    expect(h.files()).toEqual({ palee: "a file named palee" });
  });

  it("turns a create that loses a race into a FileExistsError and keeps the winner's content", async () => {
    const { h, store } = setup({ files: { [`${SESSIONS}/other.md`]: "o" } });
    const create = h.mock.vault.create.bind(h.mock.vault);
    h.mock.vault.create = (path: string, data: string) => {
      h.write(path, "synced first"); // appears between the store's check and its create
      return create(path, data);
    };
    await expect(store.create(S1, "mine")).rejects.toBeInstanceOf(FileExistsError);
    expect(h.files()[S1]).toBe("synced first");
  });

  it("refuses a replace when the file changed between the read and the write", async () => {
    const { h, store } = setup({ files: { [HOT]: "v1" } });
    const read = await store.read(HOT);
    h.write(HOT, "edited by sync");
    await expect(store.replace(HOT, read, "mine")).rejects.toBeInstanceOf(ConflictError);
    expect(h.files()[HOT]).toBe("edited by sync");
  });

  it("refuses a replace when the file was removed or became a folder since the read", async () => {
    const { h, store } = setup({ files: { [HOT]: "v1", "palee/index.md": "i" } });
    await h.remove(HOT);
    await expect(store.replace(HOT, "v1", "mine")).rejects.toBeInstanceOf(ConflictError);
    expect(h.files()[HOT]).toBeUndefined();
    await h.remove("palee/index.md");
    await h.app.vault.createFolder("palee/index.md");
    await expect(store.replace("palee/index.md", null, "mine")).rejects.toBeInstanceOf(ConflictError);
  });

  it("writes through the vault, so the app sees every write (create, then modify)", async () => {
    const { h, store } = setup();
    await store.replace(HOT, null, "v1");
    await store.replace(HOT, "v1", "v2");
    expect(h.events).toEqual(["create palee", "create palee/hot.md", "modify palee/hot.md"]);
  });

  it("never writes when reading, listing or asking the cache", async () => {
    const { h, store } = setup({
      files: {
        [HOT]: hotText(),
        [S1]: confirmedText({ session_id: "S-20260813T100000-aaaa" }),
        [`${SESSIONS}/DRAFT-S-00000001.md`]: "d",
      },
    });
    const before = h.files();
    await store.read(HOT);
    await store.read("palee/missing.md");
    await store.list(SESSIONS);
    await store.list("nowhere");
    store.cachedFields(S1);
    store.cachedFields("palee/missing.md");
    await scanSessions(store, layoutFor("palee"), () => 0);
    expect(h.events).toEqual([]);
    expect(h.trashed).toEqual([]);
    expect(h.files()).toEqual(before);
    expect(h.pendingCache()).toEqual([]);
  });

  it("normalizes paths", async () => {
    const { h, store } = setup();
    await store.create("/palee//sessions/S-1.md", "one");
    expect(h.files()).toEqual({ "palee/sessions/S-1.md": "one" });
    await expect(store.read("palee/sessions/S-1.md/")).resolves.toBe("one");
  });
});

describe("scanning through the metadata cache", () => {
  const ids = Array.from(
    { length: 50 },
    (_, i) => `S-202608${String(i + 1).padStart(2, "0")}T100000-${(0xa000 + i).toString(16)}`,
  );
  const started = (i: number) => `2026-08-${String((i % 28) + 1).padStart(2, "0")}T10:00:00+00:00`;
  const seeded = (): Record<string, string> =>
    Object.fromEntries(
      ids.map((id, i) => [
        `${SESSIONS}/${id}.md`,
        confirmedText(
          { session_id: id, started_at: started(i), ended_at: started(i).replace("T10", "T11"), duration_minutes: 60 },
          { summary: `summary ${i}` },
        ),
      ]),
    );

  it("reads no confirmed note whose cache entry is a valid session", async () => {
    const { h, store } = setup({
      files: { ...seeded(), [`${SESSIONS}/DRAFT-S-00000001.md`]: draftText({ session_id: "DRAFT-S-00000001" }) },
    });
    const scan = await scanSessions(store, layoutFor("palee"), () => 0);
    expect(scan.confirmed).toHaveLength(50);
    expect(scan.skipped).toEqual([]);
    expect(scan.drafts.map((d) => d.draftId)).toEqual(["DRAFT-S-00000001"]);
    // Drafts are always read (their bodies are the learner's notes); confirmed notes never.
    expect(h.reads.paths()).toEqual([`${SESSIONS}/DRAFT-S-00000001.md`]);
    expect(scan.confirmed.find((s) => s.sessionId === ids[0])).toMatchObject({
      durationMinutes: 60,
      topicId: "T-rust-ownership",
    });
  });

  it("reads in full, and skips by name, a note whose cache entry is not a valid session", async () => {
    const foreign = `${SESSIONS}/S-20260901T100000-ffff.md`;
    const { h, store } = setup({
      files: { ...seeded(), [foreign]: confirmedText({ session_id: "S-20260901T100000-ffff", palee_schema: 2 }) },
    });
    const scan = await scanSessions(store, layoutFor("palee"), () => 0);
    expect(scan.confirmed).toHaveLength(50);
    expect(scan.skipped).toEqual([{ path: foreign, reason: expect.stringMatching(/palee_schema 2/) as unknown }]);
    expect(h.reads.paths()).toEqual([foreign]);
    expect(h.reads.count(foreign)).toBe(1);
  });

  it("reads a note the store wrote until the cache has caught up with it", async () => {
    const { h, store } = setup({ files: seeded() });
    const mine = `${SESSIONS}/S-20260901T100000-0001.md`;
    await store.create(mine, confirmedText({ session_id: "S-20260901T100000-0001" }));
    await scanSessions(store, layoutFor("palee"), () => 0);
    expect(h.reads.paths()).toEqual([mine]);
    h.reads.reset();
    h.catchUpCache();
    await scanSessions(store, layoutFor("palee"), () => 0);
    expect(h.reads.count()).toBe(0);
  });

  it("reads notes the cache has not indexed yet, so nothing written by sync is missed", async () => {
    const { h, store } = setup({ files: seeded() });
    const synced = `${SESSIONS}/S-20260902T100000-0002.md`;
    h.write(synced, confirmedText({ session_id: "S-20260902T100000-0002" }));
    const scan = await scanSessions(store, layoutFor("palee"), () => 0);
    expect(scan.confirmed.map((s) => s.sessionId)).toContain("S-20260902T100000-0002");
    expect(h.reads.paths()).toEqual([synced]);
  });
});
