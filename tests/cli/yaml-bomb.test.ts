/**
 * A YAML alias bomb (contract §3, version 3: a hostile file is `corrupt`, never a hang or a crash). Before the
 * bounds (src/core/records/yaml-bounds.ts), the hot.md and the draft of tests/fixtures/hostile/yaml-bomb sent start,
 * draft --note and recover resume into 20–25 s of work and 1.6 GB before "unexpected error: Invalid string
 * length" (exit 5; a V8 out-of-memory abort, exit 134, on a larger heap), and this suite's 20 s limit per run.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunResult } from "./support";
import { cleanupVaults, draftFiles, makeVault, palee, readRecord, readText, writeFile } from "./support";

afterEach(cleanupVaults);

const BOMBS = path.join(__dirname, "../fixtures/hostile/yaml-bomb");
const BOMB_DRAFT = "DRAFT-S-0000b0b0";
const bomb = (name: string): string => fs.readFileSync(path.join(BOMBS, name), "utf8");
const REASON = /frontmatter expands to more than \d+ (values|characters) \(YAML aliases repeat values/;

/** Runs the CLI and checks it was quick and clean: no stack trace, no abort. */
function quick(vault: string, args: readonly string[]): RunResult {
  const started = Date.now();
  const run = palee(vault, args);
  expect(Date.now() - started).toBeLessThan(5000);
  expect(run.stderr).not.toMatch(/^\s+at |\bError:|heap/m);
  return run;
}

function bombVault(): string {
  const vault = makeVault();
  writeFile(vault, "palee/hot.md", bomb("hot.md"));
  writeFile(vault, `palee/sessions/${BOMB_DRAFT}.md`, bomb(`${BOMB_DRAFT}.md`));
  return vault;
}

describe("a vault whose hot.md and one draft are alias bombs", () => {
  it("start: started at once, hot.md rebuilt and said so, the bomb draft skipped by name and kept", () => {
    const vault = bombVault();
    const run = quick(vault, ["start", "--topic", "T-rust"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(new RegExp(`warning: skipped palee/sessions/${BOMB_DRAFT}\\.md: ${REASON.source}`));
    expect(run.stderr).toMatch(
      new RegExp(`warning: replaced palee/hot.md, which could not be read \\(${REASON.source}`),
    );
    expect(readRecord(vault, "palee/hot.md").fields).toMatchObject({ palee_schema: 1, active_topic: "T-rust" });
    expect(readText(vault, `palee/sessions/${BOMB_DRAFT}.md`)).toBe(bomb(`${BOMB_DRAFT}.md`));
    expect(draftFiles(vault)).toHaveLength(2);
  });

  it("draft --note: the note goes into the open session, the bomb is skipped", () => {
    const vault = bombVault();
    expect(quick(vault, ["start", "--topic", "T-rust"]).status).toBe(0);
    const run = quick(vault, ["draft", "--note", "ownership moves"]);
    expect(run.status).toBe(0);
    const ours = draftFiles(vault).find((name) => !name.startsWith(BOMB_DRAFT)) ?? "";
    expect(fs.readFileSync(path.join(vault, "palee/sessions", ours), "utf8")).toContain("ownership moves");
  });

  it("draft --note into an open session whose draft is the bomb: exit 2 naming it, nothing written", () => {
    const vault = bombVault();
    const open = `open_draft: ${BOMB_DRAFT}\nstarted_at: "2026-07-20T09:00:00+00:00"\ndevice: test-device`;
    writeFile(vault, "palee/hot.md", `---\npalee_schema: 1\nactive_topic: T-rust\n${open}\n---\n`);
    const run = quick(vault, ["draft", "--note", "lost?"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`palee/sessions/${BOMB_DRAFT}\\.md cannot be read \\(${REASON.source}`));
    expect(readText(vault, `palee/sessions/${BOMB_DRAFT}.md`)).toBe(bomb(`${BOMB_DRAFT}.md`));
  });

  it("recover --action resume: exit 2 naming the draft; rebuild: exit 0 with the draft skipped", () => {
    const vault = bombVault();
    const resume = quick(vault, ["recover", "--draft", BOMB_DRAFT, "--action", "resume", "--json"]);
    expect(resume.status).toBe(2);
    expect(resume.json()).toMatchObject({ status: "error", exit_code: 2 });
    expect(resume.stderr).toMatch(REASON);
    const rebuild = quick(vault, ["rebuild"]);
    expect(rebuild.status).toBe(0);
    expect(rebuild.stderr).toMatch(new RegExp(`warning: skipped palee/sessions/${BOMB_DRAFT}\\.md: ${REASON.source}`));
    expect(readRecord(vault, "palee/hot.md").fields).toMatchObject({ palee_schema: 1 });
    expect(readText(vault, `palee/sessions/${BOMB_DRAFT}.md`)).toBe(bomb(`${BOMB_DRAFT}.md`));
  });
});
