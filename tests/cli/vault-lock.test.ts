/**
 * The vault lock between real processes (contract §4 "One at a time"; issue 35 §1): where it lives, that a live
 * holder keeps it however long it is paused and whatever the clocks say, that a gone holder's lock is taken over
 * at once, that two environments share one lock, that a holder whose lock is taken writes nothing more, and
 * that a refusal names the lock, its holder and its age. Each case runs LOCK_RUNS times (default 2), each time
 * in a fresh vault; `LOCK_RUNS=10 npx jest tests/cli/vault-lock.test.ts` for the campaign.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
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
  makeTempDir,
  makeVault,
  palee,
  paleeAsync,
  snapshot,
  testCacheDir,
  writeDraft,
  lockPath,
  startDraft,
  tally,
} from "./support";

const RUNS = Math.max(1, Number(process.env.LOCK_RUNS ?? "2") || 2);
/** Per test: generous for a loaded 2-core machine, scaled with LOCK_RUNS. */
const TIMEOUT = 40_000 + RUNS * 20_000;
/** A per-process fake clock (tests/support/shifted-clock.cjs), for the CLI processes given `clock(ms)`. */
const SHIFTED_CLOCK = path.resolve(__dirname, "../support/shifted-clock.cjs");
const HOUR = 3_600_000;

afterEach(cleanupVaults);

/** The environment of a CLI process whose Date runs `ms` ahead of the real clock (behind when negative). */
function clock(ms: number): Record<string, string> {
  return { NODE_OPTIONS: `--require ${SHIFTED_CLOCK}`, PALEE_TEST_CLOCK_SHIFT_MS: String(ms) };
}

/** Who the lock file names (its pid and the text), or null when there is none. */
function lockHolder(vault: string): { pid: number; text: string; at: string } | null {
  try {
    const text = fs.readFileSync(lockPath(vault), "utf8");
    const record = JSON.parse(text) as { pid: number; at: string };
    return { pid: record.pid, text, at: record.at };
  } catch {
    return null;
  }
}

const startSession = (vault: string, topic = "T-lock"): string => startDraft(vault, topic);

function spawnCli(vault: string, args: readonly string[], env: Record<string, string | undefined>): ChildProcess {
  const full: NodeJS.ProcessEnv = { ...process.env, PALEE_DEVICE: DEVICE, TZ: "UTC", PALEE_CACHE_DIR: testCacheDir() };
  delete full.PALEE_VAULT;
  delete full.PALEE_LOCK_WAIT_MS;
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete full[key];
    else full[key] = value;
  }
  return spawn(process.execPath, [CLI, "session", ...args, "--vault", vault], {
    env: full,
    stdio: ["pipe", "pipe", "pipe"],
  });
}

interface Holder {
  pid: number;
  kill: (signal?: NodeJS.Signals) => Promise<void>;
  answer: (line: string) => Promise<{ status: number | null; stderr: string }>;
}

/**
 * A real CLI process in the middle of a writing operation, holding the lock: `start -i` with a pending draft
 * asks what to do with it and waits for an answer on stdin. Resolves once its lock file names it and it has asked.
 */
