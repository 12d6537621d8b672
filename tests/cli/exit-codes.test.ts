/**
 * CLI end-to-end: every exit code of contract §5 and the error contract (one line on stderr, no stack trace,
 * a {"status":"error",…} document with --json); drafts_pending, already_open and --if-open keep.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  ago,
  cleanupVaults,
  DEVICE,
  draftId,
  expectCleanError,
  lines,
  makeTempDir,
  makeVault,
  palee,
  paleeAsync,
  readRecord,
  runRaw,
  snapshot,
  writeConfirmed,
  writeDraft,
  writeFile,
  writeHot,
  writePluginSettings,
} from "./support";

afterEach(cleanupVaults);

/**
 * Runs a failing command with --json (and, unless `jsonOnly`, also in text mode), checking the error contract
 * each time. Returns the stderr line.
 */
function expectError(
  vault: string,
  args: string[],
  exitCode: number,
  code: string,
  options: { jsonOnly?: boolean; extraKeys?: string[] } = {},
): string {
  const json = palee(vault, [...args, "--json"]);
  expectCleanError(json, exitCode, { json: true, code, extraKeys: options.extraKeys });
  if (options.jsonOnly) return json.stderr;
  const text = palee(vault, args);
  expectCleanError(text, exitCode);
  expect(text.stdout).toBe("");
  // The same message in both modes (new random IDs aside).
  const stable = (t: string) =>
    t.replace(/S-\d{8}T\d{6}-[0-9a-f]{4}/g, "S-…").replace(/DRAFT-S-[0-9a-f]{8}/g, "DRAFT-S-…");
  expect(stable(text.stderr)).toBe(stable(json.stderr));
  return text.stderr;
}

