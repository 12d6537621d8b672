/**
 * Standard input is read before the vault lock is taken (contract §4 "One at a time"): an `end --summary -`
 * or a hook whose writer is slow, or never closes stdin, must not keep every other palee process waiting.
 */
import { spawn } from "node:child_process";
import type { RunResult } from "./support";
import {
  CLI,
  DEVICE,
  confirmedFiles,
  cleanupVaults,
  makeVault,
  palee,
  readRecord,
  section,
  testCacheDir,
} from "./support";

afterEach(cleanupVaults);

/** `palee session <args> --vault` with its stdin left open until `close(text)` writes `text` and ends it. */
const children: { kill: () => void }[] = [];
// A test that fails before it closes the child's stdin must not leave the child waiting forever.
afterEach(() => children.splice(0).forEach((c) => c.kill()));

function waitingForStdin(vault: string, args: string[]): { close: (text: string) => Promise<RunResult> } {
  const env = { ...process.env, PALEE_DEVICE: DEVICE, TZ: "UTC", PALEE_CACHE_DIR: testCacheDir() };
  const child = spawn(process.execPath, [CLI, "session", ...args, "--vault", vault], { env });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (t: string) => (stdout += t));
  child.stderr.setEncoding("utf8").on("data", (t: string) => (stderr += t));
  child.stdin.on("error", () => undefined);
  children.push({ kill: () => child.kill("SIGKILL") });
  const done = new Promise<RunResult>((resolve) =>
    child.on("close", (status) =>
      resolve({ status, stdout, stderr, json: () => JSON.parse(stdout) as Record<string, unknown> }),
    ),
  );
  return {
    close: (text) => {
      child.stdin.end(text);
      return done;
    },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

it("end --summary - waiting for its stdin holds no lock: a checkpoint meanwhile gets through", async () => {
  const vault = makeVault();
  expect(palee(vault, ["start", "--topic", "T-rust"]).status).toBe(0);
  const end = waitingForStdin(vault, ["end", "--summary", "-"]);
  await sleep(1_000); // the end is running and reading its standard input
  const meanwhile = palee(vault, ["draft", "--note", "written while end waits"], {
    env: { PALEE_LOCK_WAIT_MS: "1500" },
  });
  expect({ status: meanwhile.status, stderr: meanwhile.stderr }).toEqual({ status: 0, stderr: "" });
  const ended = await end.close("- what the summary says\n");
  expect(ended.status).toBe(0);
  const body = readRecord(vault, `palee/sessions/${confirmedFiles(vault)[0]}`).body;
  expect(section(body, "Summary")).toBe("- what the summary says");
  expect(section(body, "Notes")).toMatch(/written while end waits/);
});

it("nor does a hook waiting for its event", async () => {
  const vault = makeVault();
  expect(palee(vault, ["start", "--topic", "T-rust"]).status).toBe(0);
  const hook = waitingForStdin(vault, ["hook"]);
  await sleep(1_000);
  const meanwhile = palee(vault, ["draft", "--note", "while the hook waits"], { env: { PALEE_LOCK_WAIT_MS: "500" } });
  expect(meanwhile.status).toBe(0);
  const answered = await hook.close(JSON.stringify({ hook_event_name: "Stop", session_id: "s-1" }));
  expect({ status: answered.status, stderr: answered.stderr }).toEqual({ status: 0, stderr: "" });
});
