// CLI benchmark (contract §7, issue 13): `session start`, `draft`, `end`, `list`, `list --all`, `rebuild`, `stats`
// and `export` wall time and peak memory on histories of 100, 1 000, 10 000 and 30 000 confirmed sessions,
// against two I/O floors: a bare Node process that lists the sessions folder's names, and one that also reads
// every file once.
//
//   npm run bench                      (builds dist/cli.js first)
//   node scripts/bench.mjs [--sizes 100,1000] [--reps N] [--rss auto|time|preload] [--cli path/to/cli.js]
//                          [--names on|off|only] [--hook on|off|only] [--only kinds] [--baseline old/cli.js]
//
// Issue 19 (--names, on by default; "only" skips the history sizes): `start --topic "<a topic note's name>"`
// against `start --topic T-<id>` in a vault of 5 000 notes (some of them topic notes) beside 1 000 sessions.
// Issue 22 (the device-local scan cache): start, draft and end with the cache, and with it deleted before each
// call ("cold"), against the names floor; `--baseline old/cli.js` also runs them on another build (the figures
// before the cache). `--only cycle,cold,baseline,floorNames` measures just those. Targets at 30 000 sessions; the
// "cold ≤ baseline" lines mean what the issue asks (a cold call within the figures before the cache) only when
// the baseline is a build from before the cache (0202d1f); with a later one they compare cold with warm.
// Issue 19 (--hook, on by default; "only" skips everything else): `palee session hook` on a vault of 10 000
// sessions, one process per event as Claude Code runs it, the event piped on stdin: SessionStart, a
// UserPromptSubmit checkpoint of the conversation's own session, one beside the learner's own session (left
// alone), and SessionEnd. Target: every median ≤ 1 s (hooks run on every prompt).
//   BENCH_KEEP_VAULT=/tmp/dir keeps each generated vault there (for profiling one operation by hand).
//
// --cli benchmarks another build of the CLI (default dist/cli.js). The CLI is copied into the temp folder
// first, so a rebuild of dist/ during the run does not change what is measured.
//
// Every measured command is its own process, spawned as `process.execPath dist/cli.js session … --vault`.
// Peak memory is the child's maximum resident set size: from GNU `/usr/bin/time -f %M` when it is
// available, else from a `--require` preload that prints process.resourceUsage().maxRSS on exit.
// Vaults live in os.tmpdir() and are removed afterwards; nothing is written inside the repository.
import { spawn, spawnSync } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import esbuild from "esbuild";
import { measureMcp, reportMcp } from "./bench-mcp.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_CLI = path.join(ROOT, "dist", "cli.js");
const FOLDER = "palee";
const BENCH_TOPIC = "T-bench";
const DEFAULT_SIZES = [100, 1000, 10000, 30000];
const TARGET_SIZE = 10000;
const TARGET_FLOOR_RATIO = 3;
const TARGET_PEAK_MB = 150;
// Issue 13: operations whose cost does not grow with history.
const GROWTH_SMALL = 1000;
const GROWTH_LARGE = 30000;
const GROWTH_RATIO = 1.5;
const GROWTH_PEAK_MB = 100;
const LIST_NAMES_RATIO = 2;
// The child's resource usage, printed last on its stderr: "<marker><max RSS KiB> <user CPU s> <system CPU s>".
const USAGE_MARKER = "PALEE_BENCH_USAGE=";
const TIME_FORMAT = `${USAGE_MARKER}%M %U %S`;

// ---- arguments ---------------------------------------------------------------------------------------

function usage(message) {
  if (message) console.error(`bench: ${message}`);
  console.error(
    "usage: node scripts/bench.mjs [--sizes 100,1000,10000] [--reps N] [--rss auto|time|preload] [--cli dist/cli.js] " +
      "[--names on|off|only] [--hook on|off|only] [--only cycle,cold,baseline,floorNames,…] [--baseline old/cli.js] " +
      "[--keep-env]",
  );
  process.exit(2);
}

function parseArgs(argv) {
  const options = {
    sizes: DEFAULT_SIZES,
    reps: null,
    rss: "auto",
    cli: DEFAULT_CLI,
    names: "on",
    hook: "on",
    only: null,
    baseline: null,
    keepEnv: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) usage(`${flag} needs a value`);
      return v;
    };
    if (flag === "--sizes") {
      const sizes = value()
        .split(",")
        .map((s) => s.trim().replace(/[_ ]/g, ""))
        .filter((s) => s !== "")
        .map(Number);
      if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1))
        usage("--sizes takes positive integers, e.g. 100,1000");
      options.sizes = sizes;
    } else if (flag === "--reps") {
      const reps = Number(value());
      if (!Number.isInteger(reps) || reps < 1) usage("--reps takes a positive integer");
      options.reps = reps;
    } else if (flag === "--rss") {
      const rss = value();
      if (!["auto", "time", "preload"].includes(rss)) usage("--rss is auto, time or preload");
      options.rss = rss;
    } else if (flag === "--names") {
      const names = value();
      if (!["on", "off", "only"].includes(names)) usage("--names is on, off or only");
      options.names = names;
    } else if (flag === "--only") {
      const only = value()
        .split(",")
        .map((k) => k.trim())
        .filter((k) => k !== "");
      const unknown = only.filter((k) => !KINDS.includes(k));
      if (only.length === 0 || unknown.length > 0) usage(`--only takes some of ${KINDS.join(", ")}`);
      options.only = new Set(only);
    } else if (flag === "--baseline") {
      options.baseline = path.resolve(value());
    } else if (flag === "--hook") {
      const hook = value();
      if (!["on", "off", "only"].includes(hook)) usage("--hook is on, off or only");
      options.hook = hook;
    } else if (flag === "--cli") {
      options.cli = path.resolve(value());
    } else if (flag === "--keep-env") {
      options.keepEnv = true;
    } else if (flag === "-h" || flag === "--help") {
      usage();
    } else {
      usage(`unknown argument ${arg}`);
    }
  }
  return options;
}

/** What one size measures (--only picks some; every one by default). "cycle": start, draft, end with the cache. */
// "cold": the same cycle with the scan cache deleted before each call; "baseline": the cycle on --baseline's CLI.
const KINDS = [
  "cycle",
  "cold",
  "baseline",
  "list",
  "listAll",
  "rebuild",
  "stats",
  "goal",
  "year",
  "next",
  "context",
  "exportCsv",
  "floorNames",
  "floorAsync",
  "floorSync",
  "nodeStart",
];

/**
 * Environment that adds to the start of every Node process, floors included, and so flatters every ratio to a
 * floor: NODE_EXTRA_CA_CERTS alone (a certificate file read and parsed at start) added ~37 ms per process on the
 * machine of issue 36. Cleared for every child; `--keep-env` keeps them, to measure what a user with them sees.
 */
const START_COST_ENV = ["NODE_EXTRA_CA_CERTS", "NODE_OPTIONS", "NODE_V8_COVERAGE", "NODE_DEBUG", "NODE_DEBUG_NATIVE"];
let clearedEnv = [];

/** process.env without START_COST_ENV (unless --keep-env): what every measured child starts with. */
function childEnv() {
  const env = { ...process.env };
  for (const key of clearedEnv) delete env[key];
  return env;
}

const repsFor = (size, override) => override ?? (size >= 30000 ? 3 : size >= 10000 ? 5 : 7);

// ---- small helpers -----------------------------------------------------------------------------------

const log = (line) => process.stderr.write(`${line}\n`);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const fmtMs = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
const fmtMb = (kb) => (kb / 1024).toFixed(1);
const fmtRatio = (r) => `${r.toFixed(2)}×`;
const fmtInt = (n) => n.toLocaleString("en-US");