async function holder(vault: string, env: Record<string, string | undefined> = {}): Promise<Holder> {
  writeDraft(vault, { id: draftId("0d0d0d0d"), topic: "T-old", startedAt: ago(300), lastCheckpointAt: ago(240) });
  const child = spawnCli(vault, ["start", "--topic", "T-new", "-i"], env);
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (t: string) => (stderr += t));
  child.stdout?.resume();
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  const answer = async (line: string): Promise<{ status: number | null; stderr: string }> => {
    child.stdin?.end(`${line}\n`);
    await exited;
    return { status: child.exitCode, stderr };
  };
  const kill = async (signal: NodeJS.Signals = "SIGKILL"): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const deadline = Date.now() + 20_000;
  while (lockHolder(vault)?.pid !== child.pid || !stderr.includes("[R]esume")) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await kill();
      throw new Error(`the holder never took the lock: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { pid: child.pid as number, kill, answer };
}

/** The busy refusal names the lock file, the holder's pid and host, and its age. */
function expectBusyNaming(run: RunResult, vault: string, pid: number, age: RegExp): void {
  expectCleanError(run, 4, { json: true, code: "busy" });
  const message = run.json().message as string;
  expect(message).toContain(`the lock ${lockPath(vault)}`);
  expect(message).toContain(`pid ${pid} on ${os.hostname()}`);
  expect(message).toMatch(age);
}

describe("where the vault lock lives", () => {
  it("one file per vault in the machine's lock folder, outside the vault, gone after a run and a refusal", () => {
    const vault = makeVault();
    startSession(vault);
    expect(path.dirname(lockPath(vault))).toBe(`/tmp/palee-${process.getuid?.() ?? 0}`);
    expect(fs.existsSync(lockPath(vault))).toBe(false);
    const refused = palee(vault, ["start", "--topic", "T-lock", "--json"]);
    expect(refused.json().status).toBe("already_open");
    expect(fs.existsSync(lockPath(vault))).toBe(false);
    expect(Object.keys(snapshot(vault)).filter((rel) => rel.includes("lock"))).toEqual([]);
    expect(fs.readdirSync(path.dirname(vault))).toEqual(["vault"]);
  });

  it(
    "two environments (HOME, XDG_CACHE_HOME, PALEE_CACHE_DIR) wait on the one lock",
    async () => {
      const vault = makeVault();
      const home = makeTempDir("palee-lock-home-");
      const held = await holder(vault, { HOME: home, XDG_CACHE_HOME: undefined, PALEE_CACHE_DIR: undefined });
      try {
        const other = { HOME: makeTempDir(), XDG_CACHE_HOME: makeTempDir(), PALEE_CACHE_DIR: makeTempDir() };
        const busy = palee(vault, ["draft", "--note", "x", "--json"], { env: { ...other, PALEE_LOCK_WAIT_MS: "500" } });
        expectBusyNaming(busy, vault, held.pid, /held for \d+ s/);
      } finally {
        await held.kill();
      }
    },
    TIMEOUT,
  );
});

describe("a live holder keeps its lock", () => {
  it(
    "a held lock: writers exit 4 busy within the wait with nothing written; readers go on; the holder keeps it",
    async () => {
      const vault = makeVault();
      const held = await holder(vault);
      try {
        const lock = lockHolder(vault)?.text;
        const before = snapshot(vault, { mtimes: true });
        const began = Date.now();
        const busy = palee(vault, ["draft", "--note", "lost?", "--json"], { env: { PALEE_LOCK_WAIT_MS: "1500" } });
        const waited = Date.now() - began;
        expectBusyNaming(busy, vault, held.pid, /held for \d+ s\); try again$/);
        expect(waited).toBeGreaterThanOrEqual(1500);
        expect(snapshot(vault, { mtimes: true })).toEqual(before);
        expect(lockHolder(vault)?.text).toBe(lock);
        for (const read of [["status"], ["list"], ["stats"], ["context"], ["latest"]]) {
          expect(palee(vault, [...read, "--json"], { env: { PALEE_LOCK_WAIT_MS: "0" } }).status).toBe(0);
        }
        const done = await held.answer("i");
        expect(done.status).toBe(0);
        expect(fs.existsSync(lockPath(vault))).toBe(false);
      } finally {
        await held.kill();
      }
    },
    TIMEOUT,
  );

  // Issue 35: proper-lockfile took a paused holder's lock after 5 s; the holder then wrote a second note.
  for (const kind of ["end", "start"] as const) {
    it(
      `${kind} ‖ ${kind} with the first paused (SIGSTOP) past the old 5 s stale time, holding the lock: one result`,
      async () => {
        let paused = 0;
        for (let i = 0; i < RUNS; i++) {
          const vault = makeVault();
          if (kind === "end") startSession(vault);
          const args = kind === "end" ? ["end", "--summary", "first", "--json"] : ["start", "--topic", "T-a", "--json"];
          const first = spawnCli(vault, args, {});
          let out = "";
          first.stdout?.setEncoding("utf8").on("data", (t: string) => (out += t));
          first.stderr?.resume();
          const exited = new Promise<number | null>((resolve) => first.on("close", (code) => resolve(code)));
          // Caught holding the lock: polled without yielding (so exitCode cannot change here), then stopped at once.
          let holding = false;
          const deadline = Date.now() + 10_000;
          while (Date.now() < deadline) {
            if (lockHolder(vault)?.pid === first.pid) {
              first.kill("SIGSTOP");
              holding = lockHolder(vault)?.pid === first.pid;
              break;
            }
          }
          const secondArgs = kind === "end" ? ["end", "--summary", "second"] : ["start", "--topic", "T-b"];
          const second = palee(vault, [...secondArgs, "--json"], { env: { PALEE_LOCK_WAIT_MS: "6000" } });
          first.kill("SIGCONT");
          const firstCode = await exited;
          if (holding) {
            paused++;
            expectBusyNaming(second, vault, first.pid as number, /held for \d+ s/);
            expect(firstCode).toBe(0);
            expect((JSON.parse(out) as { status: string }).status).toBe(kind === "end" ? "ended" : "started");
          }
          if (kind === "end") {
            expect(confirmedFiles(vault)).toHaveLength(1);
            expect(draftFiles(vault)).toEqual([]);
          } else {
            expect(draftFiles(vault)).toHaveLength(1);
          }
          expect(fs.existsSync(lockPath(vault))).toBe(false);
        }
        // The loop proved something only if the first was paused while holding the lock, at least once.
        expect(paused).toBeGreaterThanOrEqual(1);
      },
      TIMEOUT + RUNS * 10_000,
    );
  }

  it(
    "a waiter whose clock is ahead or behind (6 s, 1 h) never takes a live holder's lock",
    async () => {
      for (let i = 0; i < RUNS; i++) {
        const vault = makeVault();
        const held = await holder(vault);
        try {
          const lock = lockHolder(vault)?.text;
          const before = snapshot(vault);
          for (const shift of [6_000, HOUR, -HOUR]) {
            const env = { ...clock(shift), PALEE_LOCK_WAIT_MS: "300" };
            const busy = palee(vault, ["draft", "--note", "stolen?", "--json"], { env });
            expectBusyNaming(busy, vault, held.pid, shift < 0 ? /dated 1 h ahead of this clock/ : /held for/);
          }
          expect(snapshot(vault)).toEqual(before);
          expect(lockHolder(vault)?.text).toBe(lock);
          expect((await held.answer("i")).status).toBe(0);
        } finally {
          await held.kill();
        }
      }
    },
    TIMEOUT,
  );

  it(
    "end ‖ end, one of them an hour ahead, the other an hour behind: one note",
    async () => {
      for (let i = 0; i < RUNS; i++) {
        const vault = makeVault();
        const draft = startSession(vault);
        const runs = await Promise.all(
          [clock(HOUR), clock(-HOUR), clock(6_000), {}].map(
            (env) => paleeAsync(vault, ["end", "--summary", "done", "--json"], { env }).done,
          ),
        );
        expect(tally(runs)).toEqual({ ended: 1, nothing_open: 3 });
        expect(confirmedFiles(vault)).toHaveLength(1);
        expect(fs.readFileSync(path.join(vault, "palee/sessions", confirmedFiles(vault)[0]), "utf8")).toContain(draft);
        expect(fs.existsSync(lockPath(vault))).toBe(false);
      }
    },
    TIMEOUT,
  );

  it(
    "end ‖ end from two environments (different HOME, XDG_CACHE_HOME, PALEE_CACHE_DIR): one note",
    async () => {
      for (let i = 0; i < RUNS; i++) {
        const vault = makeVault();
        startSession(vault);
        const desktop = { HOME: makeTempDir(), XDG_CACHE_HOME: undefined, PALEE_CACHE_DIR: undefined };
        const terminal = { HOME: makeTempDir(), XDG_CACHE_HOME: makeTempDir(), PALEE_CACHE_DIR: makeTempDir() };
        const runs = await Promise.all(
          [desktop, terminal, desktop, terminal].map(
            (env) => paleeAsync(vault, ["end", "--summary", "done", "--json"], { env }).done,
          ),
        );
        expect(tally(runs)).toEqual({ ended: 1, nothing_open: 3 });
        expect(confirmedFiles(vault)).toHaveLength(1);
        expect(draftFiles(vault)).toEqual([]);
      }
    },
    TIMEOUT,
  );
});

describe("a gone holder's lock is taken over at once", () => {
  it(
    "left by a killed holder, also one whose clock was an hour ahead: the next writer takes it without waiting",
    async () => {
      for (let i = 0; i < RUNS; i++) {
        for (const shift of [0, HOUR]) {
          const vault = makeVault();
          const held = await holder(vault, shift === 0 ? {} : clock(shift));
          const at = Date.parse(lockHolder(vault)?.at ?? "");
          expect(at - Date.now()).toBeGreaterThan(shift - 60_000);
          await held.kill(); // SIGKILL mid-operation: the lock file stays behind
          expect(lockHolder(vault)?.pid).toBe(held.pid);
          // No wait at all: only a takeover lets it through.
          const run = palee(vault, ["start", "--topic", "T-after", "--ignore-pending", "--json"], {
            env: { PALEE_LOCK_WAIT_MS: "0" },
          });
          expect(run.status).toBe(0);
          expect(run.json().status).toBe("started");
          expect(fs.existsSync(lockPath(vault))).toBe(false);
          const ofThisVault = (n: string): boolean => n.includes(path.basename(lockPath(vault)));
          expect(fs.readdirSync(path.dirname(lockPath(vault))).filter(ofThisVault)).toEqual([]);
        }
      }
    },
    TIMEOUT,
  );

  it("a lock naming a pid that now belongs to another process (another start) is taken over", () => {
    const vault = makeVault();
    fs.mkdirSync(path.dirname(lockPath(vault)), { recursive: true, mode: 0o700 });
    // This test's own pid, alive, but not the process that took the lock: its start differs.
    const record = { pid: process.pid, host: os.hostname(), start: "linux:x:1", at: new Date().toISOString() };
    fs.writeFileSync(lockPath(vault), JSON.stringify({ ...record, nonce: "n" }));
    const run = palee(vault, ["start", "--topic", "T-reused", "--json"], { env: { PALEE_LOCK_WAIT_MS: "0" } });
    expect(run.status).toBe(0);
    expect(fs.existsSync(lockPath(vault))).toBe(false);
  });
});

describe("taking over under a claim", () => {
  /** The pid of a process that has exited. */
  function gonePid(): number {
    const child = spawnSync(process.execPath, ["-e", "0"]);
    return child.pid;
  }

  it("a claim on a gone holder's lock by a live claimant is waited for, one by a gone claimant is taken over", () => {
    const vault = makeVault();
    const lock = lockPath(vault);
    fs.mkdirSync(path.dirname(lock), { recursive: true, mode: 0o700 });
    const at = new Date().toISOString();
    const text = JSON.stringify({ pid: gonePid(), host: os.hostname(), start: null, at, nonce: "gone" });
    fs.writeFileSync(lock, text);
    const claim = `${lock}.claim-${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
    try {
      // This test's process, alive, is at it: the writer waits its wait and refuses, leaving both files alone.
      fs.writeFileSync(claim, JSON.stringify({ pid: process.pid, host: os.hostname(), start: null, at, nonce: "c" }));
      const waited = palee(vault, ["start", "--topic", "T-c", "--json"], { env: { PALEE_LOCK_WAIT_MS: "300" } });
      expectCleanError(waited, 4, { json: true, code: "busy" });
      expect([fs.readFileSync(lock, "utf8"), fs.existsSync(claim)]).toEqual([text, true]);
      // The claimant killed in that instant: its claim is judged like a lock, and both are taken over at once.
      fs.writeFileSync(claim, JSON.stringify({ pid: gonePid(), host: os.hostname(), start: null, at, nonce: "c" }));
      const run = palee(vault, ["start", "--topic", "T-c", "--json"], { env: { PALEE_LOCK_WAIT_MS: "0" } });
      expect(run.status).toBe(0);
      expect(fs.existsSync(lock)).toBe(false);
      expect(fs.readdirSync(path.dirname(lock)).filter((n) => n.startsWith(path.basename(lock)))).toEqual([]);
    } finally {
      for (const file of [lock, claim]) fs.rmSync(file, { force: true });
    }
  });
});

