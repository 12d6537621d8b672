// The demo: a short study story told with the real `palee` CLI (dist/cli.js)
// on a copy of examples/demo-vault. It doubles as a smoke test: every step
// states the exit code it expects (and a line it expects to see), and the
// script exits with 1 when the CLI does anything else.
//
//   npm run demo          (builds first, then runs `node scripts/demo.mjs`)
//
// The story spans three days but runs in a second: for the steps set in the
// past, the CLI process starts with a one-line preload that moves its clock
// (Date.now) back to that moment. Nothing else is faked and no session file
// is edited by hand.
//
// The repository is never written to: the vault is copied into a fresh temp
// folder, which is kept at the end so it can be opened in Obsidian.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI = path.join(REPO, "dist", "cli.js");
const SOURCE_VAULT = path.join(REPO, "examples", "demo-vault");
const DEVICE = "demo-laptop";
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

if (!existsSync(CLI)) {
  console.error(
    `demo: ${path.relative(REPO, CLI)} is missing; run "npm run build" first (or "npm run demo", which builds)`,
  );
  process.exit(1);
}

// <temp>/palee-demo-XXXXXX/vault is the vault; the clock preload sits beside it, outside the vault.
const workDir = mkdtempSync(path.join(tmpdir(), "palee-demo-"));
const vault = path.join(workDir, "vault");
cpSync(SOURCE_VAULT, vault, { recursive: true });
const clockPreload = path.join(workDir, "demo-clock.cjs");
writeFileSync(
  clockPreload,
  [
    "// Loaded with --require by scripts/demo.mjs: starts this process's clock at $PALEE_DEMO_NOW (epoch ms).",
    "const shift = Number(process.env.PALEE_DEMO_NOW) - Date.now();",
    "const realNow = Date.now.bind(Date);",
    "if (Number.isFinite(shift)) Date.now = () => realNow() + shift;",
    "",
  ].join("\n"),
);

// The vault lock's cache folder (src/cli/state-dir.ts) beside the vault, not the real ~/.cache.
const baseEnv = {
  ...process.env,
  PALEE_VAULT: vault,
  PALEE_DEVICE: DEVICE,
  PALEE_CACHE_DIR: path.join(workDir, "cache"),
};
delete baseEnv.PALEE_DEBUG;
delete baseEnv.PALEE_DEMO_NOW;

const realStart = Date.now();
const failures = [];

function say(text) {
  console.log(`\n# ${text}`);
}

/** `days` days before now, at hh:mm local time (the story's sessions happen in the evening). */
function daysAgoAt(days, hours, minutes) {
  const at = new Date(realStart - days * DAY);
  at.setHours(hours, minutes, 0, 0);
  return at.getTime();
}

function when(at) {
  const text = new Date(at).toLocaleString("en-GB", {
    weekday: "long",
    day: "numeric",
    month: "long",
    hour: "2-digit",
    minute: "2-digit",
  });
  console.log(`\n\n======== ${text}${at >= realStart ? " (now)" : ""} ========`);
}

function quote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs `palee session <args>` in the temp vault, at the moment `at` (epoch ms;
 * omitted: the real now), prints it like a terminal would, and records a
 * failure when the exit code or the expected output differs. Returns stdout.
 */
function palee(args, { at, exit = 0, expect } = {}) {
  const shown = ["palee", "session", ...args].map(quote).join(" ");
  console.log(`$ ${shown}`);
  const nodeArgs = at === undefined ? [] : ["--require", clockPreload];
  const env = at === undefined ? baseEnv : { ...baseEnv, PALEE_DEMO_NOW: String(at) };
  const result = spawnSync(process.execPath, [...nodeArgs, CLI, "session", ...args], {
    cwd: vault,
    env,
    input: "", // no answers: a step that would prompt fails instead of waiting
    encoding: "utf8",
  });
  if (result.error) throw result.error;
  if (result.stdout) process.stdout.write(result.stdout);
  if (result.stderr) process.stdout.write(result.stderr.endsWith("\n") ? result.stderr : `${result.stderr}\n`);
  const code = result.status ?? -1;
  const problems = [];
  if (code !== exit) problems.push(`exit ${code}, expected ${exit}`);
  if (expect && !expect.test(result.stdout + result.stderr)) problems.push(`output does not match ${expect}`);
  if (problems.length > 0) {
    failures.push(`${shown}: ${problems.join("; ")}`);
    console.log(`[exit ${code}]  <-- UNEXPECTED: ${problems.join("; ")}`);
  } else {
    console.log(`[exit ${code}${exit === 0 ? "" : ", as expected"}]`);
  }
  return result.stdout;
}

