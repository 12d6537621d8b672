/**
 * A draft that cannot be removed (its file is locked, the folder refuses the removal) is copied to `.trash/`
 * once, not once per try: the Node store takes its copy back when the removal fails. And the end that saved
 * it says first that the session is saved (errors.ts afterSaveError).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterSaveError } from "../../src/core/errors";
import { layoutFor } from "../../src/core/records/layout";
import { PaleeSessions } from "../../src/core/sessions";
import { NodeStore } from "../../src/node/node-store";
import { FakeClock, SeededRandom } from "../support/fakes";
import * as nodeFs from "../../src/node/async-fs";

let root = "";
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "palee-trash-once-"));
});
afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(root, { recursive: true, force: true });
});

const trashed = (): string[] =>
  fs.existsSync(path.join(root, ".trash")) ? fs.readdirSync(path.join(root, ".trash")) : [];

/** unlink() of drafts fails as on a file the system will not let go of; everything else works. */
function draftsCannotBeRemoved(): void {
  const unlink = nodeFs.unlink.bind(nodeFs);
  jest.spyOn(nodeFs, "unlink").mockImplementation((target) => {
    if (String(target).includes(`${path.sep}sessions${path.sep}DRAFT-S-`)) {
      return Promise.reject(
        Object.assign(new Error(`EACCES: permission denied, unlink '${String(target)}'`), { code: "EACCES" }),
      );
    }
    return unlink(target);
  });
}

describe("a draft that cannot be removed", () => {
  it.each([
    ["with hard links", false],
    ["on a file system without hard links (copy)", true],
  ])("is never copied to the trash by a failed try, %s", async (_how, noLinks) => {
    const store = new NodeStore(root);
    await store.create("palee/sessions/DRAFT-S-00000001.md", "draft\n");
    if (noLinks) {
      jest
        .spyOn(nodeFs, "link")
        .mockRejectedValue(Object.assign(new Error("EPERM: operation not permitted, link"), { code: "EPERM" }));
    }
    draftsCannotBeRemoved();
    for (let i = 0; i < 5; i++)
      await expect(store.trash("palee/sessions/DRAFT-S-00000001.md")).rejects.toThrow(/EACCES/);
    expect(trashed()).toEqual([]);
    expect(fs.readFileSync(path.join(root, "palee/sessions/DRAFT-S-00000001.md"), "utf8")).toBe("draft\n");
    jest.restoreAllMocks();
    await store.trash("palee/sessions/DRAFT-S-00000001.md");
    expect(trashed()).toEqual(["DRAFT-S-00000001.md"]);
  });

  it("end says the session is saved; later starts add no copy; once removable, one copy", async () => {
    const clock = FakeClock.at("2026-08-14T12:00:00Z");
    const core = new PaleeSessions(
      { store: new NodeStore(root), clock, random: new SeededRandom(3), device: "laptop" },
      layoutFor("palee"),
    );
    await core.start({ topic: "T-a" });
    clock.advance(45);
    draftsCannotBeRemoved();
    const error = await core.end({ summary: "done" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(afterSaveError(error)?.message).toMatch(/^Saved S-\d{8}T\d{6}-[0-9a-f]{4} \(T-a, 45 min\), but .*EACCES/);
    for (let i = 0; i < 5; i++) await core.start({ topic: "T-b" }).catch(() => undefined);
    await core.rebuild().catch(() => undefined);
    expect(trashed()).toEqual([]);
    jest.restoreAllMocks();
    await expect(core.start({ topic: "T-b" })).resolves.toMatchObject({ status: "started" });
    expect(trashed()).toHaveLength(1);
    expect(fs.readdirSync(path.join(root, "palee/sessions")).filter((n) => /^S-/.test(n))).toHaveLength(1);
  });
});