/** A seeded PRNG (mulberry32): the same vault for the same size on every run. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---- measuring a child process -----------------------------------------------------------------------

/** How peak RSS is obtained: "time" (GNU /usr/bin/time -f %M) or "preload" (--require file). */
function chooseRssMethod(wanted, preloadPath) {
  const timeWorks = () => {
    if (!existsSync("/usr/bin/time")) return false;
    const r = spawnSync("/usr/bin/time", ["-f", TIME_FORMAT, process.execPath, "-e", "0"], { encoding: "utf8" });
    return r.status === 0 && parseUsage(r.stderr) !== null;
  };
  if (wanted === "time") {
    if (!timeWorks()) throw new Error("--rss time: /usr/bin/time -f %M is not usable here");
    return "time";
  }
  if (wanted === "preload") return "preload";
  if (timeWorks()) return "time";
  log(`/usr/bin/time is not usable; peak RSS comes from the preload ${preloadPath}`);
  return "preload";
}

/** Peak RSS (KiB) and CPU time (user + system, ms) from a child's stderr, or null. */
function parseUsage(stderr) {
  const i = stderr.lastIndexOf(USAGE_MARKER);
  if (i === -1) return null;
  const [kb, user, system] = stderr
    .slice(i + USAGE_MARKER.length)
    .trim()
    .split(/\s+/)
    .map(Number);
  if (!Number.isFinite(kb) || kb <= 0 || !Number.isFinite(user) || !Number.isFinite(system)) return null;
  return { rssKb: kb, cpuMs: (user + system) * 1000 };
}

/** Removes the usage line from a child's stderr (for error messages and output checks). */
const cleanStderr = (stderr) => {
  const i = stderr.lastIndexOf(USAGE_MARKER);
  return i === -1 ? stderr : stderr.slice(0, i).replace(/\n$/, "");
};

/** Children still running, stopped if the benchmark is interrupted. */
const running = new Set();

function stopChildren() {
  for (const child of running) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/**
 * Runs `node <args>` as its own process. Returns wall time (spawn to exit, in the parent), the child's
 * peak RSS in KiB and CPU time in ms, and its output. Fails on a non-zero exit.
 */
function runNode(ctx, args, input, cacheDir = path.join(ctx.tmp, "cache")) {
  const nodeArgs = ctx.rssMethod === "preload" ? ["--require", ctx.preloadPath, ...args] : args;
  const [command, commandArgs] =
    ctx.rssMethod === "time"
      ? ["/usr/bin/time", ["-f", TIME_FORMAT, process.execPath, ...nodeArgs]]
      : [process.execPath, nodeArgs];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, commandArgs, {
      cwd: ctx.tmp,
      detached: true, // its own process group, so that an interrupted run can stop it (and /usr/bin/time's child)
      // The vault lock's cache folder (src/cli/state-dir.ts) in the temp folder, not the real ~/.cache.
      env: {
        ...childEnv(),
        PALEE_DEVICE: "bench-device",
        PALEE_VAULT: "",
        PALEE_DEBUG: "1",
        PALEE_CACHE_DIR: cacheDir,
      },
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    if (input !== undefined) child.stdin.end(input);
    const out = [];
    const err = [];
    child.stdout.on("data", (d) => out.push(d));
    child.stderr.on("data", (d) => err.push(d));
    running.add(child);
    child.on("error", (error) => {
      running.delete(child);
      reject(error);
    });
    child.on("close", (code, signal) => {
      running.delete(child);
      const ms = performance.now() - started;
      const stdout = Buffer.concat(out).toString("utf8");
      const stderr = Buffer.concat(err).toString("utf8");
      if (code !== 0) {
        reject(new Error(`node ${args.join(" ")} exited with ${code ?? signal}:\n${cleanStderr(stderr)}${stdout}`));
        return;
      }
      const usage = parseUsage(stderr);
      if (usage === null) {
        reject(new Error(`no peak RSS reported by node ${args.join(" ")}:\n${stderr}`));
        return;
      }
      resolve({ ms, ...usage, stdout, stderr: cleanStderr(stderr) });
    });
  });
}

/**
 * Copies a build of the CLI into `dir` and returns its cli.js there: the bin, and beside it what it loads
 * (esbuild.config.mjs: dist/palee.js, the CLI itself, and dist/mcp.js, palee mcp), where the build has them.
 */
function copyBuild(cliPath, dir) {
  for (const name of ["palee.js", "mcp.js"]) {
    const from = path.join(path.dirname(cliPath), name);
    if (existsSync(from)) copyFileSync(from, path.join(dir, name));
  }
  copyFileSync(cliPath, path.join(dir, "cli.js"));
  return path.join(dir, "cli.js");
}

const cli = (ctx, vault, ...args) => runNode(ctx, [ctx.cli, "session", ...args, "--vault", vault]);

// ---- the I/O floor -----------------------------------------------------------------------------------

// Both read every file as UTF-8 text, as NodeStore.read does. CommonJS like dist/cli.js, so that both pay
// the same Node start-up.
const FLOOR_ASYNC = `"use strict";
const fs = require("node:fs");
const path = require("node:path");
const dir = process.argv[2];
(async () => {
  const names = (await fs.promises.readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  let next = 0, chars = 0;
  const worker = async () => {
    while (next < names.length) {
      const text = await fs.promises.readFile(path.join(dir, names[next++]), "utf8");
      chars += text.length;
    }
  };
  await Promise.all(Array.from({ length: Math.min(64, names.length) }, worker));
  process.stdout.write(names.length + " " + chars + "\\n");
})();
`;

// Listing the folder's names only: what `list` (newest ten, drafts, totals) should cost.
const FLOOR_NAMES = `"use strict";
const fs = require("node:fs");
const names = fs.readdirSync(process.argv[2]);
process.stdout.write(names.length + "\\n");
`;

const FLOOR_SYNC = `"use strict";
const fs = require("node:fs");
const path = require("node:path");
const dir = process.argv[2];
const names = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
let chars = 0;
for (const name of names) chars += fs.readFileSync(path.join(dir, name), "utf8").length;
process.stdout.write(names.length + " " + chars + "\\n");
`;

const PRELOAD = `"use strict";
process.on("exit", () => {
  const u = process.resourceUsage();
  const figures = [u.maxRSS, u.userCPUTime / 1e6, u.systemCPUTime / 1e6];
  process.stderr.write("\\n${USAGE_MARKER}" + figures.join(" ") + "\\n");
});
`;

// ---- generating a vault ------------------------------------------------------------------------------

/** The core's own renderers, bundled from src/ so the notes are byte for byte what the core writes. */
async function loadCore(tmp) {
  const out = path.join(tmp, "core-for-bench.cjs");
  await esbuild.build({
    stdin: {
      contents: [
        `export { renderConfirmedNote } from "./src/core/records/session-note";`,
        `export { formatTimestamp, formatUtcCompact } from "./src/core/time";`,
      ].join("\n"),
      resolveDir: ROOT,
      loader: "ts",
    },
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    outfile: out,
    logLevel: "error",
  });
  return createRequire(import.meta.url)(out);
}