function showFile(relative) {
  console.log(`$ cat ${quote(relative)}`);
  process.stdout.write(readFileSync(path.join(vault, relative), "utf8"));
}

console.log("PALEE Sessions demo: the palee CLI on a copy of examples/demo-vault");
console.log(`$ export PALEE_VAULT=${quote(vault)} PALEE_DEVICE=${DEVICE}`);

// ---- a normal session, three days ago ---------------------------------------------------------

const t1 = daysAgoAt(3, 18, 30);
when(t1);
say("The vault holds three confirmed sessions (Rust ownership, SQL joins). Is a session running?");
palee(["status"], { at: t1, expect: /No open session/ });

say("The learner starts a session on Rust ownership. The working memory says where the last one stopped.");
palee(["start", "--topic", "T-rust-ownership"], { at: t1, expect: /Started a session on T-rust-ownership/ });

say("25 minutes in, a checkpoint: the session's draft is updated in place and the note appended to its body.");
palee(
  ["draft", "--note", "longest() needs a lifetime parameter because its result borrows from one of its two arguments."],
  {
    at: t1 + 25 * MINUTE,
    expect: /Updated DRAFT-S-/,
  },
);

say("Status shows the open session, the time since it started and the last checkpoint.");
palee(["status"], { at: t1 + 40 * MINUTE, expect: /Elapsed: 0:40:/ });

say("Ending writes the confirmed session, with the checkpoint notes merged in, and moves the draft to .trash/.");
const ended = palee(
  [
    "end",
    "--summary",
    "Lifetime annotations do not change how long values live; they tell the compiler how the " +
      "lifetimes of references relate.",
    "--next",
    "Write a struct that holds a &str field and work out which lifetime annotations it needs.",
  ],
  { at: t1 + 42 * MINUTE, expect: /T-rust-ownership, 42 min/ },
);
const newSession = /Saved (S-\d{8}T\d{6}-[0-9a-f]{4})/.exec(ended)?.[1];
if (newSession) showFile(`palee/sessions/${newSession}.md`);

say("Four confirmed sessions now, newest first, and no drafts.");
palee(["list"], { at: t1 + 43 * MINUTE, expect: /Confirmed sessions: 4/ });

say("hot.md, the working memory, is rebuilt from the newest session: what the next session (or a tutor) reads first.");
showFile("palee/hot.md");

// ---- an interrupted session, yesterday --------------------------------------------------------

const t2 = daysAgoAt(1, 20, 15);
when(t2);
say("A session on SQL joins.");
palee(["start", "--topic", "T-sql-joins"], { at: t2, expect: /Started a session on T-sql-joins/ });
palee(["draft", "--note", "Anti-join: LEFT JOIN orders o ... WHERE o.id IS NULL finds the customers without orders."], {
  at: t2 + 45 * MINUTE,
  expect: /Updated DRAFT-S-/,
});
say("Then the battery dies: Obsidian never gets to end the session.");

// ---- recovery, today --------------------------------------------------------------------------

