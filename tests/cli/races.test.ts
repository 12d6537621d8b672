/**
 * Races between real processes on one vault (contract §4 "One at a time", issue 18 item 4): several dist/cli.js
 * processes started together must act as if one ran after the other. Each race runs RACE_RUNS times (default 2,
 * so `npm test` stays small; `npm run soak` runs many more), every time in a fresh vault.
 *
 * Also the lock itself: where it lives (outside the vault), a lock left by a killed holder is taken over, a held
 * lock makes a writer exit 4 `busy` with nothing written while readers go on, and it is released on every way out.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  CLI,
  DEVICE,
  type RunResult,
  ago,
  cleanupVaults,
  confirmedFiles,
  draftFiles,
  draftId,
  expectCleanError,
  indexLines,
  makeTempDir,
  makeVault,
  palee,
  paleeAsync,
  readRecord,
  readText,
  sessionFiles,
  snapshot,
  testCacheDir,
  trashFiles,
  writeDraft,
} from "./support";

const RUNS = Math.max(1, Number(process.env.RACE_RUNS ?? "2") || 2);
/** Per test: generous for a loaded 2-core machine, scaled with RACE_RUNS. */
const TIMEOUT = 30_000 + RUNS * 15_000;

afterEach(cleanupVaults);

/** The lock directory of a vault, as src/cli/state-dir.ts and lock.ts name it. */
function lockPath(vault: string, cacheDir = testCacheDir()): string {
  const hash = createHash("sha256").update(fs.realpathSync(vault)).digest("hex").slice(0, 16);
  return path.join(cacheDir, "vaults", hash, "write.lock");
}

/** Starts every command at once (each `palee session <args> --vault <vault>`), resolves when all have exited. */
function together(vault: string, commands: readonly (readonly string[])[]): Promise<RunResult[]> {
  return Promise.all(commands.map((args) => paleeAsync(vault, args).done));
}

/** What a `--json` run answered: its status, or the code of its error. */
function outcome(run: RunResult): string {
  const doc = run.json();
  return doc.status === "error" ? String(doc.code) : String(doc.status);
}

/** How many runs answered each outcome, e.g. {"ended": 1, "nothing_open": 7}. */
function tally(runs: readonly RunResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const run of runs) counts[outcome(run)] = (counts[outcome(run)] ?? 0) + 1;
  return counts;
}

/** No process crashed or printed a stack trace, and the lock was released by the last of them. */
function expectCleanRace(vault: string, runs: readonly RunResult[]): void {
  for (const run of runs) {
    expect([0, 2]).toContain(run.status);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  }
  expect(fs.existsSync(lockPath(vault))).toBe(false);
}

function startSession(vault: string, topic = "T-race"): string {
  const run = palee(vault, ["start", "--topic", topic, "--json"]);
  expect(run.status).toBe(0);
  return run.json().draft_id as string;
}

/** The text of every confirmed note and every live draft (not the trash). */
function liveTexts(vault: string): string[] {
  return sessionFiles(vault)
    .filter((n) => n.endsWith(".md"))
    .map((n) => readText(vault, `palee/sessions/${n}`));
}