const TOPICS = [
  "T-rust-ownership",
  "T-rust-lifetimes",
  "T-linear-algebra",
  "T-eigenvalues",
  "T-bayes-theorem",
  "T-french-subjunctive",
  "T-japanese-kana",
  "T-organic-chemistry",
  "T-thermodynamics",
  "T-quantum-spin",
  "T-music-theory.modes",
  "T-chess_endgames",
  "T-git-rebase",
  "T-sql-window-functions",
  "T-tcp-congestion",
  "T-compilers.parsing",
  "T-category-theory",
  "T-real-analysis",
  "T-cell-biology",
  "T-roman-history",
  "T-macroeconomics",
  "T-typescript-generics",
  "T-graph-algorithms",
  "T-dynamic-programming",
  "T-statistics.anova",
  "T-20250301T091500-a1b2",
  "T-20250812T180000-c3d4",
  "T-kotlin-coroutines",
  "T-photosynthesis",
  "T-german-cases",
];
const LEGACY_TOPICS = ["git_rebase", "Linear Algebra (old)"]; // read back from older notes: not T-…, still valid
const TOPIC_NOTES = {
  "T-rust-ownership": "[[Rust ownership]]",
  "T-linear-algebra": "[[Linear algebra]]",
  "T-git-rebase": "[[Git rebase]]",
};

const WORDS = (
  "review worked through examples definitions proof sketch exercises chapter section notation intuition " +
  "counterexample borrow checker mutable reference lifetime invariant matrix basis kernel rank determinant " +
  "prior posterior likelihood evidence conjugation mood irregular verbs reaction mechanism entropy enthalpy " +
  "recursion memoization complexity index join window partition frame congestion window retransmit grammar " +
  "ambiguity functor morphism limit continuity membrane enzyme senate empire inflation interest rate " +
  "variance generic constraint inference shortest path spanning tree flashcards recall mistakes clarified " +
  "revisited summarized compared derived practiced struggled understood"
).split(" ");
const OFFSETS = [0, 60, 120, -300, -240, -480, -420, 330, 345, 540, 600, -210, 180, 780, -600];

function sentence(rand, words) {
  const out = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(rand() * WORDS.length)]);
  out[0] = out[0][0].toUpperCase() + out[0].slice(1);
  return `${out.join(" ")}.`;
}

function paragraph(rand, totalWords) {
  const parts = [];
  let left = totalWords;
  while (left > 0) {
    const n = Math.min(left, 6 + Math.floor(rand() * 9));
    parts.push(sentence(rand, n));
    left -= n;
  }
  return parts.join(" ");
}

function hex(rand, digits) {
  let s = "";
  for (let i = 0; i < digits; i++) s += Math.floor(rand() * 16).toString(16);
  return s;
}

/**
 * Writes `count` confirmed sessions into <vault>/palee/sessions: varied topics (a few legacy ones and topic
 * notes), starts spread over the two years before now in various UTC offsets, 5–180 minute durations, a
 * ~40-word Summary, a Next action, and Notes on most of them; half of them rated, a third with a Recall.
 */
function generateSessions(core, vault, count, seed) {
  const rand = prng(seed);
  // Version 4's recall step, from a stream of its own so that every other field is as in earlier runs: half the
  // notes rated (frontmatter), a third with a Recall section.
  const recallRand = prng(seed ^ 0x4ec411);
  const dir = path.join(vault, FOLDER, "sessions");
  mkdirSync(dir, { recursive: true });
  const now = Date.now();
  const span = 2 * 365 * 24 * 3600 * 1000;
  const ids = new Set();
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const startedMs = Math.floor((now - span + rand() * (span - 3600 * 1000)) / 1000) * 1000;
    const duration = 5 + Math.floor(rand() * 176);
    const endedMs = startedMs + duration * 60000 + Math.floor(rand() * 60) * 1000 - 30000;
    const offset = OFFSETS[Math.floor(rand() * OFFSETS.length)];
    let sessionId;
    do sessionId = `S-${core.formatUtcCompact(startedMs)}-${hex(rand, 4)}`;
    while (ids.has(sessionId));
    ids.add(sessionId);
    const topicId =
      rand() < 0.01 ? LEGACY_TOPICS[i % LEGACY_TOPICS.length] : TOPICS[Math.floor(rand() * TOPICS.length)];
    const draftCount = rand() < 0.15 ? 0 : rand() < 0.85 ? 1 : 2;
    const absorbedDrafts = Array.from({ length: draftCount }, () => `DRAFT-S-${hex(rand, 8)}`);
    const notes = [];
    if (draftCount > 0 && rand() < 0.8) {
      const items = 1 + Math.floor(rand() * 4);
      for (let k = 0; k < items; k++) notes.push(`- ${sentence(rand, 5 + Math.floor(rand() * 15))}`);
    }
    const text = core.renderConfirmedNote({
      sessionId,
      topicId,
      startedAt: core.formatTimestamp(startedMs, offset),
      endedAt: core.formatTimestamp(endedMs, offset),
      durationMinutes: Math.max(0, Math.round((endedMs - startedMs) / 60000)),
      outcome: rand() < 0.07 ? "interrupted" : "completed",
      absorbedDrafts,
      topicNote: TOPIC_NOTES[topicId] ?? null,
      summary: paragraph(rand, 34 + Math.floor(rand() * 13)),
      nextAction: rand() < 0.9 ? sentence(rand, 8 + Math.floor(rand() * 8)) : null,
      recallRating: recallRand() < 0.5 ? 1 + Math.floor(recallRand() * 4) : null,
      recall: recallRand() < 0.33 ? sentence(recallRand, 10 + Math.floor(recallRand() * 10)) : null,
      notes: notes.join("\n"),
    });
    const file = path.join(dir, `${sessionId}.md`);
    writeFileSync(file, text);
    // Written when the session ended, as in a real history (bounded scans go by modification time).
    utimesSync(file, endedMs / 1000, endedMs / 1000);
    bytes += Buffer.byteLength(text);
  }
  return { bytes };
}

async function buildVault(ctx, core, size) {
  const vault = path.join(ctx.tmp, `vault-${size}`);
  const { bytes } = generateSessions(core, vault, size, 0x5eed + size);
  const r = await cli(ctx, vault, "rebuild", "--json");
  const doc = JSON.parse(r.stdout);
  if (doc.total_confirmed !== size || doc.skipped.length !== 0) {
    throw new Error(`the generated ${size}-session vault does not read back: ${r.stdout}`);
  }
  return { vault, bytes };
}

// ---- one size ----------------------------------------------------------------------------------------

const SUMMARY =
  "Benchmarked the end of a study session: walked through the borrow checker rules again, rewrote the " +
  "linked list exercise with Option and Box, compared it with the arena version, and wrote down which " +
  "lifetime errors still surprise me and why they happen.";
const NEXT = "Redo exercise 4 without looking at the notes, then read the chapter on interior mutability.";

