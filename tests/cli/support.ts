/**
 * Helpers for the CLI end-to-end suite: run dist/cli.js in a fresh temp vault, write fixture records in the
 * exact on-disk formats of contract §2, snapshot a vault byte for byte, and read records back.
 *
 * Fixture times are relative to the real clock (the CLI uses it): `ago(90)` is 90 minutes before now.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CORE_SCHEMA, load } from "js-yaml";
import { lockFilesOf } from "../../src/cli/lock-place";

/** The built CLI; PALEE_E2E_CLI runs the suite against another build (e.g. of an older commit). */
export const CLI = process.env.PALEE_E2E_CLI
  ? path.resolve(process.env.PALEE_E2E_CLI)
  : path.resolve(__dirname, "../../dist/cli.js");
export const DEVICE = "test-device";
export const MINUTE = 60_000;

// ---- temp vaults --------------------------------------------------------------------------------

const created: string[] = [];
const suiteCreated: string[] = [];

/**
 * A fresh, empty temp vault (a real directory), removed by `cleanupVaults` (afterEach). It is the only entry of
 * its own fresh parent folder, so "nothing was written beside the vault" is checked there, never in the
 * shared system temp folder (which may hold anything, e.g. a `palee/` or `x/` of someone else).
 */
export function makeVault(): string {
  return vaultIn(created);
}

/** A temp vault shared by the tests of a describe block (made in beforeAll), removed by `cleanupSuiteVaults`. */
export function makeSuiteVault(): string {
  return vaultIn(suiteCreated);
}

function vaultIn(registry: string[]): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "palee-e2e-"));
  registry.push(parent);
  const vault = path.join(parent, "vault");
  fs.mkdirSync(vault);
  return vault;
}