describe("races between processes on one vault", () => {
  it(
    "8 concurrent ends: one note, one ended, the rest nothing_open",
    async () => {
      for (let i = 0; i < RUNS; i++) {
        const vault = makeVault();
        const draft = startSession(vault);
        const runs = await together(
          vault,
          Array.from({ length: 8 }, () => ["end", "--summary", "done", "--json"]),
        );
        expectCleanRace(vault, runs);
        expect(tally(runs)).toEqual({ ended: 1, nothing_open: 7 });
        expect(confirmedFiles(vault)).toHaveLength(1);
        expect(readRecord(vault, `palee/sessions/${confirmedFiles(vault)[0]}`).fields.absorbed_drafts).toEqual([draft]);
        expect(draftFiles(vault)).toEqual([]);
      }
    },
    TIMEOUT,
  );

  // The agent-hook form: a stop hook always passes --topic. The once-only note holds with the lock alone; the
  // seven `nothing_open` answers need `end` to stop recording a session from now when nothing is open (issue 18
  // item 2, contract §4 end step 2).
  it(
    "8 concurrent ends with --topic: one note carries the draft, one ended, the rest nothing_open",
    async () => {
      for (let i = 0; i < RUNS; i++) {
        const vault = makeVault();
        const draft = startSession(vault);
        const end = ["end", "--topic", "T-race", "--summary", "done", "--json"];
        const runs = await together(
          vault,
          Array.from({ length: 8 }, () => end),
        );
        expectCleanRace(vault, runs);
        const carriers = confirmedFiles(vault).filter((n) => {
          const absorbed = readRecord(vault, `palee/sessions/${n}`).fields.absorbed_drafts as unknown[];
          return absorbed.includes(draft);
        });
        expect(carriers).toHaveLength(1);
        expect(tally(runs)).toEqual({ ended: 1, nothing_open: 7 });
        expect(confirmedFiles(vault)).toHaveLength(1);
      }
    },
    TIMEOUT,
  );

  it(
    "8 concurrent start --if-open keep: one started, seven kept, one draft",
    async () => {
      for (let i = 0; i < RUNS; i++) {
        const vault = makeVault();
        const start = ["start", "--topic", "T-keep", "--if-open", "keep", "--json"];
        const runs = await together(
          vault,
          Array.from({ length: 8 }, () => start),
        );
        expectCleanRace(vault, runs);
        expect(tally(runs)).toEqual({ started: 1, kept: 7 });
        const started = runs.find((r) => outcome(r) === "started")!.json().draft_id as string;
        expect(draftFiles(vault)).toEqual([`${started}.md`]);
        for (const run of runs.filter((r) => outcome(r) === "kept")) {
          expect((run.json().open as { draft_id: unknown }).draft_id).toBe(started);
        }
        expect(readRecord(vault, "palee/hot.md").fields.open_draft).toBe(started);
      }
    },
    TIMEOUT,
  );

  it(
    "20 concurrent draft --note: all 20 notes kept in the draft",
    async () => {
      for (let i = 0; i < RUNS; i++) {
        const vault = makeVault();
        const draft = startSession(vault);
        const notes = Array.from({ length: 20 }, (_, n) => `note-${i}-${n}-kept`);
        const runs = await together(
          vault,
          notes.map((note) => ["draft", "--note", note, "--json"]),
        );
        expectCleanRace(vault, runs);
        expect(tally(runs)).toEqual({ checkpointed: 20 });
        const body = readRecord(vault, `palee/sessions/${draft}.md`).body;
        for (const note of notes) expect(body.split(note)).toHaveLength(2); // exactly once
        expect(draftFiles(vault)).toEqual([`${draft}.md`]);
      }
    },
    TIMEOUT,
  );

  it(
    "two Saves of one draft: one note",
    async () => {
      for (let i = 0; i < RUNS; i++) {
        const vault = makeVault();
        const id = draftId(`5a7e0${String(i).padStart(3, "0")}`);
        writeDraft(vault, { id, topic: "T-saved", startedAt: ago(120), lastCheckpointAt: ago(80), body: "kept\n" });
        const save = ["recover", "--draft", id, "--action", "save", "--json"];
        const runs = await together(vault, [save, save]);
        expectCleanRace(vault, runs);
        expect(confirmedFiles(vault)).toHaveLength(1);
        const saved = runs.filter((r) => outcome(r) === "saved");
        expect(saved.length).toBeGreaterThanOrEqual(1);
        for (const run of runs) expect(["saved", "no_such_draft"]).toContain(outcome(run));
        const ids = new Set(saved.map((r) => (r.json().session as { session_id: unknown }).session_id));
        expect(ids.size).toBe(1);
        expect(draftFiles(vault)).toEqual([]);
      }
    },
    TIMEOUT,
  );

  it(
    "end racing a Save of the open draft: one note absorbs it",
    async () => {
      for (let i = 0; i < RUNS; i++) {
        const vault = makeVault();
        const draft = startSession(vault);
        const runs = await together(vault, [
          ["end", "--summary", "done", "--json"],
          ["recover", "--draft", draft, "--action", "save", "--json"],
        ]);
        expectCleanRace(vault, runs);
        expect(confirmedFiles(vault)).toHaveLength(1);
        const note = readRecord(vault, `palee/sessions/${confirmedFiles(vault)[0]}`);
        expect(note.fields.absorbed_drafts).toEqual([draft]);
        expect(draftFiles(vault)).toEqual([]);
      }
    },
    TIMEOUT,
  );

  it(
    "draft --note racing end: an acknowledged note is in the confirmed note or a live draft, never only in the trash",
    async () => {
      for (let i = 0; i < RUNS * 2; i++) {
        const vault = makeVault();
        startSession(vault);
        const note = `acknowledged-${i}-note`;
        const [drafted, ended] = await together(vault, [
          ["draft", "--note", note, "--json"],
          ["end", "--summary", "done", "--json"],
        ]);
        expectCleanRace(vault, [drafted, ended]);
        expect(outcome(ended)).toBe("ended");
        if (drafted.status === 0) {
          expect(liveTexts(vault).some((text) => text.includes(note))).toBe(true);
        }
        // Whatever happened, the trash holds nothing that is not also live.
        for (const name of trashFiles(vault)) {
          const trashed = fs.readFileSync(path.join(vault, ".trash", name), "utf8");
          if (trashed.includes(note)) expect(liveTexts(vault).some((text) => text.includes(note))).toBe(true);
        }
      }
    },
    TIMEOUT,
  );

  it(
    "two starts: one Started, one refused already_open, one draft",
    async () => {
      for (let i = 0; i < RUNS; i++) {
        const vault = makeVault();
        const start = ["start", "--topic", "T-twice", "--json"];
        const runs = await together(vault, [start, start]);
        expectCleanRace(vault, runs);
        expect(tally(runs)).toEqual({ started: 1, already_open: 1 });
        expect(runs.find((r) => outcome(r) === "already_open")!.status).toBe(2);
        expect(draftFiles(vault)).toHaveLength(1);
      }
    },
    TIMEOUT,
  );

  it(
    "two identical logs: one accepted, one refused overlap",
    async () => {
      for (let i = 0; i < RUNS; i++) {
        const vault = makeVault();
        const log = ["log", "--topic", "T-log", "--from", ago(180), "--to", ago(120), "--json"];
        const runs = await together(vault, [log, log]);
        expectCleanRace(vault, runs);
        expect(tally(runs)).toEqual({ logged: 1, overlap: 1 });
        expect(confirmedFiles(vault)).toHaveLength(1);
      }
    },
    TIMEOUT,
  );

  it(
    "pause racing a checkpoint: both succeed and the draft stays paused",
    async () => {
      for (let i = 0; i < RUNS * 2; i++) {
        const vault = makeVault();
        const draft = startSession(vault);
        const runs = await together(vault, [
          ["pause", "--json"],
          ["draft", "--json"],
        ]);
        expectCleanRace(vault, runs);
        expect(runs.map(outcome)).toEqual(["paused", "checkpointed"]);
        expect(readRecord(vault, `palee/sessions/${draft}.md`).fields.paused_at).toEqual(expect.any(String));
      }
    },
    TIMEOUT,
  );

  it(
    "concurrent writers: index.md lists every session",
    async () => {
      for (let i = 0; i < RUNS; i++) {
        const vault = makeVault();
        // Six separate hours of the past day, 30 minutes each: no two overlap.
        const logs = Array.from({ length: 6 }, (_, n) => [
          "log",
          "--topic",
          `T-index-${n}`,
          "--from",
          ago(60 * (2 * n + 3)),
          "--to",
          ago(60 * (2 * n + 3) - 30),
          "--json",
        ]);
        const runs = await together(vault, logs);
        expectCleanRace(vault, runs);
        expect(tally(runs)).toEqual({ logged: 6 });
        const ids = runs.map((r) => (r.json().session as { session_id: string }).session_id);
        const index = indexLines(vault);
        expect(index).toHaveLength(6);
        for (const id of ids) expect(index.some((line) => line.includes(`[[${id}`))).toBe(true);
      }
    },
    TIMEOUT,
  );
});

