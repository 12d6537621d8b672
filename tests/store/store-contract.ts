import { ConflictError, FileExistsError } from "../../src/core/errors";
import type { SessionStore } from "../../src/core/ports";

/**
 * The SessionStore contract (src/core/ports.ts). Every adapter runs this same suite, so the core can rely
 * on one behaviour whatever the store.
 */
/** What a store may differ in, each within the contract. */
export interface StoreTraits {
  /** modifiedAt tells file times (false: it answers "untold", as a store whose writes leave no temp files). */
  tellsModifiedAt: boolean;
}

export function describeStoreContract(
  name: string,
  make: () => Promise<SessionStore> | SessionStore,
  traits: StoreTraits = { tellsModifiedAt: true },
): void {
  describe(`${name} store contract`, () => {
    let store: SessionStore;
    beforeEach(async () => {
      store = await make();
    });

    it("reads a missing file as null and lists a missing folder as empty", async () => {
      await expect(store.read("palee/hot.md")).resolves.toBeNull();
      await expect(store.list("palee/sessions")).resolves.toEqual([]);
    });

    it("creates a file with its parent folders and reads it back exactly", async () => {
      const content = "---\npalee_schema: 1\n---\nünïcödé 🦀\r\nline\n";
      await store.create("palee/sessions/S-1.md", content);
      await expect(store.read("palee/sessions/S-1.md")).resolves.toBe(content);
      await store.create("palee/sessions/empty.md", "");
      await expect(store.read("palee/sessions/empty.md")).resolves.toBe("");
    });

    it("lists the names of the files directly inside a folder only", async () => {
      await store.create("palee/sessions/a.md", "a");
      await store.create("palee/sessions/b.md", "b");
      await store.create("palee/sessions/deeper/c.md", "c");
      await store.create("palee/hot.md", "h");
      await expect(store.list("palee/sessions").then((n) => n.sort())).resolves.toEqual(["a.md", "b.md"]);
    });

    it("lists the folders directly inside a folder, and none for a missing one", async () => {
      await store.create("palee/sessions/a.md", "a");
      await store.create("palee/sessions/old/c.md", "c");
      await store.create("palee/sessions/old/deeper/d.md", "d");
      await expect(store.folders("palee/sessions")).resolves.toEqual(["old"]);
      await expect(store.folders("palee/sessions/old")).resolves.toEqual(["deeper"]);
      await expect(store.folders("palee/missing")).resolves.toEqual([]);
    });

    it("never overwrites on create: an existing file is a FileExistsError and keeps its content", async () => {
      await store.create("palee/sessions/S-1.md", "first");
      await expect(store.create("palee/sessions/S-1.md", "second")).rejects.toBeInstanceOf(FileExistsError);
      await expect(store.read("palee/sessions/S-1.md")).resolves.toBe("first");
    });

    it("replaces only when the file still holds what was read", async () => {
      await store.replace("palee/hot.md", null, "v1");
      await expect(store.read("palee/hot.md")).resolves.toBe("v1");
      await store.replace("palee/hot.md", "v1", "v2");
      await expect(store.read("palee/hot.md")).resolves.toBe("v2");
      await expect(store.replace("palee/hot.md", "v1", "v3")).rejects.toBeInstanceOf(ConflictError);
      await expect(store.replace("palee/hot.md", null, "v3")).rejects.toBeInstanceOf(ConflictError);
      await expect(store.read("palee/hot.md")).resolves.toBe("v2");
    });

    it("treats a file that appeared since the read as a conflict", async () => {
      await store.create("palee/index.md", "someone else's");
      await expect(store.replace("palee/index.md", null, "mine")).rejects.toBeInstanceOf(ConflictError);
      await expect(store.read("palee/index.md")).resolves.toBe("someone else's");
    });

    if (traits.tellsModifiedAt) {
      it("reports when a file was last modified (missing for a missing file)", async () => {
        const before = Date.now();
        await store.create("palee/sessions/S-1.md", "one");
        const at = await store.modifiedAt("palee/sessions/S-1.md");
        expect(at.kind).toBe("at");
        const ms = at.kind === "at" ? at.ms : Number.NaN;
        expect(ms).toBeGreaterThanOrEqual(before - 2_000);
        expect(ms).toBeLessThanOrEqual(Date.now() + 2_000);
        await expect(store.modifiedAt("palee/sessions/S-2.md")).resolves.toEqual({ kind: "missing" });
      });
    } else {
      it("says it cannot tell when a file was last modified", async () => {
        await store.create("palee/sessions/S-1.md", "one");
        await expect(store.modifiedAt("palee/sessions/S-1.md")).resolves.toEqual({ kind: "untold" });
        await expect(store.modifiedAt("palee/sessions/S-2.md")).resolves.toEqual({ kind: "untold" });
      });
    }

    it("counts a file written since a time among the changed ones", async () => {
      const before = Date.now() - 2_000;
      await store.create("palee/sessions/S-1.md", "one");
      await expect(store.changedAmong("palee/sessions", ["S-1.md"], before)).resolves.toEqual(["S-1.md"]);
    });

    it("knows no cached fields of a missing file", () => {
      expect(store.cachedFields("palee/sessions/S-missing.md")).toBeUndefined();
    });

    it("never reports changes against no earlier token", () => {
      expect(store.changesSince("palee/sessions", null).kind).not.toBe("changed");
    });

    it("moves a trashed file out of the folder", async () => {
      await store.create("palee/sessions/DRAFT-S-00000001.md", "draft");
      await store.trash("palee/sessions/DRAFT-S-00000001.md");
      await expect(store.read("palee/sessions/DRAFT-S-00000001.md")).resolves.toBeNull();
      await expect(store.list("palee/sessions")).resolves.toEqual([]);
    });
  });
}