/** A fresh temp directory that is not a vault (e.g. "outside the vault"), removed by `cleanupVaults`. */
export function makeTempDir(prefix = "palee-e2e-out-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Every file under `root` whose name starts with "." and ends with ".tmp" (the store's temp files). */
export function tempFilesIn(root: string): string[] {
  return walk(root)
    .filter((e) => !e.dir)
    .map((e) => e.rel)
    .filter((rel) => {
      const base = rel.slice(rel.lastIndexOf("/") + 1);
      return base.startsWith(".") && base.endsWith(".tmp");
    });
}

/**
 * For afterEach: asserts that no temp file was left in any directory made by this test (contract: temp files are
 * removed after success and after failure), then removes those directories.
 */
export function cleanupVaults(): void {
  removeCheckingTempFiles(created.splice(0));
}

/** For afterAll of a describe block that used `makeSuiteVault`. */
export function cleanupSuiteVaults(): void {
  removeCheckingTempFiles(suiteCreated.splice(0));
}

function removeCheckingTempFiles(dirs: string[]): void {
  const leftovers: string[] = [];
  for (const dir of dirs) {
    if (fs.existsSync(dir)) leftovers.push(...tempFilesIn(dir).map((rel) => `${dir}/${rel}`));
  }
  for (const dir of dirs) {
    // The vault's lock (left by a holder a test killed) and writers' token, in the machine's lock folder.
    for (const vault of [dir, path.join(dir, "vault")]) {
      if (!fs.existsSync(vault)) continue;
      for (const file of Object.values(lockFileOf(vault))) fs.rmSync(file, { force: true });
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
  expect(leftovers).toEqual([]);
}

/** The vault's lock file and writers' token, as src/cli/lock-place.ts names them (never under PALEE_CACHE_DIR). */
export function lockFileOf(vault: string): { lock: string; token: string } {
  return lockFilesOf(fs.realpathSync(vault));
}

// ---- running the CLI ----------------------------------------------------------------------------

export interface RunOptions {
  /** Time zone of the CLI process (default UTC). */
  tz?: string;
  /** Text piped to stdin (stdin is closed after it, so "" means immediate EOF). */
  input?: string;
  /** Extra environment (merged over process.env, PALEE_DEVICE and TZ). A value of undefined removes a key. */
  env?: Record<string, string | undefined>;
  /** Working directory of the CLI process (default: this repository). */
  cwd?: string;
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as one JSON document (throws when it is not exactly one). */
  json: () => Record<string, unknown>;
}

let cacheDir: string | null = null;

/**
 * The palee cache folder (PALEE_CACHE_DIR, the device-local scan cache; the vault lock is elsewhere) of every CLI
 * run of this test file: a fresh temp folder outside every vault and outside the vaults' parents (so "nothing
 * written beside the vault" still holds), never the machine's real ~/.cache. Each vault has its own folder in
 * it (vaults/<hash of its path>). Made on first use, removed after the file's tests.
 */
export function testCacheDir(): string {
  cacheDir ??= fs.mkdtempSync(path.join(os.tmpdir(), "palee-e2e-cache-"));
  return cacheDir;
}

// Also for the tests that spawn the CLI with an environment of their own, built from process.env (Jest gives
// each test file its own copy of process.env, so this stays within the file).
process.env.PALEE_CACHE_DIR = testCacheDir();

afterAll(() => {
  if (cacheDir !== null) fs.rmSync(cacheDir, { recursive: true, force: true });
  cacheDir = null;
});

function environment(options: RunOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PALEE_DEVICE: DEVICE,
    TZ: options.tz ?? "UTC",
    PALEE_CACHE_DIR: testCacheDir(),
  };
  delete env.PALEE_VAULT;
  delete env.PALEE_LOCK_WAIT_MS;
  delete env.PALEE_DEBUG;
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

function result(status: number | null, stdout: string, stderr: string): RunResult {
  return {
    status,
    stdout,
    stderr,
    json: () => {
      try {
        return JSON.parse(stdout) as Record<string, unknown>;
      } catch (error) {
        throw new Error(
          `stdout is not one JSON document: ${String(error)}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`,
        );
      }
    },
  };
}

/** Runs `palee <args…>` (no --vault added). */
export function runRaw(args: readonly string[], options: RunOptions = {}): RunResult {
  const child = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? path.resolve(__dirname, "../.."),
    env: environment(options),
    input: options.input ?? "",
    encoding: "utf8",
    timeout: 20_000,
  });
  if (child.error) throw child.error;
  return result(child.status, child.stdout, child.stderr);
}

/** Runs `palee session <args…> --vault <vault>`. */
export function palee(vault: string, args: readonly string[], options: RunOptions = {}): RunResult {
  return runRaw(["session", ...args, "--vault", vault], options);
}

/** Like `palee`, but asynchronous, so the test can act while the CLI runs. */
export function paleeAsync(
  vault: string,
  args: readonly string[],
  options: RunOptions = {},
): { done: Promise<RunResult>; running: () => boolean } {
  const child = spawn(process.execPath, [CLI, "session", ...args, "--vault", vault], {
    cwd: options.cwd ?? path.resolve(__dirname, "../.."),
    env: environment(options),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let alive = true;
  child.stdout.setEncoding("utf8").on("data", (t: string) => (stdout += t));
  child.stderr.setEncoding("utf8").on("data", (t: string) => (stderr += t));
  child.stdin.end(options.input ?? "");
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const done = new Promise<RunResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      alive = false;
      clearTimeout(timer);
      resolve(result(code, stdout, stderr));
    });
  });
  return { done, running: () => alive };
}

/** The lines of a text (no trailing empty line). */
export function lines(text: string): string[] {
  const trimmed = text.replace(/\n$/, "");
  return trimmed === "" ? [] : trimmed.split("\n");
}

/**
 * The error contract of contract §5: exactly one line on stderr, no stack trace. With `json`, stdout is one
 * {"status":"error","code","exit_code","message"} document (plus `extraKeys`) whose exit_code is the process's.
 */
export function expectCleanError(
  run: RunResult,
  exitCode: number,
  options: { json?: boolean; code?: string; extraKeys?: string[] } = {},
): void {
  expect({ status: run.status, stderr: run.stderr }).toEqual({
    status: exitCode,
    stderr: expect.any(String) as string,
  });
  expect(lines(run.stderr)).toHaveLength(1);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stderr.trim()).not.toBe("");
  if (options.json) {
    const doc = run.json();
    // extraKeys: what a refusal adds, e.g. `matches` with ambiguous_topic (contract §5).
    const keys = ["code", "exit_code", "message", "status", ...(options.extraKeys ?? [])];
    expect(Object.keys(doc).sort()).toEqual(keys.sort());
    expect(doc.status).toBe("error");
    expect(doc.exit_code).toBe(exitCode);
    expect(typeof doc.code).toBe("string");
    expect(typeof doc.message).toBe("string");
    expect((doc.message as string).length).toBeGreaterThan(0);
    if (options.code) expect(doc.code).toBe(options.code);
  }
}

