import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BoundaryError, ConflictError, LinkOutsideVaultError } from "../../src/core/errors";
import { layoutFor } from "../../src/core/records/layout";
import { PaleeSessions } from "../../src/core/sessions";
import { trashStaleTempFiles } from "../../src/core/records/temp-files";
import { NodeStore } from "../../src/node/node-store";
import { draftText } from "../support/builders";
import { FakeClock, SeededRandom } from "../support/fakes";
import { describeStoreContract } from "./store-contract";
import * as nodeFs from "../../src/node/async-fs";

const roots: string[] = [];
function tempVault(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "palee-store-"));
  roots.push(root);
  return root;
}
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

/** Every file under a folder, as relative paths. */
function walk(root: string, dir = root): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? walk(root, full) : [path.relative(root, full)];
  });
}

describeStoreContract("Node file system", () => new NodeStore(tempVault()));

describe("Node store specifics", () => {
  it("leaves no temporary file behind after success or failure", async () => {
    const root = tempVault();
    const store = new NodeStore(root);
    await store.create("palee/sessions/S-1.md", "one");
    await store.create("palee/sessions/S-1.md", "again").catch(() => undefined);
    await store.replace("palee/hot.md", null, "v1");
    await store.replace("palee/hot.md", "stale", "v2").catch(() => undefined);
    expect(walk(root).sort()).toEqual([path.join("palee", "hot.md"), path.join("palee", "sessions", "S-1.md")]);
  });

  it("keeps the old content when a replace is refused as a conflict", async () => {
    const root = tempVault();
    const store = new NodeStore(root);
    await store.replace("palee/hot.md", null, "v1");
    fs.writeFileSync(path.join(root, "palee", "hot.md"), "edited by sync");
    await expect(store.replace("palee/hot.md", "v1", "v2")).rejects.toBeInstanceOf(ConflictError);
    expect(fs.readFileSync(path.join(root, "palee", "hot.md"), "utf8")).toBe("edited by sync");
  });

  it("moves trashed files into the vault's .trash without overwriting what is there", async () => {
    const root = tempVault();
    const store = new NodeStore(root);
    await store.create("palee/sessions/DRAFT-S-00000001.md", "first");
    await store.trash("palee/sessions/DRAFT-S-00000001.md");
    await store.create("palee/sessions/DRAFT-S-00000001.md", "second");
    await store.trash("palee/sessions/DRAFT-S-00000001.md");
    expect(fs.readFileSync(path.join(root, ".trash", "DRAFT-S-00000001.md"), "utf8")).toBe("first");
    expect(fs.readFileSync(path.join(root, ".trash", "DRAFT-S-00000001 1.md"), "utf8")).toBe("second");
  });

  it("reports a sessions folder that is a file instead of listing it as empty", async () => {
    const root = tempVault();
    fs.mkdirSync(path.join(root, "palee"));
    fs.writeFileSync(path.join(root, "palee", "sessions"), "not a folder");
    const refusal = {
      kind: "usage",
      exitCode: 2,
      message: "palee/sessions is a file, but a folder belongs there: move it out of the way",
    };
    await expect(new NodeStore(root).list("palee/sessions")).rejects.toMatchObject(refusal);
    await expect(new NodeStore(root).read("palee/sessions/DRAFT-S-00000001.md")).rejects.toMatchObject(refusal);
    await expect(new NodeStore(root).create("palee/sessions/S-1.md", "x")).rejects.toMatchObject(refusal);
  });

  it("reports a folder where a file belongs as a usage error naming it", async () => {
    const root = tempVault();
    fs.mkdirSync(path.join(root, "palee", "hot.md"), { recursive: true });
    const refusal = {
      kind: "usage",
      exitCode: 2,
      message: "palee/hot.md is a folder, but a file belongs there: move it out of the way",
    };
    await expect(new NodeStore(root).read("palee/hot.md")).rejects.toMatchObject(refusal);
    await expect(new NodeStore(root).replace("palee/hot.md", null, "x")).rejects.toMatchObject(refusal);
  });

  it("refuses paths that leave the vault", async () => {
    const store = new NodeStore(tempVault());
    await expect(store.read("../outside.md")).rejects.toBeInstanceOf(BoundaryError);
    await expect(store.create("palee/../../outside.md", "x")).rejects.toBeInstanceOf(BoundaryError);
    await expect(store.trash("/etc/passwd")).rejects.toBeInstanceOf(BoundaryError);
  });

  it("never reads, replaces or lists-as-folder through a symbolic link leading out of the vault", async () => {
    const root = tempVault();
    const outside = tempVault();
    fs.writeFileSync(path.join(outside, "secret.md"), "not yours");
    fs.mkdirSync(path.join(root, "palee", "sessions"), { recursive: true });
    fs.mkdirSync(path.join(root, "Archive"));
    fs.writeFileSync(path.join(root, "Archive", "kept.md"), "inside");
    const at = (name: string): string => path.join(root, "palee", "sessions", name);
    fs.symlinkSync(path.join(outside, "secret.md"), at("out.md"));
    fs.symlinkSync(path.join(root, "Archive", "kept.md"), at("in.md"));
    fs.symlinkSync(path.join(outside, "nothing.md"), at("dangling.md"));
    fs.symlinkSync(path.join(root, "Archive"), at("folder"));
    const store = new NodeStore(root);
    await expect(store.read("palee/sessions/out.md")).rejects.toBeInstanceOf(LinkOutsideVaultError);
    await expect(store.replace("palee/sessions/out.md", "not yours", "mine")).rejects.toBeInstanceOf(
      LinkOutsideVaultError,
    );
    await expect(store.read("palee/sessions/in.md")).resolves.toBe("inside");
    await expect(store.read("palee/sessions/dangling.md")).resolves.toBeNull();
    // Links are listed (so a scan names the one it cannot read), except one that leads to a folder.
    expect((await store.list("palee/sessions")).sort()).toEqual(["dangling.md", "in.md", "out.md"]);
    expect(fs.readFileSync(path.join(outside, "secret.md"), "utf8")).toBe("not yours");
  });

  it("refuses to trash through a symlink, file or folder", async () => {
    const root = tempVault();
    const outside = tempVault();
    fs.writeFileSync(path.join(outside, "precious.md"), "keep me");
    fs.mkdirSync(path.join(root, "palee", "sessions"), { recursive: true });
    fs.symlinkSync(path.join(outside, "precious.md"), path.join(root, "palee", "sessions", "DRAFT-S-00000001.md"));
    const store = new NodeStore(root);
    await expect(store.trash("palee/sessions/DRAFT-S-00000001.md")).rejects.toBeInstanceOf(BoundaryError);

    const root2 = tempVault();
    fs.mkdirSync(path.join(root2, "palee"), { recursive: true });
    fs.mkdirSync(path.join(outside, "sessions"));
    fs.writeFileSync(path.join(outside, "sessions", "DRAFT-S-00000002.md"), "keep me too");
    fs.symlinkSync(path.join(outside, "sessions"), path.join(root2, "palee", "sessions"));
    await expect(new NodeStore(root2).trash("palee/sessions/DRAFT-S-00000002.md")).rejects.toBeInstanceOf(
      BoundaryError,
    );
    expect(fs.readFileSync(path.join(outside, "precious.md"), "utf8")).toBe("keep me");
    expect(fs.readFileSync(path.join(outside, "sessions", "DRAFT-S-00000002.md"), "utf8")).toBe("keep me too");
  });

  it(
    "rebuild moves its own temp files older than an hour to .trash, keeping their names, and " + "nothing else",
    async () => {
      const root = tempVault();
      const sessions = path.join(root, "palee", "sessions");
      fs.mkdirSync(sessions, { recursive: true });
      const old = [
        path.join(root, "palee", ".hot.md.1a2b3c4d.tmp"),
        path.join(sessions, ".DRAFT-S-00000001.md.1234abcd.tmp"),
      ];
      const young = path.join(root, "palee", ".index.md.0badcafe.tmp");
      const lookAlike = path.join(sessions, ".notes.md.1234abcd.tmp");
      for (const file of [...old, young, lookAlike]) fs.writeFileSync(file, "half a write");
      const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000);
      for (const file of [...old, lookAlike]) fs.utimesSync(file, twoHoursAgo, twoHoursAgo);
      const core = new PaleeSessions(
        {
          store: new NodeStore(root),
          clock: { now: () => Date.now(), offsetMinutes: () => 0 },
          random: new SeededRandom(1),
          device: "laptop",
        },
        layoutFor("palee"),
        { tempFiles: trashStaleTempFiles },
      );
      const result = await core.rebuild();
      expect(result.warnings.filter((w) => w.includes("interrupted write")).sort()).toEqual([
        "moved palee/.hot.md.1a2b3c4d.tmp (left by an interrupted write) to the trash",
        "moved palee/sessions/.DRAFT-S-00000001.md.1234abcd.tmp (left by an interrupted write) to the trash",
      ]);
      for (const file of old) expect(fs.existsSync(file)).toBe(false);
      expect(fs.readFileSync(path.join(root, ".trash", ".hot.md.1a2b3c4d.tmp"), "utf8")).toBe("half a write");
      expect(fs.readFileSync(path.join(root, ".trash", ".DRAFT-S-00000001.md.1234abcd.tmp"), "utf8")).toBe(
        "half a write",
      );
      expect(fs.existsSync(young)).toBe(true);
      expect(fs.existsSync(lookAlike)).toBe(true);
    },
  );

  it("ignores a temp file left by a crash inside a write: nothing is listed, skipped or lost", async () => {
    const root = tempVault();
    const sessions = path.join(root, "palee", "sessions");
    fs.mkdirSync(sessions, { recursive: true });
    const draft = draftText({ session_id: "DRAFT-S-00000001" }, "notes\n");
    fs.writeFileSync(path.join(sessions, "DRAFT-S-00000001.md"), draft);
    // A crash after writing half a temp file and before the rename: the draft keeps its old content.
    fs.writeFileSync(path.join(sessions, ".DRAFT-S-00000001.md.1234abcd.tmp"), draft.slice(0, 40));
    const core = new PaleeSessions(
      {
        store: new NodeStore(root),
        clock: FakeClock.at("2026-08-14T12:00:00Z"),
        random: new SeededRandom(1),
        device: "laptop",
      },
      layoutFor("palee"),
    );
    const list = await core.list();
    expect(list.drafts.map((d) => d.draftId)).toEqual(["DRAFT-S-00000001"]);
    expect(list.skipped).toEqual([]);
    expect(fs.readFileSync(path.join(sessions, "DRAFT-S-00000001.md"), "utf8")).toBe(draft);
  });
});