describe("exit 0", () => {
  it("exits 0 for a successful command with nothing on stderr", () => {
    const vault = makeVault();
    const run = palee(vault, ["list"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
  });
});

describe("exit 2: usage errors", () => {
  it("exits 2 for an unknown action", () => {
    const stderr = expectError(makeVault(), ["bogus"], 2, "usage");
    expect(stderr).toContain("bogus");
  });

  it("exits 2 for an unknown command (not 'session')", () => {
    const run = runRaw(["sessions", "list"]);
    expectCleanError(run, 2);
  });

  it("exits 2 for an unknown option", () => {
    const stderr = expectError(makeVault(), ["list", "--bogus"], 2, "usage");
    expect(stderr).toContain("--bogus");
  });

  it("exits 2 when an option does not apply to the action, naming the option, and writes nothing", () => {
    const vault = makeVault();
    // list --topic is accepted now (SPEC §5 lists it; issue 35 §3): --words does not apply to list.
    expect(expectError(vault, ["list", "--words", "50"], 2, "usage")).toContain("--words");
    for (const [args, option] of [
      [["status", "--all"], "--all"],
      [["start", "--topic", "T-a", "--summary", "x"], "--summary"],
      [["end", "--topic", "T-a", "--all"], "--all"],
      [["draft", "--topic", "T-a", "--if-open", "keep"], "--if-open"],
      [["rebuild", "--draft", "DRAFT-S-00000000"], "--draft"],
    ] as const) {
      expect(expectError(vault, [...args], 2, "usage", { jsonOnly: true })).toContain(option);
    }
    expect(snapshot(vault)).toEqual({});
  });

  it("exits 2 for a bad --if-open or --action value", () => {
    const vault = makeVault();
    expectError(vault, ["start", "--topic", "T-a", "--if-open", "replace"], 2, "usage", { jsonOnly: true });
    expectError(vault, ["recover", "--draft", "DRAFT-S-00000000", "--action", "burn"], 2, "usage", { jsonOnly: true });
    expectError(vault, ["recover"], 2, "usage", { jsonOnly: true });
    expect(snapshot(vault)).toEqual({});
  });

  it("exits 2 with topic_required for start, draft and end when there is no hot.md and no --topic", () => {
    const vault = makeVault();
    for (const action of ["start", "draft", "end"]) {
      const stderr = expectError(vault, [action], 2, "topic_required", { jsonOnly: action !== "start" });
      expect(stderr).toMatch(/topic required/);
    }
    expect(snapshot(vault)).toEqual({});
  });

  it('exits 2 with invalid_topic for --topic "T-../x" in start, draft and end, unknown_topic for "foo"', () => {
    const vault = makeVault();
    for (const action of ["start", "draft", "end"]) {
      const stderr = expectError(vault, [action, "--topic=T-../x"], 2, "invalid_topic", {
        jsonOnly: action !== "start",
      });
      expect(stderr).toContain("invalid topic ID");
    }
    // Version 3: a value that is not an ID is a name (contract §4 "finding a topic by name"), and no note has it.
    expect(expectError(vault, ["start", "--topic", "foo"], 2, "unknown_topic", { extraKeys: ["closest"] })).toContain(
      '"foo"',
    );
    expect(snapshot(vault)).toEqual({});
  });

  it("exits 2 with invalid_topic for other topic IDs that could break a path or the Markdown", () => {
    const vault = makeVault();
    for (const topic of ["T-a/b", "T-[[x]]|y#z", "T-a\nb"]) {
      expectError(vault, ["start", `--topic=${topic}`], 2, "invalid_topic", { jsonOnly: true });
    }
    expect(snapshot(vault)).toEqual({});
  });

  it("exits 2 with no_such_draft for a draft that does not exist, and for a non-draft ID", () => {
    const vault = makeVault();
    expectError(vault, ["recover", "--draft", "DRAFT-S-0123abcd", "--action", "save"], 2, "no_such_draft");
    expectError(vault, ["recover", "--draft", "S-20260814T120000-abcd", "--action", "discard"], 2, "no_such_draft", {
      jsonOnly: true,
    });
    expectError(vault, ["recover", "--draft", "../../etc/passwd", "--action", "discard"], 2, "no_such_draft", {
      jsonOnly: true,
    });
    expect(snapshot(vault)).toEqual({});
  });

  it("exits 2 with folder_missing when the vault folder does not exist", () => {
    const vault = makeVault();
    const missing = path.join(vault, "no-such-vault");
    const stderr = expectError(missing, ["list"], 2, "folder_missing");
    expect(stderr).toContain(missing);
    expect(fs.existsSync(missing)).toBe(false);
  });

  it("exits 2 with folder_outside_vault for --folder ../outside", () => {
    const vault = makeVault();
    expectError(vault, ["list", "--folder", "../outside"], 2, "folder_outside_vault");
    expectError(vault, ["start", "--topic", "T-a", "--folder", "palee/../../outside"], 2, "folder_outside_vault", {
      jsonOnly: true,
    });
    expect(fs.readdirSync(path.dirname(vault))).toEqual(["vault"]);
    expect(snapshot(vault)).toEqual({});
  });

  it("exits 2 with folder_outside_vault for an absolute --folder", () => {
    const vault = makeVault();
    const outside = makeTempDir();
    expectError(vault, ["start", "--topic", "T-a", "--folder", outside], 2, "folder_outside_vault");
    expectError(vault, ["list", "--folder", "/palee"], 2, "folder_outside_vault", { jsonOnly: true });
    expect(snapshot(outside)).toEqual({});
    expect(snapshot(vault)).toEqual({});
  });

  it("exits 2 with folder_outside_vault for a --folder that is a symlink leading outside the vault", () => {
    const vault = makeVault();
    const outside = makeTempDir();
    fs.symlinkSync(outside, path.join(vault, "link"));
    expectError(vault, ["start", "--topic", "T-a", "--folder", "link"], 2, "folder_outside_vault");
    expectError(vault, ["rebuild", "--folder", "link"], 2, "folder_outside_vault", { jsonOnly: true });
    expect(snapshot(outside)).toEqual({});
  });

  it(
    "exits 2 with folder_outside_vault for a --folder below a symlink leading outside, even " +
      "when that subfolder does not exist yet",
    () => {
      const vault = makeVault();
      const outside = makeTempDir();
      fs.symlinkSync(outside, path.join(vault, "link"));
      const stderr = expectError(vault, ["start", "--topic", "T-a", "--folder", "link/sub"], 2, "folder_outside_vault");
      expect(stderr).toContain("outside the vault");
      expect(snapshot(outside)).toEqual({});
    },
  );

  it("exits 2 with folder_outside_vault for a --folder that is a dangling symlink leading outside the vault", () => {
    const vault = makeVault();
    const outside = makeTempDir();
    fs.symlinkSync(path.join(outside, "not-yet"), path.join(vault, "dangling"));
    expectError(vault, ["start", "--topic", "T-a", "--folder", "dangling"], 2, "folder_outside_vault");
    expect(snapshot(outside)).toEqual({});
  });

  it("exits 2 when the plugin's data.json names a folder outside the vault", () => {
    const vault = makeVault();
    writePluginSettings(vault, { sessionFolder: "../elsewhere" });
    expectError(vault, ["start", "--topic", "T-a"], 2, "folder_outside_vault");
    expect(fs.readdirSync(path.dirname(vault))).toEqual(["vault"]);
  });
});

describe("drafts_pending", () => {
  function withInterruptedDrafts(): { vault: string; ids: string[] } {
    const vault = makeVault();
    const older = draftId("0000aaaa");
    const newer = draftId("0000bbbb");
    // Written newest first, and with IDs in the opposite order of their start times for the later draft.
    writeDraft(vault, {
      id: newer,
      topic: "T-b",
      startedAt: ago(60),
      lastCheckpointAt: ago(50),
      device: "laptop",
      body: "b notes\n",
    });
    writeDraft(vault, { id: older, topic: "T-a", startedAt: ago(180), lastCheckpointAt: ago(120), body: "a notes\n" });
    return { vault, ids: [older, newer] };
  }

  it(
    "exits 2 with drafts_pending when an interrupted draft exists (text mode lists the drafts, " +
      "stderr has one line)",
    () => {
      const { vault, ids } = withInterruptedDrafts();
      const before = snapshot(vault, { mtimes: true });
      const run = palee(vault, ["start", "--topic", "T-c"]);
      expectCleanError(run, 2);
      expect(run.stderr).toMatch(/2 unconfirmed draft\(s\)/);
      expect(run.stderr).toContain("recover");
      const listed = lines(run.stdout);
      expect(listed).toHaveLength(2);
      expect(listed[0]).toContain(ids[0]);
      expect(listed[0]).toContain("T-a");
      expect(listed[1]).toContain(ids[1]);
      expect(listed[1]).toContain("laptop");
      expect(snapshot(vault, { mtimes: true })).toEqual(before);
    },
  );

  it("with --json, prints {status: drafts_pending, drafts: [D…]} oldest first, exits 2 and changes nothing", () => {
    const { vault, ids } = withInterruptedDrafts();
    const before = snapshot(vault, { mtimes: true });
    const run = palee(vault, ["start", "--topic", "T-c", "--json"]);
    expect(run.status).toBe(2);
    expect(lines(run.stderr)).toHaveLength(1);
    const doc = run.json();
    expect(Object.keys(doc).sort()).toEqual(["drafts", "status"]);
    expect(doc.status).toBe("drafts_pending");
    const drafts = doc.drafts as Array<Record<string, unknown>>;
    expect(drafts.map((d) => d.draft_id)).toEqual(ids);
    for (const d of drafts) {
      expect(Object.keys(d).sort()).toEqual([
        "device",
        "draft_id",
        "last_checkpoint_at",
        "path",
        "started_at",
        "topic_id",
      ]);
    }
    const older = readRecord(vault, `palee/sessions/${ids[0]}.md`).fields;
    expect(drafts[0]).toEqual({
      draft_id: ids[0],
      topic_id: "T-a",
      started_at: older.started_at,
      last_checkpoint_at: older.last_checkpoint_at,
      device: DEVICE,
      path: `palee/sessions/${ids[0]}.md`,
    });
    expect(drafts[1]).toMatchObject({
      draft_id: ids[1],
      topic_id: "T-b",
      device: "laptop",
      path: `palee/sessions/${ids[1]}.md`,
    });
    expect(snapshot(vault, { mtimes: true })).toEqual(before);
  });

  it("also stops a start without --topic (drafts are checked before the topic is needed)", () => {
    const { vault } = withInterruptedDrafts();
    const run = palee(vault, ["start", "--json"]);
    expect(run.status).toBe(2);
    expect(run.json().status).toBe("drafts_pending");
  });
});

describe("already_open and --if-open keep", () => {
  function withOpenSession(): { vault: string; started: Record<string, unknown> } {
    const vault = makeVault();
    const run = palee(vault, ["start", "--topic", "T-a", "--json"]);
    expect(run.status).toBe(0);
    return { vault, started: run.json() };
  }

  it("exits 2 with already_open naming topic, device and start time, and changes nothing", () => {
    const { vault, started } = withOpenSession();
    const before = snapshot(vault, { mtimes: true });
    const run = palee(vault, ["start", "--topic", "T-b"]);
    expectCleanError(run, 2);
    expect(run.stderr).toContain("already open");
    expect(run.stderr).toContain("T-a");
    expect(run.stderr).toContain(DEVICE);
    expect(run.stderr).toContain(String(started.started_at));
    expect(run.stdout).toBe("");
    expect(snapshot(vault, { mtimes: true })).toEqual(before);
  });

  it("with --json, prints {status: already_open, open: O} and exits 2", () => {
    const { vault, started } = withOpenSession();
    const before = snapshot(vault, { mtimes: true });
    const run = palee(vault, ["start", "--topic", "T-a", "--json"]);
    expect(run.status).toBe(2);
    expect(lines(run.stderr)).toHaveLength(1);
    const doc = run.json();
    expect(Object.keys(doc).sort()).toEqual(["open", "status"]);
    expect(doc.status).toBe("already_open");
    expect(doc.open).toEqual({
      topic_id: "T-a",
      started_at: started.started_at,
      device: DEVICE,
      draft_id: started.draft_id,
      elapsed_seconds: expect.any(Number) as number,
      last_checkpoint_at: started.started_at,
      paused_at: null,
      break_minutes: 0,
      silence_seconds: expect.any(Number) as number,
      agent: null,
      draft_path: `palee/sessions/${String(started.draft_id)}.md`,
    });
    expect(snapshot(vault, { mtimes: true })).toEqual(before);
  });

  it("--if-open keep: status kept, exit 0, nothing changed on disk", () => {
    const { vault, started } = withOpenSession();
    const before = snapshot(vault, { mtimes: true });
    const json = palee(vault, ["start", "--topic", "T-b", "--if-open", "keep", "--json"]);
    expect(json.status).toBe(0);
    expect(json.stderr).toBe("");
    expect(json.json()).toEqual({
      status: "kept",
      open: {
        topic_id: "T-a",
        started_at: started.started_at,
        device: DEVICE,
        draft_id: started.draft_id,
        elapsed_seconds: expect.any(Number) as number,
        last_checkpoint_at: started.started_at,
        paused_at: null,
        break_minutes: 0,
        silence_seconds: expect.any(Number) as number,
        agent: null,
        draft_path: `palee/sessions/${String(started.draft_id)}.md`,
      },
    });
    const text = palee(vault, ["start", "--if-open", "keep"]);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^Kept the open session on T-a/);
    expect(snapshot(vault, { mtimes: true })).toEqual(before);
  });

  it("reports the other device's open session instead of replacing it", () => {
    const vault = makeVault();
    const id = draftId("c0ffee00");
    writeDraft(vault, { id, topic: "T-a", startedAt: ago(20), lastCheckpointAt: ago(1), device: "phone" });
    writeHot(vault, { activeTopic: "T-a", startedAt: ago(20), openDraft: id, device: "phone" });
    const before = snapshot(vault, { mtimes: true });
    const run = palee(vault, ["start", "--topic", "T-b", "--json"]);
    expect(run.status).toBe(2);
    expect(run.json()).toMatchObject({
      status: "already_open",
      open: { device: "phone", draft_id: id, topic_id: "T-a" },
    });
    expect(snapshot(vault, { mtimes: true })).toEqual(before);
  });
});

describe("other_session_open (contract §4 checkpoint)", () => {
  it("draft --topic for another topic beside this device's open session exits 2 and writes nothing", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    const before = snapshot(vault);
    const stderr = expectError(vault, ["draft", "--topic", "T-b", "--note", "x"], 2, "other_session_open");
    expect(stderr).toMatch(/a session on T-a is open on this device \(started \d{4}-\d\d-\d\dT/);
    expect(snapshot(vault)).toEqual(before);
  });
});

describe("exit 4: conflict", () => {
  it("exits 4 with code conflict when hot.md keeps changing between read and write", async () => {
    // hot.md is a named pipe: every read by the CLI gets a different text, as if another device or a sync
    // daemon rewrote the file between the read and the write, on the first try and on the retry.
    const vault = makeVault();
    writeConfirmed(vault, {
      id: "S-20260814T100000-abcd",
      topic: "T-a",
      startedAt: "2026-08-14T10:00:00Z",
      endedAt: "2026-08-14T10:30:00Z",
      duration: 30,
    });
    const fifo = path.join(vault, "palee", "hot.md");
    const made = runMkfifo(fifo);
    if (!made) throw new Error("mkfifo is not available on this system");
    const child = paleeAsync(vault, ["rebuild", "--json"]);
    let n = 0;
    while (child.running()) {
      let fd: number | null = null;
      try {
        fd = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
        n += 1;
        fs.writeSync(fd, `someone else's text, version ${n}\n`);
      } catch {
        // No reader yet (ENXIO), or the reader went away (EPIPE): try again shortly.
      } finally {
        if (fd !== null) fs.closeSync(fd);
      }
      await new Promise((resolve) => setTimeout(resolve, fd === null ? 5 : 40));
    }
    const run = await child.done;
    expectCleanError(run, 4, { json: true, code: "conflict" });
    expect(run.stderr).toContain("palee/hot.md");
    expect(fs.lstatSync(fifo).isFIFO()).toBe(true); // never replaced
  });
});

function runMkfifo(file: string): boolean {
  return spawnSync("mkfifo", [file]).status === 0;
}

describe("exit 2: a file or folder in the way (the learner's to fix; terminal.test.ts has more)", () => {
  it("exits 2 when <folder>/sessions is a regular file, naming it", () => {
    const vault = makeVault();
    writeFile(vault, "palee/sessions", "not a folder\n");
    const stderr = expectError(vault, ["end", "--topic", "T-a"], 2, "usage");
    expect(stderr).toBe("palee: palee/sessions is a file, but a folder belongs there: move it out of the way\n");
    expect(fs.readFileSync(path.join(vault, "palee", "sessions"), "utf8")).toBe("not a folder\n");
  });

  it("exits 2 when hot.md is a directory, naming it", () => {
    const vault = makeVault();
    fs.mkdirSync(path.join(vault, "palee", "hot.md"), { recursive: true });
    expect(expectError(vault, ["start", "--topic", "T-a"], 2, "usage")).toContain("palee/hot.md is a folder");
    expectError(vault, ["status"], 2, "usage", { jsonOnly: true });
  });
});

describe("exit 5: unexpected errors", () => {
  it("exits 5 when hot.md cannot be read (a symlink loop)", () => {
    const vault = makeVault();
    fs.mkdirSync(path.join(vault, "palee"));
    fs.symlinkSync("hot.md", path.join(vault, "palee", "hot.md"));
    const stderr = expectError(vault, ["start", "--topic", "T-a"], 5, "unexpected");
    expect(stderr).toMatch(/^palee: unexpected error: .*ELOOP/);
    expectError(vault, ["status"], 5, "unexpected", { jsonOnly: true });
  });

  it("prints no stack trace unless PALEE_DEBUG is set", () => {
    const vault = makeVault();
    fs.mkdirSync(path.join(vault, "palee"));
    fs.symlinkSync("hot.md", path.join(vault, "palee", "hot.md"));
    const quiet = palee(vault, ["status"]);
    expect(quiet.status).toBe(5);
    expect(quiet.stderr).not.toMatch(/^\s+at /m);
    const debug = palee(vault, ["status"], { env: { PALEE_DEBUG: "1" } });
    expect(debug.status).toBe(5);
    expect(debug.stderr).toMatch(/^\s+at /m);
  });
});

describe("every error is one line on stderr (contract §5)", () => {
  it("a --draft value with a line break gives a one-line error", () => {
    const vault = makeVault();
    expectCleanError(palee(vault, ["recover", "--draft", "DRAFT-S-0000000a\nsecond line", "--action", "save"]), 2);
  });

  it("an unknown action with a line break gives a one-line error", () => {
    expectCleanError(runRaw(["session", "bo\ngus"]), 2);
  });
});