describe("temp files of the lock", () => {
  it("those of gone creators (the lock's and its claims') are swept by the next holder; a live one's kept", () => {
    const vault = makeVault();
    const base = path.basename(lockPath(vault));
    const root = path.dirname(lockPath(vault));
    fs.mkdirSync(root, { recursive: true, mode: 0o700 });
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid;
    const temps = [`.${base}.${dead}.0a0b0c0d.tmp`, `.${base}.claim-0123456789abcdef.${dead}.0a0b0c0d.tmp`];
    const live = `.${base}.${process.pid}.0a0b0c0d.tmp`;
    for (const name of [...temps, live]) fs.writeFileSync(path.join(root, name), "{}");
    try {
      expect(palee(vault, ["start", "--topic", "T-t", "--json"]).status).toBe(0);
      expect(fs.readdirSync(root).filter((n) => n.includes(base))).toEqual([live]);
    } finally {
      fs.rmSync(path.join(root, live), { force: true });
    }
  });
});

describe("a lock taken from its holder, and locks palee cannot judge", () => {
  it(
    "a holder whose lock file is removed or replaced writes nothing more and exits 4, naming what happened",
    async () => {
      for (const how of ["removed", "replaced"] as const) {
        const vault = makeVault();
        const held = await holder(vault);
        try {
          const before = snapshot(vault);
          fs.rmSync(lockPath(vault));
          if (how === "replaced") {
            const other = { pid: process.pid, host: os.hostname(), start: null, at: new Date().toISOString() };
            fs.writeFileSync(lockPath(vault), JSON.stringify({ ...other, nonce: "other" }));
          }
          const done = await held.answer("i"); // Ignore the pending draft: the start would write its draft now
          expect(done.status).toBe(4);
          expect(done.stderr).toMatch(/was taken from this process while it was writing/);
          expect(done.stderr).toContain(how === "removed" ? "its file was removed" : `it now names pid ${process.pid}`);
          expect(done.stderr).not.toMatch(/^\s+at /m);
          expect(snapshot(vault)).toEqual(before);
          expect(fs.existsSync(lockPath(vault))).toBe(how === "replaced"); // another's lock is left alone
        } finally {
          await held.kill();
          fs.rmSync(lockPath(vault), { force: true });
        }
      }
    },
    TIMEOUT,
  );

  it("a lock held on another host, or unreadable, is busy and says how to clear it", () => {
    const vault = makeVault();
    fs.mkdirSync(path.dirname(lockPath(vault)), { recursive: true, mode: 0o700 });
    try {
      const at = new Date(Date.now() - 90_000).toISOString();
      fs.writeFileSync(lockPath(vault), JSON.stringify({ pid: 1, host: "elsewhere", start: null, at, nonce: "n" }));
      const far = palee(vault, ["start", "--topic", "T-x", "--json"], { env: { PALEE_LOCK_WAIT_MS: "200" } });
      expectCleanError(far, 4, { json: true, code: "busy" });
      expect(far.json().message).toMatch(/pid 1 on elsewhere, held for 2 min: if that process is gone, remove /);
      fs.writeFileSync(lockPath(vault), "not a palee lock");
      const odd = palee(vault, ["start", "--topic", "T-x", "--json"], { env: { PALEE_LOCK_WAIT_MS: "200" } });
      expectCleanError(odd, 4, { json: true, code: "busy" });
      expect(odd.json().message).toContain(`the lock ${lockPath(vault)} holds no readable holder`);
      expect(snapshot(vault)).toEqual({});
    } finally {
      fs.rmSync(lockPath(vault), { force: true });
    }
  });

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
});
