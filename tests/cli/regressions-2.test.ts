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

describe("output says what happened", () => {
  it("marks the open session's draft in list, says when a checkpoint opened a session, and names an already saved draft", () => {
    const vault = makeVault();
    const draft = palee(vault, ["draft", "--topic", "T-a", "--note", "first"]);
    expect(draft.status).toBe(0);
    expect(draft.stdout).toContain("this draft is now the open session");
    const listed = palee(vault, ["list"]);
    expect(listed.stdout).toMatch(/DRAFT-S-[0-9a-f]{8} .*\(open session\)/);
    const id = /DRAFT-S-[0-9a-f]{8}/.exec(draft.stdout)?.[0] ?? "";
    expect(palee(vault, ["end", "--summary", "done"]).status).toBe(0);
    const again = palee(vault, ["recover", "--draft", id, "--action", "ignore"]);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^${id} was already saved as S-[0-9T]+-[0-9a-f]{4}; nothing more to do[.]\\n$`));
  });
});
