/**
 * Bugs found in the second review, CLI end-to-end, each pinned by the test that would have caught it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { cleanupVaults, expectCleanError, makeVault, palee } from "./support";

afterEach(cleanupVaults);

describe("a --folder that is not a folder", () => {
  it("refuses a --folder that is a symlink to a file inside the vault with a usage error (exit 2), like a plain file", () => {
    const vault = makeVault();
    fs.writeFileSync(path.join(vault, "notes.md"), "a note\n");
    fs.symlinkSync(path.join(vault, "notes.md"), path.join(vault, "palee")); // stays inside the vault
    const run = palee(vault, ["list"]);
    expectCleanError(run, 2);
    expect(run.stderr).toContain("is not a folder");
  });
});
