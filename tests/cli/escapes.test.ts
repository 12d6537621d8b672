/**
 * Terminal escapes in recorded text (issue 18 §5): summaries, next actions, notes and legacy topics are the
 * learner's (or a synced device's, or an agent's) text. Before, start, list, end and a CSV export on stdout
 * printed them raw, so a note could clear the screen, set the window title or write the clipboard (OSC 52);
 * only stats cleaned them. Now every byte the CLI prints passes through one cleaner (src/cli/text.ts
 * terminalSafe): each control character shows as "?", line breaks and tabs stay; JSON escapes them all.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunResult } from "./support";
import { ago, cleanupVaults, makeTempDir, makeVault, palee, writeConfirmed } from "./support";

afterEach(cleanupVaults);

const CLEAR = "\u001b[2J\u001b[H";
const TITLE = "\u001b]0;pwned\u0007";
const CLIPBOARD = "\u001b]52;c;cm0gLXJmIH4=\u0007";
const C1_CSI = "\u009b31m";
const HOSTILE = `${CLEAR}${TITLE}${CLIPBOARD}${C1_CSI}\rfake line`;
const SUMMARY = `Lifetimes ${HOSTILE} done`;
const NEXT = `Read chapter 5 ${TITLE}`;
const TOPIC = `T-legacy${CLEAR}`;

/** A control character a terminal would act on: C0 but tab and line feed, a CR not before LF, DEL, C1. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const RAW_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/;

function expectSafe(run: RunResult): void {
  expect(run.stdout).not.toMatch(RAW_CONTROL);
  expect(run.stderr).not.toMatch(RAW_CONTROL);
}

function vaultWithHostileNote(): string {
  const vault = makeVault();
  writeConfirmed(vault, {
    id: "S-20260801T090000-a001",
    topic: TOPIC,
    startedAt: ago(180),
    endedAt: ago(120),
    duration: 60,
    summary: SUMMARY,
    next: NEXT,
    notes: `notes ${CLIPBOARD}`,
  });
  return vault;
}

describe("text from notes reaches the terminal without its control characters", () => {
  it("start: the working memory keeps its lines, the escapes show as ?", () => {
    const vault = vaultWithHostileNote();
    expect(palee(vault, ["rebuild"]).status).toBe(0);
    // No --topic: the rebuild made the hostile legacy topic the active one, so start shows its memory.
    const run = palee(vault, ["start"]);
    expect(run.status).toBe(0);
    expectSafe(run);
    expect(run.stdout).toContain("Lifetimes ?[2J?[H?]0;pwned??]52;c;cm0gLXJmIH4=??31m?fake line done");
    expect(run.stdout.split("\n").length).toBeGreaterThan(4); // still multi-line text
  });

  it("list and list --all: the legacy topic cleaned", () => {
    const vault = vaultWithHostileNote();
    for (const args of [["list"], ["list", "--all"], ["status"], ["stats"]]) {
      const run = palee(vault, args);
      expect(run.status).toBe(0);
      expectSafe(run);
    }
    expect(palee(vault, ["list"]).stdout).toContain("T-legacy?[2J?[H");
  });

  it("end: a typed summary and a note with escapes are recorded as typed, printed cleaned", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-rust"]).status).toBe(0);
    expectSafe(palee(vault, ["draft", "--note", `note ${TITLE}`]));
    const run = palee(vault, ["end", "--summary", SUMMARY, "--next", NEXT]);
    expect(run.status).toBe(0);
    expectSafe(run);
    const sessions = path.join(vault, "palee", "sessions");
    const [note] = fs.readdirSync(sessions).filter((n) => n.startsWith("S-"));
    expect(fs.readFileSync(path.join(sessions, note ?? ""), "utf8")).toContain(SUMMARY); // the data is kept
    const start = palee(vault, ["start"]);
    expectSafe(start);
    expect(start.stdout).toContain("?]0;pwned?");
  });

  it("export: CSV on stdout cleaned, CSV in a file (--out) kept as recorded", () => {
    const vault = vaultWithHostileNote();
    const stdout = palee(vault, ["export"]);
    expect(stdout.status).toBe(0);
    expectSafe(stdout);
    expect(stdout.stdout).toContain("?[2J");
    const out = path.join(makeTempDir(), "sessions.csv");
    expect(palee(vault, ["export", "--out", out]).status).toBe(0);
    expect(fs.readFileSync(out, "utf8")).toContain(CLEAR);
  });

  it("context, show and latest (version 3): the brief and the record cleaned, JSON exact", () => {
    const vault = vaultWithHostileNote();
    for (const args of [["context"], ["latest"], ["show", "--id", "S-20260801T090000-a001"]]) {
      for (const json of [[], ["--json"]]) {
        const run = palee(vault, [...args, ...json]);
        expect(run.status).toBe(0);
        expectSafe(run);
      }
    }
    expect(palee(vault, ["context"]).stdout).toContain("Lifetimes ?[2J?[H");
    const latest = palee(vault, ["latest", "--json"]).json() as { session: { summary: string; next_action: string } };
    expect(latest.session).toMatchObject({ summary: SUMMARY, next_action: NEXT });
  });

  it("--json: no raw control character, and the document gives back the text exactly", () => {
    const vault = vaultWithHostileNote();
    for (const args of [
      ["list", "--json"],
      ["export", "--format", "json"],
      ["stats", "--json"],
    ]) {
      const run = palee(vault, args);
      expect(run.status).toBe(0);
      expectSafe(run);
    }
    const listed = JSON.stringify(palee(vault, ["list", "--json"]).json());
    expect(listed).toContain(JSON.stringify(TOPIC).slice(1, -1));
    const exported = palee(vault, ["export", "--format", "json"]).json() as { sessions: Array<{ summary: string }> };
    expect(exported.sessions[0]?.summary).toBe(SUMMARY);
  });
});
