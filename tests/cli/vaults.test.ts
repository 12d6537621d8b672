/**
 * CLI end-to-end: where the CLI works (--vault, $PALEE_VAULT, --folder, the plugin's saved setting, the
 * original .palee layout), a non-UTC time zone, and no temp files left behind.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  ago,
  cleanupVaults,
  confirmedFiles,
  draftFiles,
  draftId,
  expectNearNow,
  indexLines,
  iso,
  localDay,
  makeTempDir,
  makeVault,
  MINUTE,
  palee,
  readRecord,
  readText,
  runRaw,
  snapshot,
  tempFilesIn,
  utcCompact,
  writeConfirmed,
  writeDraft,
  writeFile,
  writeHot,
  writePluginSettings,
  expectCleanError,
} from "./support";

afterEach(cleanupVaults);

describe("the original PALEE layout: --folder .palee", () => {
  function paleeLayout(): string {
    const vault = makeVault();
    writeConfirmed(vault, {
      folder: ".palee",
      id: "S-20260810T080000-0a0a",
      topic: "T-git-rebase",
      startedAt: "2026-08-10T08:00:00+00:00",
      endedAt: "2026-08-10T08:25:00+00:00",
      duration: 25,
      summary: "Interactive rebase.",
    });
    writeConfirmed(vault, {
      folder: ".palee",
      id: "S-20260811T080000-0b0b",
      topic: "T-git-rebase",
      startedAt: "2026-08-11T08:00:00+00:00",
      endedAt: "2026-08-11T08:40:00+00:00",
      duration: 40,
      summary: "Rebase onto.",
      next: "Try autosquash.",
    });
    writeHot(vault, { folder: ".palee", activeTopic: "T-git-rebase", lastSession: "S-20260811T080000-0b0b" });
    return vault;
  }

  it("lists the sessions in .palee/sessions", () => {
    const vault = paleeLayout();
    const run = palee(vault, ["list", "--folder", ".palee", "--json"]);
    expect(run.status).toBe(0);
    const doc = run.json();
    expect(doc.confirmed).toEqual([
      expect.objectContaining({
        session_id: "S-20260811T080000-0b0b",
        path: ".palee/sessions/S-20260811T080000-0b0b.md",
        duration_minutes: 40,
      }),
      expect.objectContaining({
        session_id: "S-20260810T080000-0a0a",
        path: ".palee/sessions/S-20260810T080000-0a0a.md",
        duration_minutes: 25,
      }),
    ]);
    expect(palee(vault, ["list", "--json"]).json().total_confirmed).toBe(0); // default folder: palee
  });

  it("rebuilds .palee/index.md and .palee/hot.md, and touches nothing outside .palee", () => {
    const vault = paleeLayout();
    const run = palee(vault, ["rebuild", "--folder", ".palee"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(".palee/hot.md");
    expect(run.stdout).toContain(".palee/index.md");
    expect(indexLines(vault, ".palee")).toEqual([
      "- [[S-20260811T080000-0b0b]] - Topic: T-git-rebase (2026-08-11, 40 min)",
      "- [[S-20260810T080000-0a0a]] - Topic: T-git-rebase (2026-08-10, 25 min)",
    ]);
    const hot = readRecord(vault, ".palee/hot.md");
    expect(hot.fields.last_session).toBe("S-20260811T080000-0b0b");
    expect(hot.body).toContain("Try autosquash.");
    expect(fs.readdirSync(vault).sort()).toEqual([".palee"]);
  });

  it("runs a whole session in .palee (start uses its hot.md topic, end writes there)", () => {
    const vault = paleeLayout();
    const start = palee(vault, ["start", "--folder", ".palee", "--json"]);
    expect(start.status).toBe(0);
    expect(start.json()).toMatchObject({ topic_id: "T-git-rebase", last_session: "S-20260811T080000-0b0b" });
    const end = palee(vault, ["end", "--folder", ".palee", "--summary", "Autosquash works.", "--json"]);
    expect(end.status).toBe(0);
    expect(confirmedFiles(vault, ".palee")).toHaveLength(3);
    expect(indexLines(vault, ".palee")).toHaveLength(3);
    expect(fs.readdirSync(vault).sort()).toEqual([".palee", ".trash"]);
  });
});

describe("the plugin's saved session folder", () => {
  it("uses sessionFolder from the plugin's data.json when --folder is absent", () => {
    const vault = makeVault();
    writePluginSettings(vault, { sessionFolder: "Study/sessions-folder", checkpointMinutes: 5 });
    const start = palee(vault, ["start", "--topic", "T-a", "--json"]);
    expect(start.status).toBe(0);
    const draft = String(start.json().draft_id);
    expect(draftFiles(vault, "Study/sessions-folder")).toEqual([`${draft}.md`]);
    expect(fs.existsSync(path.join(vault, "Study", "sessions-folder", "hot.md"))).toBe(true);
    expect(fs.existsSync(path.join(vault, "palee"))).toBe(false);
    const end = palee(vault, ["end", "--json"]);
    expect(end.status).toBe(0);
    expect((end.json().session as { path: string }).path).toMatch(/^Study\/sessions-folder\/sessions\/S-/);
    expect(indexLines(vault, "Study/sessions-folder")).toHaveLength(1);
  });

  it("--folder wins over the saved setting", () => {
    const vault = makeVault();
    writePluginSettings(vault, { sessionFolder: "Study/sessions-folder" });
    expect(palee(vault, ["start", "--topic", "T-a", "--folder", "Elsewhere"]).status).toBe(0);
    expect(draftFiles(vault, "Elsewhere")).toHaveLength(1);
    expect(fs.existsSync(path.join(vault, "Study"))).toBe(false);
  });

  it("falls back to palee when data.json has no sessionFolder", () => {
    const vault = makeVault();
    writePluginSettings(vault, { checkpointMinutes: 5 });
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    expect(draftFiles(vault, "palee")).toHaveLength(1);
  });
});

describe("choosing the vault", () => {
  it("uses $PALEE_VAULT when --vault is absent", () => {
    const vault = makeVault();
    const cwd = makeTempDir("palee-e2e-cwd-");
    const run = runRaw(["session", "start", "--topic", "T-a", "--json"], { cwd, env: { PALEE_VAULT: vault } });
    expect(run.status).toBe(0);
    expect(draftFiles(vault)).toHaveLength(1);
    expect(snapshot(cwd)).toEqual({});
  });

  it("--vault wins over $PALEE_VAULT", () => {
    const vault = makeVault();
    const other = makeVault();
    const run = runRaw(["session", "start", "--topic", "T-a", "--vault", vault], { env: { PALEE_VAULT: other } });
    expect(run.status).toBe(0);
    expect(draftFiles(vault)).toHaveLength(1);
    expect(snapshot(other)).toEqual({});
  });

  it("uses the current directory when neither is given", () => {
    const cwd = makeVault();
    const run = runRaw(["session", "start", "--topic", "T-a"], { cwd });
    expect(run.status).toBe(0);
    expect(draftFiles(cwd)).toHaveLength(1);
  });

  it("exits 2 when $PALEE_VAULT names a folder that does not exist", () => {
    const vault = makeVault();
    const run = runRaw(["session", "list", "--json"], { env: { PALEE_VAULT: path.join(vault, "missing") } });
    expect(run.status).toBe(2);
    expect(run.json()).toMatchObject({ status: "error", code: "folder_missing", exit_code: 2 });
  });

  it("--vault <a file> says it is a file, not that the folder does not exist", () => {
    const dir = makeTempDir();
    const file = path.join(dir, "notes.md");
    fs.writeFileSync(file, "# not a vault\n");
    const run = runRaw(["session", "list", "--json", "--vault", file]);
    expectCleanError(run, 2, { json: true, code: "folder_missing" });
    expect(run.stderr).toMatch(/is a file: give the vault's folder/);
    expect(run.stderr).not.toMatch(/does not exist/);
  });

  it.each([
    ["a line break", "palee\nsessions", /line break/],
    [".trash", ".trash", /inside \.trash, which is not the learner's: the trash/],
    [".trash as a part", "Study/.Trash/palee", /inside \.Trash/],
    [".obsidian", ".obsidian/palee", /inside \.obsidian, which is not the learner's: Obsidian's configuration/],
  ])("--folder with %s is refused clearly, and nothing is written", (_what, folder, message) => {
    const vault = makeVault();
    const run = palee(vault, ["start", "--topic", "T-a", "--folder", folder, "--json"]);
    expectCleanError(run, 2, { json: true, code: "usage" });
    expect(run.stderr).toMatch(message);
    expect(snapshot(vault)).toEqual({});
  });
});

describe("TZ=Asia/Kolkata (+05:30)", () => {
  const TZ = "Asia/Kolkata";
  const OFFSET = 330;

  it("writes timestamps with +05:30 and the local day in start, hot.md and the draft", () => {
    const vault = makeVault();
    const run = palee(vault, ["start", "--topic", "T-k", "--json"], { tz: TZ });
    expect(run.status).toBe(0);
    const doc = run.json();
    expect(doc.started_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+05:30$/);
    expectNearNow(doc.started_at);
    const draft = readRecord(vault, `palee/sessions/${String(doc.draft_id)}.md`).fields;
    expect(draft.started_at).toBe(doc.started_at);
    expect(draft.last_checkpoint_at).toMatch(/\+05:30$/);
    const hot = readRecord(vault, "palee/hot.md").fields;
    expect(hot.started_at).toBe(doc.started_at);
    expect(hot.updated_at).toBe(localDay(Date.now(), OFFSET));
  });

  it(
    "end: +05:30 timestamps, a session ID whose time part is UTC (started_at − 5:30), the " +
      "recorded local day in index.md",
    () => {
      const vault = makeVault();
      const startedMs = Math.floor((Date.now() - 90 * MINUTE) / 1000) * 1000;
      const startedAt = iso(startedMs, OFFSET);
      const id = draftId("1a2b3c4d");
      writeDraft(vault, { id, topic: "T-k", startedAt, lastCheckpointAt: ago(3, OFFSET) });
      writeHot(vault, { activeTopic: "T-k", startedAt, openDraft: id, device: "test-device" });
      const run = palee(vault, ["end", "--summary", "namaste", "--json"], { tz: TZ });
      expect(run.status).toBe(0);
      const session = run.json().session as Record<string, string | number>;
      expect(session.started_at).toBe(startedAt);
      expect(session.ended_at).toMatch(/\+05:30$/);
      expect(session.duration_minutes).toBe(90);
      expect(session.session_id).toMatch(new RegExp(`^S-${utcCompact(startedMs)}-[0-9a-f]{4}$`));
      // The local clock time in started_at is 5:30 ahead of the UTC time in the ID.
      const local = String(session.started_at).slice(11, 19).replace(/:/g, "");
      const inId = String(session.session_id).slice(11, 17);
      const minutes = (hhmmss: string) => Number(hhmmss.slice(0, 2)) * 60 + Number(hhmmss.slice(2, 4));
      expect((minutes(local) - minutes(inId) + 24 * 60) % (24 * 60)).toBe(OFFSET);
      const fields = readRecord(vault, String(session.path)).fields;
      expect(fields.ended_at).toBe(session.ended_at);
      expect(indexLines(vault)).toEqual([
        `- [[${String(session.session_id)}]] - Topic: T-k (${startedAt.slice(0, 10)}, 90 min)`,
      ]);
      const hot = readRecord(vault, "palee/hot.md").fields;
      expect(hot.updated_at).toBe(localDay(Date.now(), OFFSET));
      expect(readRecord(vault, "palee/index.md").fields.updated_at).toBe(localDay(Date.now(), OFFSET));
    },
  );

  it("index.md shows the local day recorded in started_at, not the UTC day", () => {
    const vault = makeVault();
    // 02:00 in India on the 14th is 20:30 UTC on the 13th.
    writeConfirmed(vault, {
      id: "S-20260813T203000-abcd",
      topic: "T-k",
      startedAt: "2026-08-14T02:00:00+05:30",
      endedAt: "2026-08-14T02:45:00+05:30",
      duration: 45,
    });
    expect(palee(vault, ["rebuild"], { tz: TZ }).status).toBe(0);
    expect(indexLines(vault)).toEqual(["- [[S-20260813T203000-abcd]] - Topic: T-k (2026-08-14, 45 min)"]);
  });

  it("recover save keeps the draft's +05:30 times", () => {
    const vault = makeVault();
    const startedAt = ago(150, OFFSET);
    const last = ago(100, OFFSET);
    const id = draftId("feedbeef");
    writeDraft(vault, { id, topic: "T-k", startedAt, lastCheckpointAt: last });
    const run = palee(vault, ["recover", "--draft", id, "--action", "save", "--json"], { tz: TZ });
    expect(run.status).toBe(0);
    expect(run.json().session).toMatchObject({
      started_at: startedAt,
      ended_at: last,
      duration_minutes: 50,
      outcome: "interrupted",
    });
  });
});

describe("no temporary files are left behind", () => {
  it("after every command, successful or not", () => {
    const vault = makeVault();
    const steps: string[][] = [
      ["start", "--topic", "T-a"],
      ["start", "--topic", "T-b"], // already open
      ["draft", "--note", "n1"],
      ["draft", "--topic", "T-b", "--note", "n2"],
      ["status"],
      ["list", "--all"],
      ["end", "--summary", "s", "--next", "n"],
      ["rebuild"],
      ["start", "--topic", "T-c"], // drafts pending (T-b's draft)
      ["recover", "--draft", "DRAFT-S-ffffffff", "--action", "save"], // no such draft
      ["start", "--topic", "T-bad/topic"],
    ];
    for (const args of steps) {
      const run = palee(vault, [...args, "--json"]);
      expect(run.status === 0 || run.status === 2).toBe(true);
      expect({ args, temp: tempFilesIn(vault) }).toEqual({ args, temp: [] });
    }
    const pending = draftFiles(vault);
    expect(pending).toHaveLength(1);
    const save = palee(vault, ["recover", "--draft", pending[0].slice(0, -3), "--action", "save"]);
    expect(save.status).toBe(0);
    expect(tempFilesIn(vault)).toEqual([]);
    expect(readText(vault, "palee/index.md")).toContain("Total sessions: 2");
  });

  it("after a failed write (the sessions folder is a file)", () => {
    const vault = makeVault();
    writeFile(vault, "palee/sessions", "x");
    expect(palee(vault, ["end", "--topic", "T-a"]).status).toBe(2);
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(2);
    expect(tempFilesIn(vault)).toEqual([]);
  });
});

describe("a session folder reached through a symlink that stays inside the vault", () => {
  it("starts and ends normally — never exit 5 after the note is written, leaving the vault stuck", () => {
    const vault = makeVault();
    fs.mkdirSync(path.join(vault, "Study", "palee"), { recursive: true });
    // Accepted: it stays inside the vault.
    fs.symlinkSync(path.join(vault, "Study", "palee"), path.join(vault, "palee"));
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    const end = palee(vault, ["end", "--summary", "done"]);
    expect({ status: end.status, stderr: end.stderr }).toEqual({ status: 0, stderr: "" });
    expect(draftFiles(vault)).toEqual([]);
    expect(confirmedFiles(vault)).toHaveLength(1);
    // and the vault is not wedged: the next start works
    expect(palee(vault, ["start", "--topic", "T-b"]).status).toBe(0);
  });
});

describe("--vault edge cases", () => {
  it('an empty --vault (e.g. --vault "$UNSET") is a usage error, not the current directory', () => {
    const cwd = makeTempDir("palee-review-cwd-");
    const run = runRaw(["session", "start", "--topic", "T-a", "--vault", ""], { cwd });
    expectCleanError(run, 2);
    expect(fs.readdirSync(cwd)).toEqual([]);
  });
});

describe("a --folder that is not a folder", () => {
  it("refuses a --folder that is a file with a usage error (exit 2)", () => {
    const vault = makeVault();
    fs.writeFileSync(path.join(vault, "notes.md"), "a note\n");
    const run = palee(vault, ["list", "--folder", "notes.md"]);
    expectCleanError(run, 2);
    expect(run.stderr).toContain("is not a folder");
  });

  it(
    "refuses a --folder that is a symlink to a file inside the vault with a usage error (exit " +
      "2), like a plain file",
    () => {
      const vault = makeVault();
      fs.writeFileSync(path.join(vault, "notes.md"), "a note\n");
      fs.symlinkSync(path.join(vault, "notes.md"), path.join(vault, "palee")); // stays inside the vault
      const run = palee(vault, ["list"]);
      expectCleanError(run, 2);
      expect(run.stderr).toContain("is not a folder");
    },
  );
});

describe("the plugin's graceMinutes in data.json (contract §4 Devices)", () => {
  /** This device's open session, started 4 h ago and last checkpointed 3 h ago. */
  function silentSession(): string {
    const vault = makeVault();
    const id = draftId("0000c0de");
    writeDraft(vault, { id, topic: "T-a", startedAt: ago(240), lastCheckpointAt: ago(180) });
    writeHot(vault, { activeTopic: "T-a", startedAt: ago(240), openDraft: id, device: "test-device" });
    return vault;
  }

  it("the CLI uses it: a 3-hour silence within a 5-hour grace period is no long silence", () => {
    const refused = palee(silentSession(), ["end", "--json"]);
    expect(refused.json()).toMatchObject({ code: "long_silence" }); // the default grace: 15 minutes
    const vault = silentSession();
    writePluginSettings(vault, { sessionFolder: "palee", graceMinutes: 300 });
    const ended = palee(vault, ["end", "--json"]);
    expect({ status: ended.status, stderr: ended.stderr }).toEqual({ status: 0, stderr: "" });
    expect(ended.json()).toMatchObject({ status: "ended" });
  });

  it.each([[0], [-5], [2.5], ["soon"], [100000], [null]])(
    "a bad graceMinutes (%j) is the default, with a warning naming it",
    (value) => {
      const vault = silentSession();
      writePluginSettings(vault, { graceMinutes: value });
      const run = palee(vault, ["end", "--json"]);
      expect(run.json()).toMatchObject({ code: "long_silence" });
      expect(run.stderr).toContain(
        `warning: .obsidian/plugins/palee-sessions/data.json: graceMinutes ${JSON.stringify(value)} is not a whole`,
      );
    },
  );
});