async function measureSize(ctx, core, size, reps) {
  const started = performance.now();
  const { vault, bytes } = await buildVault(ctx, core, size);
  const sessionsDir = path.join(vault, FOLDER, "sessions");
  const indexPath = path.join(vault, FOLDER, "index.md");
  log(
    `  ${fmtInt(size)} sessions generated (${(bytes / 1048576).toFixed(1)} MiB) in ` +
      `${fmtMs(performance.now() - started)} ms`,
  );

  // One session: start, draft, end, each its own process and each measured.
  const hotPath = path.join(vault, FOLDER, "hot.md");
  // Issue 22: `cold` deletes the device-local scan cache before each call (what a first call, or one after a
  // version change, costs); `cliPath` runs another build (--baseline: the figures before the cache).
  // Each build keeps its own device cache: another build's files (another format of the same tool version) would
  // only be misread or rewritten by it, and the two would slow each other down. The cold calls have their own
  // folder too: deleting the warm cycle's cache before each of them left the warm `start` a cache made by a cold
  // `end`, which had read only its own day's notes (the first start after a lost cache pays that once, ~20 ms).
  const makeCycle = (cold, cliPath) => async () => {
    const cacheDir = path.join(ctx.tmp, cold ? "cache-cold" : cliPath === ctx.cli ? "cache" : "cache-baseline");
    const call = (...args) => {
      if (cold) rmSync(path.join(cacheDir, "vaults"), { recursive: true, force: true });
      return runNode(ctx, [cliPath, "session", ...args, "--vault", vault], undefined, cacheDir);
    };
    const views = [readFileSync(indexPath, "utf8"), readFileSync(hotPath, "utf8")];
    const start = await call("start", "--topic", BENCH_TOPIC);
    const draft = await call(
      "draft",
      "--topic",
      BENCH_TOPIC,
      "--note",
      "Checkpoint: finished the first exercise, stuck on the second.",
    );
    const r = await call("end", "--topic", BENCH_TOPIC, "--summary", SUMMARY, "--next", NEXT);
    // Reset: remove the session this end added and the trashed draft, so every repetition runs on
    // exactly `size` sessions…
    const saved = /^Saved (S-[^:\s]+):/m.exec(r.stdout);
    if (!saved) throw new Error(`session end printed no session ID:\n${r.stdout}`);
    rmSync(path.join(sessionsDir, `${saved[1]}.md`));
    rmSync(path.join(vault, ".trash"), { recursive: true, force: true });
    // …and the views as they were, so the next operation finds them exactly as a rebuild would write them.
    writeFileSync(indexPath, views[0]);
    writeFileSync(hotPath, views[1]);
    for (const [name, x] of [
      ["start", start],
      ["draft", draft],
      ["end", r],
    ]) {
      // T-bench is new in every repetition (its session is removed): start says so (contract §4, version 3).
      const expected = name === "start" ? `new topic ${BENCH_TOPIC}` : "";
      if (x.stderr.trim() !== expected) throw new Error(`session ${name} warned:\n${x.stderr}`);
    }
    return { start, draft, end: r };
  };
  const rebuild = async () => {
    // Stale views (as after a sync), so that every rebuild also rewrites index.md and hot.md.
    appendFileSync(indexPath, "\n- stale line\n");
    return cli(ctx, vault, "rebuild");
  };
  const floorAsync = () => runNode(ctx, [ctx.floorAsyncPath, sessionsDir]);
  const floorSync = () => runNode(ctx, [ctx.floorSyncPath, sessionsDir]);
  // Issue 12: statistics and a CSV export of the whole history (output to the parent, as with a pipe).
  const stats = () => cli(ctx, vault, "stats", "--json");
  const exportCsv = () => cli(ctx, vault, "export");
  // Issue 38: this week against the goals, and the year view (read-only, no plan.md: the cost is the sessions').
  const goal = () => cli(ctx, vault, "goal", "--json");
  const year = () => cli(ctx, vault, "year", "--json");
  // Issue 37: what to study next, and a topic's tutor brief (its review line reads every one of its ratings).
  const next = () => cli(ctx, vault, "next", "--json");
  const context = () => cli(ctx, vault, "context", "--topic", "T-rust-ownership", "--json");
  const list = () => cli(ctx, vault, "list");
  const listAll = () => cli(ctx, vault, "list", "--all");
  const floorNames = () => runNode(ctx, [ctx.floorNamesPath, sessionsDir]);
  // The fixed cost of a process: Node's own start, nothing loaded (`node -e 0`), printed beside the floors.
  const nodeStart = () => runNode(ctx, ["-e", "0"]);
  const cycle = makeCycle(false, ctx.cli);
  const cold = makeCycle(true, ctx.cli);
  const baseline = makeCycle(false, ctx.baselineCli ?? ctx.cli);
  const every = {
    ...{ cycle, cold, baseline, list, listAll, rebuild, stats, goal, year, next, context, exportCsv },
    ...{ floorNames, floorAsync, floorSync, nodeStart },
  };
  const wanted = (k) => (ctx.only === null ? k !== "baseline" || ctx.baselineCli !== null : ctx.only.has(k));
  const kinds = Object.fromEntries(Object.entries(every).filter(([k]) => wanted(k)));
  if (kinds.baseline && !ctx.baselineCli) throw new Error("--only baseline needs --baseline path/to/cli.js");

  // One discarded warm-up of each (page cache, Node's compile cache), then the repetitions interleaved so
  // that a drift of the machine affects every kind alike.
  for (const fn of Object.values(kinds)) await fn();
  const CYCLES = { cycle: "", cold: "Cold", baseline: "Baseline" };
  const steps = (kind) => (kind in CYCLES ? ["start", "draft", "end"].map((op) => op + CYCLES[kind]) : [kind]);
  const names = Object.keys(kinds).flatMap(steps);
  const samples = Object.fromEntries(names.map((k) => [k, []]));
  for (let rep = 1; rep <= reps; rep++) {
    for (const [kind, fn] of Object.entries(kinds)) {
      const r = await fn();
      if (!(kind in CYCLES)) samples[kind].push(r);
      else for (const op of ["start", "draft", "end"]) samples[op + CYCLES[kind]].push(r[op]);
    }
    log(`  ${fmtInt(size)}: repetition ${rep}/${reps} done`);
  }
  const left = readdirSync(sessionsDir).length;
  if (left !== size) throw new Error(`the ${size}-session vault now holds ${left} files`);
  if (process.env.BENCH_KEEP_VAULT) {
    const kept = path.join(process.env.BENCH_KEEP_VAULT, `vault-${size}`);
    rmSync(kept, { recursive: true, force: true });
    mkdirSync(path.dirname(kept), { recursive: true });
    renameSync(vault, kept);
    log(`  kept the vault in ${kept}`);
  } else rmSync(vault, { recursive: true, force: true });

  const summarize = (list) => ({
    ms: median(list.map((s) => s.ms)),
    rssKb: median(list.map((s) => s.rssKb)),
    cpuMs: median(list.map((s) => s.cpuMs)),
    minMs: Math.min(...list.map((s) => s.ms)),
    maxMs: Math.max(...list.map((s) => s.ms)),
    maxRssKb: Math.max(...list.map((s) => s.rssKb)),
  });
  const result = { size, reps, bytes };
  for (const kind of names) result[kind] = summarize(samples[kind]);
  if (result.floorSync && result.floorAsync) {
    result.floorKind = result.floorSync.ms < result.floorAsync.ms ? "sync" : "async";
    result.floor = result.floorSync.ms < result.floorAsync.ms ? result.floorSync : result.floorAsync;
  }
  return result;
}

// ---- topics by name (issue 19) -----------------------------------------------------------------------

const NAMES_NOTES = 5000;
const NAMES_SESSIONS = 1000;
const NAMES_TARGET_RATIO = 2;
const NAMED_TOPIC = "Rust ownership";
const NAMED_ID = "T-rust-ownership";

/** A note name for a topic ID: "T-rust-ownership" → "Rust ownership". */
const noteNameOf = (topicId) => {
  const words = topicId.slice(2).replace(/[._-]+/g, " ");
  return words[0].toUpperCase() + words.slice(1);
};

/**
 * Writes `count` Markdown notes outside the session folder, in 50 folders two levels deep: one topic note per
 * topic of TOPICS (palee_id and an alias, under Topics/), and the rest ordinary notes of ~250 words, half of
 * them with properties (tags, created, a long description), a few with a palee_id-free frontmatter block
 * longer than the first read. Also a dot-folder (.sync) of 200 notes, which the lookup must skip.
 */