describe("NodeStore on a file system without hard links", () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "palee-review-"));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("trash still moves a draft to .trash when link() fails with EPERM (create already falls back)", async () => {
    const store = new NodeStore(root);
    await store.create("palee/sessions/DRAFT-S-00000001.md", "draft\n"); // before the mock
    jest
      .spyOn(nodeFs, "link")
      .mockRejectedValue(Object.assign(new Error("EPERM: operation not permitted, link"), { code: "EPERM" }));
    await store.create("palee/sessions/DRAFT-S-00000002.md", "draft 2\n"); // falls back: works
    await store.trash("palee/sessions/DRAFT-S-00000001.md");
    expect(fs.existsSync(path.join(root, "palee/sessions/DRAFT-S-00000001.md"))).toBe(false);
    expect(fs.readFileSync(path.join(root, ".trash/DRAFT-S-00000001.md"), "utf8")).toBe("draft\n");
  });
});

describe("NodeStore keeping one file's text between reads", () => {
  it("answers the kept file's next read from its last, until anything is written, and never other files", async () => {
    const root = tempVault();
    const store = new NodeStore(root, null, "palee/index.md");
    await store.create("palee/index.md", "one");
    await store.create("palee/hot.md", "hot");
    expect(await store.read("palee/index.md")).toBe("one");
    fs.writeFileSync(path.join(root, "palee", "index.md"), "two"); // another writer, outside the store
    fs.writeFileSync(path.join(root, "palee", "hot.md"), "hot two");
    expect(await store.read("palee/index.md")).toBe("one");
    expect(await store.read("palee/hot.md")).toBe("hot two");
    await store.create("palee/sessions/x.md", "x");
    expect(await store.read("palee/index.md")).toBe("two");
  });

  it("a replacement still compares with the file itself: the kept text of a file changed since conflicts", async () => {
    const root = tempVault();
    const store = new NodeStore(root, null, "palee/index.md");
    await store.create("palee/index.md", "one");
    const seen = await store.read("palee/index.md");
    fs.writeFileSync(path.join(root, "palee", "index.md"), "two");
    await expect(store.replace("palee/index.md", seen, "three")).rejects.toBeInstanceOf(ConflictError);
    expect(await store.read("palee/index.md")).toBe("two");
    await store.replace("palee/index.md", "two", "three");
    expect(await store.read("palee/index.md")).toBe("three");
  });
});

