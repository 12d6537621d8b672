// The soak: the long versions of two suites that `npm test` runs small.
//   1. the model-based property test (tests/reliability/model.test.ts) with many more and longer runs, and the
//      distribution of the steps it exercised;
//   2. the races between real CLI processes on one vault (tests/cli/races.test.ts, contract §4 "One at a time"),
//      each race repeated RACE_RUNS times in fresh vaults (it runs dist/cli.js: `npm run soak` builds it first);
//   3. the vault lock between real processes (tests/cli/vault-lock.test.ts: paused, killed, on shifted clocks,
//      from two environments), each case LOCK_RUNS times.
//
//   npm run soak                                  20 000 model runs of up to 60 steps, a random seed; 50 races each
//   MODEL_RUNS=50000 MODEL_STEPS=80 npm run soak  more
//   MODEL_SEED=123 npm run soak                   the same model runs again (the seed is in the test's name)
//   RACE_RUNS=200 npm run soak                    more races; RACE_RUNS=0 leaves the races out
//   LOCK_RUNS=30 npm run soak                     more lock cases (default 10); LOCK_RUNS=0 leaves them out
//
// Environment variables already set win over these defaults (no shell syntax, so it works on Windows too).
import { spawnSync } from "node:child_process";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const JEST = path.join(REPO, "node_modules", "jest", "bin", "jest.js");

const defaults = { MODEL_RUNS: "20000", MODEL_STEPS: "60", MODEL_REPORT: "1", RACE_RUNS: "50", LOCK_RUNS: "10" };
const env = { ...defaults, ...process.env };

/** Runs one test file with jest in the node project; returns its exit status. */
function jest(file) {
  const result = spawnSync(process.execPath, [JEST, "--selectProjects", "node", "--verbose", "--", file], {
    cwd: REPO,
    env,
    stdio: "inherit",
  });
  return result.status ?? 1;
}

const started = Date.now();
console.log(
  `soak: ${env.MODEL_RUNS} runs of up to ${env.MODEL_STEPS} steps${env.MODEL_SEED ? `, seed ${env.MODEL_SEED}` : ""}`,
);
let status = jest("tests/reliability/model.test.ts");
if (env.RACE_RUNS !== "0") {
  console.log(`soak: every race ${env.RACE_RUNS} times`);
  status = jest("tests/cli/races.test.ts") || status;
}
if (env.LOCK_RUNS !== "0") {
  console.log(`soak: every lock case ${env.LOCK_RUNS} times`);
  status = jest("tests/cli/vault-lock.test.ts") || status;
}
console.log(`soak: ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(status);
