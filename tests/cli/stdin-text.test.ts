/** `--summary -` / `--next -` read standard input, bounded in size and in silence (issue 35 §4). */
import { spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import { readStdinText } from "../../src/cli/stdin-text";
import { PaleeError } from "../../src/core/errors";
import { CLI, DEVICE, cleanupVaults, expectCleanError, makeVault, palee, testCacheDir } from "./support";

describe("readStdinText", () => {
  it("reads the text up to end of input; blank is no text", async () => {
    const input = new PassThrough();
    const reading = readStdinText(input, "summary", 1_000);
    input.write("- borrowing\n");
    input.end("- lifetimes\n");
    await expect(reading).resolves.toBe("- borrowing\n- lifetimes\n");
    const blank = new PassThrough();
    const none = readStdinText(blank, "summary", 1_000);
    blank.end("  \n");
    await expect(none).resolves.toBeNull();
  });

  it("gives up on an input that stays open and silent, with one clear refusal", async () => {
    const input = new PassThrough();
    const reading = readStdinText(input, "next", 50);
    input.write("partial");
    const error = await reading.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaleeError);
    expect((error as PaleeError).message).toMatch(/^--next -: standard input did not end within 0\.05 s of silence/);
    expect(input.destroyed).toBe(true);
  });
});

describe("palee session end --summary - with a standard input that never closes", () => {
  afterEach(cleanupVaults);

  it("gives up after its silence with one clear refusal (exit 2), and the session stays open", async () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    const env = { ...process.env, PALEE_DEVICE: DEVICE, TZ: "UTC", PALEE_CACHE_DIR: testCacheDir() };
    const child = spawn(process.execPath, [CLI, "session", "end", "--summary", "-", "--vault", vault], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (t: string) => (stdout += t));
    child.stderr.setEncoding("utf8").on("data", (t: string) => (stderr += t));
    child.stdin.write("- a summary the host never finishes\n"); // and never ends standard input
    const kill = setTimeout(() => child.kill("SIGKILL"), 25_000);
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
    clearTimeout(kill);
    expectCleanError({ status, stdout, stderr, json: () => ({}) }, 2);
    expect(stderr).toMatch(/--summary -: standard input did not end within 10 s of silence/);
    expect(palee(vault, ["status", "--json"]).json().open).not.toBeNull();
  });
});
