/**
 * CLI security (contract §4 deletion boundary, §5 "a folder outside the vault"): the gaps left by
 * exit-codes.test.ts, which already covers `../outside`, `palee/../../outside`, absolute POSIX paths, a
 * --folder that is (or goes through, or dangles as) a symlink out of the vault, and data.json's folder.
 * Here: Windows spellings (backslashes, drive letters, UNC), a sessions/ folder that is a symlink leading out
 * of the vault, hot.md and index.md that are symlinks to files outside, and hostile --topic values.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  cleanupVaults,
  draftFiles,
  expectCleanError,
  makeTempDir,
  makeVault,
  palee,
  snapshot,
  writeFile,
} from "./support";

afterEach(cleanupVaults);

describe("a --folder that leaves the vault, spelled the Windows way", () => {
  it.each([
    ["C:\\x", /not an absolute path/],
    ["c:x", /not an absolute path/],
    ["..\\x", /leaves the vault/],
    ["a\\..\\..\\x", /leaves the vault/],
    ["palee\\..\\..\\x", /leaves the vault/],
    ["\\\\server\\share\\palee", /not an absolute path/],
    ["\\palee", /not an absolute path/],
  ])("refuses %j with folder_outside_vault (exit 2) and writes nothing", (folder, message) => {
    const vault = makeVault();
    const json = palee(vault, ["start", "--topic", "T-a", "--folder", folder, "--json"]);
    expectCleanError(json, 2, { json: true, code: "folder_outside_vault" });
    expect(json.stderr).toMatch(message);
    expect(snapshot(vault)).toEqual({});
    // The vault's own fresh parent (see makeVault): nothing appeared beside the vault.
    expect(fs.readdirSync(path.dirname(vault))).toEqual(["vault"]);
  });
});

describe("a sessions/ folder that is a symlink leading out of the vault", () => {
  it("is refused before anything is written: start, end, list and rebuild exit 2 with folder_outside_vault", () => {
    const vault = makeVault();
    const outside = makeTempDir();
    fs.mkdirSync(path.join(vault, "palee"));
    fs.symlinkSync(outside, path.join(vault, "palee", "sessions"));
    // Observed before the fix: start wrote its draft outside the vault; end then wrote the confirmed note there
    // too and failed (exit 5: the deletion boundary refused to trash the draft), and so did every later start.
    for (const args of [["start", "--topic", "T-a"], ["end", "--topic", "T-a"], ["list"], ["rebuild"]]) {
      const run = palee(vault, [...args, "--json"]);
      expectCleanError(run, 2, { json: true, code: "folder_outside_vault" });
      expect(run.stderr).toContain("leads outside the vault through a symlink (palee/sessions)");
    }
    expect(snapshot(outside)).toEqual({});
    expect(fs.readdirSync(path.join(vault, "palee"))).toEqual(["sessions"]);
  });

  it("is also refused for a nested folder from --folder, and for a dangling link", () => {
    const vault = makeVault();
    const outside = makeTempDir();
    fs.mkdirSync(path.join(vault, "Study", "palee"), { recursive: true });
    fs.symlinkSync(outside, path.join(vault, "Study", "palee", "sessions"));
    expectCleanError(palee(vault, ["start", "--topic", "T-a", "--folder", "Study/palee", "--json"]), 2, {
      json: true,
      code: "folder_outside_vault",
    });
    fs.mkdirSync(path.join(vault, "palee"));
    fs.symlinkSync(path.join(outside, "not-yet"), path.join(vault, "palee", "sessions"));
    expectCleanError(palee(vault, ["start", "--topic", "T-a", "--json"]), 2, {
      json: true,
      code: "folder_outside_vault",
    });
    expect(snapshot(outside)).toEqual({});
  });

  it("works when the link stays inside the vault (a whole session, draft trashed into the vault's .trash)", () => {
    const vault = makeVault();
    fs.mkdirSync(path.join(vault, "Elsewhere", "sessions"), { recursive: true });
    fs.mkdirSync(path.join(vault, "palee"));
    fs.symlinkSync(path.join(vault, "Elsewhere", "sessions"), path.join(vault, "palee", "sessions"));
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    expect(draftFiles(vault)).toHaveLength(1);
    expect(palee(vault, ["end", "--summary", "done"]).status).toBe(0);
    expect(fs.readdirSync(path.join(vault, "Elsewhere", "sessions")).filter((n) => n.startsWith("S-"))).toHaveLength(1);
    expect(fs.readdirSync(path.join(vault, ".trash"))).toHaveLength(1);
  });
});

describe("hot.md and index.md that are symlinks to files outside the vault", () => {
  // Before version 3 the link was replaced by a file of the vault, but only after start had read through it:
  // hot.md -> /etc/passwd was printed as "Working memory" and copied into palee/hot-kept-*.md. Now the link
  // is never followed: every command that needs the file refuses it by name (tests/cli/links.test.ts).
  it("never read or write through the link: refused by name, the outside file keeps its content", () => {
    const vault = makeVault();
    const outside = makeTempDir();
    const secret = path.join(outside, "secret.md");
    fs.writeFileSync(secret, "not yours\n");
    fs.mkdirSync(path.join(vault, "palee", "sessions"), { recursive: true });
    fs.symlinkSync(secret, path.join(vault, "palee", "hot.md"));
    fs.symlinkSync(secret, path.join(vault, "palee", "index.md"));
    for (const args of [["start", "--topic", "T-a"], ["rebuild"], ["status"]]) {
      const run = palee(vault, [...args, "--json"]);
      expectCleanError(run, 2, { json: true, code: "link_outside_vault" });
      expect(run.stdout + run.stderr).not.toContain("not yours");
    }
    expect(fs.readFileSync(secret, "utf8")).toBe("not yours\n");
    expect(fs.readdirSync(outside)).toEqual(["secret.md"]);
    expect(fs.readdirSync(path.join(vault, "palee")).sort()).toEqual(["hot.md", "index.md", "sessions"]);
    expect(draftFiles(vault)).toEqual([]);
  });
});

describe("hostile --topic values (the core's property test covers many more)", () => {
  it("refuses each (invalid_topic; a path no note has: unknown_topic) for start, draft, end; writes nothing", () => {
    const vault = makeVault();
    writeFile(vault, "Notes/keep.md", "keep\n");
    const before = snapshot(vault);
    for (const topic of ["T-../../x", "T-a\\b", "T-[[x]]|#", "/etc/passwd", `T-${"a".repeat(122)}`]) {
      for (const action of ["start", "draft", "end"]) {
        const run = palee(vault, [action, "--topic", topic, "--json"]);
        // Version 3: "/etc/passwd" is not an ID, so it is looked up as a topic note's path (contract §4).
        if (topic === "/etc/passwd")
          expectCleanError(run, 2, { json: true, code: "unknown_topic", extraKeys: ["closest"] });
        else expectCleanError(run, 2, { json: true, code: "invalid_topic" });
      }
    }
    expect(snapshot(vault)).toEqual(before);
    expect(fs.readdirSync(path.dirname(vault))).toEqual(["vault"]);
  });
});
