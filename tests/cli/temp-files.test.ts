/**
 * Temp files left by killed writes (contract §2 "Temporary files", issue 18 §5): before, a killed export left its
 * temp file in the --out folder forever (21 in 600 kills), and the session folder's only left through
 * `rebuild` (106). Now an export removes those of its own target name when it next writes there, and a start or
 * an end that wrote moves the session folder's to the trash, as rebuild does: the exact pattern, older than an
 * hour, never a younger one (a write may be in progress) and never a look-alike.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { cleanupVaults, makeTempDir, makeVault, palee } from "./support";

afterEach(cleanupVaults);

const HOUR = 60 * 60_000;

function plant(file: string, ageMs: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, "half a write");
  const at = new Date(Date.now() - ageMs);
  fs.utimesSync(file, at, at);
}

describe("temp files of killed exports in the --out folder", () => {
  it("the next export of that name removes its own older than an hour, and only those", () => {
    const vault = makeVault();
    const out = makeTempDir();
    const stale = path.join(out, ".sessions.csv.1a2b3c4d.tmp");
    const kept = [
      [".sessions.csv.0badcafe.tmp", HOUR / 2], // young: an export may be writing it
      [".other.csv.1a2b3c4d.tmp", 3 * HOUR], // another name's
      [".sessions.csv.1A2B3C4D.tmp", 3 * HOUR], // not the exact pattern
      ["sessions.csv.1a2b3c4d.tmp", 3 * HOUR],
    ] as const;
    plant(stale, 3 * HOUR);
    for (const [name, age] of kept) plant(path.join(out, name), age);
    const run = palee(vault, ["export", "--out", path.join(out, "sessions.csv")]);
    expect(run.status).toBe(0);
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.readdirSync(out).sort()).toEqual([...kept.map(([name]) => name), "sessions.csv"].sort());
    for (const [name] of kept) fs.rmSync(path.join(out, name)); // the suite checks no temp file is left behind
  });
});

describe("temp files of killed writes in the session folder", () => {
  const OLD = ["palee/.hot.md.1a2b3c4d.tmp", "palee/sessions/.DRAFT-S-0000abcd.md.12345678.tmp"];
  const YOUNG = "palee/.index.md.0badcafe.tmp";

  it("start and end move those older than an hour to the trash and say so; younger ones stay", () => {
    const vault = makeVault();
    for (const rel of OLD) plant(path.join(vault, rel), 2 * HOUR);
    plant(path.join(vault, YOUNG), HOUR / 2);
    const start = palee(vault, ["start", "--topic", "T-a"]);
    expect(start.status).toBe(0);
    for (const rel of OLD) {
      expect(start.stderr).toContain(`warning: moved ${rel} (left by an interrupted write) to the trash`);
      expect(fs.existsSync(path.join(vault, rel))).toBe(false);
    }
    expect(fs.existsSync(path.join(vault, YOUNG))).toBe(true);
    for (const rel of OLD) plant(path.join(vault, rel), 2 * HOUR);
    const end = palee(vault, ["end", "--summary", "done"]);
    expect(end.status).toBe(0);
    for (const rel of OLD) expect(end.stderr).toContain(`warning: moved ${rel} (left by an interrupted write)`);
    expect(fs.readdirSync(path.join(vault, ".trash")).filter((n) => n.endsWith(".tmp"))).toHaveLength(4);
    // Read-only actions never move anything.
    for (const rel of OLD) plant(path.join(vault, rel), 2 * HOUR);
    expect(palee(vault, ["list"]).status).toBe(0);
    expect(palee(vault, ["status"]).status).toBe(0);
    for (const rel of OLD) expect(fs.existsSync(path.join(vault, rel))).toBe(true);
    for (const rel of [...OLD, YOUNG]) fs.rmSync(path.join(vault, rel));
    fs.rmSync(path.join(vault, ".trash"), { recursive: true });
  });
});
