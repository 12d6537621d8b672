/**
 * Symbolic links inside the vault (contract §3 and §4 deletion boundary, version 3): a read never follows a link
 * that leads out of the vault, and nothing is moved through one. Before: with hot.md a link to /etc/passwd,
 * `start` printed the file as "Working memory" and copied it into palee/hot-kept-*.md; a `.trash` linked
 * outside received the drafts `end` removed; notes that were links were left out of every list without a word.
 * A link that stays inside the vault is followed (a note kept elsewhere in the vault and linked into sessions/).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  ago,
  cleanupVaults,
  confirmedFiles,
  confirmedText,
  draftFiles,
  expectCleanError,
  makeTempDir,
  makeVault,
  palee,
  writeConfirmed,
} from "./support";

afterEach(cleanupVaults);

const SECRET = "root:x:0:0:root:/root:/bin/bash\n";
const NOTE = { topic: "T-rust", startedAt: ago(180), endedAt: ago(120), duration: 60, summary: "borrowing" };

/** A vault with its session folder, and a file outside it holding a secret. */
function setup(): { vault: string; outside: string; secret: string } {
  const vault = makeVault();
  const outside = makeTempDir();
  const secret = path.join(outside, "passwd");
  fs.writeFileSync(secret, SECRET);
  fs.mkdirSync(path.join(vault, "palee", "sessions"), { recursive: true });
  return { vault, outside, secret };
}

describe("hot.md that is a link leading out of the vault (to a passwd file)", () => {
  it("start, end and rebuild refuse it by name (exit 2), print nothing of it and copy nothing", () => {
    const { vault, secret } = setup();
    writeConfirmed(vault, { id: "S-20260801T090000-a001", ...NOTE });
    fs.symlinkSync(secret, path.join(vault, "palee", "hot.md"));
    for (const args of [["start", "--topic", "T-rust"], ["end", "--summary", "x"], ["rebuild"], ["start"]]) {
      const run = palee(vault, args);
      expectCleanError(run, 2);
      expect(run.stderr).toContain("palee/hot.md is a symbolic link leading out of the vault: not followed");
      expect(run.stdout + run.stderr).not.toContain("root:");
    }
    // rebuild writes index.md (a view of the notes) before it reaches hot.md; no copy of hot.md is made.
    expect(fs.readdirSync(path.join(vault, "palee")).filter((n) => !["index.md", "sessions"].includes(n))).toEqual([
      "hot.md",
    ]);
    expect(fs.readFileSync(path.join(vault, "palee", "index.md"), "utf8")).not.toContain("root:");
    expect(fs.lstatSync(path.join(vault, "palee", "hot.md")).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(secret, "utf8")).toBe(SECRET);
    expect(draftFiles(vault)).toEqual([]);
  });
});

describe("a .trash that is a link leading out of the vault", () => {
  it("end refuses to move the draft there: it stays in sessions/, the outside folder stays empty", () => {
    const { vault, outside } = setup();
    expect(palee(vault, ["start", "--topic", "T-rust"]).status).toBe(0);
    const [draft] = draftFiles(vault);
    fs.symlinkSync(outside, path.join(vault, ".trash"));
    fs.rmSync(path.join(outside, "passwd"));
    const run = palee(vault, ["end", "--summary", "done", "--json"]);
    expectCleanError(run, 2, { json: true, code: "link_outside_vault" });
    expect(run.stderr).toContain(
      `.trash is a symbolic link leading out of the vault: refused to move palee/sessions/${draft} there, ` +
        "so it stays where it is",
    );
    expect(draftFiles(vault)).toEqual([draft]);
    expect(fs.readdirSync(outside)).toEqual([]);
    // A dangling link is refused the same way.
    fs.rmSync(path.join(vault, ".trash"));
    fs.symlinkSync(path.join(outside, "gone"), path.join(vault, ".trash"));
    expect(palee(vault, ["end", "--summary", "done"]).stderr).toContain(".trash is a symbolic link leading out");
    expect(draftFiles(vault)).toEqual([draft]);
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it("a .trash linked to a folder inside the vault is used", () => {
    const { vault } = setup();
    fs.mkdirSync(path.join(vault, "Archive", "trash"), { recursive: true });
    fs.symlinkSync(path.join(vault, "Archive", "trash"), path.join(vault, ".trash"));
    expect(palee(vault, ["start", "--topic", "T-rust"]).status).toBe(0);
    expect(palee(vault, ["end", "--summary", "done"]).status).toBe(0);
    expect(draftFiles(vault)).toEqual([]);
    expect(fs.readdirSync(path.join(vault, "Archive", "trash"))).toHaveLength(1);
  });
});

describe("a file where .trash belongs (issue 18 §6)", () => {
  it("end names .trash, not the draft, as the file in the way", () => {
    const { vault } = setup();
    expect(palee(vault, ["start", "--topic", "T-rust"]).status).toBe(0);
    fs.writeFileSync(path.join(vault, ".trash"), "a file of the learner's\n");
    const run = palee(vault, ["end", "--summary", "done"]);
    // Observed before: "palee/sessions/DRAFT-S-….md is a file, but a folder belongs there".
    expect(run.stderr).toContain(".trash is a file, but a folder belongs there: move it out of the way");
    expect(run.stderr).not.toMatch(/DRAFT-S-[0-9a-f]{8}\.md is a file/);
    expect(draftFiles(vault)).toHaveLength(1);
    expect(fs.readFileSync(path.join(vault, ".trash"), "utf8")).toBe("a file of the learner's\n");
  });
});

describe("session notes that are links", () => {
  it("a note leading out of the vault is skipped by name by list and rebuild, and its text never printed", () => {
    const { vault, outside } = setup();
    writeConfirmed(vault, { id: "S-20260801T090000-a001", ...NOTE });
    const foreign = path.join(outside, "S-20260802T090000-a002.md");
    fs.writeFileSync(foreign, confirmedText({ id: "S-20260802T090000-a002", ...NOTE, summary: "root:secret" }));
    fs.symlinkSync(foreign, path.join(vault, "palee", "sessions", "S-20260802T090000-a002.md"));
    const warning =
      "warning: skipped palee/sessions/S-20260802T090000-a002.md: cannot be read " +
      "(palee/sessions/S-20260802T090000-a002.md is a symbolic link leading out of the vault: not followed";
    for (const args of [["list"], ["rebuild"], ["list", "--all"]]) {
      const run = palee(vault, args);
      expect(run.status).toBe(0);
      expect(run.stderr).toContain(warning);
      if (args[0] === "list") expect(run.stdout).toContain("S-20260801T090000-a001");
      expect(run.stdout + run.stderr).not.toContain("root:secret");
    }
    expect(fs.readFileSync(path.join(vault, "palee", "index.md"), "utf8")).not.toContain("a002");
  });

  it("a note linked to a file elsewhere inside the vault is read like any other", () => {
    const { vault } = setup();
    const kept = writeConfirmed(vault, { id: "S-20260801T090000-a001", ...NOTE, folder: "Archive" });
    fs.symlinkSync(path.join(vault, kept), path.join(vault, "palee", "sessions", "S-20260801T090000-a001.md"));
    const run = palee(vault, ["list", "--json"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    expect(JSON.stringify(run.json())).toContain("S-20260801T090000-a001");
    expect(confirmedFiles(vault)).toEqual(["S-20260801T090000-a001.md"]);
  });
});