function generateNotes(vault, count, seed) {
  const rand = prng(seed);
  for (const topicId of TOPICS) {
    const file = path.join(vault, "Topics", `${noteNameOf(topicId)}.md`);
    mkdirSync(path.dirname(file), { recursive: true });
    const front = `---\npalee_id: ${topicId}\naliases:\n  - ${topicId.slice(2)}\ntags: [topic]\n---\n`;
    writeFileSync(file, `${front}# ${noteNameOf(topicId)}\n\n${paragraph(rand, 200)}\n`);
  }
  for (let i = TOPICS.length; i < count; i++) {
    const dir = path.join(vault, `Area ${i % 5}`, `Folder ${i % 50}`);
    mkdirSync(dir, { recursive: true });
    const long = i % 97 === 0 ? `description: "${sentence(rand, 900)}"\n` : "";
    const front =
      i % 2 === 0
        ? `---\ntags: [note, n${i % 13}]\ncreated: 2025-01-${String(1 + (i % 28)).padStart(2, "0")}\n${long}---\n`
        : "";
    writeFileSync(path.join(dir, `Note ${i}.md`), `${front}# Note ${i}\n\n${paragraph(rand, 250)}\n`);
  }
  // Notes in a dot-folder (a configuration or sync folder): the walk skips every dot-folder, so they cost nothing.
  const config = path.join(vault, ".sync", "snippets");
  mkdirSync(config, { recursive: true });
  for (let i = 0; i < 200; i++) writeFileSync(path.join(config, `c${i}.md`), "---\npalee_id: T-hidden\n---\n");
}

/** `start --topic <name>` against `start --topic <ID>`, each reset afterwards so every run starts alike. */
async function measureTopicNames(ctx, core, reps) {
  const vault = path.join(ctx.tmp, "vault-names");
  generateSessions(core, vault, NAMES_SESSIONS, 0x7091c);
  generateNotes(vault, NAMES_NOTES, 0x7091d);
  await cli(ctx, vault, "rebuild");
  const hotPath = path.join(vault, FOLDER, "hot.md");
  const indexPath = path.join(vault, FOLDER, "index.md");
  const startOn = async (topic) => {
    const views = [readFileSync(indexPath, "utf8"), readFileSync(hotPath, "utf8")];
    const r = await cli(ctx, vault, "start", "--topic", topic);
    const draft = /\(draft (DRAFT-S-[0-9a-f]{8})\)/.exec(r.stdout);
    if (!draft || !r.stdout.startsWith(`Started a session on ${NAMED_ID} `) || r.stderr.trim() !== "") {
      throw new Error(`start --topic ${topic} did not start ${NAMED_ID} quietly:\n${r.stdout}${r.stderr}`);
    }
    rmSync(path.join(vault, FOLDER, "sessions", `${draft[1]}.md`));
    writeFileSync(indexPath, views[0]);
    writeFileSync(hotPath, views[1]);
    return r;
  };
  const kinds = { byName: () => startOn(NAMED_TOPIC), byId: () => startOn(NAMED_ID) };
  for (const fn of Object.values(kinds)) await fn();
  const samples = { byName: [], byId: [] };
  for (let rep = 1; rep <= reps; rep++) {
    for (const [kind, fn] of Object.entries(kinds)) samples[kind].push(await fn());
  }
  log(`  topics by name: ${reps} repetitions done`);
  if (process.env.BENCH_KEEP_VAULT) {
    const kept = path.join(process.env.BENCH_KEEP_VAULT, "vault-names");
    rmSync(kept, { recursive: true, force: true });
    mkdirSync(path.dirname(kept), { recursive: true });
    renameSync(vault, kept);
    log(`  kept the vault in ${kept}`);
  } else rmSync(vault, { recursive: true, force: true });
  const summary = (list) => ({ ms: median(list.map((s) => s.ms)), cpuMs: median(list.map((s) => s.cpuMs)) });
  return { reps, byName: summary(samples.byName), byId: summary(samples.byId) };
}

function reportTopicNames(names) {
  console.log(
    `\nTopics by name (issue 19): \`start --topic "${NAMED_TOPIC}"\` against \`start --topic ${NAMED_ID}\` in a ` +
      `vault of ${fmtInt(NAMES_NOTES)} notes (${TOPICS.length} topic notes) and ${fmtInt(NAMES_SESSIONS)} sessions; ` +
      `wall ms median (CPU ms median) of ${names.reps} repetitions.\n`,
  );
  console.log("| by ID | by name | by name / by ID |");
  console.log("|---:|---:|---:|");
  const ratio = names.byName.ms / names.byId.ms;
  console.log(
    `| ${fmtMs(names.byId.ms)} (${fmtMs(names.byId.cpuMs)}) | ${fmtMs(names.byName.ms)} ` +
      `(${fmtMs(names.byName.cpuMs)}) | ${fmtRatio(ratio)} |`,
  );
  const ok = ratio <= NAMES_TARGET_RATIO;
  console.log(`\n- ${ok ? "PASS" : "FAIL"} start by name ≤ ${NAMES_TARGET_RATIO}× start by ID: ${fmtRatio(ratio)}`);
  return ok;
}

// ---- palee session hook (issue 19) -------------------------------------------------------------------

const HOOK_SIZE = 10000;
const HOOK_TARGET_MS = 1000;
const HOOK_SESSION = "5f1c2d3e-aaaa-4bbb-8ccc-0123456789ab";
const hookEvent = (name, extra = {}) =>
  JSON.stringify({ session_id: HOOK_SESSION, cwd: "/tmp", hook_event_name: name, ...extra });

/** Each event of a conversation as its own process, on a 10 000-session vault reset after every round. */
async function measureHook(ctx, core, reps) {
  const { vault } = await buildVault(ctx, core, HOOK_SIZE);
  const sessionsDir = path.join(vault, FOLDER, "sessions");
  const viewPaths = [path.join(vault, FOLDER, "index.md"), path.join(vault, FOLDER, "hot.md")];
  const hook = (input) => runNode(ctx, [ctx.cli, "session", "hook", "--topic", BENCH_TOPIC, "--vault", vault], input);
  const expectQuiet = (name, r) => {
    // SessionStart may say "new topic T-bench" (its session is removed every round); nothing else.
    const stderr = r.stderr.trim().replace(`new topic ${BENCH_TOPIC}`, "").trim();
    if (stderr !== "" || (name !== "start" && r.stdout !== ""))
      throw new Error(`hook ${name}:\n${r.stderr}${r.stdout}`);
  };
  const reset = (views) => {
    for (const name of readdirSync(sessionsDir)) {
      if (name.startsWith("DRAFT-S-") || !names0.has(name)) rmSync(path.join(sessionsDir, name));
    }
    rmSync(path.join(vault, ".trash"), { recursive: true, force: true });
    viewPaths.forEach((p, i) => writeFileSync(p, views[i]));
  };
  const names0 = new Set(readdirSync(sessionsDir));
  const round = async () => {
    const views = viewPaths.map((p) => readFileSync(p, "utf8"));
    const start = await hook(hookEvent("SessionStart", { source: "startup" }));
    if (!start.stdout.includes('"hookEventName": "SessionStart"')) throw new Error(`SessionStart:\n${start.stdout}`);
    const prompt = await hook(hookEvent("UserPromptSubmit", { prompt: "What does the borrow checker check?" }));
    const end = await hook(hookEvent("SessionEnd", { reason: "prompt_input_exit" }));
    if (readdirSync(sessionsDir).length !== HOOK_SIZE + 1) throw new Error("SessionEnd saved no session");
    reset(views);
    // Beside the learner's own session: the hook reads hot.md and one draft, and leaves it alone.
    await cli(ctx, vault, "start", "--topic", BENCH_TOPIC);
    const beside = await hook(hookEvent("UserPromptSubmit", { prompt: "and now?" }));
    reset(views);
    const steps = { start, prompt, end, beside };
    for (const [name, r] of Object.entries(steps)) expectQuiet(name, r);
    return steps;
  };
  await round();
  const samples = { start: [], prompt: [], end: [], beside: [] };
  for (let rep = 1; rep <= reps; rep++) {
    for (const [name, r] of Object.entries(await round())) samples[name].push(r);
  }
  log(`  hook: ${reps} repetitions done`);
  rmSync(vault, { recursive: true, force: true });
  const summary = (list) => ({
    ms: median(list.map((s) => s.ms)),
    cpuMs: median(list.map((s) => s.cpuMs)),
    maxMs: Math.max(...list.map((s) => s.ms)),
  });
  return Object.fromEntries(Object.entries(samples).map(([k, list]) => [k, summary(list)]));
}