// ---- time ---------------------------------------------------------------------------------------

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

/** ISO 8601 with seconds and the given offset (minutes east of UTC), as the tool writes them. */
export function iso(ms: number, offsetMinutes = 0): string {
  const local = new Date(Math.floor(ms / 1000) * 1000 + offsetMinutes * MINUTE);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return (
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** The timestamp `minutes` before now (negative: in the future), whole seconds, UTC offset by default. */
export function ago(minutes: number, offsetMinutes = 0): string {
  return iso(Date.now() - minutes * MINUTE, offsetMinutes);
}

/** "20260814T063000": the UTC compact form used in confirmed session IDs. */
export function utcCompact(ms: number): string {
  const d = new Date(ms);
  return (
    `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`
  );
}

/** Expects an ISO timestamp within `seconds` of now. */
export function expectNearNow(timestamp: unknown, seconds = 15): void {
  expect(typeof timestamp).toBe("string");
  const ms = Date.parse(timestamp as string);
  expect(Number.isNaN(ms)).toBe(false);
  expect(Math.abs(Date.now() - ms)).toBeLessThanOrEqual(seconds * 1000);
}

// ---- fixture records (contract §2) ------------------------------------------------------------------

function yamlScalar(value: string | number | null): string {
  if (value === null) return "null";
  if (typeof value === "number") return String(value);
  return /^[A-Za-z][A-Za-z0-9._-]*$/.test(value) && !/^(true|false|null|yes|no|on|off|y|n)$/i.test(value)
    ? value
    : JSON.stringify(value);
}

function frontmatter(entries: ReadonlyArray<readonly [string, string | number | null | readonly string[]]>): string {
  const out = entries.map(([key, value]) => {
    if (Array.isArray(value)) {
      return value.length === 0
        ? `${key}: []`
        : `${key}:${(value as string[]).map((v) => `\n  - ${yamlScalar(v)}`).join("")}`;
    }
    return `${key}: ${yamlScalar(value as string | number | null)}`;
  });
  return `---\n${out.join("\n")}\n---\n`;
}

/** Writes `content` at a vault-relative path, creating folders. Returns the absolute path. */
export function writeFile(vault: string, relative: string, content: string | Buffer): string {
  const absolute = path.join(vault, ...relative.split("/"));
  fs.mkdirSync(path.dirname(absolute), { recursive: true });
  fs.writeFileSync(absolute, content);
  return absolute;
}

export function readText(vault: string, relative: string): string {
  return fs.readFileSync(path.join(vault, ...relative.split("/")), "utf8");
}

export function exists(vault: string, relative: string): boolean {
  return fs.existsSync(path.join(vault, ...relative.split("/")));
}

export interface DraftFixture {
  id: string;
  topic: string;
  startedAt: string | null;
  lastCheckpointAt: string | null;
  device?: string;
  body?: string;
  folder?: string;
}

export function draftText(d: DraftFixture): string {
  return (
    frontmatter([
      ["palee_schema", 1],
      ["session_id", d.id],
      ["topic_id", d.topic],
      ["started_at", d.startedAt],
      ["ended_at", null],
      ["status", "draft"],
      ["last_checkpoint_at", d.lastCheckpointAt],
      ["device", d.device ?? DEVICE],
    ]) + (d.body ?? "")
  );
}

/** Writes <folder>/sessions/<id>.md as a draft; returns its vault-relative path. */
export function writeDraft(vault: string, d: DraftFixture): string {
  const rel = `${d.folder ?? "palee"}/sessions/${d.id}.md`;
  writeFile(vault, rel, draftText(d));
  return rel;
}

export interface ConfirmedFixture {
  id: string;
  topic: string;
  startedAt: string;
  endedAt: string;
  duration: number;
  outcome?: "completed" | "interrupted";
  absorbed?: readonly string[];
  summary?: string;
  next?: string;
  notes?: string;
  folder?: string;
}

export function confirmedText(s: ConfirmedFixture): string {
  const front = frontmatter([
    ["palee_schema", 1],
    ["session_id", s.id],
    ["topic_id", s.topic],
    ["started_at", s.startedAt],
    ["ended_at", s.endedAt],
    ["duration_minutes", s.duration],
    ["status", "completed"],
    ["outcome", s.outcome ?? "completed"],
    ["absorbed_drafts", s.absorbed ?? []],
  ]);
  const sections = [
    s.summary ? `## Summary\n\n${s.summary}\n` : null,
    s.next ? `## Next action\n\n${s.next}\n` : null,
    s.notes ? `## Notes\n\n${s.notes}\n` : null,
  ].filter((x): x is string => x !== null);
  return `${front}# Session: ${s.id}\n${sections.map((x) => `\n${x}`).join("")}`;
}

/** Writes <folder>/sessions/<id>.md as a confirmed session; returns its vault-relative path. */
export function writeConfirmed(vault: string, s: ConfirmedFixture): string {
  const rel = `${s.folder ?? "palee"}/sessions/${s.id}.md`;
  writeFile(vault, rel, confirmedText(s));
  return rel;
}

export interface HotFixture {
  activeTopic?: string | null;
  startedAt?: string | null;
  openDraft?: string | null;
  device?: string | null;
  lastSession?: string | null;
  updatedAt?: string;
  body?: string;
  folder?: string;
}

export function hotText(h: HotFixture): string {
  return (
    frontmatter([
      ["palee_schema", 1],
      ["memory_id", "H-active"],
      ["active_topic", h.activeTopic ?? null],
      ["started_at", h.startedAt ?? null],
      ["open_draft", h.openDraft ?? null],
      ["device", h.device ?? null],
      ["last_session", h.lastSession ?? null],
      ["updated_at", h.updatedAt ?? "2026-01-01"],
    ]) + (h.body ?? "No history yet: end a session to start the working memory.\n")
  );
}

/** Writes <folder>/hot.md; returns its vault-relative path. */
export function writeHot(vault: string, h: HotFixture): string {
  const rel = `${h.folder ?? "palee"}/hot.md`;
  writeFile(vault, rel, hotText(h));
  return rel;
}

// ---- reading records back -----------------------------------------------------------------------

export interface Parsed {
  fields: Record<string, unknown>;
  body: string;
}

/** Splits a record into its frontmatter (parsed with timestamps kept as strings) and body. */
export function parseRecord(text: string): Parsed {
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error(`not a record with frontmatter:\n${text}`);
  return { fields: load(m[1], { schema: CORE_SCHEMA }) as Record<string, unknown>, body: m[2] };
}

export function readRecord(vault: string, relative: string): Parsed {
  return parseRecord(readText(vault, relative));
}

/** Names of the files directly in <folder>/sessions (sorted). */
export function sessionFiles(vault: string, folder = "palee"): string[] {
  const dir = path.join(vault, ...folder.split("/"), "sessions");
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

export function confirmedFiles(vault: string, folder = "palee"): string[] {
  return sessionFiles(vault, folder).filter((n) => /^S-.*\.md$/.test(n));
}

export function draftFiles(vault: string, folder = "palee"): string[] {
  return sessionFiles(vault, folder).filter((n) => /^DRAFT-S-.*\.md$/.test(n));
}

export function trashFiles(vault: string): string[] {
  const dir = path.join(vault, ".trash");
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

/** The text of a "## heading" section of a body, up to the next "#" or "##" heading; null when absent. */
export function section(body: string, heading: string): string | null {
  const all = body.split("\n");
  const start = all.indexOf(`## ${heading}`);
  if (start === -1) return null;
  const rest = all.slice(start + 1);
  const end = rest.findIndex((l) => /^#{1,2} /.test(l));
  return (end === -1 ? rest : rest.slice(0, end)).join("\n").trim();
}

/** The session lines of index.md ("- [[…]] …"). */
export function indexLines(vault: string, folder = "palee"): string[] {
  return readText(vault, `${folder}/index.md`)
    .split("\n")
    .filter((l) => l.startsWith("- [["));
}

// ---- snapshots ----------------------------------------------------------------------------------

interface Entry {
  rel: string;
  dir: boolean;
}

function walk(root: string, rel = ""): Entry[] {
  const out: Entry[] = [];
  const here = rel === "" ? root : path.join(root, ...rel.split("/"));
  for (const e of fs.readdirSync(here, { withFileTypes: true })) {
    const child = rel === "" ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) {
      out.push({ rel: child, dir: true });
      out.push(...walk(root, child));
    } else {
      out.push({ rel: child, dir: false });
    }
  }
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

export interface SnapshotEntry {
  kind: "file" | "dir" | "symlink" | "other";
  /** base64 of the bytes (files only). */
  bytes?: string;
  mtimeMs?: number;
}

/** Every entry of a vault: path → kind, bytes (base64) and, with `mtimes`, the modification time. */
export function snapshot(vault: string, options: { mtimes?: boolean } = {}): Record<string, SnapshotEntry> {
  const out: Record<string, SnapshotEntry> = {};
  for (const { rel } of walk(vault)) {
    const absolute = path.join(vault, ...rel.split("/"));
    const stat = fs.lstatSync(absolute);
    const entry: SnapshotEntry = {
      kind: stat.isSymbolicLink() ? "symlink" : stat.isFile() ? "file" : stat.isDirectory() ? "dir" : "other",
    };
    if (stat.isFile()) entry.bytes = fs.readFileSync(absolute).toString("base64");
    if (options.mtimes && !stat.isDirectory()) entry.mtimeMs = stat.mtimeMs;
    if (options.mtimes && stat.isDirectory()) entry.mtimeMs = stat.mtimeMs;
    out[rel] = entry;
  }
  return out;
}

/** Sets a file's access and modification time to `minutesAgo` before now. */
export function touch(vault: string, relative: string, minutesAgo: number): void {
  const when = new Date(Date.now() - minutesAgo * MINUTE);
  fs.utimesSync(path.join(vault, ...relative.split("/")), when, when);
}

/** A random-looking but valid draft ID from a 8-hex-digit suffix. */
export function draftId(hex8: string): string {
  if (!/^[0-9a-f]{8}$/.test(hex8)) throw new Error(`bad draft suffix ${hex8}`);
  return `DRAFT-S-${hex8}`;
}

/** A confirmed session ID for a start instant (UTC compact) and a 4-hex suffix. */
export function sessionIdFor(startedMs: number, hex4: string): string {
  return `S-${utcCompact(startedMs)}-${hex4}`;
}

/** The local calendar day (YYYY-MM-DD) of an instant in the given offset. */
export function localDay(ms: number, offsetMinutes = 0): string {
  return iso(ms, offsetMinutes).slice(0, 10);
}

/**
 * Writes the plugin's saved settings (data.json) where the CLI looks for them. Outside Obsidian the CLI cannot
 * ask for Vault#configDir, so it reads the default configuration folder; the path is built as in
 * src/cli/vault.ts.
 */
export function writePluginSettings(vault: string, data: Record<string, unknown>): void {
  const file = path.join(vault, ".obsidian", "plugins", "palee-sessions", "data.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(data));
}

/** What a `--json` run answered: its status, or the code of its error. */
export function outcome(run: RunResult): string {
  const doc = run.json();
  return doc.status === "error" ? String(doc.code) : String(doc.status);
}

/** How many runs answered each outcome, e.g. {"ended": 1, "nothing_open": 7}. */
export function tally(runs: readonly RunResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const run of runs) counts[outcome(run)] = (counts[outcome(run)] ?? 0) + 1;
  return counts;
}

/** Starts a session on `topic` (`start --json`, which must succeed) and gives its draft's ID. */
export function startDraft(vault: string, topic: string): string {
  const run = palee(vault, ["start", "--topic", topic, "--json"]);
  expect(run.status).toBe(0);
  return run.json().draft_id as string;
}

/** The lock file of a vault's writers (lockFileOf). */
export const lockPath = (vault: string): string => lockFileOf(vault).lock;

/**
 * A confirmed note written long ago (topic T-old, 30 minutes), its modification time set to when its session ended,
 * as a note written then has it. Returns its vault-relative path.
 */
export function writeOld(vault: string, minutesAgo: number, absorbed: string[] = []): string {
  const started = ago(minutesAgo);
  const id = sessionIdFor(Date.parse(started), (minutesAgo % 0xffff).toString(16).padStart(4, "0"));
  const rel = writeConfirmed(vault, {
    id,
    topic: "T-old",
    startedAt: started,
    endedAt: ago(minutesAgo - 30),
    duration: 30,
    absorbed,
  });
  const ended = (Date.now() - (minutesAgo - 30) * 60_000) / 1000;
  fs.utimesSync(path.join(vault, rel), ended, ended);
  return rel;
}
