import * as os from "node:os";
import * as path from "node:path";
import * as fs from "node:fs";
import * as asyncFs from "../../src/node/async-fs";

/**
 * async-fs does most calls synchronously (docs/decisions.md "Synchronous fs calls where the CLI waits"), yet its
 * callers chain `.catch` on them and count on `await`: an error must come as a rejected promise, never a throw,
 * with node:fs's own code.
 */
describe("async-fs: synchronous calls answered as promises", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "palee-async-fs-"));
  const missing = path.join(root, "missing", "file.txt");
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  const calls: [string, () => Promise<unknown>][] = [
    ["lstat", () => asyncFs.lstat(missing)],
    ["stat", () => asyncFs.stat(missing)],
    ["realpath", () => asyncFs.realpath(missing)],
    ["rename", () => asyncFs.rename(missing, path.join(root, "b"))],
    ["link", () => asyncFs.link(missing, path.join(root, "c"))],
    ["unlink", () => asyncFs.unlink(missing)],
    ["copyFile", () => asyncFs.copyFile(missing, path.join(root, "d"))],
    ["open", () => asyncFs.open(missing, "r")],
    ["mkdir", () => asyncFs.mkdir(path.join(missing, "x"))],
  ];
  it.each(calls)("%s of a missing path rejects with ENOENT instead of throwing", async (_name, call) => {
    let promise: Promise<unknown> | undefined;
    expect(() => {
      promise = call();
    }).not.toThrow();
    await expect(promise).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("answers as node:fs does: a file opened, written, flushed, renamed, stated and removed", async () => {
    const file = path.join(root, "a.txt");
    const handle = await asyncFs.open(file, "wx");
    fs.writeSync(handle.fd, "text");
    await handle.sync();
    await handle.close();
    await expect(asyncFs.open(file, "wx")).rejects.toMatchObject({ code: "EEXIST" });
    await asyncFs.rename(file, path.join(root, "b.txt"));
    expect((await asyncFs.stat(path.join(root, "b.txt"))).size).toBe(4);
    expect(await asyncFs.mkdir(path.join(root, "new", "deep"), { recursive: true })).toBe(path.join(root, "new"));
    await asyncFs.rm(path.join(root, "b.txt"), { force: true });
    await expect(asyncFs.rm(path.join(root, "b.txt"), { force: true })).resolves.toBeUndefined();
    expect(fs.existsSync(path.join(root, "b.txt"))).toBe(false);
  });
});