when(realStart);
say(
  "Nothing was lost: the draft is still the open session, last seen yesterday. The same answer as JSON, for scripts:",
);
const status = palee(["status", "--json"], { expect: /"draft_id": "DRAFT-S-/ });
let draftId = "DRAFT-S-unknown";
try {
  draftId = JSON.parse(status).open?.draft_id ?? draftId;
} catch {
  failures.push("palee session status --json: stdout is not one JSON document");
}

say("A new start never replaces the open session silently: exit code 2.");
palee(["start", "--topic", "T-sql-joins"], { exit: 2, expect: /already open/ });

say("Ending it now would count the whole night. Save ends it at its last checkpoint instead: 45 min, interrupted.");
palee(["recover", "--draft", draftId, "--action", "save"], { expect: /45 min \(interrupted\)/ });

say("Five confirmed sessions; yesterday's is marked interrupted.");
palee(["list"], { expect: /Confirmed sessions: 5[\s\S]*interrupted/ });

say("index.md lists every session with its day and duration.");
showFile("palee/index.md");

say("And no session is open any more.");
palee(["status"], { expect: /No open session/ });

// ---- a review, two days from now ---------------------------------------------------------------

const t3 = daysAgoAt(-2, 19, 0);
when(t3);
say(
  "Two days on. What should the learner study next? Each topic has a review schedule built from the sessions " +
    "they actually did: gaps of 1, 3, 7, 14, 30, 60 and 120 days. SQL joins, studied on 8 Nov and again " +
    "the day before yesterday, is due today; Rust ownership comes later.",
);
palee(["next"], { at: t3, expect: /Study next: T-sql-joins — due today \(3-day gap\)/ });

say("The learner studies it, and before re-reading writes down what they remember, then rates it: hard.");
palee(["start", "--topic", "T-sql-joins"], { at: t3, expect: /Started a session on T-sql-joins/ });
const reviewed = palee(
  [
    "end",
    "--summary",
    "Semi-joins with EXISTS; anti-joins both ways.",
    "--recall",
    "An anti-join keeps the rows with no match: LEFT JOIN, then WHERE the right side's key IS NULL. NOT EXISTS too.",
    "--rating",
    "hard",
    "--next",
    "Rewrite the anti-join with NOT EXISTS and compare the plans.",
  ],
  { at: t3 + 30 * MINUTE, expect: /T-sql-joins, 30 min .*recall rated hard/ },
);
const reviewedId = /Saved (S-\d{8}T\d{6}-[0-9a-f]{4})/.exec(reviewed)?.[1];
if (reviewedId) showFile(`palee/sessions/${reviewedId}.md`);

say('"Hard" keeps the same gap (3 days) instead of growing it: the topic comes back sooner. Its review days:');
palee(["next", "--topic", "T-sql-joins"], { at: t3 + 31 * MINUTE, expect: /rated hard \(2\), step 1, gap 3 d/ });

say("A tutor's brief now carries the review line and the newest recall, within its word budget.");
palee(["context", "--topic", "T-sql-joins", "--words", "120"], {
  at: t3 + 32 * MINUTE,
  expect: /Review: next due .*; last rating hard[\s\S]*Last recall/,
});

// ---- goals and the year -----------------------------------------------------------------------

say("A weekly goal, kept in palee/plan.md (a note that syncs), from this week on; Sundays are rest days.");
palee(["goal", "--minutes-per-week", "150", "--rest-days", "sun"], { expect: /overall: \d+ of 150 min/ });
showFile("palee/plan.md");

say("The year: minutes per day, newest week on the right; a missed day looks like any empty day.");
palee(["year"], { expect: /Studied \d+ of the last 30 days/ });

// ---- the end ----------------------------------------------------------------------------------

console.log();
if (failures.length > 0) {
  console.log(`Demo FAILED: ${failures.length} step(s) did not behave as expected:`);
  for (const f of failures) console.log(`  - ${f}`);
} else {
  console.log("Demo finished: every step behaved as expected.");
}
console.log(`The demo vault was kept at ${vault}`);
console.log(`Open it in Obsidian to look around; delete ${workDir} when done.`);
process.exitCode = failures.length > 0 ? 1 : 0;