// ---- the lock itself ------------------------------------------------------------------------------------------

/**
 * A real CLI process in the middle of a writing operation, holding the lock: `start -i` with a pending draft
 * asks what to do with it and waits for an answer on stdin, which never comes. Resolves once the lock is there
 * and the question has been asked: the directory alone can appear a moment before the process has recorded the
 * lock as its own, and a signal in that moment leaves the directory to the 5 s stale takeover instead.
 */
async function holder(vault: string): Promise<{
  kill: (signal?: NodeJS.Signals) => Promise<void>;
  answer: (line: string) => Promise<{ status: number | null; stderr: string }>;
}> {
  writeDraft(vault, { id: draftId("0d0d0d0d"), topic: "T-old", startedAt: ago(300), lastCheckpointAt: ago(240) });
  const env: NodeJS.ProcessEnv = { ...process.env, PALEE_DEVICE: DEVICE, TZ: "UTC", PALEE_CACHE_DIR: testCacheDir() };
  delete env.PALEE_VAULT;
  delete env.PALEE_LOCK_WAIT_MS;
  const child = spawn(process.execPath, [CLI, "session", "start", "--topic", "T-new", "-i", "--vault", vault], {
    env,
    stdio: ["pipe", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (t: string) => (stderr += t));
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  const answer = async (line: string): Promise<{ status: number | null; stderr: string }> => {
    child.stdin.end(`${line}\n`);
    await exited;
    return { status: child.exitCode, stderr };
  };
  const kill = async (signal: NodeJS.Signals = "SIGKILL"): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const deadline = Date.now() + 15_000;
  while (!fs.existsSync(lockPath(vault)) || !stderr.includes("[R]esume")) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await kill();
      throw new Error("the holder never took the lock");
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { kill, answer };
}

describe("the vault lock", () => {
  it("lives in the cache folder, outside the vault, and is gone after a run, also after a refusal", () => {
    const vault = makeVault();
    startSession(vault);
    expect(fs.existsSync(path.dirname(lockPath(vault)))).toBe(true);
    expect(fs.existsSync(lockPath(vault))).toBe(false);
    const refused = palee(vault, ["start", "--topic", "T-race", "--json"]);
    expect(refused.status).toBe(2);
    expect(refused.json().status).toBe("already_open");
    expect(fs.existsSync(lockPath(vault))).toBe(false);
    // Nothing of the lock inside the vault, nor beside it.
    expect(Object.keys(snapshot(vault)).filter((rel) => rel.includes("lock"))).toEqual([]);
    expect(fs.readdirSync(path.dirname(vault))).toEqual(["vault"]);
  });

  it(
    "a held lock: writers exit 4 busy within the wait with nothing written; readers go on; the holder keeps it",
    async () => {
      const vault = makeVault();
      const held = await holder(vault);
      try {
        const before = snapshot(vault, { mtimes: true });
        const began = Date.now();
        const busy = palee(vault, ["draft", "--note", "lost?", "--json"], { env: { PALEE_LOCK_WAIT_MS: "1500" } });
        const waited = Date.now() - began;
        expectCleanError(busy, 4, { json: true, code: "busy" });
        expect(busy.json().message).toBe("another palee process is writing to this vault; try again");
        expect(waited).toBeGreaterThanOrEqual(1500);
        expect(waited).toBeLessThan(12_000);
        expect(snapshot(vault, { mtimes: true })).toEqual(before);
        expect(fs.existsSync(lockPath(vault))).toBe(true); // the refused writer left the holder's lock alone
        for (const read of [["status"], ["list"], ["stats"], ["context"], ["latest"]]) {
          expect(palee(vault, [...read, "--json"], { env: { PALEE_LOCK_WAIT_MS: "0" } }).status).toBe(0);
        }
      } finally {
        await held.kill();
      }
    },
    TIMEOUT,
  );

  it(
    "a lock left by a killed holder is taken over",
    async () => {
      const vault = makeVault();
      const held = await holder(vault);
      await held.kill(); // SIGKILL mid-operation: the lock directory stays behind
      expect(fs.existsSync(lockPath(vault))).toBe(true);
      // The default wait (10 s) outlasts the stale time (5 s).
      const run = palee(vault, ["start", "--topic", "T-after", "--ignore-pending", "--json"]);
      expect(run.status).toBe(0);
      expect(run.json().status).toBe("started");
      expect(fs.existsSync(lockPath(vault))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    "a holder stopped by SIGTERM or SIGINT removes its lock on the way out",
    async () => {
      for (const signal of ["SIGTERM", "SIGINT"] as const) {
        const vault = makeVault();
        const held = await holder(vault);
        await held.kill(signal);
        expect(fs.existsSync(lockPath(vault))).toBe(false);
      }
    },
    TIMEOUT,
  );

  it(
    "a lock lost while held (its folder removed) ends the operation normally, with one warning, no stack trace",
    async () => {
      const vault = makeVault();
      const held = await holder(vault);
      try {
        fs.rmdirSync(lockPath(vault));
        await new Promise((resolve) => setTimeout(resolve, 2_500)); // past the holder's next refresh (1 s)
        const done = await held.answer("i"); // Ignore the pending draft: the start goes on
        expect(done.status).toBe(0);
        expect(done.stderr).toMatch(/warning: the vault lock was lost while writing \(ENOENT/);
        expect(done.stderr).not.toMatch(/^\s+at /m);
        expect(draftFiles(vault)).toHaveLength(2);
      } finally {
        await held.kill();
      }
    },
    TIMEOUT,
  );

  it("a stale lock directory (its mtime long past) is taken over at once", () => {
    const vault = makeVault();
    const lock = lockPath(vault);
    fs.mkdirSync(lock, { recursive: true });
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, old, old);
    // A short wait: only a takeover, not waiting the holder out, lets it through.
    const run = palee(vault, ["start", "--topic", "T-stale", "--json"], { env: { PALEE_LOCK_WAIT_MS: "1000" } });
    expect(run.status).toBe(0);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it("refuses a cache folder inside the vault, also through a symlink, writing nothing", () => {
    const vault = makeVault();
    fs.mkdirSync(path.join(vault, "notes"));
    const outside = makeTempDir();
    fs.symlinkSync(path.join(vault, "notes"), path.join(outside, "link"));
    const before = snapshot(vault);
    for (const cache of [path.join(vault, ".cache"), path.join(outside, "link", "cache")]) {
      const run = palee(vault, ["start", "--topic", "T-x", "--json"], { env: { PALEE_CACHE_DIR: cache } });
      expectCleanError(run, 2, { json: true, code: "cache_dir" });
      expect(run.json().message).toMatch(/inside the vault/);
    }
    expect(snapshot(vault)).toEqual(before);
  });

  it("refuses a relative PALEE_CACHE_DIR and a bad PALEE_LOCK_WAIT_MS", () => {
    const vault = makeVault();
    const relative = palee(vault, ["start", "--topic", "T-x", "--json"], { env: { PALEE_CACHE_DIR: "cache" } });
    expectCleanError(relative, 2, { json: true, code: "cache_dir" });
    const wait = palee(vault, ["start", "--topic", "T-x", "--json"], { env: { PALEE_LOCK_WAIT_MS: "soon" } });
    expectCleanError(wait, 2, { json: true, code: "usage" });
    expect(snapshot(vault)).toEqual({});
  });
});