function reportHook(hook) {
  console.log(
    `\n\`palee session hook\` (issue 19) on ${fmtInt(HOOK_SIZE)} sessions, one process per event, the event on ` +
      "stdin; wall ms median (CPU ms median), slowest:\n",
  );
  console.log("| SessionStart | UserPromptSubmit (own session) | UserPromptSubmit (learner's session) | SessionEnd |");
  console.log("|---:|---:|---:|---:|");
  const cell = (x) => `${fmtMs(x.ms)} (${fmtMs(x.cpuMs)}), ${fmtMs(x.maxMs)}`;
  console.log(`| ${cell(hook.start)} | ${cell(hook.prompt)} | ${cell(hook.beside)} | ${cell(hook.end)} |`);
  const slowest = Math.max(hook.start.ms, hook.prompt.ms, hook.beside.ms, hook.end.ms);
  const ok = slowest <= HOOK_TARGET_MS;
  console.log(
    `\n- ${ok ? "PASS" : "FAIL"} every hook event ≤ ${HOOK_TARGET_MS} ms (median): slowest ${fmtMs(slowest)} ms`,
  );
  return ok;
}

// ---- report ------------------------------------------------------------------------------------------

function report(results, rssMethod, cliPath, names, hook) {
  const cpus = os.cpus();
  console.log(envLine());
  console.log("## PALEE CLI benchmark\n");
  console.log(
    `Machine: ${cpus[0]?.model ?? "unknown CPU"}, ${cpus.length} cores, ` +
      `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, ${os.platform()} ${os.release()}, Node ${process.version}`,
  );
  console.log(
    `CLI: ${cliPath === DEFAULT_CLI ? "dist/cli.js" : cliPath}; load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")}`,
  );
  console.log(
    `Peak memory: child max RSS via ` +
      `${rssMethod === "time" ? "/usr/bin/time -f %M" : "a --require preload (process.resourceUsage().maxRSS)"}; ` +
      `MB = MiB. Times: wall clock from spawn to exit, median of the repetitions; page cache warm.\n`,
  );
  console.log(
    "| sessions | end median ms | end peak MB | rebuild median ms | rebuild peak MB | I/O " +
      "floor median ms | floor peak MB | end/floor | rebuild/floor |",
  );
  console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of results) {
    console.log(
      `| ${fmtInt(r.size)} | ${fmtMs(r.end.ms)} | ${fmtMb(r.end.rssKb)} | ${fmtMs(r.rebuild.ms)} ` +
        `| ${fmtMb(r.rebuild.rssKb)} | ` +
        `${fmtMs(r.floor.ms)} | ${fmtMb(r.floor.rssKb)} | ${fmtRatio(r.end.ms / r.floor.ms)} | ` +
        `${fmtRatio(r.rebuild.ms / r.floor.ms)} |`,
    );
  }
  console.log(
    "\nDetails: wall ms min–max over the repetitions; median CPU ms (user + system) of end / rebuild / floor, " +
      "less sensitive to other load on the machine; both floor candidates (median ms, peak MB); highest peak seen.\n",
  );
  console.log(
    "| sessions | reps | vault MiB | end ms | rebuild ms | CPU ms end / rebuild / floor | " +
      "floor async (fs.promises ×64) | floor sync (readFileSync) | floor used | max peak MB end " +
      "/ rebuild |",
  );
  console.log("|---:|---:|---:|---|---|---|---|---|---|---|");
  for (const r of results) {
    console.log(
      `| ${fmtInt(r.size)} | ${r.reps} | ${(r.bytes / 1048576).toFixed(1)} | ` +
        `${fmtMs(r.end.minMs)}–${fmtMs(r.end.maxMs)} | ` +
        `${fmtMs(r.rebuild.minMs)}–${fmtMs(r.rebuild.maxMs)} | ${fmtMs(r.end.cpuMs)} / ` +
        `${fmtMs(r.rebuild.cpuMs)} / ${fmtMs(r.floor.cpuMs)} | ` +
        `${fmtMs(r.floorAsync.ms)} ms (${fmtMb(r.floorAsync.rssKb)}) | ${fmtMs(r.floorSync.ms)} ms ` +
        `(${fmtMb(r.floorSync.rssKb)}) | ` +
        `${r.floorKind} | ${fmtMb(r.end.maxRssKb)} / ${fmtMb(r.rebuild.maxRssKb)} |`,
    );
  }

  console.log(
    "\nInsight (issue 12): `session stats --json` and `session export` (CSV to stdout), wall ms median and peak MB.\n",
  );
  console.log(
    "| sessions | stats median ms | stats peak MB | export median ms | export peak MB | stats/floor | export/floor |",
  );
  console.log("|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of results) {
    console.log(
      `| ${fmtInt(r.size)} | ${fmtMs(r.stats.ms)} | ${fmtMb(r.stats.rssKb)} | ` +
        `${fmtMs(r.exportCsv.ms)} | ${fmtMb(r.exportCsv.rssKb)} | ` +
        `${fmtRatio(r.stats.ms / r.floor.ms)} | ${fmtRatio(r.exportCsv.ms / r.floor.ms)} |`,
    );
  }

  const goals = results.filter((r) => r.goal && r.year && r.floorNames);
  if (goals.length > 0) {
    console.log("\nGoals (issue 38): `session goal --json` and `session year --json`, wall ms median, and against the");
    console.log("names floor (listing the folder). Targets: ≤ 200 ms at 10 000; at 30 000 ≤ 2× the names floor.\n");
    console.log("| sessions | goal ms | year ms | stats ms | goal/names floor | year/names floor |");
    console.log("|---:|---:|---:|---:|---:|---:|");
    for (const r of goals) {
      console.log(
        `| ${fmtInt(r.size)} | ${fmtMs(r.goal.ms)} | ${fmtMs(r.year.ms)} | ${r.stats ? fmtMs(r.stats.ms) : "–"} | ` +
          `${fmtRatio(r.goal.ms / r.floorNames.ms)} | ${fmtRatio(r.year.ms / r.floorNames.ms)} |`,
      );
    }
  }

  if (results.length > 0) reportGrowth(results);
  const namesOk = (names === null || reportTopicNames(names)) && reportCache(results);
  const hookOk = hook === null || reportHook(hook);

  console.log(
    `\nTargets at ${fmtInt(TARGET_SIZE)} sessions: end and rebuild each within ` +
      `${TARGET_FLOOR_RATIO}× the I/O floor and under ${TARGET_PEAK_MB} MB peak memory.\n`,
  );
  const at = results.find((r) => r.size === TARGET_SIZE);
  if (!at) {
    console.log(`NOT MEASURED: ${fmtInt(TARGET_SIZE)} is not among --sizes.`);
    return namesOk && hookOk;
  }
  const checks = [
    [
      `end ≤ ${TARGET_FLOOR_RATIO}× floor`,
      at.end.ms <= TARGET_FLOOR_RATIO * at.floor.ms,
      `${fmtMs(at.end.ms)} ms vs ${fmtMs(TARGET_FLOOR_RATIO * at.floor.ms)} ms (${fmtRatio(at.end.ms / at.floor.ms)})`,
    ],
    [
      `rebuild ≤ ${TARGET_FLOOR_RATIO}× floor`,
      at.rebuild.ms <= TARGET_FLOOR_RATIO * at.floor.ms,
      `${fmtMs(at.rebuild.ms)} ms vs ${fmtMs(TARGET_FLOOR_RATIO * at.floor.ms)} ms ` +
        `(${fmtRatio(at.rebuild.ms / at.floor.ms)})`,
    ],
    [
      `stats ≤ ${TARGET_FLOOR_RATIO}× floor`,
      at.stats.ms <= TARGET_FLOOR_RATIO * at.floor.ms,
      `${fmtMs(at.stats.ms)} ms (${fmtRatio(at.stats.ms / at.floor.ms)})`,
    ],
    [
      `export ≤ ${TARGET_FLOOR_RATIO}× floor`,
      at.exportCsv.ms <= TARGET_FLOOR_RATIO * at.floor.ms,
      `${fmtMs(at.exportCsv.ms)} ms (${fmtRatio(at.exportCsv.ms / at.floor.ms)})`,
    ],
    [`end peak < ${TARGET_PEAK_MB} MB`, at.end.rssKb / 1024 < TARGET_PEAK_MB, `${fmtMb(at.end.rssKb)} MB`],
    [`rebuild peak < ${TARGET_PEAK_MB} MB`, at.rebuild.rssKb / 1024 < TARGET_PEAK_MB, `${fmtMb(at.rebuild.rssKb)} MB`],
  ];
  for (const [name, ok, detail] of checks) console.log(`- ${ok ? "PASS" : "FAIL"} ${name}: ${detail}`);
  return namesOk && hookOk && checks.every(([, ok]) => ok);
}

