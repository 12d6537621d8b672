/**
 * Session files the CLI cannot count are named, never dropped without a word (contract §3 skipped files):
 * a note moved into a subfolder of sessions/, and iCloud placeholders of notes not downloaded yet.
 */
import { cleanupVaults, confirmedText, makeVault, palee, writeConfirmed, writeFile } from "./support";

afterEach(cleanupVaults);

const KEPT = {
  id: "S-20261102T090000-0001",
  topic: "T-rust",
  startedAt: "2026-11-02T09:00:00+00:00",
  endedAt: "2026-11-02T09:45:00+00:00",
  duration: 45,
};
const MOVED = { ...KEPT, id: "S-20261103T090000-0002", startedAt: "2026-11-03T09:00:00+00:00" };
const MOVED_DEEPER = { ...KEPT, id: "S-20261104T090000-0003", startedAt: "2026-11-04T09:00:00+00:00" };

function vaultWithStrays(): string {
  const vault = makeVault();
  writeConfirmed(vault, { ...KEPT, endedAt: KEPT.endedAt });
  writeFile(
    vault,
    `palee/sessions/2026/${MOVED.id}.md`,
    confirmedText({ ...MOVED, endedAt: "2026-11-03T09:45:00+00:00" }),
  );
  writeFile(
    vault,
    `palee/sessions/2026/old/${MOVED_DEEPER.id}.md`,
    confirmedText({ ...MOVED_DEEPER, endedAt: "2026-11-04T09:45:00+00:00" }),
  );
  writeFile(vault, "palee/sessions/2026/attachments-readme.md", "not a session\n"); // the learner's own: no word
  writeFile(vault, "palee/sessions/.stversions/S-20261105T090000-0004.md", "old copy\n"); // a sync tool's
  writeFile(vault, "palee/sessions/.S-20261106T090000-0005.md.icloud", "bplist00");
  writeFile(vault, "palee/sessions/.DRAFT-S-0000beef.md.icloud", "bplist00");
  return vault;
}

const warningsOf = (stderr: string): string[] => stderr.split("\n").filter((l) => l.startsWith("warning: "));

describe("session files the scan cannot count are named", () => {
  it.each([["list"], ["list", "--all"], ["stats"], ["rebuild"]])("%s warns by name, one line each", (...args) => {
    const vault = vaultWithStrays();
    const run = palee(vault, args);
    expect(run.status).toBe(0);
    const warnings = warningsOf(run.stderr);
    for (const id of [MOVED.id, MOVED_DEEPER.id]) {
      expect(warnings.filter((w) => w.includes(`${id}.md`))).toEqual([
        expect.stringMatching(/in a subfolder of palee\/sessions\/, so list, index.md and stats do not count it/),
      ]);
    }
    for (const name of [".S-20261106T090000-0005.md.icloud", ".DRAFT-S-0000beef.md.icloud"]) {
      expect(warnings.filter((w) => w.includes(name))).toEqual([expect.stringContaining("not downloaded")]);
    }
    expect(run.stderr).not.toMatch(/attachments-readme|stversions/);
  });

  it("list --json carries them in skipped, with their paths", () => {
    const vault = vaultWithStrays();
    const doc = palee(vault, ["list", "--json"]).json() as { skipped: Array<{ path: string; reason: string }> };
    expect(doc.skipped.map((s) => s.path).sort()).toEqual(
      [
        `palee/sessions/2026/${MOVED.id}.md`,
        `palee/sessions/2026/old/${MOVED_DEEPER.id}.md`,
        "palee/sessions/.DRAFT-S-0000beef.md.icloud",
        "palee/sessions/.S-20261106T090000-0005.md.icloud",
      ].sort(),
    );
  });
});

describe("warnings are capped (a large vault can flag a thousand notes)", () => {
  it("prints the first 20 and sums up the rest in one line; --json keeps every file", () => {
    const vault = makeVault();
    for (let i = 0; i < 33; i++) writeFile(vault, `palee/sessions/note ${String(i).padStart(2, "0")}.md`, "mine\n");
    const run = palee(vault, ["list"]);
    expect(run.status).toBe(0);
    const warnings = warningsOf(run.stderr);
    expect(warnings).toHaveLength(21);
    expect(warnings.slice(0, 20).every((w) => /^warning: skipped palee\/sessions\/note \d\d\.md/.test(w))).toBe(true);
    expect(warnings[20]).toBe("warning: and 13 more warnings");
    const doc = palee(vault, ["list", "--json"]).json() as { skipped: unknown[] };
    expect(doc.skipped).toHaveLength(33);
  });

  it("prints 20 warnings as they are, with no summing-up line", () => {
    const vault = makeVault();
    for (let i = 0; i < 20; i++) writeFile(vault, `palee/sessions/note ${String(i).padStart(2, "0")}.md`, "mine\n");
    const warnings = warningsOf(palee(vault, ["list"]).stderr);
    expect(warnings).toHaveLength(20);
    expect(warnings.some((w) => /more warning/.test(w))).toBe(false);
  });
});
