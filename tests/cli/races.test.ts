/**
 * Races between real processes on one vault (contract §4 "One at a time", issue 18 item 4): several dist/cli.js
 * processes started together must act as if one ran after the other. Each race runs RACE_RUNS times (default 2,
 * so `npm test` stays small; `npm run soak` runs many more), every time in a fresh vault.
 *
 * The lock itself (where it lives, holders paused, killed or on a shifted clock) is in vault-lock.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
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
  trashFiles,
  writeDraft,
  lockPath,
  outcome,
  startDraft,
  tally,
} from "./support";

const RUNS = Math.max(1, Number(process.env.RACE_RUNS ?? "2") || 2);
/** Per test: generous for a loaded 2-core machine, scaled with RACE_RUNS. */
const TIMEOUT = 30_000 + RUNS * 15_000;

afterEach(cleanupVaults);

/** The lock file of a vault, as src/cli/lock-place.ts names it. */

/** Starts every command at once (each `palee session <args> --vault <vault>`), resolves when all have exited. */
function together(vault: string, commands: readonly (readonly string[])[]): Promise<RunResult[]> {
  return Promise.all(commands.map((args) => paleeAsync(vault, args).done));
}

/** No process crashed or printed a stack trace, and the lock was released by the last of them. */
function expectCleanRace(vault: string, runs: readonly RunResult[]): void {
  for (const run of runs) {
    expect([0, 2]).toContain(run.status);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  }
  expect(fs.existsSync(lockPath(vault))).toBe(false);
}

const startSession = (vault: string, topic = "T-race"): string => startDraft(vault, topic);

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

// ---- the cache folder (the lock itself: vault-lock.test.ts) --------------------------------------------------

describe("the cache folder", () => {
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
