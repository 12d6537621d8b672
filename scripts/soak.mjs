// The soak: the model-based property test (tests/reliability/model.test.ts) with many more and longer
// runs than `npm test` makes, and the distribution of the steps it exercised.
//
//   npm run soak                                  20 000 runs of up to 60 steps, a random seed
//   MODEL_RUNS=50000 MODEL_STEPS=80 npm run soak  more
//   MODEL_SEED=123 npm run soak                   the same runs again (the seed is in the test's name)
//
// Environment variables already set win over these defaults (no shell syntax, so it works on Windows too).
import { spawnSync } from "node:child_process";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const JEST = path.join(REPO, "node_modules", "jest", "bin", "jest.js");

const env = { MODEL_RUNS: "20000", MODEL_STEPS: "60", MODEL_REPORT: "1", ...process.env };
console.log(
  `soak: ${env.MODEL_RUNS} runs of up to ${env.MODEL_STEPS} steps${env.MODEL_SEED ? `, seed ${env.MODEL_SEED}` : ""}`,
);
const started = Date.now();
const result = spawnSync(
  process.execPath,
  [JEST, "--selectProjects", "node", "--verbose", "--", "tests/reliability/model.test.ts"],
  { cwd: REPO, env, stdio: "inherit" },
);
console.log(`soak: ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(result.status ?? 1);
