// Tutor brief benchmark (issue 19 item 3): `session context` (and `latest`, `list --json`, `status` as a baseline)
// wall time on a generated vault of N confirmed sessions over 10 topics, each with a Summary and a Next action.
// Issue 37: `next` (the review queue) too; one session in three carries a recall_rating.
//
//   node esbuild.config.mjs production && node scripts/bench-context.mjs [--size 10000] [--reps 7]
//
// Each command is its own process (`node dist/cli.js session … --vault`), page cache warm after one unmeasured
// run; the median of the repetitions is printed. The vault lives in os.tmpdir() and is removed afterwards.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI = path.join(ROOT, "dist", "cli.js");
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const SIZE = arg("--size", 10000);
const REPS = arg("--reps", 7);

const pad = (n, w = 2) => String(n).padStart(w, "0");
function iso(ms) {
  const d = new Date(ms);
  const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return `${day}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}+00:00`;
}
const compact = (ms) => iso(ms).slice(0, 19).replace(/[-:]/g, "");

function generate(vault) {
  const dir = path.join(vault, "palee", "sessions");
  mkdirSync(dir, { recursive: true });
  const start = Date.UTC(2020, 0, 1, 8);
  for (let i = 0; i < SIZE; i++) {
    const startedMs = start + i * 3 * 3600_000;
    const id = `S-${compact(startedMs)}-${(i % 65536).toString(16).padStart(4, "0")}`;
    const rating = i % 3 === 0 ? `recall_rating: ${(i % 4) + 1}\n` : "";
    const words = Array.from({ length: 40 }, (_, k) => `word${(i * 7 + k) % 997}`).join(" ");
    const text =
      `---\npalee_schema: 1\nsession_id: ${id}\ntopic_id: T-topic-${i % 10}\nstarted_at: "${iso(startedMs)}"\n` +
      `ended_at: "${iso(startedMs + 45 * 60_000)}"\nduration_minutes: 45\nstatus: completed\noutcome: completed\n` +
      `absorbed_drafts: []\n${rating}---\n# Session: ${id}\n\n## Summary\n\nSession ${i}: ${words}\n\n` +
      `## Next action\n\nNext step ${i}\n`;
    writeFileSync(path.join(dir, `${id}.md`), text);
  }
}

function time(vault, args) {
  const env = { ...process.env, PALEE_CACHE_DIR: path.join(path.dirname(vault), "cache") };
  const run = () => {
    const began = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [CLI, "session", ...args, "--vault", vault], { env, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${args.join(" ")}: exit ${r.status}: ${r.stderr}`);
    return Number(process.hrtime.bigint() - began) / 1e6;
  };
  run();
  const times = Array.from({ length: REPS }, run).sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const parent = mkdtempSync(path.join(os.tmpdir(), "palee-bench-context-"));
try {
  const vault = path.join(parent, "vault");
  generate(vault);
  time(vault, ["rebuild"]);
  console.log(`${SIZE} confirmed sessions, 10 topics; median of ${REPS} runs, wall ms\n`);
  for (const args of [
    ["status", "--json"],
    ["context"],
    ["context", "--topic", "T-topic-3", "--words", "5000"],
    ["latest", "--json"],
    ["list", "--json"],
    ["stats", "--json"],
    ["next", "--json"],
    ["next", "--topic", "T-topic-3", "--json"],
  ]) {
    console.log(`${args.join(" ").padEnd(50)} ${time(vault, args).toFixed(0).padStart(6)} ms`);
  }
} finally {
  rmSync(parent, { recursive: true, force: true });
}