/** Issue 13: the operations of every session, and list, against history size and the names floor. */
function reportGrowth(results) {
  console.log("\nOperations per session (issue 13): wall ms median (CPU ms median), peak MB median.\n");
  console.log(
    "| sessions | start | draft | end | list | list --all | names floor | read floor | node -e 0 | peak MB " +
      "start / draft / end / list |",
  );
  console.log("|---:|---|---|---|---|---|---|---|---|---|");
  const cell = (x) => `${fmtMs(x.ms)} (${fmtMs(x.cpuMs)})`;
  for (const r of results) {
    console.log(
      `| ${fmtInt(r.size)} | ${cell(r.start)} | ${cell(r.draft)} | ${cell(r.end)} | ` +
        `${cell(r.list)} | ${cell(r.listAll)} | ` +
        `${cell(r.floorNames)} | ${cell(r.floor)} | ${r.nodeStart ? cell(r.nodeStart) : "–"} | ` +
        `${fmtMb(r.start.rssKb)} / ` +
        `${fmtMb(r.draft.rssKb)} / ${fmtMb(r.end.rssKb)} / ${fmtMb(r.list.rssKb)} |`,
    );
  }
  const small = results.find((r) => r.size === GROWTH_SMALL);
  const large = results.find((r) => r.size === GROWTH_LARGE);
  if (!small || !large) {
    console.log(`\nNOT MEASURED: the issue 13 targets need sizes ${GROWTH_SMALL} and ${GROWTH_LARGE}.`);
    return;
  }
  console.log(`\nTargets (issue 13) at ${fmtInt(GROWTH_LARGE)} against ${fmtInt(GROWTH_SMALL)} sessions:\n`);
  for (const op of ["start", "draft", "end"]) {
    const ratio = large[op].ms / small[op].ms;
    const cpu = large[op].cpuMs / small[op].cpuMs;
    console.log(
      `- ${ratio <= GROWTH_RATIO ? "PASS" : "FAIL"} ${op} ≤ ${GROWTH_RATIO}×: ${fmtRatio(ratio)} ` +
        `wall, ${fmtRatio(cpu)} CPU`,
    );
    const mb = large[op].maxRssKb / 1024;
    console.log(
      `- ${mb <= GROWTH_PEAK_MB ? "PASS" : "FAIL"} ${op} peak ≤ ${GROWTH_PEAK_MB} MB: ` +
        `${mb.toFixed(1)} MB (highest seen)`,
    );
  }
  const listRatio = large.list.ms / large.floorNames.ms;
  console.log(
    `- ${listRatio <= LIST_NAMES_RATIO ? "PASS" : "FAIL"} list ≤ ${LIST_NAMES_RATIO}× names ` +
      `floor: ${fmtRatio(listRatio)}`,
  );
  for (const op of ["listAll", "rebuild", "stats", "exportCsv"]) {
    const ratio = large[op].ms / large.floor.ms;
    console.log(
      `- ${ratio <= TARGET_FLOOR_RATIO ? "PASS" : "FAIL"} ${op} ≤ ${TARGET_FLOOR_RATIO}× read ` +
        `floor: ${fmtRatio(ratio)}`,
    );
  }
}

// ---- palee mcp (issue 20) ----------------------------------------------------------------------------

const MCP_SIZE = 10000;

/** `palee mcp` on a vault of 10 000 sessions (scripts/bench-mcp.mjs); BENCH_MCP=off skips it. */
async function mcpSection(ctx, core, reps) {
  const vault = path.join(ctx.tmp, "vault-mcp");
  generateSessions(core, vault, MCP_SIZE, 0x3c9);
  await cli(ctx, vault, "rebuild");
  log(`bench: palee mcp, ${fmtInt(MCP_SIZE)} sessions, ${reps} servers`);
  const env = { PALEE_CACHE_DIR: path.join(ctx.tmp, "mcp-cache"), TZ: process.env.TZ ?? "UTC" };
  const result = await measureMcp({ cli: ctx.cli, vault, size: MCP_SIZE, topic: TOPICS[0], reps, env });
  rmSync(vault, { recursive: true, force: true });
  const sizes = { cli: statSync(ctx.cli).size, mcp: statSync(path.join(path.dirname(ctx.cli), "mcp.js")).size };
  return reportMcp(result, sizes);
}

// Issue 22: start, draft and end with the device-local scan cache, against the names floor and 1 000 sessions.
const CACHE_FLOOR_RATIO = 2;
const CACHE_GROWTH_RATIO = 1.5;
const CACHE_PEAK_MB = 80;
// Issue 36: a cold call (no device memory) against the names floor; export's peak against history.
const COLD_FLOOR_RATIO = 2.5;
const EXPORT_PEAK_MB = 100;
const EXPORT_PEAK_GROWTH = 1.2;