describe("NodeStore flushing what holds state, not a derived view", () => {
  afterEach(() => jest.restoreAllMocks());

  /** The vault-relative targets of the temp files flushed (fsync) while `run` runs. */
  async function flushedDuring(root: string, run: () => Promise<unknown>): Promise<string[]> {
    const flushed: string[] = [];
    const realOpen = nodeFs.open;
    jest.spyOn(nodeFs, "open").mockImplementation(async (file: string, flags: string) => {
      const handle = await realOpen(file, flags);
      const sync = handle.sync.bind(handle);
      const target = path
        .relative(root, file)
        .split(path.sep)
        .join("/")
        .replace(/(^|\/)\.(.+)\.[0-9a-f]{8}\.tmp$/, "$1$2");
      return { ...handle, fd: handle.fd, close: handle.close, sync: () => (flushed.push(target), sync()) };
    });
    await run();
    return flushed;
  }

  it("flushes notes, drafts and hot.md, never index.md, when composed as the CLI composes it", async () => {
    const root = tempVault();
    const index = "palee/index.md";
    const store = new NodeStore(root, null, index, undefined, [index]);
    let at = Date.parse("2026-08-14T09:00:00Z");
    const core = new PaleeSessions(
      { store, clock: { now: () => at, offsetMinutes: () => 0 }, random: new SeededRandom(7), device: "laptop" },
      layoutFor("palee"),
    );
    const flushed = await flushedDuring(root, async () => {
      await core.start({ topic: "T-one" });
      at += 10 * 60_000;
      await core.checkpoint({ topic: "T-one", notes: "halfway" });
      at += 10 * 60_000;
      await core.end({ topic: "T-one", summary: "done", nextAction: "more" });
    });
    const kinds = new Set(flushed.map((f) => f.replace(/\/(DRAFT-)?S-[^/]+\.md$/, "/$1S-….md")));
    expect(kinds).toEqual(new Set(["palee/hot.md", "palee/sessions/DRAFT-S-….md", "palee/sessions/S-….md"]));
    expect(fs.readFileSync(path.join(root, index), "utf8")).toContain("T-one");
  });

  it("flushes every file of a store told of no derived view, index.md included", async () => {
    const root = tempVault();
    const store = new NodeStore(root);
    const flushed = await flushedDuring(root, async () => {
      await store.create("palee/index.md", "one");
      await store.replace("palee/index.md", "one", "two");
    });
    expect(flushed).toEqual(["palee/index.md", "palee/index.md"]);
  });
});