/** Issue 22's table and targets, from whatever of the cycles and the names floor was measured. */
function reportCache(results) {
  const has = (r, k) => r[k] !== undefined;
  const rows = results.filter((r) => has(r, "start"));
  if (rows.length === 0) return true;
  const cell = (x) => (x ? `${fmtMs(x.ms)} (${fmtMs(x.cpuMs)}) ${fmtMb(x.maxRssKb)} MB` : "–");
  console.log(
    "\nScan cache (issue 22): wall ms median (CPU ms median) highest peak MB. The machine (2 vCPU) is shared " +
      "with other work: wall times vary with its load, CPU times less.\n",
  );
  console.log("| sessions | op | with cache | cold (no cache) | baseline | names floor | node -e 0 |");
  console.log("|---:|---|---|---|---|---|---|");
  for (const r of rows) {
    for (const op of ["start", "draft", "end"]) {
      console.log(
        `| ${fmtInt(r.size)} | ${op} | ${cell(r[op])} | ${cell(r[`${op}Cold`])} | ${cell(r[`${op}Baseline`])} | ` +
          `${cell(r.floorNames)} | ${cell(r.nodeStart)} |`,
      );
    }
  }
  const small = rows.find((r) => r.size === GROWTH_SMALL);
  const large = rows.find((r) => r.size === GROWTH_LARGE);
  if (!small || !large) {
    console.log(`\nNOT MEASURED: the issue 22 targets need sizes ${GROWTH_SMALL} and ${GROWTH_LARGE}.`);
    return true;
  }
  let ok = true;
  const check = (pass, text) => {
    ok &&= pass;
    console.log(`- ${pass ? "PASS" : "FAIL"} ${text}`);
  };
  console.log(`\nTargets (issue 22) at ${fmtInt(GROWTH_LARGE)} sessions:\n`);
  for (const op of ["start", "draft", "end"]) {
    const x = large[op];
    if (large.floorNames) {
      const ratio = x.ms / large.floorNames.ms;
      check(ratio <= CACHE_FLOOR_RATIO, `${op} ≤ ${CACHE_FLOOR_RATIO}× names floor: ${fmtRatio(ratio)}`);
    }
    const growth = x.ms / small[op].ms;
    check(growth <= CACHE_GROWTH_RATIO, `${op} ≤ ${CACHE_GROWTH_RATIO}× ${fmtInt(GROWTH_SMALL)}: ${fmtRatio(growth)}`);
    check(x.maxRssKb / 1024 <= CACHE_PEAK_MB, `${op} peak ≤ ${CACHE_PEAK_MB} MB: ${fmtMb(x.maxRssKb)} MB`);
    const cold = large[`${op}Cold`];
    const before = large[`${op}Baseline`];
    if (cold && before) {
      const ratio = cold.ms / before.ms;
      const vs = `${fmtMs(cold.ms)} vs ${fmtMs(before.ms)} ms (${fmtRatio(ratio)})`;
      check(ratio <= 1, `${op} cold ≤ baseline (a build before the cache, 0202d1f, to mean anything): ${vs}`);
    }
  }
  console.log(`\nTargets (issue 36) at ${fmtInt(GROWTH_LARGE)} sessions:\n`);
  for (const op of ["start", "draft", "end"]) {
    const cold = large[`${op}Cold`];
    if (!cold || !large.floorNames) continue;
    const ratio = cold.ms / large.floorNames.ms;
    check(ratio <= COLD_FLOOR_RATIO, `${op} cold ≤ ${COLD_FLOOR_RATIO}× names floor: ${fmtRatio(ratio)}`);
  }
  if (large.exportCsv && small.exportCsv) {
    const mb = large.exportCsv.maxRssKb / 1024;
    const growth = large.exportCsv.maxRssKb / small.exportCsv.maxRssKb;
    check(mb <= EXPORT_PEAK_MB, `export peak ≤ ${EXPORT_PEAK_MB} MB: ${fmtMb(large.exportCsv.maxRssKb)} MB`);
    check(
      growth <= EXPORT_PEAK_GROWTH,
      `export peak ≤ ${EXPORT_PEAK_GROWTH}× ${fmtInt(GROWTH_SMALL)}: ${fmtRatio(growth)}`,
    );
  }
  return ok;
}

/** With --only: the kinds measured, each size a row (wall ms median (CPU ms median) peak MB). */
/** The line that says which environment the children ran without. */
function envLine() {
  return clearedEnv.length === 0
    ? "Environment: nothing that adds to a Node start was set (or --keep-env)."
    : `Environment cleared for every measured process: ${clearedEnv.join(", ")} (adds to every Node start).`;
}

function reportOnly(results) {
  console.log(envLine());
  const kinds = Object.keys(results[0] ?? {}).filter((k) => typeof results[0][k] === "object" && "ms" in results[0][k]);
  const cpus = os.cpus();
  console.log(
    `## PALEE CLI benchmark (--only)\n\nMachine: ${cpus[0]?.model ?? "unknown CPU"}, ${cpus.length} cores, ` +
      `Node ${process.version}; load average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(", ")}\n`,
  );
  console.log(`| sessions | ${kinds.join(" | ")} |`);
  console.log(`|---:|${kinds.map(() => "---").join("|")}|`);
  for (const r of results) {
    const cells = kinds.map((k) => `${fmtMs(r[k].ms)} (${fmtMs(r[k].cpuMs)}) ${fmtMb(r[k].maxRssKb)} MB`);
    console.log(`| ${fmtInt(r.size)} | ${cells.join(" | ")} |`);
  }
  return reportCache(results);
}

// ---- main --------------------------------------------------------------------------------------------

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!existsSync(options.cli))
    throw new Error(`${options.cli} does not exist: run "npm run build" (or "npm run bench")`);
  const tmp = await mkdtemp(path.join(os.tmpdir(), "palee-bench-"));
  const cleanup = () => rmSync(tmp, { recursive: true, force: true, maxRetries: 5 });
  const onSignal = (signal) => {
    stopChildren();
    cleanup();
    process.kill(process.pid, signal);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const ctx = {
      tmp,
      cli: path.join(tmp, "cli.js"),
      preloadPath: path.join(tmp, "maxrss-preload.cjs"),
      floorAsyncPath: path.join(tmp, "floor-async.cjs"),
      floorSyncPath: path.join(tmp, "floor-sync.cjs"),
      floorNamesPath: path.join(tmp, "floor-names.cjs"),
      rssMethod: "preload",
      only: options.only,
      baselineCli: null,
    };
    copyBuild(options.cli, tmp);
    if (options.baseline) {
      mkdirSync(path.join(tmp, "baseline"));
      ctx.baselineCli = copyBuild(options.baseline, path.join(tmp, "baseline"));
    }
    writeFileSync(ctx.preloadPath, PRELOAD);
    writeFileSync(ctx.floorAsyncPath, FLOOR_ASYNC);
    writeFileSync(ctx.floorSyncPath, FLOOR_SYNC);
    writeFileSync(ctx.floorNamesPath, FLOOR_NAMES);
    clearedEnv = options.keepEnv ? [] : START_COST_ENV.filter((key) => process.env[key] !== undefined);
    ctx.rssMethod = chooseRssMethod(options.rss, ctx.preloadPath);
    const core = await loadCore(tmp);
    log(
      `bench: ${options.cli === DEFAULT_CLI ? "dist/cli.js" : options.cli}; temp dir ${tmp}; ` +
        `sizes ${options.sizes.join(", ")}; peak RSS via ${ctx.rssMethod}`,
    );

    const results = [];
    const only = options.names === "only" || options.hook === "only";
    for (const size of only ? [] : options.sizes) {
      const reps = repsFor(size, options.reps);
      log(`bench: ${fmtInt(size)} sessions, ${reps} repetitions`);
      results.push(await measureSize(ctx, core, size, reps));
    }
    let names = null;
    if (options.names !== "off" && options.hook !== "only") {
      const reps = options.reps ?? 9;
      log(`bench: topics by name, ${fmtInt(NAMES_NOTES)} notes, ${reps} repetitions`);
      names = await measureTopicNames(ctx, core, reps);
    }
    let hook = null;
    if (!options.only && options.hook !== "off" && options.names !== "only") {
      const reps = options.reps ?? 7;
      log(`bench: hook events, ${fmtInt(HOOK_SIZE)} sessions, ${reps} repetitions`);
      hook = await measureHook(ctx, core, reps);
    }
    const ok = options.only ? reportOnly(results) : report(results, ctx.rssMethod, options.cli, names, hook);
    const mcpOk =
      options.only || options.hook === "only" || process.env.BENCH_MCP === "off"
        ? true
        : await mcpSection(ctx, core, options.reps ?? 7);
    if (!ok || !mcpOk) process.exitCode = 1;
  } finally {
    cleanup();
  }
}

main().catch((error) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
});
